// The transcript's batching, scrollback, lanes and collapsed groups, without an engine.

#include "console/TranscriptView.h"

#include <QScrollBar>
#include <QTest>
#include <QTextBlock>

class TestTranscriptView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void textIsQueuedAndShownByTheTimer()
    {
        TranscriptView view;
        view.setFlushIntervalMs(30);
        view.appendText(QStringLiteral("hello\n"), TranscriptView::Style::Stdout, 1);
        QCOMPARE(view.toPlainText(), QString());
        QCOMPARE(view.pendingPieces(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(view.pendingPieces(), 0, 2000);
        QVERIFY(view.toPlainText().startsWith(QStringLiteral("hello")));
        QCOMPARE(view.document()->firstBlock().userState(), 1);
    }

    void theScrollbackKeepsOnlyTheNewestBlocks()
    {
        TranscriptView view;
        view.setScrollback(500);
        QString text;
        for (int i = 0; i < 5000; ++i)
            text += QStringLiteral("line %1\n").arg(i);
        view.appendText(text, TranscriptView::Style::Stdout);
        view.flushNow();
        QVERIFY(view.document()->blockCount() <= 500);
        QVERIFY(view.toPlainText().contains(QStringLiteral("line 4999")));
        QVERIFY(!view.toPlainText().contains(QStringLiteral("line 100\n")));
    }

    void aFloodIsInsertedInTimeBoundedBatches()
    {
        TranscriptView view;
        view.resize(600, 400);
        view.show();
        QString text;
        for (int i = 0; i < 20000; ++i)
            text += QStringLiteral("%1 the quick brown fox jumps over the lazy dog\n").arg(i, 6);
        view.appendText(text, TranscriptView::Style::Stdout);
        // One timer tick inserts a bounded slice, not everything.
        QTest::qWait(view.flushIntervalMs() + 30);
        QVERIFY(view.pendingPieces() > 0);
        QVERIFY(view.document()->blockCount() < 20000);
        QTRY_COMPARE_WITH_TIMEOUT(view.pendingPieces(), 0, 30000);
        QVERIFY(view.toPlainText().contains(QStringLiteral(" 19999 the quick")));
    }

    void queuedOutputBeyondTheScrollbackIsDroppedOldestFirstWithANote()
    {
        TranscriptView view;
        view.setScrollback(1000); // holds about 100,000 characters; at least 256 KiB stay queued
        const QString chunk = QString(1023, u'x') + QLatin1Char('\n');
        for (int i = 0; i < 1024; ++i) // 1 MiB, faster than any timer
            view.appendText(chunk, TranscriptView::Style::Stdout);
        view.appendText(QStringLiteral("the end\n"), TranscriptView::Style::Stdout);
        QVERIFY(view.droppedChars() > 700 * 1024);
        view.flushNow();
        const QString text = view.toPlainText();
        QVERIFY(text.contains(QStringLiteral("characters of output skipped")));
        QVERIFY(text.contains(QStringLiteral("the end")));
    }

    void aCollapsedGroupIsHiddenUntilToggled()
    {
        TranscriptView view;
        view.appendText(QStringLiteral("[ERROR] BOOM\n"), TranscriptView::Style::Error);
        view.appendCollapsed(QStringLiteral("Backtrace (2 frames)"), {QStringLiteral("0: (F)"), QStringLiteral("1: (G)")});
        view.newLine();
        view.appendText(QStringLiteral("after"), TranscriptView::Style::Note);
        view.flushNow();
        QTextBlock link = view.document()->firstBlock();
        while (link.isValid() && !link.text().contains(QStringLiteral("Backtrace")))
            link = link.next();
        QCOMPARE(link.text(), QStringLiteral("[+] Backtrace (2 frames)"));
        QVERIFY(!link.next().isVisible());
        QCOMPARE(link.next().text(), QStringLiteral("    0: (F)"));
        QVERIFY(link.next().next().next().isVisible()); // "after" is not part of the group
        view.toggleGroup(1);
        QVERIFY(link.next().isVisible());
        QVERIFY(view.isGroupExpanded(1));
        QCOMPARE(link.text(), QStringLiteral("[-] Backtrace (2 frames)"));
        view.toggleGroup(1);
        QVERIFY(!link.next().isVisible());
        QCOMPARE(link.text(), QStringLiteral("[+] Backtrace (2 frames)"));
    }

    void codeIsHighlightedAndLinksCarryTheirTarget()
    {
        TranscriptView view;
        view.appendCode(QStringLiteral("(defun f () \"s\") ; c"), 2, QStringLiteral("CL-USER> "));
        view.appendLink(QStringLiteral("Copy to input"), QStringLiteral("copy:7"), 2);
        view.flushNow();
        const QTextBlock block = view.document()->firstBlock();
        QCOMPARE(block.text(), QStringLiteral("CL-USER> (defun f () \"s\") ; cCopy to input "));
        QCOMPARE(block.userState(), 2);
        QSet<QString> colours;
        QString href;
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            colours.insert(it.fragment().charFormat().foreground().color().name());
            if (it.fragment().charFormat().isAnchor())
                href = it.fragment().charFormat().anchorHref();
        }
        QVERIFY2(colours.size() >= 4, "prompt, keyword, string, comment and link are told apart");
        QCOMPARE(href, QStringLiteral("copy:7"));
    }
};

QTEST_MAIN(TestTranscriptView)
#include "tst_transcriptview.moc"
