#include "EditorBridge.h"

#include "SlimeSecret.h"
#include "swankwire/SwankHandshake.h"
#include "session/LocalClock.h"
#include "session/Session.h"
#include "session/TextLines.h"
#include "client/EditorMessages.h"
#include "client/EngineClient.h"
#include "client/EngineProtocol.h"

#include <QFileInfo>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcEditor, "duet.editor")

namespace {
// Swank loads from source in about 0.3 s; on a machine busy compiling, several seconds.
constexpr int ListenTimeLimitMs = 60000;

void ignoreReply(const QJsonObject &) {}
} // namespace

QString EditorBridge::Editor::program() const
{
    const QString name = QFileInfo(command).fileName().toLower();
    if (name.startsWith(QLatin1String("emacs")))
        return QStringLiteral("Emacs");
    if (name.startsWith(QLatin1String("nvim")))
        return QStringLiteral("Neovim");
    if (name.contains(QLatin1String("vim")))
        return QStringLiteral("Vim");
    return {};
}

EditorBridge::EditorBridge(Session *session, EngineClient *engine, QObject *parent)
    : QObject(parent), m_session(session), m_engine(engine), m_secretFile(SlimeSecret::defaultPath())
{
    connect(engine, &EngineClient::otherEvent, this, &EditorBridge::onEvent);
    connect(session, &Session::engineStatus, this, [this](Session::EngineStatus status) {
        if (status == Session::EngineStatus::Restarting || status == Session::EngineStatus::Failed)
            forgetEngine();
    });
    connect(session->debugger(), &SessionDebugger::parked, this, &EditorBridge::onAgentParked);
}

QString EditorBridge::connectLine(int port)
{
    return QStringLiteral("M-x slime-connect RET 127.0.0.1 RET %1").arg(port);
}

QString EditorBridge::clientNames()
{
    return QStringLiteral("SLIME, slimv");
}

QString EditorBridge::originName(const QString &program)
{
    return program.isEmpty() ? QStringLiteral("the person, in their editor") : QStringLiteral("the person, in %1").arg(program);
}

QString EditorBridge::describeKind(const QString &kind)
{
    static const QHash<QString, QString> phrases{
        {QStringLiteral("listener-eval"), QStringLiteral("at the REPL")},
        {QStringLiteral("interactive-eval"), QStringLiteral("evaluated from a buffer")},
        {QStringLiteral("eval-and-grab-output"), QStringLiteral("evaluated from a buffer")},
        {QStringLiteral("pprint-eval"), QStringLiteral("evaluated from a buffer")},
        {QStringLiteral("compile-string"), QStringLiteral("compiled a form")},
        {QStringLiteral("compile-file"), QStringLiteral("compiled a file")},
        {QStringLiteral("load-file"), QStringLiteral("loaded a file")},
        {QStringLiteral("frame-eval"), QStringLiteral("in the debugger")},
        {QStringLiteral("re-evaluate-defvar"), QStringLiteral("evaluated a defvar again")},
        {QStringLiteral("undefine-function"), QStringLiteral("undefined a function")},
        {QStringLiteral("unintern-symbol"), QStringLiteral("uninterned a symbol")},
        {QStringLiteral("swank-delete-package"), QStringLiteral("deleted a package")},
        {QStringLiteral("swank-toggle-trace"), QStringLiteral("toggled a trace")},
        {QStringLiteral("untrace-all"), QStringLiteral("untraced everything")},
        // What the gate (engine/kernel/lisp/editor/gate.lisp) sends as jobs.
        {QStringLiteral("slime-eval"), QStringLiteral("evaluated a form it sent")},
        {QStringLiteral("inspect"), QStringLiteral("inspected a value")},
        {QStringLiteral("inspector-eval"), QStringLiteral("evaluated in the inspector")},
        {QStringLiteral("edit-value"), QStringLiteral("edited a value")},
        {QStringLiteral("disassemble"), QStringLiteral("disassembled a form")},
        {QStringLiteral("toggle-profile-fdefinition"), QStringLiteral("toggled profiling")},
        {QStringLiteral("profile-by-substring"), QStringLiteral("profiled functions")},
        {QStringLiteral("swank-profile-package"), QStringLiteral("profiled a package")},
        {QStringLiteral("dialog-toggle-trace"), QStringLiteral("toggled a trace")},
        {QStringLiteral("dialog-trace"), QStringLiteral("traced a function")},
        {QStringLiteral("dialog-untrace"), QStringLiteral("untraced a function")},
        {QStringLiteral("dialog-untrace-all"), QStringLiteral("untraced everything")},
        {QStringLiteral("operate-on-system-for-emacs"), QStringLiteral("loaded a system")},
        {QStringLiteral("reload-system"), QStringLiteral("reloaded a system")},
    };
    return phrases.value(kind, kind);
}

