// The host's side of the person's editor (issue 31): the Session's EditorBridge with the real
// engine, and a SwankClient as the editor. Swank listens at every engine start before any
// job, on the port the app holds for as long as Swank is wanted (issue 41: never closed while
// engines come and go, so a squatter never gets it; one another program holds is said plainly
// with the danger); what the editor evaluates is a job of the session
// with the editor's origin, in turn with the others; its error parks in the shared debugger
// and its SLDB's choice is the shared debugger's (first answer wins); its C-c C-c
// interrupts its own job; a queued job cancelled in the window, or of an editor that left,
// never runs and the editor is told; an agent's parked evaluation is told to the editors;
// without a secret nothing listens, and it says how to make one.

#include "../common/EngineHarness.h"
#include "../common/OtherUser.h"
#include "../common/SwankClient.h"

#include "editor/EditorBridge.h"
#include "native/NativeCompilation.h"
#include "editor/SlimeSecret.h"

#include <QFile>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>

class TestEditorBridge : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarnessWithRooms> m_lisp;
    QTemporaryDir m_folder;
    QString m_secretFile;
    QString m_secret;

    EditorBridge *editors() const { return &m_lisp->rooms.editors; }

    // A harness whose bridge is set before its engine is ready: Swank at its start.
    void startListening()
    {
        m_lisp = std::make_unique<EngineHarnessWithRooms>();
        editors()->setSecretFile(m_secretFile);
        editors()->setListening(0);
    }

    bool waitListening()
    {
        const bool listening = QTest::qWaitFor([this] { return editors()->state() == EditorBridge::State::Listening
                                                              || editors()->state() == EditorBridge::State::Failed; }, 60000);
        if (editors()->state() == EditorBridge::State::Failed && editors()->message().contains(QLatin1String("without Swank")))
            return false;
        return listening && editors()->state() == EditorBridge::State::Listening;
    }

    bool connectEditor(SwankClient &client)
    {
        if (!client.connectWithSecret(quint16(editors()->port()), m_secret))
            return false;
        const int id = client.rex(QStringLiteral("(swank:connection-info)"));
        return !client.waitReturn(id).isEmpty() && QTest::qWaitFor([this] { return !editors()->editors().isEmpty(); }, 10000);
    }

    // The newest finished job whose code contains `text`.
    JobPtr finishedWith(const QString &text, int ms = 30000)
    {
        JobPtr found;
        (void)QTest::qWaitFor([&] {
            for (const JobPtr &job : std::as_const(m_lisp->done)) {
                if (job->request.code.contains(text) && (!found || job->id > found->id))
                    found = job;
            }
            return bool(found);
        }, ms);
        return found;
    }

    JobPtr liveWith(const QString &text, int ms = 30000)
    {
        JobPtr found;
        (void)QTest::qWaitFor([&] {
            for (quint64 id = 1; id < 10000 && !found; ++id) {
                const JobPtr job = m_lisp->session.job(id);
                if (job && job->request.code.contains(text))
                    found = job;
            }
            return bool(found);
        }, ms);
        return found;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_folder.isValid());
        m_secretFile = m_folder.filePath(QStringLiteral(".slime-secret"));
    }

    void init()
    {
        QFile::remove(m_secretFile);
        QString error;
        QVERIFY2(SlimeSecret::create(m_secretFile, &error), qPrintable(error));
        QFile file(m_secretFile);
        QVERIFY(file.open(QIODevice::ReadOnly));
        m_secret = QString::fromUtf8(file.readLine()).trimmed();
        startListening();
        if (!waitListening())
            QSKIP("this engine was built without cl-swank");
    }

    void cleanup() { m_lisp.reset(); }

    void theSecretItMakesIsTheOwnersAloneAndRandom()
    {
        QCOMPARE(QFileInfo(m_secretFile).permissions() & ~(QFile::ReadUser | QFile::WriteUser | QFile::ReadOwner | QFile::WriteOwner),
                 QFile::Permissions());
        QCOMPARE(QByteArray::fromBase64(m_secret.toLatin1()).size(), 32);
        QVERIFY(SlimeSecret::problem(m_secretFile).isEmpty());
        const QString other = m_folder.filePath(QStringLiteral("other"));
        QVERIFY(SlimeSecret::create(other, nullptr));
        QVERIFY(QFile(other).open(QIODevice::ReadOnly));
        QFile again(other);
        QVERIFY(again.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(again.readLine()).trimmed() != m_secret);
        QVERIFY(QFile(other).setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther));
        QVERIFY(SlimeSecret::problem(other).contains(QLatin1String("can be read by other users")));
    }

    void swankListensBeforeAnyJobOfTheEngine()
    {
        // A job submitted while the engine started runs after Swank was loaded.
        m_lisp.reset();
        startListening();
        const quint64 early = m_lisp->session.submit(EngineProtocol::evaluation(QStringLiteral("(find-package \"SWANK\")")));
        QVERIFY(waitListening());
        const JobPtr job = m_lisp->waitFor(early);
        QVERIFY(job && job->result.ok());
        QVERIFY2(job->result.values.value(0).contains(QLatin1String("SWANK")), qPrintable(job->result.values.value(0)));
        QVERIFY(editors()->port() > 0);
    }

    void whatSwankBroughtIsNotTheSessionsOwn()
    {
        // ECL's sockets module (SB-BSD-SOCKETS), loaded for Swank, is library code: the
        // Definitions panel and list-definitions show the person's and agents' own only.
        QVERIFY(m_lisp->result(QStringLiteral("(defun mine () t)")).ok());
        QJsonObject reply;
        m_lisp->session.query(EngineProtocol::definitions(), [&](const QJsonObject &r) { reply = r; });
        QVERIFY(QTest::qWaitFor([&] { return !reply.isEmpty(); }, 10000));
        QStringList packages;
        for (const QJsonValue &entry : EngineProtocol::DefinitionsReply(reply).definitions())
            packages << EngineProtocol::DefinitionsReply::Entry(entry).package();
        packages.removeDuplicates();
        QCOMPARE(packages, QStringList{QStringLiteral("COMMON-LISP-USER")});
        // Nor is Swank handed to the native compiler: loading it queued hundreds of its
        // functions, kept gcc busy for seconds and made the window's Interrupt miss.
        QVERIFY(QTest::qWaitFor([&] { return m_lisp->rooms.native.find(QStringLiteral("function"), QStringLiteral("COMMON-LISP-USER"), QStringLiteral("MINE")); }, 10000));
        QCOMPARE(m_lisp->rooms.native.definitionCount(), 1);
    }

    void anEditorsEvaluationIsASessionJobWithItsOrigin()
    {
        SwankClient editor;
        QSignalSpy changed(editors(), &EditorBridge::editorsChanged);
        QVERIFY(connectEditor(editor));
        QVERIFY(changed.size() >= 1);
        QCOMPARE(editors()->editors().size(), 1);
        const EditorBridge::Editor connected = editors()->editors().first();
        QVERIFY(connected.peer.startsWith(QLatin1String("127.0.0.1:")));
        QCOMPARE(connected.origin.kind, Origin::Kind::Editor);

        const int id = editor.rex(QStringLiteral("(swank:interactive-eval \"(defun from-editor (x) (* x 10))\")"));
        QCOMPARE(editor.waitReturn(id), QStringLiteral("(:return (:ok \"=> FROM-EDITOR\") %1)").arg(id));
        const JobPtr job = finishedWith(QStringLiteral("from-editor"));
        QVERIFY(job);
        QCOMPARE(job->request.origin.kind, Origin::Kind::Editor);
        QCOMPARE(job->request.origin.name, connected.origin.name);
        QCOMPARE(job->request.tool, QStringLiteral("interactive-eval"));
        QCOMPARE(job->request.description, QStringLiteral("evaluated from a buffer"));
        QVERIFY(job->request.debug);
        // The session has it: the window's and the agents' next evaluations call it.
        QCOMPARE(m_lisp->result(QStringLiteral("(from-editor 4)")).values, QStringList{QStringLiteral("40")});

        editor.socket.abort();
        QVERIFY(QTest::qWaitFor([this] { return editors()->editors().isEmpty(); }, 10000));
    }

    void twoEditorsAtOnceAreTwoOriginsOfOneSession()
    {
        SwankClient first;
        SwankClient second;
        QVERIFY(connectEditor(first));
        QVERIFY(second.connectWithSecret(quint16(editors()->port()), m_secret));
        QVERIFY(QTest::qWaitFor([this] { return editors()->editors().size() == 2; }, 10000));
        const int a = first.rex(QStringLiteral("(swank:interactive-eval \"(defparameter *from-first* 1)\")"));
        const int b = second.rex(QStringLiteral("(swank:interactive-eval \"(defparameter *from-second* 2)\")"));
        QVERIFY(first.waitReturn(a).contains(QLatin1String("*FROM-FIRST*")));
        QVERIFY(second.waitReturn(b).contains(QLatin1String("*FROM-SECOND*")));
        const JobPtr one = finishedWith(QStringLiteral("*from-first*"));
        const JobPtr two = finishedWith(QStringLiteral("*from-second*"));
        QVERIFY(one && two);
        QVERIFY(one->request.origin.isEditor() && two->request.origin.isEditor());
        QVERIFY(one->request.origin.clientKey != two->request.origin.clientKey);
        QCOMPARE(m_lisp->result(QStringLiteral("(+ *from-first* *from-second*)")).values, QStringList{QStringLiteral("3")});
    }

    void editorJobsWaitTheirTurnAndACancelledOneIsToldToTheEditor()
    {
        SwankClient editor;
        QVERIFY(connectEditor(editor));
        const quint64 busy = m_lisp->session.submit(EngineProtocol::evaluation(QStringLiteral("(sleep 2)")));
        const int id = editor.rex(QStringLiteral("(swank:interactive-eval \"(defparameter *never-ran* t)\")"));
        const JobPtr queued = liveWith(QStringLiteral("*never-ran*"));
        QVERIFY(queued);
        QCOMPARE(queued->state, Job::State::Queued);
        // The window cancels it before its turn: the editor hears why, and nothing ran.
        QVERIFY(m_lisp->session.cancel(queued->id, QStringLiteral("The person cancelled it in the window."), Origin::person()));
        QVERIFY2(editor.waitReturn(id).contains(QLatin1String("Lisp Duet did not run it: The person cancelled it in the window\")")),
                 qPrintable(editor.waitReturn(id)));
        QVERIFY(m_lisp->waitFor(busy)->result.ok());
        QCOMPARE(m_lisp->result(QStringLiteral("(boundp '*never-ran*)")).values, QStringList{QStringLiteral("NIL")});
    }

    void anInterruptInTheEditorDropsItsQueuedJobAndBreaksItsRunningOne()
    {
        SwankClient editor;
        QVERIFY(connectEditor(editor));
        // Queued behind the window's work: dropped.
        const quint64 busy = m_lisp->session.submit(EngineProtocol::evaluation(QStringLiteral("(sleep 2)")));
        const int queuedId = editor.rex(QStringLiteral("(swank:interactive-eval \"(defparameter *interrupted-early* t)\")"));
        const JobPtr queued = liveWith(QStringLiteral("*interrupted-early*"));
        QVERIFY(queued && queued->state == Job::State::Queued);
        editor.send(QStringLiteral("(:emacs-interrupt t)"));
        QVERIFY2(editor.waitReturn(queuedId).contains(QLatin1String("Lisp Duet did not run it")), qPrintable(editor.waitReturn(queuedId)));
        QCOMPARE(m_lisp->waitFor(queued->id)->result.status, JobResult::Status::Cancelled);
        QVERIFY(m_lisp->waitFor(busy)->result.ok());

        // Running: it parks as a break (the debugger is on for the editor), as the window's
        // Interrupt does; SLDB opens on it with CONTINUE, which goes on.
        const int running = editor.rex(QStringLiteral("(swank:interactive-eval \"(progn (loop repeat 80 do (sleep 0.1)) :went-on)\")"));
        const JobPtr loop = liveWith(QStringLiteral(":went-on"));
        QVERIFY(loop);
        QVERIFY(QTest::qWaitFor([&] { return loop->state == Job::State::Running; }, 10000));
        QTest::qWait(500); // the person's C-c C-c, a moment after it started (see below)
        editor.send(QStringLiteral("(:emacs-interrupt t)"));
        QVERIFY(m_lisp->waitParked(loop->id));
        QVERIFY(loop->debugger->isBreak);
        QString thread;
        const QString debug = editor.waitDebug(&thread);
        QVERIFY2(debug.contains(QLatin1String("(\"CONTINUE\" ")), qPrintable(debug));
        editor.rex(QStringLiteral("(swank:invoke-nth-restart-for-emacs 1 0)"), thread);
        QCOMPARE(editor.waitReturn(running), QStringLiteral("(:return (:ok \"=> :WENT-ON\") %1)").arg(running));
        QVERIFY(loop->debugger->choice.by.isEditor());
    }

    void theWindowsInterruptOfAnEditorsJobIsABreakInBothPlaces()
    {
        SwankClient editor;
        QVERIFY(connectEditor(editor));
        const int id = editor.rex(QStringLiteral("(swank:interactive-eval \"(progn (loop repeat 80 do (sleep 0.1)) :resumed)\")"));
        const JobPtr loop = liveWith(QStringLiteral(":resumed"));
        QVERIFY(loop);
        QVERIFY(QTest::qWaitFor([&] { return loop->state == Job::State::Running; }, 10000));
        // As a person does: a moment after it started. (Running means sent; an interrupt that
        // reaches the engine before its worker took the job drops the job, break or not.)
        QTest::qWait(500);
        m_lisp->session.interruptCurrent(); // the window's Interrupt
        QVERIFY(m_lisp->waitParked(loop->id));
        QString thread;
        QVERIFY(editor.waitDebug(&thread).contains(QLatin1String("(\"CONTINUE\" ")));
        // The window continues it; SLDB closes in the editor and its request is answered.
        QVERIFY(m_lisp->session.debugger()->invokeRestart(loop->debugger->id, QStringLiteral("CONTINUE"), {}, Origin::person()));
        QCOMPARE(editor.waitReturn(id), QStringLiteral("(:return (:ok \"=> :RESUMED\") %1)").arg(id));
    }

    void theEditorsErrorIsInTheSharedDebuggerAndTheFirstAnswerWins()
    {
        SwankClient editor;
        QVERIFY(connectEditor(editor));
        const int id = editor.rex(QStringLiteral("(swank:interactive-eval \"(error \\\"from the editor\\\")\")"));
        QString thread;
        QVERIFY(editor.waitDebug(&thread).contains(QLatin1String("from the editor")));
        const QList<DebuggerPtr> open = m_lisp->session.debugger()->openDebuggers();
        QCOMPARE(open.size(), 1);
        const DebuggerPtr debugger = open.first();
        QVERIFY(debugger->owner.isEditor());
        QCOMPARE(debugger->message, QStringLiteral("from the editor"));
        // An agent answers first: SLDB closes in the editor and says who chose.
        const Origin agent = Origin::agent(QStringLiteral("claude-code"), QStringLiteral("claude-code"));
        QVERIFY(m_lisp->session.debugger()->invokeRestart(debugger->id, QStringLiteral("ABORT"), {}, agent));
        QVERIFY(!editor.waitFor([](const QString &m) { return m.startsWith(QLatin1String("(:debug-return ")); }).isEmpty());
        QVERIFY(!editor.waitFor([](const QString &m) { return m.contains(QLatin1String("Lisp Duet: claude-code chose ABORT")); }).isEmpty());
        QVERIFY(editor.waitReturn(id).startsWith(QLatin1String("(:return (:abort ")));
        QCOMPARE(debugger->choice.by.name, QStringLiteral("claude-code"));

        // The editor answers its own: SLDB's q is the shared debugger's ABORT, chosen by it.
        const int second = editor.rex(QStringLiteral("(swank:interactive-eval \"(error \\\"again\\\")\")"));
        QVERIFY(editor.waitDebug(&thread).contains(QLatin1String("again")));
        QVERIFY(QTest::qWaitFor([&] { return m_lisp->session.debugger()->openDebuggers().size() == 1; }, 10000));
        const DebuggerPtr again = m_lisp->session.debugger()->openDebuggers().first();
        editor.rex(QStringLiteral("(swank:sldb-abort)"), thread);
        QVERIFY(editor.waitReturn(second).startsWith(QLatin1String("(:return (:abort ")));
        QVERIFY(QTest::qWaitFor([&] { return !again->isOpen(); }, 10000));
        QVERIFY(again->choice.by.isEditor());
        QCOMPARE(again->choice.restart, QStringLiteral("ABORT"));
    }

    void anAgentsParkedEvaluationIsToldToTheEditors()
    {
        SwankClient editor;
        QVERIFY(connectEditor(editor));
        const quint64 parked = m_lisp->debugEval(QStringLiteral("(error \"agent trouble\")"),
                                                 Origin::agent(QStringLiteral("claude-code"), QStringLiteral("claude-code")));
        QVERIFY(m_lisp->waitParked(parked));
        const QString told = editor.waitFor([](const QString &m) { return m.startsWith(QLatin1String("(:background-message ")); });
        QVERIFY2(told.contains(QLatin1String("claude-code's evaluation waits in debugger")) && told.contains(QLatin1String("agent trouble"))
                     && told.contains(QLatin1String("M-x lisp-duet-debuggers")),
                 qPrintable(told));
        QVERIFY(m_lisp->session.cancel(parked));
    }

    void aDisconnectedEditorsQueuedJobsAreCancelled()
    {
        SwankClient editor;
        QVERIFY(connectEditor(editor));
        const quint64 busy = m_lisp->session.submit(EngineProtocol::evaluation(QStringLiteral("(sleep 2)")));
        editor.rex(QStringLiteral("(swank:interactive-eval \"(defparameter *left-behind* t)\")"));
        const JobPtr queued = liveWith(QStringLiteral("*left-behind*"));
        QVERIFY(queued);
        editor.socket.abort();
        QCOMPARE(m_lisp->waitFor(queued->id)->result.status, JobResult::Status::Cancelled);
        QCOMPARE(queued->result.error.message, QStringLiteral("Its editor disconnected before it ran."));
        QVERIFY(QTest::qWaitFor([this] { return editors()->editors().isEmpty(); }, 10000));
        QVERIFY(m_lisp->waitFor(busy)->result.ok());
        QCOMPARE(m_lisp->result(QStringLiteral("(boundp '*left-behind*)")).values, QStringList{QStringLiteral("NIL")});
    }

    void aNewEngineListensAgainOnTheSamePort()
    {
        const int port = editors()->port();
        SwankClient editor;
        QVERIFY(connectEditor(editor));
        m_lisp->session.reset(Origin::person());
        QVERIFY(QTest::qWaitFor([this] { return editors()->editors().isEmpty(); }, 10000));
        QVERIFY(editor.waitClosed());
        QVERIFY(QTest::qWaitFor([this] { return editors()->state() != EditorBridge::State::Listening; }, 10000));
        QVERIFY(waitListening());
        QCOMPARE(editors()->port(), port);
        SwankClient again;
        QVERIFY(connectEditor(again));
    }

    void thePortIsTheAppsWhileEnginesComeAndGo()
    {
        const int port = editors()->port();
        // A squatter tries to bind the port every millisecond while the engine restarts: a
        // second local user where the machine allows (as root: useradd), else this user.
        QString why;
        const std::optional<OtherUser> other = OtherUser::get(&why);
        if (!other)
            qInfo().noquote() << "the squatter runs as this user:" << why;
        const pid_t squatter = ::fork();
        if (squatter == 0) {
            if (other && (::setgid(other->gid) != 0 || ::setuid(other->uid) != 0))
                ::_exit(3);
            sockaddr_in address{};
            address.sin_family = AF_INET;
            address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            address.sin_port = htons(quint16(port));
            for (int i = 0; i < 30000; ++i) {
                const int s = ::socket(AF_INET, SOCK_STREAM, 0);
                const int one = 1;
                ::setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
                if (::bind(s, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0 && ::listen(s, 1) == 0)
                    ::_exit(1); // the port was there to take
                ::close(s);
                ::usleep(1000);
            }
            ::_exit(0);
        }
        QVERIFY(squatter > 0);
        for (int round = 0; round < 3; ++round) {
            // A reset, as after a crash or a time limit: the editor connects again at once.
            const qint64 old = m_lisp->engine.pid();
            m_lisp->session.reset(Origin::person());
            QVERIFY(QTest::qWaitFor([&] { return m_lisp->engine.pid() != old; }, 30000));
            SwankClient inTheGap; // waits in the port's backlog until the new engine listens
            QVERIFY(inTheGap.connectWithSecret(quint16(port), m_secret));
            QVERIFY(waitListening());
            QCOMPARE(editors()->port(), port);
            const int id = inTheGap.rex(QStringLiteral("(swank:connection-info)"));
            QVERIFY2(!inTheGap.waitReturn(id).isEmpty(), "the editor that connected in the gap is served by the new engine");
        }
        ::kill(squatter, SIGTERM);
        int status = 0;
        QCOMPARE(::waitpid(squatter, &status, 0), squatter);
        QVERIFY2(!(WIFEXITED(status) && WEXITSTATUS(status) == 1), "the squatter bound the Swank port");
        QVERIFY2(!(WIFEXITED(status) && WEXITSTATUS(status) == 3), "the squatter could not become the other user");
    }

    void aPortAnotherProgramHoldsIsSaidPlainly()
    {
        m_lisp.reset();
        QTcpServer squatter;
        QVERIFY(squatter.listen(QHostAddress::LocalHost));
        m_lisp = std::make_unique<EngineHarnessWithRooms>();
        editors()->setSecretFile(m_secretFile);
        editors()->setListening(squatter.serverPort());
        QCOMPARE(editors()->state(), EditorBridge::State::Failed);
        const QString message = editors()->message();
        QVERIFY2(message.startsWith(QStringLiteral("Another program already listens on 127.0.0.1:%1 ").arg(squatter.serverPort()))
                     && message.contains(QLatin1String("do not connect an editor to that port, it would send that program your ~/.slime-secret")),
                 qPrintable(message));
        // Once it is free, listening again takes it.
        squatter.close();
        editors()->listenNow();
        QVERIFY(waitListening());
        SwankClient editor;
        QVERIFY(connectEditor(editor));
    }

    void turnedOffItClosesTheEditorsAndTurnedOnItListensAgain()
    {
        SwankClient editor;
        QVERIFY(connectEditor(editor));
        editors()->setListening(std::nullopt);
        QCOMPARE(editors()->state(), EditorBridge::State::Off);
        QVERIFY(editor.waitClosed());
        QVERIFY(QTest::qWaitFor([this] { return editors()->editors().isEmpty(); }, 10000));
        editors()->setListening(0);
        QVERIFY(waitListening());
        SwankClient again;
        QVERIFY(connectEditor(again));
    }

    void withoutASecretNothingListensUntilThereIsOne()
    {
        m_lisp.reset();
        QVERIFY(QFile::remove(m_secretFile));
        startListening();
        QCOMPARE(editors()->state(), EditorBridge::State::NoSecret);
        QVERIFY2(editors()->message().contains(m_secretFile), qPrintable(editors()->message()));
        QVERIFY(m_lisp->waitReady());
        QVERIFY(m_lisp->result(QStringLiteral("(+ 1 2)")).ok());
        QCOMPARE(m_lisp->result(QStringLiteral("(find-package \"SWANK\")")).values, QStringList{QStringLiteral("NIL")});
        QVERIFY(SlimeSecret::create(m_secretFile, nullptr));
        QFile file(m_secretFile);
        QVERIFY(file.open(QIODevice::ReadOnly));
        m_secret = QString::fromUtf8(file.readLine()).trimmed();
        editors()->listenNow();
        QVERIFY(waitListening());
        SwankClient editor;
        QVERIFY(connectEditor(editor));
        // A client that does not know it is refused, and told to the host.
        QSignalSpy refused(editors(), &EditorBridge::refused);
        SwankClient stranger;
        QVERIFY(stranger.connectWithSecret(quint16(editors()->port()), QStringLiteral("guess")));
        QVERIFY(stranger.waitClosed());
        QVERIFY(refused.wait(10000) || refused.size() == 1);
        QCOMPARE(editors()->editors().size(), 1);
    }
};

QTEST_MAIN(TestEditorBridge)
#include "tst_editorbridge.moc"
