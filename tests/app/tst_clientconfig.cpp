// lisp-duet --client-config CLIENT, run as the real binary against a scratch config folder:
// each output parses, carries the token the app stores and the port it would listen on, and
// points at programs that exist.

#include "ClientConfig.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

namespace {
struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};
} // namespace

class TestClientConfig : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_config;

    Run lispDuet(const QStringList &arguments)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_config.path());
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(DUET_BIN_DIR "/lisp-duet"), arguments);
        Run run;
        if (!process.waitForFinished(20000))
            return run;
        run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        run.out = QString::fromUtf8(process.readAllStandardOutput());
        run.err = QString::fromUtf8(process.readAllStandardError());
        return run;
    }

    QString storedToken() const
    {
        QFile file(m_config.filePath(QStringLiteral("lisp-duet/lisp-duet/token")));
        return file.open(QIODevice::ReadOnly) ? QString::fromLatin1(file.readAll().trimmed()) : QString();
    }

    QString settingsFile() const { return m_config.filePath(QStringLiteral("lisp-duet/lisp-duet.conf")); }

    void setStoredPort(const QVariant &port)
    {
        QSettings settings(settingsFile(), QSettings::IniFormat);
        if (port.isValid())
            settings.setValue(QStringLiteral("http/port"), port);
        else
            settings.remove(QStringLiteral("http/port"));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_config.isValid());
        QVERIFY2(QFileInfo(QStringLiteral(DUET_BIN_DIR "/lisp-duet")).isExecutable(), "lisp-duet is not built");
    }

    void init() { setStoredPort({}); }

    void eachClientGetsTextThatParsesAndPointsAtThisInstallation_data()
    {
        QTest::addColumn<QString>("client");
        for (const QString &client : ClientConfig::clients())
            QTest::newRow(qPrintable(client)) << client;
    }

    void eachClientGetsTextThatParsesAndPointsAtThisInstallation()
    {
        QFETCH(QString, client);
        const Run run = lispDuet({QStringLiteral("--client-config"), client});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains(ClientConfig::title(client)), qPrintable(run.err)); // where it goes, on stderr
        const QString token = storedToken();
        QVERIFY2(token.size() >= 32, "the token was not stored on first use");
        const QFile::Permissions permissions = QFile::permissions(m_config.filePath(QStringLiteral("lisp-duet/lisp-duet/token")));
        QVERIFY2(!(permissions & (QFile::ReadGroup | QFile::WriteGroup | QFile::ReadOther | QFile::WriteOther)),
                 "only the user may read the token");
        const QString url = QStringLiteral("http://127.0.0.1:7878/mcp");
        const QString bearer = QStringLiteral("Bearer ") + token;

        if (client == QStringLiteral("claude-code")) {
            const QStringList lines = run.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            QVERIFY(lines.size() >= 2);
            QCOMPARE(lines.first(), QStringLiteral("claude mcp add --transport http lisp-duet %1 --header \"Authorization: %2\"").arg(url, bearer));
            const QRegularExpression stdio(QStringLiteral("^# claude mcp add --transport stdio lisp-duet -- (\\S+) --launch$"));
            const QRegularExpressionMatch match = stdio.match(lines.last());
            QVERIFY2(match.hasMatch(), qPrintable(lines.last()));
            QVERIFY2(QFileInfo(match.captured(1)).isExecutable(), qPrintable(match.captured(1)));
            QVERIFY(QFileInfo(match.captured(1)).isAbsolute());
            return;
        }

        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(run.out.toUtf8(), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + QLatin1Char('\n') + run.out));
        const QString section = client == QStringLiteral("vscode") ? QStringLiteral("servers") : QStringLiteral("mcpServers");
        QCOMPARE(document.object().keys(), QStringList{section});
        const QJsonObject server = document.object().value(section).toObject().value(QStringLiteral("lisp-duet")).toObject();
        QVERIFY(!server.isEmpty());
        if (client == QStringLiteral("claude-desktop")) {
            const QString command = server.value(QStringLiteral("command")).toString();
            QVERIFY2(QFileInfo(command).isAbsolute() && QFileInfo(command).isExecutable(), qPrintable(command));
            QCOMPARE(QFileInfo(command).fileName(), QStringLiteral("lisp-duet-bridge"));
            QCOMPARE(server.value(QStringLiteral("args")).toArray(), QJsonArray{QStringLiteral("--launch")});
            return;
        }
        QCOMPARE(server.value(QStringLiteral("url")).toString(), url);
        QCOMPARE(server.value(QStringLiteral("headers")).toObject(), QJsonObject({{QStringLiteral("Authorization"), bearer}}));
        if (client == QStringLiteral("vscode"))
            QCOMPARE(server.value(QStringLiteral("type")).toString(), QStringLiteral("http"));
    }

    void theTokenIsTheOnePrintTokenPrints()
    {
        const Run config = lispDuet({QStringLiteral("--client-config"), QStringLiteral("cursor")});
        const Run print = lispDuet({QStringLiteral("--print-token")});
        QCOMPARE(print.exitCode, 0);
        QVERIFY(!print.out.trimmed().isEmpty());
        QVERIFY2(config.out.contains(QStringLiteral("Bearer ") + print.out.trimmed()), qPrintable(config.out));
    }

    void thePortComesFromTheSettingsUnlessTheCommandLineGivesOne()
    {
        setStoredPort(8123);
        Run run = lispDuet({QStringLiteral("--client-config"), QStringLiteral("vscode")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(QStringLiteral("\"http://127.0.0.1:8123/mcp\"")), qPrintable(run.out));
        run = lispDuet({QStringLiteral("--client-config"), QStringLiteral("vscode"), QStringLiteral("--port"), QStringLiteral("9124")});
        QVERIFY2(run.out.contains(QStringLiteral("\"http://127.0.0.1:9124/mcp\"")), qPrintable(run.out));
    }

    void noAuthLeavesTheHeaderOut()
    {
        const Run run = lispDuet({QStringLiteral("--client-config"), QStringLiteral("cursor"), QStringLiteral("--no-auth")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject server = QJsonDocument::fromJson(run.out.toUtf8()).object().value(QStringLiteral("mcpServers"))
                                       .toObject().value(QStringLiteral("lisp-duet")).toObject();
        QCOMPARE(server.value(QStringLiteral("url")).toString(), QStringLiteral("http://127.0.0.1:7878/mcp"));
        QVERIFY(!server.contains(QStringLiteral("headers")));
    }

    void anUnknownClientIsRefusedWithTheValidNames()
    {
        const Run run = lispDuet({QStringLiteral("--client-config"), QStringLiteral("emacs")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(QStringLiteral("'emacs'")), qPrintable(run.err));
        for (const QString &client : ClientConfig::clients())
            QVERIFY2(run.err.contains(client), qPrintable(run.err));
    }

    void aPathWithSpacesIsQuotedForTheShell()
    {
        ClientConfig::Target target;
        target.url = ClientConfig::httpUrl(7878);
        target.bridgePath = QStringLiteral("/opt/Lisp Duet/bin/lisp-duet-bridge");
        target.socketName = QStringLiteral("other");
        const QString text = ClientConfig::text(QStringLiteral("claude-code"), target);
        QVERIFY2(text.contains(QStringLiteral("-- '/opt/Lisp Duet/bin/lisp-duet-bridge' --launch --socket other")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("--header")), "no token, no header");
        const QJsonObject desktop = QJsonDocument::fromJson(ClientConfig::text(QStringLiteral("claude-desktop"), target).toUtf8())
                                        .object().value(QStringLiteral("mcpServers")).toObject().value(QStringLiteral("lisp-duet")).toObject();
        QCOMPARE(desktop.value(QStringLiteral("args")).toArray(),
                 QJsonArray({QStringLiteral("--launch"), QStringLiteral("--socket"), QStringLiteral("other")}));
    }

    void theWelcomeNamesEveryClientAndTheCommand()
    {
        const QString welcome = ClientConfig::welcomeText();
        for (const QString &client : ClientConfig::clients()) {
            QVERIFY2(welcome.contains(QStringLiteral("lisp-duet --client-config ") + client), qPrintable(welcome));
            QVERIFY(welcome.contains(ClientConfig::title(client)));
        }
        QVERIFY(welcome.contains(QStringLiteral("Connect")));
    }
};

QTEST_GUILESS_MAIN(TestClientConfig)
#include "tst_clientconfig.moc"
