#pragma once

#include "session/EngineStart.h"
#include "session/Job.h"
#include "swankwire/SwankListener.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QObject>

#include <optional>

class EngineClient;
class Session;

// The person's own editor in the shared session (issue 31; engine/README.md, "The person's
// editor"): Swank inside the engine, for SLIME and the other Swank clients, on 127.0.0.1 only
// and only with the person's ~/.slime-secret. At every engine start (after the init files)
// it asks the engine to listen, on the port it listened on before; it keeps the editors that
// are connected; and it routes what they ask through the session: an evaluation, compilation
// or load is queued as a job of the editor's origin ("the person, in Emacs"), in order with
// the window's and the agents' work, with the debugger on; SLDB's choice of a restart is the
// shared debugger's invokeRestart (the first answer wins); C-c C-c interrupts the editor's
// running job as the window's Interrupt does (it parks as a break) and drops a queued one; a
// disconnected editor's queued jobs are cancelled. An agent's evaluation that parks is told
// to the editors in their echo area: they list it, the window and the agents answer it.
// Made by the composition root (AppServices) and given the Session, in whose engine-start
// list it comes after the init files; it hears each job it queued with whenFinished, and
// listens only after setListening.
class EditorBridge : public QObject, public EngineStartWork
{
    Q_OBJECT
public:
    enum class State {
        Off,       // not asked to listen
        NoSecret,  // asked, but there is no usable secret file: message() says why
        Starting,  // the engine is (re)starting or loading Swank
        Listening, // at address():port()
        Failed     // the engine could not listen: message() says why
    };

    struct Editor
    {
        qint64 number = 0; // the engine's number for the connection
        QString peer;      // "127.0.0.1:53422"
        qint64 pid = 0;
        QString command;   // "emacs", when the process is this user's; else empty
        Origin origin;     // "the person, in Emacs", key "editor:N"
        QDateTime since;
        QString program() const; // "Emacs", "Vim", "Neovim", or "an editor"
    };

    EditorBridge(Session *session, EngineClient *engine, QObject *parent = nullptr);

    // A new engine: editor-listen, when Swank is wanted and the secret is usable.
    QList<EngineStartJob> engineStarted(const EngineProtocol::ReadyEvent &ready) override;

    // Swank on `port` (0: any free one) for as long as it is wanted: the app holds the
    // listening socket (SwankListener) and passes it to each engine, so the port never closes
    // while engines come and go (issue 41); nullopt: off (the socket is closed, an engine that
    // listens stops). Takes effect in the running engine at once.
    void setListening(std::optional<int> port);
    std::optional<int> listening() const { return m_wanted; }
    // The secret the engine checks each client against (default ~/.slime-secret).
    void setSecretFile(const QString &path);
    QString secretFile() const { return m_secretFile; }
    // Asks the running engine to listen now (after the person made the secret).
    void listenNow();

    State state() const { return m_state; }
    QString stateName() const; // "off", "no-secret", "starting", "listening", "failed"
    QString address() const { return QStringLiteral("127.0.0.1"); }
    int port() const { return m_port; }
    QString message() const { return m_message; }
    QList<Editor> editors() const;

    // What the person types in Emacs to connect: "M-x slime-connect RET 127.0.0.1 RET 4005".
    static QString connectLine(int port);
    // The clients that can connect, for the printed line: "SLIME, slimv" (vlime needs its own
    // server in the image, Conjure sends no secret, Sly speaks Slynk: README, "Your editor").
    static QString clientNames();
    // The name of an editor's origin: "the person, in Emacs".
    static QString originName(const QString &program);
    // A short phrase for an editor request's kind ("compile-string": "compiled a form").
    static QString describeKind(const QString &kind);

Q_SIGNALS:
    void stateChanged();
    void editorsChanged();
    // A client without the secret (or one that never sent it) was closed.
    void refused(const QString &peer, const QString &reason);

private:
    bool holdPort();
    JobRequest listenJob();
    void onListened(const JobPtr &job);
    void setState(State state, const QString &message = {});
    void onEvent(const QJsonObject &event);
    void onRequest(const QJsonObject &event);
    void onRestart(const QJsonObject &event);
    void onInterrupt(const QJsonObject &event);
    void onDisconnected(const QJsonObject &event);
    void onRequestJobFinished(qint64 editorRequest, const JobPtr &job);
    void dropIfNeverRan(qint64 editorRequest, const JobPtr &job);
    void onAgentParked(const JobPtr &job);
    void forgetEngine();
    Origin originOf(qint64 editor) const;
    void tell(qint64 editor, const QString &text);

    Session *m_session;
    EngineClient *m_engine;
    std::optional<int> m_wanted; // the port asked for; nullopt: off
    int m_port = 0;              // the port held (0: none)
    SwankListener m_listener;    // the Swank port, held while Swank is wanted
    quint64 m_passed = 0;        // descriptors passed to engines, for their tokens
    QString m_secretFile;
    State m_state = State::Off;
    // This engine was asked to listen by this bridge: its editor events are ours to route
    // (another host code that loads Swank itself, as the kernel's tests do, routes its own).
    bool m_engineAsked = false;
    QString m_message;
    QHash<qint64, Editor> m_editors; // by number, connected now
    // Editor request -> the job queued for it, until the job ends: what the editor's interrupt
    // or its disconnection acts on. A request the engine forgot (its editor left, the engine
    // died) is taken out first, so that its job's end tells the editor nothing.
    QHash<qint64, quint64> m_jobOf;
};
