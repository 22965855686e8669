// The previous session's journal in the console: greyed, under a dated separator, before
// anything of this session, and only the newest entries of a long journal.

#include "client/EngineClient.h"
#include "history/Journal.h"
#include "session/Session.h"
#include "console/LispConsole.h"
#include "console/TranscriptView.h"

#include <QApplication>
#include <QTextBlock>
#include <QtTest>

namespace {
JournalEntry pastEvaluation(const QString &code, const QString &value, const Origin &origin = Origin::person())
{
    Job e;
    e.request.code = code;
    e.request.package = QStringLiteral("COMMON-LISP-USER");
    e.request.origin = origin;
    e.result.values = {value};
    e.finishedAt = QDateTime(QDate(2026, 11, 21), QTime(18, 30));
    JournalEntry entry = JournalEntry::fromJob(e);
    entry.past = true;
    return entry;
}

// The text of the block holding `needle`, and the colour it was drawn in.
QColor colourOf(QPlainTextEdit *view, const QString &needle)
{
    for (QTextBlock block = view->document()->begin(); block.isValid(); block = block.next()) {
        const int at = block.text().indexOf(needle);
        if (at < 0)
            continue;
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (fragment.position() - block.position() <= at && at < fragment.position() - block.position() + fragment.length())
                return fragment.charFormat().foreground().color();
        }
    }
    return {};
}
} // namespace

class TestPastSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pastEntriesAreGreyedUnderADatedSeparator()
    {
        EngineClient engine; // never started: the console only needs the session's signals
        Session session(&engine);
        LispConsole console(&session);
        console.showPast({pastEvaluation(QStringLiteral("(defun sq (x) (* x x))"), QStringLiteral("SQ")),
                          JournalEntry::makeEvent(QStringLiteral("engine-restarted"), QStringLiteral("The Lisp engine stopped (killed).")),
                          pastEvaluation(QStringLiteral("(sq 4)"), QStringLiteral("16"), Origin::agent(QStringLiteral("claude-code"), QStringLiteral("c#1")))});
        console.transcript()->flushNow();
        const QString text = console.transcript()->toPlainText();
        QVERIFY2(text.startsWith(QStringLiteral("\u2014 previous session, ")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("CL-USER> (defun sq (x) (* x x))")) || text.contains(QStringLiteral("> (defun sq (x) (* x x))")));
        QVERIFY(text.contains(QStringLiteral("claude-code: ")));
        QVERIFY(text.contains(QStringLiteral("=> 16")));
        QVERIFY(text.contains(QStringLiteral("; The Lisp engine stopped (killed).")));
        QVERIFY(text.contains(QStringLiteral("\u2014 end of the previous session \u2014")));
        QVERIFY(text.indexOf(QStringLiteral("(sq 4)")) > text.indexOf(QStringLiteral("(defun sq")));
        // Greyed: drawn in the note colour, not the colour of a live value.
        const QColor grey = colourOf(console.transcript(), QStringLiteral("=> 16"));
        QVERIFY(grey.isValid());
        QVERIFY(qAbs(grey.red() - grey.blue()) < 40 && qAbs(grey.red() - grey.green()) < 40);
    }

    void aLongJournalShowsItsNewestEntries()
    {
        EngineClient engine;
        Session session(&engine);
        LispConsole console(&session);
        QList<JournalEntry> entries;
        for (int i = 0; i < 250; ++i)
            entries << pastEvaluation(QStringLiteral("(list %1)").arg(i), QStringLiteral("(%1)").arg(i));
        console.showPast(entries);
        console.transcript()->flushNow();
        const QString text = console.transcript()->toPlainText();
        QVERIFY(text.contains(QStringLiteral("(50 earlier entries are in the journal, not shown)")));
        QVERIFY(!text.contains(QStringLiteral("(list 49)")));
        QVERIFY(text.contains(QStringLiteral("(list 50)")));
        QVERIFY(text.contains(QStringLiteral("(list 249)")));
    }

    // Issue 42, point 10: a debugger choice replayed as "CL-USER> invoke-restart ABORT" and
    // "; No values"; it reads as it did live.
    void aPastDebuggerChoiceReadsAsAChoice()
    {
        EngineClient engine;
        Session session(&engine);
        LispConsole console(&session);
        JournalEntry choice = pastEvaluation(QString(), QString());
        choice.job.request.kind = EngineJob::Kind::InvokeRestart;
        choice.job.request.restart = QStringLiteral("ABORT");
        choice.job.request.debuggerId = 3;
        choice.job.result.values.clear();
        // As the journal writes it and reads it back.
        JournalEntry read;
        QVERIFY(JournalEntry::fromJson(choice.toJson(), &read));
        console.showPast({pastEvaluation(QStringLiteral("(error \"x\")"), QStringLiteral("X")), read});
        console.transcript()->flushNow();
        const QString text = console.transcript()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("\nYou chose ABORT in debugger 3\n\u2014 end of the previous session")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("invoke-restart")) && !text.contains(QStringLiteral("No values")), qPrintable(text));
    }

    void nothingIsShownWithoutPastEvaluations()
    {
        EngineClient engine;
        Session session(&engine);
        LispConsole console(&session);
        console.showPast({JournalEntry::makeEvent(QStringLiteral("app-started"), QStringLiteral("started"))});
        console.transcript()->flushNow();
        QVERIFY(console.transcript()->toPlainText().isEmpty());
    }
};

QTEST_MAIN(TestPastSession)
#include "tst_pastsession.moc"
