#pragma once

#include "client/LibraryMessages.h"
#include "session/Origin.h"

#include <QDateTime>
#include <QJsonObject>
#include <QMap>
#include <QObject>
#include <QStringList>

#include <functional>

class EngineClient;
class NativeCompilation;
class ProjectRoot;
class Session;

// Libraries at once (issue 39), as the host knows them: a library's first load runs as
// bytecode at once, background processes compile it natively, the running session gets the
// native code where loading it resets nothing, and the next engine loads it natively from
// ASDF's cache. This keeps, per system the engine loaded (or warms up), what it runs as now
// and how far its background compile is, from the engine's `libraries` events and
// load-system's replies (the newest word wins: a reply's list may be older than an event that
// came before it), and whether libraries can become native in this engine at all (the
// `libraries` question, asked at each engine start and when native code is switched).
// One sentence per library for every view of it: the window, project-info, load-system.
class LibraryCompilation : public QObject
{
    Q_OBJECT
public:
    enum class State { Native, Queued, Compiling, Swapping, Partial, Bytecode };

    struct Library
    {
        QString system;
        State state = State::Native;
        int compiled = 0; // files the compiler process compiled...
        int total = 0;    // ...of those it has to (0 until it has made its plan)
        int bytecodeFiles = 0;
        int nativeFiles = 0; // loaded as bytecode first, native now
        QList<EngineProtocol::LibraryEntry::Deferred> deferred;
        QString reason;
        bool warmUp = false;
        qint64 pid = 0;
        QDateTime since;
        qint64 sinceMs = 0;
        QJsonObject json; // the engine's own entry

        // Queued, compiling or swapping: the background work is not done.
        bool isBusy() const { return state == State::Queued || state == State::Compiling || state == State::Swapping; }
        QString stateName() const; // the engine's word: native, queued, compiling, swapping, partial, bytecode
        // What it runs as now, in a word: "native", "bytecode", "partly native".
        QString runs() const;
        // How far the background compile is: "7 of 22 files", "queued", "loading native code".
        QString progress() const;
        // For people and agents: "alexandria runs as bytecode for now: compiling natively in
        // the background, 7 of 22 files." ...
        QString sentence() const;
        // structuredContent: the engine's fields, and `sentence`.
        QJsonObject toJson() const;
        static Library from(const EngineProtocol::LibraryEntry &entry);
    };

    LibraryCompilation(EngineClient *engine, Session *session, NativeCompilation *native = nullptr, QObject *parent = nullptr);

    // Every system the engine loaded or warms up, by name.
    QList<Library> libraries() const { return m_libraries.values(); }
    const Library *find(const QString &system) const;
    // The libraries whose background work is not done, by name.
    QList<Library> busy() const;
    bool isBusy() const;
    // One line for the running-job bar: "alexandria 7 of 22 files · cl-ppcre queued" (of
    // `systems` only, when given).
    QString busyLine(const QStringList &systems = {}) const;
    // What `entries` (a load-system reply's) run as now: each as this knows it, when it knows
    // it (newer), else as the entry says.
    QList<Library> newest(const QList<EngineProtocol::LibraryEntry> &entries) const;

    // Whether libraries loaded as bytecode become native in this engine (the engine said);
    // `reason` says why not (compiling them is off, native code is off, no gcc).
    bool isKnown() const { return m_known; }
    bool isAvailable() const { return m_available; }
    QString reason() const { return m_reason; }
    int compilerLimit() const { return m_compilerLimit; }

    // Compiles `systems` and the systems `dependenciesOf` depend on (the project's own
    // excluded) natively in the background, at idle priority, loading nothing: a job of the
    // session by `by` (Lisp Duet itself for the first start's, the person from the menu).
    // `done` gets the engine's reply (queued, native, unknown) or the failed job's message.
    quint64 warmUp(const QStringList &systems, const QStringList &dependenciesOf, const Origin &by,
                   std::function<void(const EngineProtocol::LibraryWarmUpReply &reply, const QString &error)> done = {});

    // The systems the project's .asd files define (secondary ones too: their tests' libraries
    // count): what a warm-up compiles the dependencies of.
    static QStringList projectSystems(const ProjectRoot &root);

Q_SIGNALS:
    // States changed for these systems (all of them when a new engine has none).
    void changed(const QStringList &systems);
    // A library's background work ended: it runs native, partly native or stays bytecode.
    void settled(const LibraryCompilation::Library &library);
    // Whether libraries can become native here changed, or the engine said so first.
    void availabilityChanged();

private:
    void onEvent(const QJsonObject &json);
    void onReply(const QJsonObject &reply);
    // True when `entry` is news (not older than what is known).
    bool merge(const EngineProtocol::LibraryEntry &entry);
    void mergeAll(const QList<EngineProtocol::LibraryEntry> &entries);
    void askEngine();
    void forget();

    Session *m_session;
    QMap<QString, Library> m_libraries;
    bool m_known = false;
    bool m_available = false;
    QString m_reason;
    int m_compilerLimit = 0;
};