QString EditorBridge::stateName() const
{
    switch (m_state) {
    case State::Off: return QStringLiteral("off");
    case State::NoSecret: return QStringLiteral("no-secret");
    case State::Starting: return QStringLiteral("starting");
    case State::Listening: return QStringLiteral("listening");
    case State::Failed: return QStringLiteral("failed");
    }
    return {};
}

QList<EditorBridge::Editor> EditorBridge::editors() const
{
    QList<Editor> list = m_editors.values();
    std::sort(list.begin(), list.end(), [](const Editor &a, const Editor &b) { return a.number < b.number; });
    return list;
}

void EditorBridge::setState(State state, const QString &message)
{
    if (state == m_state && message == m_message)
        return;
    m_state = state;
    m_message = message;
    Q_EMIT stateChanged();
}

void EditorBridge::setSecretFile(const QString &path)
{
    m_secretFile = path;
}

void EditorBridge::setListening(std::optional<int> port)
{
    if (port == m_wanted)
        return;
    const bool wasListening = m_state == State::Listening || m_state == State::Starting;
    m_wanted = port;
    m_listener.close();
    m_port = 0;
    if (m_session->isEngineReady() && wasListening) {
        // The engine keeps one server: closed first when the port changes, or when turned off.
        JobRequest close = EngineProtocol::editorClose();
        close.origin = Origin::system(QStringLiteral("Lisp Duet"));
        close.purpose = JobPurpose::Setup;
        close.description = QStringLiteral("Swank for your editor stops");
        m_session->submit(close);
    }
    if (!port) {
        setState(State::Off);
        return;
    }
    listenNow();
}

void EditorBridge::listenNow()
{
    if (!m_wanted)
        return;
    if (!holdPort())
        return;
    if (const QString problem = SlimeSecret::problem(m_secretFile); !problem.isEmpty()) {
        setState(State::NoSecret, problem);
        return;
    }
    setState(State::Starting);
    if (!m_session->isEngineReady())
        return; // the engine's start asks (engineStarted)
    m_engineAsked = true;
    const quint64 id = m_session->submit(listenJob());
    m_session->whenFinished(id, [this](JobPtr job) { onListened(job); });
}

bool EditorBridge::holdPort()
{
    // Held from the moment Swank is wanted, the secret made or not: nobody else can take the
    // port meanwhile, and an editor that connects early waits in its backlog.
    if (m_listener.isOpen())
        return true;
    QString problem;
    if (!m_listener.open(m_wanted.value_or(0), &problem)) {
        setState(State::Failed, problem);
        return false;
    }
    m_port = m_listener.port();
    return true;
}

JobRequest EditorBridge::listenJob()
{
    // The engine listens on the port this bridge holds: a copy of the socket goes to it first,
    // with the token the request names (the engine's descriptor channel).
    const QString token = QStringLiteral("swank-%1").arg(++m_passed);
    if (!m_engine->passDescriptor(m_listener.descriptor(), token.toUtf8()))
        qCWarning(lcEditor) << "the Swank port could not be passed to the engine";
    JobRequest request = EngineProtocol::editorListen(m_port, m_secretFile, token);
    request.origin = Origin::system(QStringLiteral("Lisp Duet"));
    request.purpose = JobPurpose::Setup;
    request.description = QStringLiteral("Swank for your editor");
    request.timeoutMs = ListenTimeLimitMs;
    return request;
}

QList<EngineStartJob> EditorBridge::engineStarted(const EngineProtocol::ReadyEvent &)
{
    if (!m_wanted || !holdPort())
        return {};
    if (const QString problem = SlimeSecret::problem(m_secretFile); !problem.isEmpty()) {
        setState(State::NoSecret, problem);
        return {};
    }
    setState(State::Starting);
    m_engineAsked = true;
    return {{listenJob(), [this](JobPtr job) { onListened(job); }}};
}

