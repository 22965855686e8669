#pragma once

#include "EngineMessages.h"

#include <QList>

// What the engine says of libraries (issue 39; engine/README.md, "Libraries at once"), as the
// host reads it: a library's first load runs as bytecode, background processes compile it
// natively, the running session gets the native code where that resets nothing. The same
// entry comes in the `libraries` event, the `libraries` question's reply and load-system's
// reply; library-warmup's reply says what it queued. Beside EngineMessages.h, which it extends.
namespace EngineProtocol {

// One system the engine loaded (or warms up): what it runs as now.
class LibraryEntry
{
public:
    explicit LibraryEntry(const QJsonValue &v) : json(v.toObject()) {}
    struct Deferred
    {
        QString file;   // the source file
        QString reason; // why it stays bytecode in this engine
    };
    QString system() const;
    // native, queued, compiling, swapping (its native files go in), partial (some files stay
    // bytecode until the next engine start), bytecode (all of it stays, `reason` says why).
    QString state() const;
    int compiled() const;      // files the compiler process compiled so far...
    int total() const;         // ...of those it has to compile
    int bytecodeFiles() const; // its files that run as bytecode now
    int nativeFiles() const;   // its files loaded as bytecode first that run native now
    QList<Deferred> deferred() const;
    QString reason() const;
    bool warmUp() const;       // compiled ahead by library-warmup (idle priority), not loaded
    qint64 pid() const;        // the compiler process while it runs; 0 otherwise
    qint64 sinceMs() const;    // Unix ms of the latest state
    QJsonObject json;
};
// The "libraries" array of an event, a reply of the question or of load-system.
QList<LibraryEntry> libraryEntries(const QJsonObject &json);

// {"event":"libraries","libraries":[...],"compilers":N}: systems whose state changed.
// The `libraries` question's reply has every system, and "compiler_limit", "available",
// "reason" (why libraries stay bytecode in this engine: compiling them is off).
class LibrariesReply : public Reply
{
public:
    using Reply::Reply;
    QList<LibraryEntry> libraries() const { return libraryEntries(m_json); }
    int compilers() const;     // compiler processes running now
    int compilerLimit() const; // at most this many at once
    bool available() const;
    QString reason() const;
};

// library-warmup's reply: the systems queued for the background compiler, those native
// already, those ASDF does not know.
class LibraryWarmUpReply : public Reply
{
public:
    using Reply::Reply;
    QStringList queued() const;
    QStringList native() const;
    QStringList unknown() const;
};

} // namespace EngineProtocol
