// `lisp-duet --agent NAME [--prompt TEXT]` from a script (issue 38): the real program opens its
// window (offscreen), starts the agent, sends the first prompt once the conversation is open,
// and the turn is journaled with the evaluation it led to; SIGTERM ends the app as closing the
// window does, leaving no agent process. NAME as a whole command line (the scripted ACP agent,
// tests/acp/mock-agent.mjs) and as an agent configured in the settings; a NAME that is missing
// says so on stderr; --prompt without --agent is refused. Skipped until `cd tests && npm ci`.

#include "../acp/MockAgent.h"

#include "AgentSettings.h"
#include "history/Journal.h"

#include <QProcess>
#include <QSettings>
#include <QTcpServer>
#include <QtTest>

#include <csignal>

namespace {
quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}
} // namespace

class TestAgentCommandLine : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home; // the app's XDG folders
    QTemporaryDir m_project;

    QProcessEnvironment environment(const MockAgent &mock) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("ACP_MOCK_LOG"), mock.logPath()); // the agent inherits the app's environment
        env.insert(QStringLiteral("LISP_DUET_ENGINE"), QStringLiteral(DUET_BIN_DIR "/lisp-duet-engine"));
        return env;
    }
    QStringList common(const QString &journal) const
    {
        return {QStringLiteral("--port"), QString::number(freePort()), QStringLiteral("--socket"),
                QStringLiteral("agent-cli-%1").arg(QCoreApplication::applicationPid()), QStringLiteral("--journal"), journal,
                QStringLiteral("--project"), m_project.path()};
    }
    static QList<ChatRecord> chat(const QString &journal)
    {
        QList<ChatRecord> records;
        for (const JournalEntry &entry : Journal::read(journal).entries) {
            if (entry.isChat())
                records << entry.chat;
        }
        return records;
    }
    // Runs the app until its journal has a turn's end; then SIGTERM, and its exit.
    void runFirstTurn(const QStringList &arguments, const MockAgent &mock, const QString &journal, int ms = 90000)
    {
        QProcess app;
        app.setProcessEnvironment(environment(mock));
        app.start(QStringLiteral(DUET_BIN_DIR "/lisp-duet"), arguments + common(journal));
        QVERIFY(app.waitForStarted());
        const bool ended = QTest::qWaitFor([&] {
            const QList<ChatRecord> records = chat(journal);
            return (!records.isEmpty() && records.last().kind == ChatRecord::Kind::TurnEnd) || app.state() == QProcess::NotRunning;
        }, ms);
        const qint64 agentPid = mock.events("started").value(0).value("pid").toInteger();
        ::kill(pid_t(app.processId()), SIGTERM);
        QVERIFY(app.waitForFinished(30000));
        QVERIFY2(ended, qPrintable(QString::fromUtf8(app.readAllStandardError())));
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
        QVERIFY(agentPid > 0);
        QTRY_VERIFY2(!QFile::exists(QStringLiteral("/proc/%1/stat").arg(agentPid)) || groupMembers(agentPid).isEmpty(),
                     "no agent process outlives the app");
    }

private Q_SLOTS:
    void initTestCase()
    {
        SKIP_UNLESS_MOCK_RUNS();
        QVERIFY(m_home.isValid() && m_project.isValid());
    }

    void aWholeCommandLineAndAFirstPromptRunAndAreJournaled()
    {
        MockAgent mock;
        const QString journal = m_home.filePath(QStringLiteral("cli.jsonl"));
        runFirstTurn({QStringLiteral("--agent"), mock.command({"--mcp-call"}).commandLine(), QStringLiteral("--prompt"), QStringLiteral("eval (+ 19 23)")},
                     mock, journal);
        QStringList kinds;
        bool evaluated = false;
        for (const JournalEntry &entry : Journal::read(journal).entries) {
            if (entry.isChat())
                kinds << ChatRecord::kindName(entry.chat.kind);
            if (entry.isJob() && entry.job.request.code == QLatin1String("(+ 19 23)")) {
                evaluated = true;
                kinds << QStringLiteral("evaluation");
                QCOMPARE(entry.job.result.values, QStringList{QStringLiteral("42")});
                QCOMPARE(entry.job.request.origin.name, QStringLiteral("mock-agent"));
            }
        }
        QVERIFY(evaluated);
        QCOMPARE(kinds, QStringList({"prompt", "evaluation", "tool-call", "turn-end"}));
        QCOMPARE(chat(journal).first().text, QStringLiteral("eval (+ 19 23)"));
        // It worked in the project given.
        QCOMPARE(mock.events("session-new").value(0).value("cwd").toString(), QFileInfo(m_project.path()).canonicalFilePath());
    }

    void aConfiguredAgentByNameStartsInItsMode()
    {
        MockAgent mock;
        {
            QSettings settings(m_home.filePath(QStringLiteral("config/lisp-duet/lisp-duet.conf")), QSettings::IniFormat);
            QList<ConfiguredAgent> agents = AgentSettings::builtIns();
            const AgentCommand command = mock.command({"--modes"});
            agents.append({{}, QStringLiteral("Mock"), command.program, command.arguments, {}, QStringLiteral("plan")});
            AgentSettings::save(settings, agents);
        }
        const QString journal = m_home.filePath(QStringLiteral("configured.jsonl"));
        runFirstTurn({QStringLiteral("--agent"), QStringLiteral("mock"), QStringLiteral("--prompt"), QStringLiteral("hello")}, mock, journal);
        QCOMPARE(mock.received("session/set_mode").value(0).value("params").toObject().value("modeId").toString(), QStringLiteral("plan"));
        const QList<ChatRecord> records = chat(journal);
        QCOMPARE(records.first().agent, QStringLiteral("Mock"));
        QCOMPARE(records.at(1).text, QStringLiteral("You said: hello"));
    }

    void aMissingAgentIsSaidOnStderr()
    {
        MockAgent mock;
        QProcess app;
        app.setProcessEnvironment(environment(mock));
        app.start(QStringLiteral(DUET_BIN_DIR "/lisp-duet"),
                  QStringList{QStringLiteral("--agent"), QStringLiteral("no-such-agent-program --acp")} + common(m_home.filePath(QStringLiteral("missing.jsonl"))));
        QByteArray errors;
        QVERIFY(QTest::qWaitFor([&] { errors += app.readAllStandardError(); return errors.contains("no-such-agent-program"); }, 30000));
        QVERIFY2(errors.contains("lisp-duet: no-such-agent-program cannot start: no-such-agent-program was not found on PATH."), errors.constData());
        ::kill(pid_t(app.processId()), SIGTERM);
        QVERIFY(app.waitForFinished(30000));
    }

    void aPromptWithoutAnAgentIsRefused()
    {
        QProcess app;
        app.start(QStringLiteral(DUET_BIN_DIR "/lisp-duet"), {QStringLiteral("--prompt"), QStringLiteral("hi")});
        QVERIFY(app.waitForFinished(20000));
        QCOMPARE(app.exitCode(), 2);
        QVERIFY(app.readAllStandardError().contains("--prompt goes with --agent NAME"));
    }
};

QTEST_MAIN(TestAgentCommandLine)
#include "tst_agentcommandline.moc"