void EditorBridge::onListened(const JobPtr &job)
{
    if (!m_wanted || job->request.kind != EngineJob::Kind::EditorListen)
        return;
    const JobResult &result = job->result;
    if (result.ok()) {
        setState(State::Listening);
        return;
    }
    const QString type = result.error.type;
    if (type == QLatin1String("EDITOR-NO-SECRET")) {
        setState(State::NoSecret, result.error.message);
    } else if (result.status == JobResult::Status::EngineRestarted || result.status == JobResult::Status::Cancelled) {
        // The next engine asks again (engineStarted).
    } else {
        setState(State::Failed, result.error.message.isEmpty() ? JobResult::statusName(result.status) : result.error.message);
    }
}

void EditorBridge::forgetEngine()
{
    // The connections died with the engine; so did the requests it held.
    m_engineAsked = false;
    m_jobOf.clear();
    if (!m_editors.isEmpty()) {
        m_editors.clear();
        Q_EMIT editorsChanged();
    }
    if (m_wanted && m_state != State::NoSecret)
        setState(State::Starting);
}

Origin EditorBridge::originOf(qint64 editor) const
{
    const auto found = m_editors.constFind(editor);
    return found != m_editors.constEnd() ? found->origin
                                         : Origin::editor(originName({}), QStringLiteral("editor:%1").arg(editor));
}

void EditorBridge::tell(qint64 editor, const QString &text)
{
    m_session->query(EngineProtocol::editorMessage(text, editor), ignoreReply);
}

void EditorBridge::onEvent(const QJsonObject &event)
{
    if (!m_engineAsked)
        return;
    const QString name = EngineProtocol::eventName(event);
    if (name == QLatin1String("editor-request")) {
        onRequest(event);
    } else if (name == QLatin1String("editor-restart")) {
        onRestart(event);
    } else if (name == QLatin1String("editor-interrupt")) {
        onInterrupt(event);
    } else if (name == QLatin1String("editor-connected")) {
        const EngineProtocol::EditorConnectedEvent connected(event);
        Editor editor{connected.editor(), connected.peer(), connected.pid(), connected.command(), {}, LocalClock::now()};
        editor.origin = Origin::editor(originName(editor.program()), QStringLiteral("editor:%1").arg(editor.number));
        m_editors.insert(editor.number, editor);
        Q_EMIT editorsChanged();
    } else if (name == QLatin1String("editor-disconnected")) {
        onDisconnected(event);
    } else if (name == QLatin1String("editor-refused")) {
        const EngineProtocol::EditorRefusedEvent refusal(event);
        Q_EMIT refused(SwankHandshake::printable(refusal.peer()), SwankHandshake::printable(refusal.reason()));
    }
}

void EditorBridge::onRequest(const QJsonObject &event)
{
    const EngineProtocol::EditorRequestEvent asked(event);
    const std::optional<EngineJob> job = asked.job();
    if (!job) {
        m_session->query(EngineProtocol::editorDrop(asked.editorRequest(), QStringLiteral("Lisp Duet does not run this kind of request.")),
                         ignoreReply);
        return;
    }
    JobRequest request = *job;
    if (request.kind == EngineJob::Kind::FrameEvaluation) {
        // An evaluation in a frame of the editor's SLDB: a step of the shared debugger that
        // job waits in.
        const JobPtr parked = m_session->job(request.target);
        if (parked && parked->debugger)
            request.debuggerId = parked->debugger->id;
    }
    request.origin = originOf(asked.editor());
    request.purpose = JobPurpose::Editor;
    request.tool = asked.kind();
    request.description = describeKind(asked.kind());
    request.debug = true; // the person's own work: an error opens SLDB there and the debugger here
    if (asked.kind() == QLatin1String("compile-file") || asked.kind() == QLatin1String("load-file"))
        request.timeoutMs = EngineProtocol::DefaultTestRunTimeoutMs; // a file compiles natively: it takes a while
    const quint64 id = m_session->submit(request);
    const qint64 number = asked.editorRequest();
    if (!m_session->job(id)) { // it ended at once (its debugger had closed): the editor must hear of it too
        m_session->whenFinished(id, [this, number](JobPtr job) { dropIfNeverRan(number, job); });
        return;
    }
    m_jobOf.insert(number, id);
    m_session->whenFinished(id, [this, number](JobPtr job) { onRequestJobFinished(number, job); });
}

