// AgentCommand: a configured agent from Settings' fields, a whole command line or a known name;
// its environment, its program found, and the agents installer/agents.sh installs.

#include "acp/AgentCommand.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

class tst_AgentCommand : public QObject
{
    Q_OBJECT

    static void makeExecutable(const QString &path)
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("#!/bin/sh\nexit 0\n");
        file.close();
        QVERIFY(file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    }

private Q_SLOTS:
    void parsesCommandLinesAsAShellSplitsWords_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QStringList>("words");
        QTest::newRow("plain") << "gemini --acp" << QStringList{"gemini", "--acp"};
        QTest::newRow("spaces") << "  codex-acp   -c  model=o3 " << QStringList{"codex-acp", "-c", "model=o3"};
        QTest::newRow("single quotes") << "node '/my agents/index.js' --x" << QStringList{"node", "/my agents/index.js", "--x"};
        QTest::newRow("double quotes") << "agent \"a \\\"b\\\" c\" 'd\"e'" << QStringList{"agent", "a \"b\" c", "d\"e"};
        QTest::newRow("backslash") << "agent a\\ b \\'c" << QStringList{"agent", "a b", "'c"};
        QTest::newRow("empty argument") << "agent '' x" << QStringList{"agent", "", "x"};
    }
    void parsesCommandLinesAsAShellSplitsWords()
    {
        QFETCH(QString, line);
        QFETCH(QStringList, words);
        QString error;
        const AgentCommand command = AgentCommand::parse(line, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(QStringList{command.program} + command.arguments, words);
        QCOMPARE(command.name, words.first().section(QLatin1Char('/'), -1));
        // And back: the line it writes splits into the same words.
        const AgentCommand again = AgentCommand::parse(command.commandLine());
        QCOMPARE(QStringList{again.program} + again.arguments, words);
    }

    void refusesBrokenCommandLines_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("why");
        QTest::newRow("empty") << "   " << "empty";
        QTest::newRow("open single quote") << "agent 'x" << "unclosed '";
        QTest::newRow("open double quote") << "agent \"x" << "unclosed \"";
    }
    void refusesBrokenCommandLines()
    {
        QFETCH(QString, line);
        QFETCH(QString, why);
        QString error;
        QVERIFY(AgentCommand::parse(line, &error).isEmpty());
        QVERIFY2(error.contains(why), qPrintable(error));
    }

    void theEnvironmentAddsTheCommandsAndIsSandboxOnlyAsRoot()
    {
        AgentCommand command = AgentCommand::parse(QStringLiteral("agent"));
        command.environment = {{QStringLiteral("ANTHROPIC_BASE_URL"), QStringLiteral("http://127.0.0.1:1")},
                               {QStringLiteral("KEEP"), QStringLiteral("mine")}};
        QProcessEnvironment base;
        base.insert(QStringLiteral("ANTHROPIC_API_KEY"), QStringLiteral("from-the-person"));
        base.insert(QStringLiteral("KEEP"), QStringLiteral("theirs"));
        base.insert(QStringLiteral("IS_SANDBOX"), QStringLiteral("yes")); // as a container may have it
        const QProcessEnvironment env = command.processEnvironment(base);
        QCOMPARE(env.value(QStringLiteral("ANTHROPIC_API_KEY")), QStringLiteral("from-the-person"));
        QCOMPARE(env.value(QStringLiteral("ANTHROPIC_BASE_URL")), QStringLiteral("http://127.0.0.1:1"));
        QCOMPARE(env.value(QStringLiteral("KEEP")), QStringLiteral("mine"));
        QCOMPARE(env.value(QStringLiteral("IS_SANDBOX")), ::geteuid() == 0 ? QStringLiteral("1") : QStringLiteral("yes"));
        command.environment.append({QStringLiteral("IS_SANDBOX"), QStringLiteral("0")}); // the person's choice wins
        QCOMPARE(command.processEnvironment(base).value(QStringLiteral("IS_SANDBOX")), QStringLiteral("0"));
    }

    void findsItsProgram()
    {
        QTemporaryDir dir;
        makeExecutable(dir.filePath(QStringLiteral("my-agent")));
        AgentCommand onPath = AgentCommand::parse(QStringLiteral("my-agent --acp"));
        onPath.environment = {{QStringLiteral("PATH"), dir.path()}};
        QCOMPARE(onPath.resolvedProgram(), dir.filePath(QStringLiteral("my-agent")));
        QVERIFY(AgentCommand::parse(QStringLiteral("no-such-agent-anywhere")).resolvedProgram().isEmpty());
        QCOMPARE(AgentCommand::parse(dir.filePath(QStringLiteral("my-agent"))).resolvedProgram(), dir.filePath(QStringLiteral("my-agent")));
        QFile plain(dir.filePath(QStringLiteral("not-executable")));
        QVERIFY(plain.open(QIODevice::WriteOnly));
        plain.close();
        QVERIFY(AgentCommand::parse(dir.filePath(QStringLiteral("not-executable"))).resolvedProgram().isEmpty());
    }

    void aTerminalLoginIsTheAgentWithTheMethodsArguments()
    {
        const AgentCommand agent = AgentCommand::parse(QStringLiteral("node /x/claude-agent-acp/dist/index.js"));
        Acp::AuthMethod method;
        method.id = QStringLiteral("console-login");
        method.type = QStringLiteral("terminal");
        method.args = QStringList{QStringLiteral("--cli"), QStringLiteral("auth"), QStringLiteral("login"), QStringLiteral("--console")};
        method.env = {{QStringLiteral("MOCK_LOGIN"), QStringLiteral("1")}};
        const AgentCommand login = agent.forLogin(method);
        QCOMPARE(login.program, QStringLiteral("node"));
        QCOMPARE(login.arguments, (QStringList{"/x/claude-agent-acp/dist/index.js", "--cli", "auth", "login", "--console"}));
        QCOMPARE(login.environment.size(), 1);
    }

    void knowsTheAgentsTheInstallerInstalls()
    {
        QTemporaryDir root;
        QTemporaryDir emptyPath;
        qputenv("LISP_DUET_AGENTS_DIR", root.path().toUtf8());
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", emptyPath.path().toUtf8());
        QCOMPARE(AgentCommand::installedAgentsBin(), root.path() + QStringLiteral("/bin"));
        QVERIFY(QDir().mkpath(root.filePath(QStringLiteral("bin"))));
        makeExecutable(root.filePath(QStringLiteral("bin/claude-agent-acp")));
        const QList<KnownAgent> known = AgentCommand::knownAgents();
        qputenv("PATH", path);
        qunsetenv("LISP_DUET_AGENTS_DIR");
        QCOMPARE(known.size(), 3);
        QCOMPARE(known.at(0).key, QStringLiteral("claude"));
        QVERIFY(known.at(0).found);
        QCOMPARE(known.at(0).command.program, root.filePath(QStringLiteral("bin/claude-agent-acp")));
        QCOMPARE(known.at(1).key, QStringLiteral("gemini"));
        QVERIFY(!known.at(1).found);
        QCOMPARE(known.at(1).command.arguments, QStringList{QStringLiteral("--acp")});
        QVERIFY2(known.at(1).missing.contains(QStringLiteral("installer/agents.sh gemini")), qPrintable(known.at(1).missing));
        QVERIFY(!known.at(2).found);
    }

    void anAgentByNameOrByCommandLine()
    {
        QTemporaryDir root;
        qputenv("LISP_DUET_AGENTS_DIR", root.path().toUtf8());
        QVERIFY(QDir().mkpath(root.filePath(QStringLiteral("bin"))));
        makeExecutable(root.filePath(QStringLiteral("bin/codex-acp")));
        QString error;
        const AgentCommand codex = AgentCommand::fromNameOrCommandLine(QStringLiteral("Codex"), &error);
        QCOMPARE(codex.program, root.filePath(QStringLiteral("bin/codex-acp")));
        const AgentCommand line = AgentCommand::fromNameOrCommandLine(QStringLiteral("gemini --acp --model x"), &error);
        QCOMPARE(line.program, QStringLiteral("gemini"));
        QCOMPARE(line.arguments, (QStringList{"--acp", "--model", "x"}));
        qunsetenv("LISP_DUET_AGENTS_DIR");
    }
};

QTEST_GUILESS_MAIN(tst_AgentCommand)
#include "tst_agentcommand.moc"
