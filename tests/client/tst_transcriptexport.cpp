// Export of a transcript to Markdown and to one self-contained HTML page, and the
// lisp-duet --export-journal command that writes them from a journal file.

#include "history/Journal.h"
#include "history/TranscriptExport.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {
QList<JournalEntry> sample()
{
    Job person;
    person.request.code = QStringLiteral("(defun f (x) (< x 1))");
    person.request.origin = Origin::person();
    person.result.values = {QStringLiteral("F")};
    person.startedAt = QDateTime(QDate(2026, 11, 22), QTime(10, 0, 5));
    person.finishedAt = person.startedAt;
    Job agent;
    agent.request.code = QStringLiteral("(progn (format t \"<b>&amp;</b>~%```\") (/ 1 0))");
    agent.request.origin = Origin::agent(QStringLiteral("claude-code"), QStringLiteral("claude-code#1"));
    agent.request.description = QStringLiteral("check <division>");
    agent.result.status = JobResult::Status::Error;
    agent.result.stdoutText = QStringLiteral("<b>&amp;</b>\n```");
    agent.result.error = {QStringLiteral("DIVISION-BY-ZERO"), QStringLiteral("Division of 1 by 0 <oops>"), QStringLiteral("eval"), {QStringLiteral("0: (/ 1 0)")}};
    agent.startedAt = QDateTime(QDate(2026, 11, 22), QTime(10, 1, 0));
    agent.finishedAt = agent.startedAt;
    JournalEntry restart = JournalEntry::makeEvent(QStringLiteral("engine-restarted"), QStringLiteral("The Lisp engine stopped (killed)."));
    return {JournalEntry::fromJob(person), JournalEntry::fromJob(agent), restart};
}
} // namespace

