#include "NativeCompilation.h"

#include "client/EngineClient.h"
#include "client/EngineProtocol.h"
#include "session/Session.h"

#include <QLocale>
#include <QPointer>
#include <QSet>

namespace {
const QString NoNativeArgument = QStringLiteral("--no-native");

NativeCompilation::State stateNamed(const QString &state)
{
    using State = NativeCompilation::State;
    static const QHash<QString, State> states{{QStringLiteral("compiling"), State::Compiling},
                                              {QStringLiteral("native"), State::Native},
                                              {QStringLiteral("interpreted"), State::Interpreted},
                                              {QStringLiteral("superseded"), State::Superseded}};
    return states.value(state, State::Queued); // "queued", and whatever a newer engine may say first
}

// How far a state is: one serial's states only move forward, and an event may overtake the
// reply of the job that made the definition.
int progressOf(NativeCompilation::State state)
{
    using State = NativeCompilation::State;
    switch (state) {
    case State::Queued: return 0;
    case State::Compiling: return 1;
    case State::Native:
    case State::Interpreted:
    case State::Superseded: return 2;
    }
    return 0;
}

QString secondsText(qint64 ms)
{
    return QLocale::c().toString(double(ms) / 1000.0, 'f', ms < 10000 ? 2 : 1) + QStringLiteral(" s");
}
} // namespace

QString NativeCompilation::Definition::execution() const
{
    switch (state) {
    case State::Queued:
    case State::Compiling: return QStringLiteral("compiling");
    case State::Native: return QStringLiteral("native");
    case State::Interpreted: return QStringLiteral("interpreted");
    case State::Superseded: return QStringLiteral("superseded");
    }
    return {};
}

QString NativeCompilation::Definition::sentence() const
{
    const QString at = since.isValid() ? since.toString(QStringLiteral("HH:mm:ss")) : QStringLiteral("?");
    const QString why = reason.isEmpty() || reason.endsWith(u'.') || reason.endsWith(u')') ? reason : reason + u'.';
    switch (state) {
    case State::Queued:
    case State::Compiling:
        return since.isValid() ? QStringLiteral("Runs interpreted while it is compiled to native code (queued at %1).").arg(at)
                               : QStringLiteral("Runs interpreted while it is compiled to native code.");
    case State::Native:
        if (!since.isValid())
            return QStringLiteral("Runs native code (compiled).");
        return afterMs >= 0 ? QStringLiteral("Runs native code since %1 (%2 after it was defined).").arg(at, secondsText(afterMs))
                            : QStringLiteral("Runs native code since %1.").arg(at);
    case State::Interpreted:
        return why.isEmpty() ? QStringLiteral("Runs interpreted.") : QStringLiteral("Runs interpreted: %1").arg(why);
    case State::Superseded:
        return why.isEmpty() ? QStringLiteral("Runs interpreted.") : QStringLiteral("Runs interpreted (%1)").arg(why);
    }
    return {};
}

NativeCompilation::NativeCompilation(EngineClient *engine, Session *session, QObject *parent)
    : QObject(parent), m_engine(engine), m_session(session)
{
    connect(engine, &EngineClient::otherEvent, this, &NativeCompilation::onEvent);
    // Every reply: a job's "native" lists what it queued. In the order the engine wrote them,
    // with the events.
    connect(engine, &EngineClient::reply, this, [this](quint64, const QJsonObject &reply) { onJobReply(reply); });
    connect(engine, &EngineClient::died, this, &NativeCompilation::onEngineGone);
}

QString NativeCompilation::reason() const
{
    if (!m_wanted)
        return m_whyOff.isEmpty() ? QStringLiteral("Native compilation is off: the session's definitions run interpreted.") : m_whyOff;
    if (!m_status.known || m_status.isOn())
        return {};
    return m_status.reason.isEmpty() ? QStringLiteral("Native compilation is off: the session's definitions run interpreted.") : m_status.reason;
}

void NativeCompilation::setEnabled(bool on, const QString &whyOff)
{
    QStringList arguments = m_engine->arguments();
    arguments.removeAll(NoNativeArgument);
    if (!on)
        arguments << NoNativeArgument; // the ready event of every later engine says so
    m_engine->setArguments(arguments);
    const bool changedWish = on != m_wanted;
    m_wanted = on;
    m_whyOff = whyOff;
    if (changedWish && m_engine->isReady() && m_status.known && m_status.enabled != on)
        askEngine(on);
    Q_EMIT statusChanged();
    tellOnce();
}

void NativeCompilation::askEngine(bool on)
{
    QPointer<NativeCompilation> guard(this);
    m_session->query(EngineProtocol::nativeCompilation(on), [guard](const QJsonObject &reply) {
        if (!guard || !EngineProtocol::Reply(reply).ok())
            return; // an engine that went away: the next one starts with the arguments
        guard->setStatus(EngineProtocol::NativeStatus::from(reply));
    });
}

