#include "LibraryCompilation.h"

#include "client/EngineClient.h"
#include "client/EngineProtocol.h"
#include "NativeCompilation.h"
#include "project/ProjectSystems.h"
#include "session/Session.h"

#include <QPointer>

#include <algorithm>
#include <tuple>

namespace {
using State = LibraryCompilation::State;

struct StateName
{
    State state;
    QLatin1StringView name;
};
constexpr StateName StateNames[] = {
    {State::Native, QLatin1StringView("native")},       {State::Queued, QLatin1StringView("queued")},
    {State::Compiling, QLatin1StringView("compiling")}, {State::Swapping, QLatin1StringView("swapping")},
    {State::Partial, QLatin1StringView("partial")},     {State::Bytecode, QLatin1StringView("bytecode")},
};

State stateNamed(const QString &name)
{
    for (const StateName &known : StateNames) {
        if (known.name == name)
            return known.state;
    }
    return State::Bytecode; // a word a newer engine may say: nothing promised
}

QString sentenceEnd(const QString &text)
{
    return text.isEmpty() || text.endsWith(u'.') || text.endsWith(u')') ? text : text + u'.';
}

QString filesText(int count)
{
    return count == 1 ? QStringLiteral("1 file") : QStringLiteral("%1 files").arg(count);
}
} // namespace

QString LibraryCompilation::Library::stateName() const
{
    for (const StateName &known : StateNames) {
        if (known.state == state)
            return known.name;
    }
    return {};
}

QString LibraryCompilation::Library::runs() const
{
    switch (state) {
    case State::Native: return warmUp && bytecodeFiles == 0 && nativeFiles == 0 ? QStringLiteral("native when loaded") : QStringLiteral("native");
    case State::Partial: return QStringLiteral("partly native");
    case State::Queued:
    case State::Compiling:
    case State::Swapping:
        if (warmUp && bytecodeFiles == 0)
            return QStringLiteral("not loaded");
        return QStringLiteral("bytecode");
    case State::Bytecode: return QStringLiteral("bytecode");
    }
    return {};
}

QString LibraryCompilation::Library::progress() const
{
    switch (state) {
    case State::Queued: return QStringLiteral("queued");
    case State::Compiling:
        return total > 0 ? QStringLiteral("%1 of %2").arg(compiled).arg(filesText(total)) : QStringLiteral("starting");
    case State::Swapping: return QStringLiteral("loading native code");
    default: return {};
    }
}

QString LibraryCompilation::Library::sentence() const
{
    const QString bytecode = bytecodeFiles > 0 ? QStringLiteral(" (%1)").arg(filesText(bytecodeFiles)) : QString();
    switch (state) {
    case State::Native:
        if (nativeFiles > 0)
            return QStringLiteral("%1 runs native code: compiled in the background since it loaded as bytecode (%2, from %3).")
                .arg(system, filesText(nativeFiles), since.toString(QStringLiteral("HH:mm:ss")));
        if (warmUp)
            return QStringLiteral("%1 is compiled natively (warm-up): it loads native code.").arg(system);
        return QStringLiteral("%1 runs native code (compiled before, from ASDF's cache).").arg(system);
    case State::Queued:
        if (warmUp && bytecodeFiles == 0)
            return QStringLiteral("%1 waits to be compiled natively ahead (warm-up, idle priority).").arg(system);
        return QStringLiteral("%1 runs as bytecode for now%2: it waits for a background compiler process, then becomes native.")
            .arg(system, bytecode);
    case State::Compiling:
        if (warmUp && bytecodeFiles == 0)
            return QStringLiteral("%1 is compiled natively ahead at idle priority (warm-up): %2.").arg(system, progress());
        return QStringLiteral("%1 runs as bytecode for now%2: compiling natively in the background, %3.").arg(system, bytecode, progress());
    case State::Swapping:
        return QStringLiteral("%1 is compiled: its native code goes into the session (%2 of %3 so far).")
            .arg(system)
            .arg(nativeFiles)
            .arg(filesText(nativeFiles + bytecodeFiles));
    case State::Partial:
        return QStringLiteral("%1 runs partly native: %2").arg(system, sentenceEnd(reason));
    case State::Bytecode:
        return reason.isEmpty() ? QStringLiteral("%1 runs as bytecode%2.").arg(system, bytecode)
                                : QStringLiteral("%1 runs as bytecode%2: %3").arg(system, bytecode, sentenceEnd(reason));
    }
    return {};
}

LibraryCompilation::Library LibraryCompilation::Library::from(const EngineProtocol::LibraryEntry &entry)
{
    Library library;
    library.system = entry.system();
    library.state = stateNamed(entry.state());
    library.compiled = entry.compiled();
    library.total = entry.total();
    library.bytecodeFiles = entry.bytecodeFiles();
    library.nativeFiles = entry.nativeFiles();
    library.deferred = entry.deferred();
    library.reason = entry.reason();
    library.warmUp = entry.warmUp();
    library.pid = entry.pid();
    library.sinceMs = entry.sinceMs();
    library.since = entry.sinceMs() > 0 ? QDateTime::fromMSecsSinceEpoch(entry.sinceMs()) : QDateTime::currentDateTime();
    library.json = entry.json;
    return library;
}

QJsonObject LibraryCompilation::Library::toJson() const
{
    QJsonObject object = json;
    object.insert(QStringLiteral("sentence"), sentence());
    return object;
}

