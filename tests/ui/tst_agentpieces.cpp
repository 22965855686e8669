// The Agent panel's widget-free parts (issue 38): how a streamed Markdown answer is cut into
// pieces that never change (MarkdownStream), the slash commands offered (SlashCommands), the
// words of a tool call's row (ToolCallText) and the context's URIs and labels (AgentContext).

#include "agent/AgentContext.h"
#include "agent/MarkdownStream.h"
#include "agent/SlashCommands.h"
#include "agent/ToolCallText.h"

#include <QJsonObject>
#include <QTest>

using Piece = MarkdownStream::Piece;
using Kind = MarkdownStream::Piece::Kind;

namespace {
// Feeds `text` in chunks of `size` characters; every piece settled, in order.
QList<Piece> streamed(const QString &text, int size, MarkdownStream *stream)
{
    QList<Piece> pieces;
    for (qsizetype at = 0; at < text.size(); at += size)
        pieces += stream->append(QStringView(text).mid(at, size));
    return pieces;
}
} // namespace

class tst_AgentPieces : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void piecesDoNotDependOnHowTheTextWasCut_data()
    {
        QTest::addColumn<int>("size");
        for (int size : {1, 2, 3, 7, 64, 10000})
            QTest::newRow(qPrintable(QStringLiteral("chunks of %1").arg(size))) << size;
    }
    void piecesDoNotDependOnHowTheTextWasCut()
    {
        QFETCH(int, size);
        const QString text = QStringLiteral("# Squares\n\nHere is a **function**:\n\n```lisp\n(defun square (x)\n  (* x x))\n```\n\n"
                                            "1. one\n\n2. two\n\nAfter the list.\n\n~~~\nplain\n~~~\nTail being wri");
        MarkdownStream stream;
        const QList<Piece> pieces = streamed(text, size, &stream);
        const QList<Piece> expected{
            {Kind::Markdown, QStringLiteral("# Squares")},
            {Kind::Markdown, QStringLiteral("Here is a **function**:")},
            {Kind::CodeOpen, QStringLiteral("lisp")},
            {Kind::CodeLine, QStringLiteral("(defun square (x)")},
            {Kind::CodeLine, QStringLiteral("  (* x x))")},
            {Kind::CodeClose, {}},
            // A loose list stays one list (its numbers kept) until a line that is not its own.
            {Kind::Markdown, QStringLiteral("1. one\n\n2. two")},
            {Kind::Markdown, QStringLiteral("After the list.")},
            {Kind::CodeOpen, {}},
            {Kind::CodeLine, QStringLiteral("plain")},
            {Kind::CodeClose, {}},
        };
        QCOMPARE(pieces, expected);
        QCOMPARE(stream.tail(), QStringLiteral("Tail being wri"));
        QVERIFY(!stream.tailIsCode());
    }

    void insideAFenceOnlyThePartialLineIsTheTail()
    {
        MarkdownStream stream;
        QCOMPARE(stream.append(u"Intro\n```lisp\n(+ 1"), (QList<Piece>{{Kind::Markdown, QStringLiteral("Intro")}, {Kind::CodeOpen, QStringLiteral("lisp")}}));
        QVERIFY(stream.tailIsCode());
        QCOMPARE(stream.tail(), QStringLiteral("(+ 1"));
        QCOMPARE(stream.append(u" 2)\n"), (QList<Piece>{{Kind::CodeLine, QStringLiteral("(+ 1 2)")}}));
        QCOMPARE(stream.tail(), QString());
        // A fence that closes with a longer run, CRLF line ends.
        QCOMPARE(stream.append(u"````\r\nafter\r\n\r\n"), (QList<Piece>{{Kind::CodeClose, {}}, {Kind::Markdown, QStringLiteral("after")}}));
    }

    void aLongParagraphIsSettledBeforeItEnds()
    {
        MarkdownStream stream;
        QString text;
        for (int i = 0; i < MarkdownStream::MaxTailLines + 5; ++i)
            text += QStringLiteral("line %1\n").arg(i);
        const QList<Piece> pieces = stream.append(text);
        QCOMPARE(pieces.size(), 1);
        QCOMPARE(pieces.first().text.count(u'\n'), MarkdownStream::MaxTailLines - 1);
        QCOMPARE(stream.tail().count(u'\n'), 4);
    }

    void anInlineSpanIsNotAFence()
    {
        MarkdownStream stream;
        QCOMPARE(stream.append(u"```(+ 1 2)``` is inline\n\n"), (QList<Piece>{{Kind::Markdown, QStringLiteral("```(+ 1 2)``` is inline")}}));
    }

    void lispIsRecognisedByItsLanguageOrItsFirstLine()
    {
        QVERIFY(MarkdownStream::isLisp(QStringLiteral("lisp"), QString()));
        QVERIFY(MarkdownStream::isLisp(QStringLiteral("common-lisp"), QString()));
        QVERIFY(MarkdownStream::isLisp(QStringLiteral("elisp"), QString()));
        QVERIFY(!MarkdownStream::isLisp(QStringLiteral("python"), QStringLiteral("(x)")));
        QVERIFY(MarkdownStream::isLisp(QString(), QStringLiteral("  (defun f ())")));
        QVERIFY(MarkdownStream::isLisp(QString(), QStringLiteral("; a comment")));
        QVERIFY(!MarkdownStream::isLisp(QString(), QStringLiteral("npm ci")));
    }

    void slashCommandsMatchByStartThenByContent()
    {
        SlashCommands commands;
        commands.setCommands({{QStringLiteral("review"), QStringLiteral("Reviews the change"), {}},
                              {QStringLiteral("compact"), QStringLiteral("Compacts the conversation"), QStringLiteral("instructions")},
                              {QStringLiteral("context"), QStringLiteral("Shows the context"), {}}});
        QString prefix;
        QVERIFY(SlashCommands::typingCommand(QStringLiteral("/co"), 3, &prefix));
        QCOMPARE(prefix, QStringLiteral("co"));
        QVERIFY(!SlashCommands::typingCommand(QStringLiteral("/compact now"), 11));
        QVERIFY(!SlashCommands::typingCommand(QStringLiteral("no slash"), 3));
        QVERIFY(SlashCommands::typingCommand(QStringLiteral("/"), 1, &prefix) && prefix.isEmpty());
        QStringList names;
        for (const Acp::AvailableCommand &c : commands.matching(QStringLiteral("CO")))
            names << c.name;
        QCOMPARE(names, (QStringList{QStringLiteral("compact"), QStringLiteral("context")}));
        names.clear();
        for (const Acp::AvailableCommand &c : commands.matching(QStringLiteral("e")))
            names << c.name;
        QCOMPARE(names, (QStringList{QStringLiteral("review"), QStringLiteral("context")}));
        QCOMPARE(commands.matching(QString()).size(), 3);
        QCOMPARE(SlashCommands::describe(commands.commands().at(1)), QStringLiteral("/compact \u2014 Compacts the conversation (instructions)"));
        QCOMPARE(SlashCommands::completion(commands.commands().at(1)), QStringLiteral("/compact "));
    }

    void aToolCallOfLispDuetReadsByItsOwnNameAndCode()
    {
        // As Claude Code sends it: the MCP name in the title, the code only in rawInput.
        Acp::ToolCall claude;
        claude.title = QStringLiteral("mcp__lisp-duet__evaluate-lisp");
        claude.kind = QStringLiteral("other");
        claude.rawInput = QJsonObject{{QStringLiteral("code"), QStringLiteral("(+ 1 2)")}};
        ToolCallText::Shown shown = ToolCallText::describe(claude);
        QCOMPARE(shown.name, QStringLiteral("evaluate-lisp"));
        QCOMPARE(shown.server, QStringLiteral("lisp-duet"));
        QCOMPARE(shown.code, QStringLiteral("(+ 1 2)"));
        // A title that repeats the code, and a command's input.
        Acp::ToolCall mock;
        mock.title = QStringLiteral("evaluate-lisp (+ 1 2)");
        mock.rawInput = claude.rawInput;
        QCOMPARE(ToolCallText::describe(mock).name, QStringLiteral("evaluate-lisp"));
        Acp::ToolCall bash;
        bash.title = QStringLiteral("Run the tests");
        bash.kind = QStringLiteral("execute");
        bash.rawInput = QJsonObject{{QStringLiteral("command"), QStringLiteral("make check\nand more")}};
        shown = ToolCallText::describe(bash);
        QCOMPARE(shown.input, QStringLiteral("make check"));
        QVERIFY(shown.code.isEmpty());
        QCOMPARE(ToolCallText::kindLabel(QStringLiteral("execute")), QStringLiteral("run"));
        QCOMPARE(ToolCallText::kindLabel(QStringLiteral("hologram")), QStringLiteral("hologram"));
        QCOMPARE(ToolCallText::statusLabel(QStringLiteral("in_progress")), QStringLiteral("running"));
    }

    void lispDuetsStructuredResultReadsAsTheTranscriptShowsIt()
    {
        QCOMPARE(ToolCallText::replResultFromJson(QStringLiteral("{\"status\":\"ok\",\"values\":[\"3\"],\"stdout\":\"\",\"stderr\":\"\",\"warnings\":[],"
                                                                 "\"package\":\"COMMON-LISP-USER\",\"output_truncated_chars\":0,\"elapsed_ms\":0.111}")),
                 QStringLiteral("=> 3"));
        QCOMPARE(ToolCallText::replResultFromJson(QStringLiteral("{\"status\":\"ok\",\"values\":[\"1\",\"2\"],\"stdout\":\"hi\\n\"}")),
                 QStringLiteral("hi\n=> 1\n=> 2"));
        QCOMPARE(ToolCallText::replResultFromJson(QStringLiteral("{\"status\":\"ok\",\"values\":[]}")), QStringLiteral("; No values"));
        QCOMPARE(ToolCallText::replResultFromJson(QStringLiteral("{\"status\":\"error\",\"values\":[],\"error\":{\"type\":\"DIVISION-BY-ZERO\","
                                                                 "\"message\":\"Division by zero.\"}}")),
                 QStringLiteral("[ERROR] DIVISION-BY-ZERO: Division by zero."));
        QVERIFY(ToolCallText::replResultFromJson(QStringLiteral("Tool: mcp__lisp-duet__evaluate-lisp")).isEmpty());
        QVERIFY(ToolCallText::replResultFromJson(QStringLiteral("{\"matches\":[]}")).isEmpty());
    }

    void contextUrisReadAsWhatTheyAre()
    {
        QCOMPARE(AgentContext::describeUri(QStringLiteral("lisp-duet://transcript/12")), QStringLiteral("REPL entry #12"));
        QCOMPARE(AgentContext::describeUri(QStringLiteral("lisp-duet://transcript/12#selection")), QStringLiteral("a selection of the transcript"));
        QCOMPARE(AgentContext::describeUri(QStringLiteral("lisp-duet://definition/CL-USER::%2ASCALE%2A")), QStringLiteral("definition CL-USER::*SCALE*"));
        QCOMPARE(AgentContext::describeUri(QStringLiteral("lisp-duet://debugger/3")), QStringLiteral("debugger 3"));
        QCOMPARE(AgentContext::describeUri(QStringLiteral("file:///tmp/a.lisp")), QStringLiteral("file:///tmp/a.lisp"));
        const AgentContext::Context selection = AgentContext::forSelection(QStringLiteral("(car nil)\n=> NIL"));
        QCOMPARE(selection.resource.uri, QStringLiteral("lisp-duet://transcript/selection"));
        QCOMPARE(selection.label, QStringLiteral("selection: (car nil)"));
        // Beyond the cap, cut with a line that says so.
        const AgentContext::Context big = AgentContext::forSelection(QString(AgentContext::MaxChars + 10, u'x'));
        QVERIFY(big.resource.text.endsWith(QStringLiteral("10 more characters cut by Lisp Duet")));
        QVERIFY(big.label.endsWith(QChar(0x2026)));
    }
};

QTEST_MAIN(tst_AgentPieces)
#include "tst_agentpieces.moc"