void NativeCompilation::setStatus(const EngineProtocol::NativeStatus &status)
{
    m_status = status;
    Q_EMIT statusChanged();
    tellOnce();
}

void NativeCompilation::tellOnce()
{
    if (!m_status.known)
        return; // no engine yet (the window may not be there to hear it), or one without native code
    const QString sentence = isOn() ? QString() : reason();
    if (sentence == m_told)
        return;
    const bool wasOff = !m_told.isEmpty();
    m_told = sentence;
    if (!sentence.isEmpty())
        Q_EMIT notice(sentence);
    else if (wasOff)
        Q_EMIT notice(QStringLiteral("Native compilation is on: definitions made from now on are compiled to native code in the background."));
}

QList<EngineStartJob> NativeCompilation::engineStarted(const EngineProtocol::ReadyEvent &ready)
{
    const bool hadStates = !m_definitions.isEmpty();
    m_definitions.clear();
    if (hadStates)
        Q_EMIT changed();
    const EngineProtocol::NativeStatus status = ready.native();
    // An engine launched before the setting changed: it still compiles.
    if (!m_wanted && status.known && status.enabled)
        askEngine(false);
    setStatus(status);
    return {};
}

void NativeCompilation::onEngineGone()
{
    if (m_definitions.isEmpty())
        return;
    m_definitions.clear();
    Q_EMIT changed();
}

void NativeCompilation::onEvent(const QJsonObject &json)
{
    if (EngineProtocol::eventName(json) != QStringLiteral("native"))
        return;
    const EngineProtocol::NativeEvent event(json);
    bool news = false;
    for (const EngineProtocol::NativeDefinition &entry : event.definitions())
        news = merge(entry) || news;
    m_status.pending = event.pending();
    if (news)
        Q_EMIT changed();
    if (event.saysUnavailable() && (m_status.available || m_status.reason != event.reason())) {
        m_status.available = false;
        m_status.reason = event.reason();
        Q_EMIT statusChanged();
        tellOnce();
    }
}

void NativeCompilation::onJobReply(const QJsonObject &reply)
{
    const QList<EngineProtocol::NativeDefinition> queued = EngineProtocol::nativeDefinitions(reply);
    bool news = false;
    QSet<QString> queuedKeys;
    for (const EngineProtocol::NativeDefinition &entry : queued) {
        news = merge(entry) || news;
        queuedKeys.insert(keyOf(entry.kind() == QStringLiteral("method") ? entry.kind() : QStringLiteral("function"), entry.package(),
                                entry.name(), entry.qualifiers(), entry.specializers()));
    }
    // A definition the job made that was not queued (native compilation was off, or it was
    // compiled already) replaced whatever was known of the one before.
    for (const EngineProtocol::LedgerFacts::Defined &defined : EngineProtocol::LedgerFacts(reply).defined()) {
        const QString kind = defined.kind();
        if (kind != QStringLiteral("function") && kind != QStringLiteral("macro") && kind != QStringLiteral("method"))
            continue;
        const QString space = kind == QStringLiteral("method") ? kind : QStringLiteral("function");
        if (queuedKeys.contains(keyOf(space, defined.package(), defined.name(), defined.qualifiers(), defined.specializers())))
            continue;
        for (const QString &stored : space == QStringLiteral("method") ? QStringList{space} : QStringList{QStringLiteral("function"), QStringLiteral("macro")})
            news = m_definitions.remove(keyOf(stored, defined.package(), defined.name(), defined.qualifiers(), defined.specializers())) > 0 || news;
    }
    if (news)
        Q_EMIT changed();
}

QString NativeCompilation::keyOf(const QString &kind, const QString &package, const QString &name, const QStringList &qualifiers,
                                 const QStringList &specializers)
{
    const QChar unit(0x1f);
    return kind + unit + package + unit + name + unit + DefinitionKey::normalizedQualifiers(qualifiers).join(u' ') + unit
        + DefinitionKey::normalizedSpecializers(specializers).join(u' ');
}

bool NativeCompilation::merge(const EngineProtocol::NativeDefinition &entry)
{
    if (entry.serial() <= 0 || entry.name().isEmpty())
        return false;
    Definition d;
    d.serial = entry.serial();
    d.kind = entry.kind();
    d.package = entry.package();
    d.name = entry.name();
    d.qualifiers = DefinitionKey::normalizedQualifiers(entry.qualifiers());
    d.specializers = DefinitionKey::normalizedSpecializers(entry.specializers());
    d.state = stateNamed(entry.state());
    d.since = entry.sinceMs() > 0 ? QDateTime::fromMSecsSinceEpoch(entry.sinceMs()) : QDateTime();
    d.afterMs = entry.afterMs();
    d.job = entry.job();
    d.reason = entry.reason();
    d.notes = entry.notes();
    const QString key = keyOf(d.kind, d.package, d.name, d.qualifiers, d.specializers);
    const auto known = m_definitions.constFind(key);
    if (known != m_definitions.constEnd()) {
        if (known->serial > d.serial)
            return false; // a newer definition is known
        if (known->serial == d.serial && progressOf(known->state) >= progressOf(d.state))
            return false; // an older word about the same one
    }
    m_definitions.insert(key, d);
    return true;
}

