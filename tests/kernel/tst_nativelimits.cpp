// The background compiler's limits and a large session (issue 41, points 8 and 9): a gcc that
// does not end is stopped at the time limit with every process it started, its files are
// removed, the reason says gcc, and definitions made meanwhile become native without waiting
// for it; 10,000 definitions loaded from one file are listed, with their lines.
//
// The slow gcc is a script first on the engine's PATH: for a batch whose C names SLOW-GCC it
// starts a child and waits for ever (writing both pids), otherwise it runs the real gcc.

#include "../common/EngineHarness.h"
#include "../common/TestFiles.h"

#include "client/EngineProtocol.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString stateOf(const QJsonArray &entries, const QString &name)
{
    QString state;
    int serial = -1;
    for (const QJsonValue &v : entries) {
        const QJsonObject entry = v.toObject();
        if (entry.value(QStringLiteral("name")).toString() == name && entry.value(QStringLiteral("serial")).toInt() > serial) {
            serial = entry.value(QStringLiteral("serial")).toInt();
            state = entry.value(QStringLiteral("state")).toString() + QLatin1Char('|') + entry.value(QStringLiteral("reason")).toString();
        }
    }
    return state;
}

} // namespace

class TestNativeLimits : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    static QJsonObject settle(EngineHarness &lisp, int timeoutMs)
    {
        const JobPtr done = lisp.run(EngineProtocol::nativeSettling(timeoutMs), timeoutMs + 30000);
        return done ? done->result.reply : QJsonObject();
    }

private Q_SLOTS:
    void aGccThatDoesNotEndIsStoppedWithItsProcessesAndDoesNotHoldOthersBack()
    {
        QVERIFY(m_dir.isValid());
        const QString bin = m_dir.filePath(QStringLiteral("bin"));
        const QString pids = m_dir.filePath(QStringLiteral("gcc.pids"));
        const QString tmp = m_dir.filePath(QStringLiteral("tmp"));
        QVERIFY(QDir().mkpath(tmp));
        QVERIFY(TestFiles::write(bin + QStringLiteral("/gcc"),
                                 "#!/bin/sh\n"
                                 "for a in \"$@\"; do\n"
                                 "  case \"$a\" in *.c) if grep -q SLOW-GCC \"$a\"; then\n"
                                 "    echo $$ >> \"$FAKE_GCC_PIDS\"; sleep 600 & echo $! >> \"$FAKE_GCC_PIDS\"; wait; exit 1; fi ;;\n"
                                 "  esac\n"
                                 "done\n"
                                 "exec /usr/bin/gcc \"$@\"\n"));
        QVERIFY(QFile::setPermissions(bin + QStringLiteral("/gcc"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", QFile::encodeName(bin) + ':' + path);
        qputenv("TMPDIR", QFile::encodeName(tmp));
        qputenv("FAKE_GCC_PIDS", QFile::encodeName(pids));
        qputenv("LISP_DUET_NATIVE_TIME_LIMIT", "8");
        EngineHarness lisp;
        qputenv("PATH", path);
        qunsetenv("TMPDIR");
        qunsetenv("FAKE_GCC_PIDS");
        qunsetenv("LISP_DUET_NATIVE_TIME_LIMIT");
        QVERIFY(lisp.waitReady());

        QVERIFY(lisp.result(QStringLiteral("(defun slow-gcc (x) (* x 3))")).ok());
        QVERIFY(QTest::qWaitFor([&] { return QFile(pids).size() > 0; }, 30000)); // gcc started
        QVERIFY(lisp.result(QStringLiteral("(defun meanwhile (x) (+ x 1))")).ok());
        // MEANWHILE becomes native while SLOW-GCC's gcc still runs.
        const QJsonObject early = settle(lisp, 6000);
        QVERIFY2(stateOf(early.value(QStringLiteral("definitions")).toArray(), QStringLiteral("MEANWHILE")).startsWith(QLatin1String("native")),
                 qPrintable(QJsonDocument(early).toJson()));
        QVERIFY(stateOf(early.value(QStringLiteral("definitions")).toArray(), QStringLiteral("SLOW-GCC")).startsWith(QLatin1String("compiling")));

        const QJsonObject late = settle(lisp, 60000);
        QVERIFY(late.value(QStringLiteral("settled")).toBool());
        const QString slow = stateOf(late.value(QStringLiteral("definitions")).toArray(), QStringLiteral("SLOW-GCC"));
        QVERIFY2(slow.startsWith(QLatin1String("interpreted|gcc did not finish")), qPrintable(slow));
        QCOMPARE(lisp.result(QStringLiteral("(slow-gcc 2)")).values, QStringList{"6"});
        // gcc and the process it started are gone; so are the batch's files.
        QFile file(pids);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> started = file.readAll().split('\n');
        int checked = 0;
        for (const QByteArray &pid : started) {
            if (pid.trimmed().isEmpty())
                continue;
            ++checked;
            QVERIFY2(QTest::qWaitFor([&] { return !QFile::exists(QStringLiteral("/proc/") + QString::fromLatin1(pid.trimmed())); }, 5000),
                     qPrintable(QStringLiteral("process %1 still runs").arg(QString::fromLatin1(pid))));
        }
        QCOMPARE(checked, 2);
        QStringList left;
        for (const QString &directory : QDir(tmp).entryList({QStringLiteral("lisp-duet-native-*")}, QDir::Dirs))
            left << QDir(tmp + QLatin1Char('/') + directory).entryList(QDir::Files);
        QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char(' '))));
    }

    void tenThousandDefinitionsFromOneFileAreListed()
    {
        QByteArray source;
        for (int i = 0; i < 10000; ++i)
            source += QStringLiteral(";; number %1\n(defun many-%1 (x)\n  \"Adds %1.\"\n  (+ x %1))\n\n").arg(i).toUtf8();
        const QString file = m_dir.filePath(QStringLiteral("many.lisp"));
        QVERIFY(TestFiles::write(file, source));
        EngineHarness lisp;
        QVERIFY(lisp.waitReady());
        QVERIFY(lisp.result(QStringLiteral("(load \"%1\")").arg(file), QString(), 120000).ok());
        const QJsonObject reply = lisp.ask(EngineProtocol::definitions(), 60000);
        QVERIFY2(EngineProtocol::Reply(reply).ok(), qPrintable(QJsonDocument(reply).toJson().left(500)));
        const QJsonArray definitions = reply.value(QStringLiteral("definitions")).toArray();
        QCOMPARE(definitions.size(), 10000);
        for (const QJsonValue &v : definitions) {
            const QJsonObject entry = v.toObject();
            if (entry.value(QStringLiteral("name")).toString() == QLatin1String("MANY-9999")) {
                QCOMPARE(entry.value(QStringLiteral("line")).toInt(), 9999 * 5 + 2);
                QCOMPARE(entry.value(QStringLiteral("file")).toString(), file);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestNativeLimits)
#include "tst_nativelimits.moc"
