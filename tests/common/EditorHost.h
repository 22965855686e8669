#pragma once

// The host's side of the person's editor (issue 31), as phase 2 will build it into Session,
// standing in for it in the kernel's tests: the real engine behind a Session; each
// "editor-request" event queued as a job carrying "editor_request" (origin: the person, in
// the editor; debugger on, as for the person's own work); "editor-restart" chosen through
// Session::invokeRestart, first answer wins; "editor-interrupt" of a running job through
// Session::cancel (a break: it parks), of a held one through editor-drop. The secret lives in
// a folder of the test's own, never in the machine's home.

#include "EngineHarness.h"
#include "SwankClient.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>

struct EditorHost
{
    EngineHarness lisp;
    QTemporaryDir folder;
    QString secretFile = folder.filePath(QStringLiteral(".slime-secret"));
    QString secret = QStringLiteral("lisp-duet-test-secret-4711");
    quint16 port = 0;
    QList<QJsonObject> events;        // every editor event, in order
    bool queueRequests = true;        // false: hold them (a long queue), for the tests of dropping
    QList<QJsonObject> held;          // the editor-request events held
    QHash<qint64, quint64> jobOf;     // editor_request -> the job queued for it
    Origin editor = Origin::agent(QStringLiteral("the person, in Emacs"), QStringLiteral("editor:1"));

    EditorHost()
    {
        QObject::connect(&lisp.engine, &EngineClient::otherEvent, &lisp.session,
                         [this](const QJsonObject &event) { onEvent(event); });
    }

    bool writeSecret(QFile::Permissions permissions = QFile::ReadOwner | QFile::WriteOwner)
    {
        QFile file(secretFile);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return false;
        file.write(secret.toUtf8() + '\n');
        file.close();
        return file.setPermissions(permissions);
    }

    // A job of the session's own queue, as the host will send editor-listen and load-init.
    JobPtr runOp(const EngineJob &engineJob, int ms = 60000)
    {
        JobRequest request = engineJob;
        request.origin = Origin::system(QStringLiteral("Lisp Duet"));
        return lisp.run(request, ms);
    }

    JobPtr listen(quint16 wanted = 0)
    {
        const JobPtr job = runOp(EngineProtocol::editorListen(wanted, secretFile));
        if (job && job->result.ok())
            port = quint16(job->result.reply.value(QStringLiteral("port")).toInt());
        return job;
    }

    bool connect(SwankClient &client) { return client.connectWithSecret(port, secret); }

    // The engine started, the secret written, Swank listening: what each editor suite's
    // init() needs. NoSwank: this engine was built without cl-swank (the suite skips).
    enum class Start { Listening, NoSwank, Failed };
    Start start(QString *problem)
    {
        if (!lisp.waitReady()) {
            *problem = QStringLiteral("the engine did not start");
            return Start::Failed;
        }
        if (!writeSecret()) {
            *problem = QStringLiteral("cannot write the secret file");
            return Start::Failed;
        }
        const JobPtr listening = listen();
        if (listening && listening->result.error.type == QLatin1String("SWANK-UNAVAILABLE"))
            return Start::NoSwank;
        if (!listening || !listening->result.ok()) {
            *problem = listening ? listening->result.error.message : QStringLiteral("editor-listen had no reply");
            return Start::Failed;
        }
        return Start::Listening;
    }

    // The first editor event named `name` (from index *from on) for which `matches` holds.
    QJsonObject waitEvent(const QString &name, const std::function<bool(const QJsonObject &)> &matches = {},
                          int ms = 30000)
    {
        QJsonObject found;
        (void)QTest::qWaitFor([&] {
            for (const QJsonObject &event : std::as_const(events)) {
                if (event.value(QStringLiteral("event")).toString() == name && (!matches || matches(event))) {
                    found = event;
                    return true;
                }
            }
            return false;
        }, ms);
        return found;
    }

    quint64 queue(const QJsonObject &requestEvent)
    {
        const QJsonObject fields = requestEvent.value(QStringLiteral("request")).toObject();
        const std::optional<EngineJob> asked = EngineProtocol::editorJob(fields);
        if (!asked)
            return 0;
        JobRequest request = *asked;
        if (request.kind == EngineJob::Kind::FrameEvaluation) {
            // An evaluation in a frame of the editor's debugger: the Session's debugger of
            // that job, as Session::evaluateInFrame names it.
            const JobPtr parked = lisp.session.job(request.target);
            if (parked && parked->debugger)
                request.debuggerId = parked->debugger->id;
        }
        request.origin = editor;
        request.tool = requestEvent.value(QStringLiteral("kind")).toString();
        request.debug = true;
        const quint64 id = lisp.session.submit(request);
        jobOf.insert(fields.value(QStringLiteral("editor_request")).toInteger(), id);
        return id;
    }

    // The job that served editor request `number`, once it finished.
    JobPtr finishedJobOf(qint64 number, int ms = 30000)
    {
        (void)QTest::qWaitFor([&] { return jobOf.contains(number) && lisp.done.contains(jobOf.value(number)); }, ms);
        return lisp.done.value(jobOf.value(number));
    }

    // The number of the newest editor request whose code contains `text`.
    qint64 requestWith(const QString &text, int ms = 30000)
    {
        const QJsonObject event = waitEvent(QStringLiteral("editor-request"), [&](const QJsonObject &e) {
            return e.value(QStringLiteral("request")).toObject().value(QStringLiteral("code")).toString().contains(text);
        }, ms);
        return event.value(QStringLiteral("editor_request")).toInteger(-1);
    }

    void drop(qint64 number, const QString &reason)
    {
        lisp.session.query(EngineProtocol::editorDrop(number, reason), [](const QJsonObject &) {});
    }

private:
    void onEvent(const QJsonObject &event)
    {
        events.append(event);
        const QString name = event.value(QStringLiteral("event")).toString();
        if (name == QLatin1String("editor-request")) {
            if (queueRequests)
                queue(event);
            else
                held.append(event);
        } else if (name == QLatin1String("editor-restart")) {
            const JobPtr job = lisp.session.job(quint64(event.value(QStringLiteral("target")).toInteger()));
            if (job && job->debugger)
                lisp.session.debugger()->invokeRestart(job->debugger->id, event.value(QStringLiteral("restart")), {}, editor);
        } else if (name == QLatin1String("editor-interrupt")) {
            const qint64 number = event.value(QStringLiteral("editor_request")).toInteger();
            if (event.value(QStringLiteral("state")).toString() == QLatin1String("parked"))
                return; // its debugger is open already, in the editor too
            if (jobOf.contains(number))
                lisp.session.cancel(jobOf.value(number), QStringLiteral("interrupted in the editor"), editor);
            else
                drop(number, QStringLiteral("It was interrupted before it ran."));
        }
    }
};

// An editor suite's init(): HOST (a std::unique_ptr<EditorHost>) made, started and listening,
// or the test skipped (no cl-swank at build time) or failed with the reason.
#define DUET_START_EDITOR_HOST(host)                                                             \
    do {                                                                                         \
        (host) = std::make_unique<EditorHost>();                                                 \
        QString problem_;                                                                        \
        const EditorHost::Start started_ = (host)->start(&problem_);                            \
        if (started_ == EditorHost::Start::NoSwank)                                              \
            QSKIP("this engine was built without cl-swank");                                     \
        QVERIFY2(started_ == EditorHost::Start::Listening, qPrintable(problem_));                \
    } while (false)