LibraryCompilation::LibraryCompilation(EngineClient *engine, Session *session, NativeCompilation *native, QObject *parent)
    : QObject(parent), m_session(session)
{
    connect(engine, &EngineClient::otherEvent, this, &LibraryCompilation::onEvent);
    // load-system's reply lists the libraries its plans loaded.
    connect(engine, &EngineClient::reply, this, [this](quint64, const QJsonObject &reply) { onReply(reply); });
    connect(engine, &EngineClient::died, this, &LibraryCompilation::forget);
    connect(engine, &EngineClient::ready, this, [this] {
        forget();
        askEngine();
    });
    // Native code switched off (or on) for the running engine: libraries follow it.
    if (native)
        connect(native, &NativeCompilation::statusChanged, this, [this, engine] {
            if (engine->isReady())
                askEngine();
        });
}

const LibraryCompilation::Library *LibraryCompilation::find(const QString &system) const
{
    const auto it = m_libraries.constFind(system);
    return it == m_libraries.constEnd() ? nullptr : &it.value();
}

QList<LibraryCompilation::Library> LibraryCompilation::busy() const
{
    QList<Library> working;
    for (const Library &library : m_libraries) {
        if (library.isBusy())
            working << library;
    }
    return working;
}

bool LibraryCompilation::isBusy() const
{
    return std::any_of(m_libraries.cbegin(), m_libraries.cend(), [](const Library &library) { return library.isBusy(); });
}

QString LibraryCompilation::busyLine(const QStringList &systems) const
{
    QStringList parts;
    for (const Library &library : busy()) {
        if (systems.isEmpty() || systems.contains(library.system))
            parts << QStringLiteral("%1 %2").arg(library.system, library.progress());
    }
    return parts.join(QStringLiteral(" \u00b7 "));
}

QList<LibraryCompilation::Library> LibraryCompilation::newest(const QList<EngineProtocol::LibraryEntry> &entries) const
{
    QList<Library> libraries;
    for (const EngineProtocol::LibraryEntry &entry : entries) {
        const Library *known = find(entry.system());
        libraries << (known && known->sinceMs >= entry.sinceMs() ? *known : Library::from(entry));
    }
    return libraries;
}

quint64 LibraryCompilation::warmUp(const QStringList &systems, const QStringList &dependenciesOf, const Origin &by,
                                   std::function<void(const EngineProtocol::LibraryWarmUpReply &, const QString &)> done)
{
    JobRequest request = EngineProtocol::libraryWarmUp(systems, dependenciesOf);
    request.origin = by;
    request.purpose = JobPurpose::Setup;
    request.tool = QStringLiteral("library-warmup");
    const quint64 id = m_session->submit(request);
    if (done) {
        m_session->whenFinished(id, [done](const JobPtr &job) {
            const EngineProtocol::LibraryWarmUpReply reply(job->result.reply);
            done(reply, job->result.ok() ? QString() : job->result.error.message);
        });
    }
    return id;
}

QStringList LibraryCompilation::projectSystems(const ProjectRoot &root)
{
    QStringList systems;
    if (!root.isSet())
        return systems;
    for (const AsdFile &asd : ProjectSystems::scan(root)) {
        for (const QString &system : asd.systems) {
            if (!systems.contains(system))
                systems << system;
        }
    }
    return systems;
}

void LibraryCompilation::onEvent(const QJsonObject &json)
{
    if (EngineProtocol::eventName(json) == QStringLiteral("libraries"))
        mergeAll(EngineProtocol::libraryEntries(json));
}

void LibraryCompilation::onReply(const QJsonObject &reply)
{
    if (reply.contains(QStringLiteral("libraries")))
        mergeAll(EngineProtocol::libraryEntries(reply));
}

void LibraryCompilation::mergeAll(const QList<EngineProtocol::LibraryEntry> &entries)
{
    QStringList news;
    QList<Library> ended;
    for (const EngineProtocol::LibraryEntry &entry : entries) {
        const Library *before = find(entry.system());
        const bool wasBusy = before && before->isBusy();
        if (!merge(entry))
            continue;
        news << entry.system();
        const Library &now = m_libraries[entry.system()];
        if (wasBusy && !now.isBusy())
            ended << now;
    }
    if (news.isEmpty())
        return;
    Q_EMIT changed(news);
    for (const Library &library : std::as_const(ended))
        Q_EMIT settled(library);
}

bool LibraryCompilation::merge(const EngineProtocol::LibraryEntry &entry)
{
    const QString system = entry.system();
    if (system.isEmpty())
        return false;
    const auto known = m_libraries.constFind(system);
    // The newest word: a later state, or further in the same one (files compiled, swapped in).
    if (known != m_libraries.constEnd()
        && std::tuple(entry.sinceMs(), entry.compiled(), entry.nativeFiles()) < std::tuple(known->sinceMs, known->compiled, known->nativeFiles))
        return false;
    const Library library = Library::from(entry);
    if (known != m_libraries.constEnd() && known->json == library.json)
        return false;
    m_libraries.insert(system, library);
    return true;
}

void LibraryCompilation::askEngine()
{
    QPointer<LibraryCompilation> guard(this);
    m_session->query(EngineProtocol::libraries(), [guard](const QJsonObject &json) {
        const EngineProtocol::LibrariesReply reply(json);
        if (!guard || !reply.ok())
            return; // an engine that went away: the next one is asked when it is ready
        guard->mergeAll(reply.libraries());
        const bool changed = !guard->m_known || guard->m_available != reply.available() || guard->m_reason != reply.reason();
        guard->m_known = true;
        guard->m_available = reply.available();
        guard->m_reason = reply.reason();
        guard->m_compilerLimit = reply.compilerLimit();
        if (changed)
            Q_EMIT guard->availabilityChanged();
    });
}

void LibraryCompilation::forget()
{
    if (m_libraries.isEmpty())
        return;
    const QStringList systems = m_libraries.keys();
    m_libraries.clear();
    Q_EMIT changed(systems);
}