void EditorBridge::dropIfNeverRan(qint64 number, const JobPtr &job)
{
    // A job that never reached the engine (cancelled in the window or by an interrupt in the
    // editor, or refused by the host: its debugger closed first): the request the editor
    // waits for will not run, and it is told why. (A job that ran was the request's answer.)
    const JobResult &result = job->result;
    if (result.status == JobResult::Status::Cancelled
        || (result.status == JobResult::Status::Failed && result.error.phase == QLatin1String("host")))
        m_session->query(EngineProtocol::editorDrop(number, result.error.message), ignoreReply);
}

void EditorBridge::onRequestJobFinished(qint64 number, const JobPtr &job)
{
    const auto queued = m_jobOf.constFind(number);
    if (queued == m_jobOf.constEnd() || *queued != job->id)
        return; // the engine forgot the request (its editor left, or the engine died): nothing to drop there
    m_jobOf.erase(queued);
    dropIfNeverRan(number, job);
}

void EditorBridge::onRestart(const QJsonObject &event)
{
    const EngineProtocol::EditorRestartEvent chosen(event);
    const JobPtr job = m_session->job(chosen.target());
    QString refusal;
    if (!job || !job->debugger)
        refusal = QStringLiteral("Lisp Duet: that evaluation is over.");
    else if (!job->debugger->isOpen())
        refusal = QStringLiteral("Lisp Duet: debugger %1 is closed: %2.").arg(job->debugger->id).arg(job->debugger->outcomeSentence());
    else if (!m_session->debugger()->invokeRestart(job->debugger->id, QJsonValue(chosen.restart()), {}, originOf(chosen.editor()), &refusal))
        refusal = QStringLiteral("Lisp Duet: ") + refusal;
    else
        return;
    tell(chosen.editor(), refusal);
}

void EditorBridge::onInterrupt(const QJsonObject &event)
{
    using State = EngineProtocol::EditorInterruptEvent::State;
    const EngineProtocol::EditorInterruptEvent interrupt(event);
    const qint64 number = interrupt.editorRequest();
    const quint64 id = m_jobOf.value(number);
    const Origin by = originOf(interrupt.editor());
    switch (interrupt.state()) {
    case State::Queued:
        if (!id || !m_session->cancel(id, QStringLiteral("It was interrupted in the editor before it ran."), by))
            m_session->query(EngineProtocol::editorDrop(number, QStringLiteral("It was interrupted before it ran.")), ignoreReply);
        break;
    case State::Running:
        // As the window's Interrupt: with the debugger on (always, for the editor) it parks
        // as a break, and SLDB opens on it with CONTINUE.
        if (id)
            m_session->cancel(id, QStringLiteral("interrupted in the editor"), by);
        break;
    case State::Parked: // its SLDB is open already
    case State::Unknown:
        break;
    }
}

void EditorBridge::onDisconnected(const QJsonObject &event)
{
    const EngineProtocol::EditorDisconnectedEvent gone(event);
    const Origin by = originOf(gone.editor());
    for (const qint64 number : gone.dropped()) {
        const quint64 id = m_jobOf.take(number); // the engine forgot the request: nothing to drop there
        if (!id)
            continue;
        m_session->cancel(id, QStringLiteral("Its editor disconnected before it ran."), by);
    }
    if (m_editors.remove(gone.editor()) > 0)
        Q_EMIT editorsChanged();
}

void EditorBridge::onAgentParked(const JobPtr &job)
{
    if (m_editors.isEmpty() || !job->request.origin.isAgent() || !job->debugger)
        return;
    const Debugger &d = *job->debugger;
    tell(0, QStringLiteral("Lisp Duet: %1's evaluation waits in debugger %2: %3: %4 (restarts: %5). "
                           "Answer it here with M-x lisp-duet-debuggers (lisp-duet.el), or in Lisp Duet's window.")
                .arg(job->request.origin.name)
                .arg(d.id)
                .arg(d.conditionType, TextLines::oneLine(d.message, 160), d.restartList()));
}
