#include "client/LineBuffer.h"

#include <QTest>

// The one line splitter of stdio, the local socket, the engine pipe and the bridge.
class TestLineBuffer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void linesComeOutWholeHoweverTheBytesAreCut()
    {
        const QByteArray stream = "{\"a\":1}\n\n{\"b\":2}\r\nlast";
        for (int cut = 1; cut <= stream.size(); ++cut) {
            LineBuffer buffer(100);
            QList<QByteArray> lines;
            for (qsizetype at = 0; at < stream.size(); at += cut) {
                const LineBuffer::Lines got = buffer.append(stream.mid(at, cut));
                QCOMPARE(got.oversized, 0);
                lines += got.complete;
            }
            QCOMPARE(lines, (QList<QByteArray>{"{\"a\":1}", "", "{\"b\":2}\r"}));
            QCOMPARE(buffer.takeRest(), QByteArray("last"));
        }
    }

    void aLineOfExactlyTheCapIsKept()
    {
        LineBuffer buffer(5);
        const LineBuffer::Lines got = buffer.append(QByteArray("12345\n"));
        QCOMPARE(got.complete, QList<QByteArray>{"12345"});
        QCOMPARE(got.oversized, 0);
    }

    void aTooLongLineInOneChunkIsDroppedAndCountedAndTheNextLineIsRead()
    {
        LineBuffer buffer(5);
        const LineBuffer::Lines got = buffer.append(QByteArray("ok\n123456\nnext\n"));
        QCOMPARE(got.complete, (QList<QByteArray>{"ok", "next"}));
        QCOMPARE(got.oversized, 1);
    }

    void aTooLongLineArrivingInPiecesIsCountedOnceAndNeverHeld()
    {
        LineBuffer buffer(1000);
        QCOMPARE(buffer.append(QByteArray(600, 'x')).oversized, 0);
        QCOMPARE(buffer.append(QByteArray(600, 'x')).oversized, 1); // told while it still arrives
        for (int i = 0; i < 100; ++i) {
            const LineBuffer::Lines got = buffer.append(QByteArray(64 * 1024, 'y'));
            QCOMPARE(got.oversized, 0);
            QVERIFY(got.complete.isEmpty());
        }
        QVERIFY(buffer.takeRest().isEmpty());
        LineBuffer again(1000);
        again.append(QByteArray(1200, 'x'));
        const LineBuffer::Lines got = again.append(QByteArray("tail of it\n{\"after\":true}\n"));
        QCOMPARE(got.complete, QList<QByteArray>{"{\"after\":true}"});
        QCOMPARE(got.oversized, 0);
    }

    void twoTooLongLinesAreTwo()
    {
        LineBuffer buffer(3);
        const LineBuffer::Lines got = buffer.append(QByteArray("abcd\nefgh\nij\nklmnop"));
        QCOMPARE(got.complete, QList<QByteArray>{"ij"});
        QCOMPARE(got.oversized, 3); // the last is still arriving, and already too long
        QCOMPARE(buffer.append(QByteArray("q\nr\n")).complete, QList<QByteArray>{"r"});
    }
};

QTEST_APPLESS_MAIN(TestLineBuffer)
#include "tst_linebuffer.moc"