class TestTranscriptExport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Issue 38: a conversation with a hosted agent, in order with the evaluations, read back
    // from the journal's lines.
    void aHostedAgentsChatRoundTripsAndIsExported()
    {
        const auto at = [](int second) { return QDateTime(QDate(2026, 11, 22), QTime(10, 3, second)); };
        ChatRecord prompt;
        prompt.kind = ChatRecord::Kind::Prompt;
        prompt.agent = QStringLiteral("Claude Code");
        prompt.sessionId = QStringLiteral("s-1");
        prompt.turn = 1;
        prompt.at = at(0);
        prompt.text = QStringLiteral("Why does <area> fail?");
        prompt.context = {QStringLiteral("lisp-duet://definition/area")};
        ChatRecord call = prompt;
        call.kind = ChatRecord::Kind::ToolCall;
        call.at = at(1);
        call.text.clear();
        call.context.clear();
        call.toolCallId = QStringLiteral("toolu_1");
        call.title = QStringLiteral("mcp__lisp-duet__evaluate-lisp");
        call.toolKind = QStringLiteral("other");
        call.status = QStringLiteral("completed");
        call.input = QStringLiteral("(area 2)");
        call.result = QStringLiteral("{\"values\":[\"4\"]}");
        call.decision = QStringLiteral("allowed once");
        ChatRecord answer = prompt;
        answer.kind = ChatRecord::Kind::Answer;
        answer.at = at(2);
        answer.context.clear();
        answer.text = QStringLiteral("It squares **r** & forgets pi.");
        answer.partial = true;
        ChatRecord end = prompt;
        end.kind = ChatRecord::Kind::TurnEnd;
        end.at = at(3);
        end.text.clear();
        end.context.clear();
        end.stopReason = QStringLiteral("end_turn");
        end.inputTokens = 1234;
        end.outputTokens = 56;
        end.cost = 0.0123;
        end.currency = QStringLiteral("USD");
        QList<JournalEntry> entries;
        for (const ChatRecord &record : {prompt, call, answer, end}) {
            JournalEntry read;
            QVERIFY(JournalEntry::fromJson(JournalEntry::fromChat(record).toJson(), &read));
            QVERIFY(read.isChat());
            QCOMPARE(read.chat.toJson(), record.toJson());
            QCOMPARE(read.time(), record.at);
            entries << read;
        }
        QCOMPARE(entries.at(0).chat.context, prompt.context);
        QCOMPARE(entries.at(3).chat.cost, std::optional<double>(0.0123));
        const QString md = TranscriptExport::markdown(entries);
        QVERIFY2(md.contains(QStringLiteral("### 2026-11-22 10:03:00 \u00b7 The person (person) to Claude Code\n\n> Why does <area> fail?\n")), qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("_Context: lisp-duet://definition/area_")));
        QVERIFY(md.contains(QStringLiteral("Claude Code (agent) tool call mcp__lisp-duet__evaluate-lisp \u2014 completed")));
        QVERIFY(md.contains(QStringLiteral("The person: allowed once.")));
        QVERIFY(md.contains(QStringLiteral("```lisp\n(area 2)\n```")));
        QVERIFY(md.contains(QStringLiteral("It squares **r** & forgets pi.\n\n_(cut short")));
        QVERIFY(md.contains(QStringLiteral("*2026-11-22 10:03:03 \u2014 Claude Code's turn ended: end_turn \u00b7 1,234 tokens in, 56 out \u00b7 0.0123 USD*")));
        const QString html = TranscriptExport::html(entries);
        QVERIFY(html.contains(QStringLiteral("Why does &lt;area&gt; fail?")));
        QVERIFY(html.contains(QStringLiteral("It squares **r** &amp; forgets pi.")));
        QVERIFY(html.contains(QStringLiteral("<section class=\"entry person chat\">")));
        QVERIFY(html.contains(QStringLiteral("<pre class=\"values\">{&quot;values&quot;:[&quot;4&quot;]}</pre>")));
        // Unknown chat kinds of a later version are skipped, not misread.
        JournalEntry later;
        QVERIFY(!JournalEntry::fromJson({{"type", "chat"}, {"chat", "hologram"}}, &later));
    }

    void fileChangesAreExportedWithTheirDiff()
    {
        FileChange change;
        change.kind = FileChange::Kind::Edit;
        change.path = QStringLiteral("src/shapes.lisp");
        change.origin = Origin::agent(QStringLiteral("claude-code"), QStringLiteral("claude-code#1"));
        change.description = QStringLiteral("fix <area>");
        change.summary = QStringLiteral("replaced (defun area) at lines 3-4");
        change.diff = UnifiedDiff::between(change.path, QStringLiteral("(defun area (r)\n  (* r r))\n"), QStringLiteral("(defun area (r)\n  (* pi r r))\n"));
        change.at = QDateTime(QDate(2026, 11, 22), QTime(10, 2, 0));
        const QList<JournalEntry> entries{JournalEntry::fromFileChange(change)};
        const QString md = TranscriptExport::render(TranscriptExport::Format::Markdown, entries, QString());
        QVERIFY2(md.contains(QStringLiteral("claude-code (agent) edited src/shapes.lisp")), qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("> fix <area>")));
        QVERIFY(md.contains(QStringLiteral("```diff\n--- a/src/shapes.lisp\n+++ b/src/shapes.lisp\n@@ -1,2 +1,2 @@\n (defun area (r)\n-  (* r r))\n+  (* pi r r))\n```")));
        const QString html = TranscriptExport::render(TranscriptExport::Format::Html, entries, QString());
        QVERIFY(html.contains(QStringLiteral("<span class=\"ddel\">-  (* r r))</span>")));
        QVERIFY(html.contains(QStringLiteral("<span class=\"dadd\">+  (* pi r r))</span>")));
        QVERIFY(html.contains(QStringLiteral("fix &lt;area&gt;")));
    }

    void markdownSaysWhoDidWhatAndFencesCodeSafely()
    {
        const QString md = TranscriptExport::markdown(sample(), QStringLiteral("Demo"));
        QVERIFY(md.startsWith(QStringLiteral("# Demo\n")));
        QVERIFY(md.contains(QStringLiteral("2026-11-22 10:00:05 · The person (person) evaluated")));
        QVERIFY(md.contains(QStringLiteral("2026-11-22 10:01:00 · claude-code (agent) evaluated")));
        QVERIFY(md.contains(QStringLiteral("> check <division>")));
        QVERIFY(md.contains(QStringLiteral("```lisp\n(defun f (x) (< x 1))\n```")));
        // Output holding ``` gets a longer fence, so it cannot end the block early.
        QVERIFY(md.contains(QStringLiteral("````\n<b>&amp;</b>\n```\n````")));
        QVERIFY(md.contains(QStringLiteral("**Error DIVISION-BY-ZERO** (error): Division of 1 by 0 <oops>")));
        QVERIFY(md.contains(QStringLiteral("=> F")));
        QVERIFY(md.contains(QStringLiteral("The Lisp engine stopped (killed).")));
    }

    void htmlIsSelfContainedEscapedAndStylesPeopleApart()
    {
        const QString html = TranscriptExport::html(sample());
        QVERIFY(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
        QVERIFY(html.contains(QStringLiteral("<style>")));
        // Nothing fetched from elsewhere: no scripts, links, images or remote URLs.
        for (const QString &forbidden : {QStringLiteral("<script"), QStringLiteral("<link"), QStringLiteral("<img"),
                                         QStringLiteral("http://"), QStringLiteral("https://"), QStringLiteral("@import"), QStringLiteral("url(")})
            QVERIFY2(!html.contains(forbidden), qPrintable(forbidden));
        QVERIFY(html.contains(QStringLiteral("<pre class=\"code\">(defun f (x) (&lt; x 1))</pre>")));
        QVERIFY(html.contains(QStringLiteral("&lt;b&gt;&amp;amp;&lt;/b&gt;")));
        QVERIFY(!html.contains(QStringLiteral("<b>&amp;</b>")));
        QVERIFY(html.contains(QStringLiteral("check &lt;division&gt;")));
        QVERIFY(html.contains(QStringLiteral("<section class=\"entry person\">")));
        QVERIFY(html.contains(QStringLiteral("<section class=\"entry agent\">")));
        QVERIFY(html.contains(QStringLiteral("<div class=\"error\"><strong>[ERROR] DIVISION-BY-ZERO</strong>")));
        QVERIFY(html.contains(QRegularExpression(QStringLiteral("\\.error \\{[^}]*color: #b00020"))));
        QVERIFY(html.contains(QStringLiteral("class=\"event restart\"")));
        QCOMPARE(html.count(QStringLiteral("<section")), html.count(QStringLiteral("</section>")));
    }

    void formatsAreNamedAsOnTheCommandLine()
    {
        TranscriptExport::Format format;
        QVERIFY(TranscriptExport::parseFormat(QStringLiteral("md"), &format));
        QCOMPARE(format, TranscriptExport::Format::Markdown);
        QVERIFY(TranscriptExport::parseFormat(QStringLiteral("HTML"), &format));
        QCOMPARE(format, TranscriptExport::Format::Html);
        QVERIFY(!TranscriptExport::parseFormat(QStringLiteral("pdf"), &format));
    }

    void theCommandLineExportsAJournalFile()
    {
        const QString app = QStringLiteral(DUET_BIN_DIR "/lisp-duet");
        if (!QFileInfo::exists(app))
            QSKIP("lisp-duet is not built in this tree");
        QTemporaryDir dir;
        const QString journalPath = dir.filePath(QStringLiteral("j.jsonl"));
        {
            Journal journal;
            QVERIFY(journal.open(journalPath));
            for (const JournalEntry &entry : sample())
                journal.append(entry);
        }
        QProcess process;
        process.start(app, {QStringLiteral("--export-journal"), journalPath, QStringLiteral("--format"), QStringLiteral("html"),
                            QStringLiteral("-o"), dir.filePath(QStringLiteral("out.html"))});
        QVERIFY(process.waitForFinished(20000));
        QCOMPARE(process.exitCode(), 0);
        QFile out(dir.filePath(QStringLiteral("out.html")));
        QVERIFY(out.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(out.readAll());
        QVERIFY(html.contains(QStringLiteral("claude-code")));
        QVERIFY(html.contains(QStringLiteral("DIVISION-BY-ZERO")));

        process.start(app, {QStringLiteral("--export-journal"), journalPath});
        QVERIFY(process.waitForFinished(20000));
        QCOMPARE(process.exitCode(), 0);
        QVERIFY(process.readAllStandardOutput().contains("```lisp"));

        process.start(app, {QStringLiteral("--export-journal"), dir.filePath(QStringLiteral("missing.jsonl"))});
        QVERIFY(process.waitForFinished(20000));
        QCOMPARE(process.exitCode(), 1);
        QVERIFY(process.readAllStandardError().contains("missing.jsonl"));

        process.start(app, {QStringLiteral("--export-journal"), journalPath, QStringLiteral("--format"), QStringLiteral("pdf")});
        QVERIFY(process.waitForFinished(20000));
        QCOMPARE(process.exitCode(), 2);
        QVERIFY(process.readAllStandardError().contains("--format must be md or html"));
    }
};

QTEST_GUILESS_MAIN(TestTranscriptExport)
#include "tst_transcriptexport.moc"
