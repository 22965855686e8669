// The app killed by SIGKILL and started again: the real `lisp-duet --headless --stdio` with a
// scratch XDG_DATA_HOME; every evaluation that was answered is in the journal, the next start
// finds that journal as the previous session, and replay-session restores its definitions.

#include "AppServices.h"
#include "history/Journal.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

namespace {
// A client of lisp-duet --headless --stdio: one JSON-RPC message per line.
class StdioApp
{
public:
    StdioApp(const QString &dataHome, const QStringList &extra = {})
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), dataHome);
        m_process.setProcessEnvironment(env);
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
        m_process.start(QStringLiteral(DUET_BIN_DIR "/lisp-duet"), QStringList{QStringLiteral("--headless"), QStringLiteral("--stdio")} + extra);
    }
    ~StdioApp()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

    bool started() { return m_process.waitForStarted(10000); }
    qint64 pid() const { return m_process.processId(); }
    QProcess &process() { return m_process; }

    void send(const QJsonObject &message)
    {
        m_process.write(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n');
    }

    // The response with this id (notifications in between are skipped).
    QJsonObject response(int id, int timeoutMs = 30000)
    {
        QDeadlineTimer deadline(timeoutMs);
        for (;;) {
            while (m_process.canReadLine()) {
                const QJsonObject message = QJsonDocument::fromJson(m_process.readLine()).object();
                if (message.value(QStringLiteral("id")).toInt(-1) == id)
                    return message;
            }
            if (deadline.hasExpired() || !m_process.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime()))))
                return {};
        }
    }

    QJsonObject call(int id, const QString &tool, const QJsonObject &arguments)
    {
        send({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), id}, {QStringLiteral("method"), QStringLiteral("tools/call")},
              {QStringLiteral("params"), QJsonObject{{QStringLiteral("name"), tool}, {QStringLiteral("arguments"), arguments}}}});
        return response(id).value(QStringLiteral("result")).toObject();
    }

    bool initialize()
    {
        send({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), 0}, {QStringLiteral("method"), QStringLiteral("initialize")},
              {QStringLiteral("params"), QJsonObject{{QStringLiteral("protocolVersion"), QStringLiteral("2025-06-18")},
                                                     {QStringLiteral("capabilities"), QJsonObject{}},
                                                     {QStringLiteral("clientInfo"), QJsonObject{{QStringLiteral("name"), QStringLiteral("fault-test")},
                                                                                                {QStringLiteral("version"), QStringLiteral("1")}}}}}});
        const bool ok = response(0).contains(QStringLiteral("result"));
        send({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("method"), QStringLiteral("notifications/initialized")}});
        return ok;
    }

private:
    QProcess m_process;
};

QString text(const QJsonObject &result)
{
    return result.value(QStringLiteral("content")).toArray().first().toObject().value(QStringLiteral("text")).toString();
}

QStringList journals(const QString &dataHome)
{
    QDir dir(dataHome + QStringLiteral("/lisp-duet/lisp-duet/journals"));
    QStringList paths;
    for (const QString &name : dir.entryList({QStringLiteral("*.jsonl")}, QDir::Files, QDir::Name))
        paths << dir.absoluteFilePath(name);
    return paths;
}

// Alive and not a zombie waiting for whoever adopted it to reap it.
bool running(pid_t pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    const qsizetype afterName = line.lastIndexOf(')');
    return afterName >= 0 && line.mid(afterName + 2, 1) != "Z";
}

QList<JournalEntry> jobs(const QString &path)
{
    QList<JournalEntry> list;
    for (const JournalEntry &entry : Journal::read(path).entries) {
        if (entry.isJob())
            list << entry;
    }
    return list;
}
} // namespace