const NativeCompilation::Definition *NativeCompilation::find(const QString &space, const QString &package, const QString &name,
                                                            const QStringList &qualifiers, const QStringList &specializers) const
{
    if (space == QStringLiteral("method")) {
        const auto it = m_definitions.constFind(keyOf(space, package, name, qualifiers, specializers));
        return it == m_definitions.constEnd() ? nullptr : &*it;
    }
    if (space != QStringLiteral("function"))
        return nullptr;
    // A defmacro replaces a defun of the same name, and the other way round: the newer counts.
    const Definition *newest = nullptr;
    for (const QString &kind : {QStringLiteral("function"), QStringLiteral("macro")}) {
        const auto it = m_definitions.constFind(keyOf(kind, package, name, {}, {}));
        if (it != m_definitions.constEnd() && (!newest || it->serial > newest->serial))
            newest = &*it;
    }
    return newest;
}

std::optional<NativeCompilation::Definition> NativeCompilation::genericFunction(const QString &package, const QString &name) const
{
    // Interpreted while one method is, compiling while one is, native when all are.
    const auto weight = [](State s) { return s == State::Interpreted ? 2 : s == State::Native ? 0 : 1; };
    std::optional<Definition> whole;
    const Definition *worst = nullptr;
    for (const Definition &method : m_definitions) {
        if (method.kind != QStringLiteral("method") || method.package != package || method.name != name
            || method.state == State::Superseded)
            continue;
        if (!whole) {
            whole = method;
            whole->afterMs = -1;
        }
        whole->serial = qMax(whole->serial, method.serial);
        if (!worst || weight(method.state) > weight(worst->state)
            || (weight(method.state) == weight(worst->state) && method.since > worst->since))
            worst = &method; // of the native ones, the last to become native says since when
    }
    if (!whole)
        return std::nullopt;
    whole->kind = QStringLiteral("generic-function");
    whole->qualifiers.clear();
    whole->specializers.clear();
    whole->state = worst->state;
    whole->since = worst->since;
    whole->reason = worst->state == State::Interpreted
        ? QStringLiteral("its method (%1) stays interpreted: %2").arg(worst->specializers.join(u' '), worst->reason)
        : QString();
    return whole;
}

std::optional<NativeCompilation::Definition> NativeCompilation::runs(const DefinitionKey &key, const QString &kind, const Listed *listed,
                                                                     bool fromFile) const
{
    std::optional<Definition> known;
    if (kind == QStringLiteral("generic-function"))
        known = genericFunction(key.package, key.name);
    else if (key.space == QStringLiteral("function") || key.space == QStringLiteral("method"))
        if (const Definition *found = find(key.space, key.package, key.name, key.qualifiers, key.specializers))
            known = *found;
    if (known && known->state != State::Superseded) {
        known->failed = known->state == State::Interpreted && isOn();
        return known;
    }
    if (listed) {
        // What the engine's list said when it was asked: compiled by ASDF or COMPILE, or made
        // while native compilation was off.
        Definition said;
        said.kind = kind;
        said.package = key.package;
        said.name = key.name;
        if (listed->execution == QStringLiteral("native")) {
            said.state = State::Native;
            said.since = listed->sinceMs > 0 ? QDateTime::fromMSecsSinceEpoch(listed->sinceMs) : QDateTime();
        } else if (listed->execution == QStringLiteral("interpreted")) {
            said.state = State::Interpreted;
            said.reason = !listed->reason.isEmpty() ? listed->reason : !isOn() ? reason() : QString();
            said.failed = !listed->reason.isEmpty();
        } else if (listed->execution == QStringLiteral("compiling")) {
            said.state = State::Compiling;
        } else {
            return std::nullopt;
        }
        return said;
    }
    // Never given to the background compiler: made while native compilation was off (or
    // unavailable), unless it came from a file (load-system compiles those itself).
    if (kind == QStringLiteral("generic-function") || (key.space != QStringLiteral("function") && key.space != QStringLiteral("method"))
        || isOn() || !m_status.known || fromFile)
        return std::nullopt;
    Definition interpreted;
    interpreted.kind = kind;
    interpreted.package = key.package;
    interpreted.name = key.name;
    interpreted.state = State::Interpreted;
    interpreted.reason = reason();
    return interpreted;
}