class TestAppKilled : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setApplicationName(QStringLiteral("lisp-duet"));
        QCoreApplication::setOrganizationName(QStringLiteral("lisp-duet"));
    }

    void anAppKilledBySigkillLosesNoAnsweredEvaluation()
    {
        QTemporaryDir home;
        StdioApp app(home.path());
        QVERIFY(app.started());
        QVERIFY(app.initialize());
        const QStringList codes{QStringLiteral("(defun area (r) (* pi r r))"), QStringLiteral("(defvar *radius* 2)"),
                                QStringLiteral("(setf *radius* 3)"), QStringLiteral("(area *radius*)"),
                                QStringLiteral("(format t \"hello~%\")")};
        for (int i = 0; i < codes.size(); ++i) {
            const QJsonObject result = app.call(i + 1, QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), codes.at(i)}});
            QVERIFY2(!result.value(QStringLiteral("isError")).toBool(), qPrintable(text(result)));
        }
        // One more, in flight when the app dies: it may or may not make it.
        app.send({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), 99}, {QStringLiteral("method"), QStringLiteral("tools/call")},
                  {QStringLiteral("params"), QJsonObject{{QStringLiteral("name"), QStringLiteral("evaluate-lisp")},
                                                         {QStringLiteral("arguments"), QJsonObject{{QStringLiteral("code"), QStringLiteral("(sleep 30)")}}}}}});
        QTest::qWait(200);
        QCOMPARE(::kill(pid_t(app.pid()), SIGKILL), 0);
        QVERIFY(app.process().waitForFinished(10000));

        const QStringList files = journals(home.path());
        QCOMPARE(files.size(), 1);
        const QList<JournalEntry> journaled = jobs(files.first());
        QCOMPARE(journaled.size(), codes.size());
        for (int i = 0; i < codes.size(); ++i) {
            QCOMPARE(journaled.at(i).job.request.code, codes.at(i));
            QCOMPARE(journaled.at(i).job.request.origin.name, QStringLiteral("fault-test"));
            QVERIFY(journaled.at(i).job.result.ok());
        }
        QCOMPARE(journaled.last().job.result.stdoutText, QStringLiteral("hello\n"));

        // The next start (in-process, the same data folder) shows that journal as the past.
        qputenv("XDG_DATA_HOME", home.path().toUtf8());
        {
            AppServices services(AppOptions{.journalEnabled = true});
            QCOMPARE(services.pastJournalPath(), files.first());
            int past = 0;
            for (const JournalEntry &entry : services.pastEntries()) {
                QVERIFY(entry.past);
                past += entry.isJob();
            }
            QCOMPARE(past, codes.size());
        }
        qunsetenv("XDG_DATA_HOME");

        // ...and replay-session brings its definitions back in a new app.
        StdioApp again(home.path());
        QVERIFY(again.started());
        QVERIFY(again.initialize());
        const QJsonObject lost = again.call(1, QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(area *radius*)")}});
        QVERIFY(lost.value(QStringLiteral("isError")).toBool());
        const QJsonObject replay = again.call(2, QStringLiteral("replay-session"), {{QStringLiteral("source"), QStringLiteral("previous")}});
        QVERIFY2(!replay.value(QStringLiteral("isError")).toBool(), qPrintable(text(replay)));
        QVERIFY2(text(replay).startsWith(QStringLiteral("Replayed 3 definitions.")), qPrintable(text(replay)));
        const QJsonObject structured = replay.value(QStringLiteral("structuredContent")).toObject();
        QCOMPARE(structured.value(QStringLiteral("replayed")).toInt(), 3);
        QCOMPARE(structured.value(QStringLiteral("failed")).toArray().size(), 0);
        QCOMPARE(structured.value(QStringLiteral("skipped")).toInt(), 2);
        const QJsonObject back = again.call(3, QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(round (area *radius*))")}});
        QVERIFY2(!back.value(QStringLiteral("isError")).toBool(), qPrintable(text(back)));
        QVERIFY2(text(back).contains(QStringLiteral("=> 28")), qPrintable(text(back)));
    }

    // The engine is the app's: in a group of its own (a Ctrl+C in the terminal reaches the app,
    // which stops the engine in order), and gone with the app when the app is killed.
    void theEngineLivesAndDiesWithTheAppNotWithTheTerminal()
    {
        QTemporaryDir home;
        StdioApp app(home.path(), {QStringLiteral("--no-journal")});
        QVERIFY(app.started());
        QVERIFY(app.initialize());
        const QJsonObject answer = app.call(1, QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(ext:getpid)")}});
        QVERIFY2(!answer.value(QStringLiteral("isError")).toBool(), qPrintable(text(answer)));
        const pid_t engine = pid_t(text(answer).section(QStringLiteral("=> "), 1).section(QLatin1Char('\n'), 0, 0).trimmed().toInt());
        QVERIFY2(engine > 0 && engine != pid_t(app.pid()), qPrintable(text(answer)));
        QCOMPARE(::getpgid(engine), engine);
        QVERIFY(::getpgid(engine) != ::getpgid(pid_t(app.pid())));

        app.send({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), 2}, {QStringLiteral("method"), QStringLiteral("tools/call")},
                  {QStringLiteral("params"), QJsonObject{{QStringLiteral("name"), QStringLiteral("evaluate-lisp")},
                                                         {QStringLiteral("arguments"), QJsonObject{{QStringLiteral("code"), QStringLiteral("(sleep 30)")}}}}}});
        QTest::qWait(200);
        QCOMPARE(::kill(pid_t(app.pid()), SIGKILL), 0);
        QVERIFY(app.process().waitForFinished(10000));
        QTRY_VERIFY_WITH_TIMEOUT(!running(engine), 5000);
    }

    void aGivenJournalIsLoadedAsThePastAndAppendedTo()
    {
        QTemporaryDir home;
        const QString path = home.filePath(QStringLiteral("mine.jsonl"));
        for (int run = 1; run <= 2; ++run) {
            StdioApp app(home.path(), {QStringLiteral("--journal"), path});
            QVERIFY(app.started());
            QVERIFY(app.initialize());
            const QJsonObject result = app.call(1, QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(* %1 111)").arg(run)}});
            QVERIFY(!result.value(QStringLiteral("isError")).toBool());
            app.process().closeWriteChannel();
            QVERIFY(app.process().waitForFinished(20000));
        }
        const QList<JournalEntry> journaled = jobs(path);
        QCOMPARE(journaled.size(), 2);
        QCOMPARE(journaled.at(1).job.result.values, QStringList{QStringLiteral("222")});
        QStringList events;
        for (const JournalEntry &entry : Journal::read(path).entries) {
            if (!entry.isJob())
                events << entry.event;
        }
        QCOMPARE(events.count(QStringLiteral("app-started")), 2);
        QCOMPARE(events.count(QStringLiteral("app-closed")), 2);
        QVERIFY(journals(home.path()).isEmpty()); // nothing written to the default folder
    }

    void noJournalKeepsNone()
    {
        QTemporaryDir home;
        StdioApp app(home.path(), {QStringLiteral("--no-journal")});
        QVERIFY(app.started());
        QVERIFY(app.initialize());
        QVERIFY(!app.call(1, QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("1")}}).isEmpty());
        app.process().closeWriteChannel();
        QVERIFY(app.process().waitForFinished(20000));
        QVERIFY(journals(home.path()).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestAppKilled)
#include "tst_appkilled.moc"
