#pragma once

#include "client/EngineMessages.h"
#include "history/DefinitionVersion.h"
#include "session/EngineStart.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QStringList>

#include <optional>

class EngineClient;
class Session;

// Native code for the session's definitions (issue 30), as the host knows it: the engine
// compiles every function, macro and method a job defines in the background and swaps the
// native version in; this keeps, per definition, its newest state (queued, compiling, native,
// interpreted with the reason, superseded) and since when, from two sources that may come in
// either order: each job's reply ("native", what it queued) and the engine's "native" events
// (what became of them). Per definition the highest serial wins, and for one serial the
// furthest state. It also keeps whether native compilation is on at all (the ready event, the
// native request) and turns it on or off for the person's setting and --no-native.
//
// Made by the composition root (AppServices) and given the Session; first in the Session's
// engine-start list, so that its word on a new engine (off, for an engine launched before the
// setting changed) goes out before any job. A new engine starts with no states.
class NativeCompilation : public QObject, public EngineStartWork
{
    Q_OBJECT
public:
    enum class State { Queued, Compiling, Native, Interpreted, Superseded };

    struct Definition
    {
        qint64 serial = 0;
        QString kind; // function, macro or method
        QString package;
        QString name;
        QStringList qualifiers;
        QStringList specializers;
        State state = State::Queued;
        QDateTime since;    // when it came to this state
        qint64 afterMs = -1; // Native: from the definition to its native version
        quint64 job = 0;
        QString reason;      // Interpreted, Superseded: why
        QStringList notes;   // what the compiler remarked although it compiled
        bool failed = false; // runs(): interpreted because its native version failed (not because it is off)

        // "native", "interpreted", "compiling" (queued counts as compiling), "superseded".
        QString execution() const;
        // For people and agents: "Runs native code since 12:00:05 (0.14 s after it was
        // defined).", "Runs interpreted: REASON", "Runs interpreted while it is compiled to
        // native code (queued at 12:00:05)."; without a time, "Runs native code (compiled)."
        QString sentence() const;
    };

    // What the engine's "definitions" list says of how one of its entries runs (its
    // execution, native_since_ms and native_reason): the word for definitions the background
    // compiler never saw (compiled by ASDF or COMPILE, or made while native compilation was off).
    struct Listed
    {
        QString execution; // native, interpreted, compiling; empty: not a function
        qint64 sinceMs = 0;
        QString reason;
    };
    // How a definition runs now: the one answer for every view of it (the Definitions panel,
    // definition-history). The background compiler's word when it saw the definition (a generic
    // function by its methods); else what the engine's list said (`listed`, when the caller has
    // the list); without a list, a function made while native compilation is off runs
    // interpreted for that reason (unless it came from a file, `fromFile`: load-system compiles
    // those itself). `kind` as the engine and the ledger name kinds ("generic-function"...).
    // nullopt: not known, or not a function, macro, method or generic function.
    std::optional<Definition> runs(const DefinitionKey &key, const QString &kind, const Listed *listed = nullptr,
                                   bool fromFile = false) const;

    NativeCompilation(EngineClient *engine, Session *session, QObject *parent = nullptr);

    // A new engine: no states yet, and its word on native compilation (the ready event's).
    QList<EngineStartJob> engineStarted(const EngineProtocol::ReadyEvent &ready) override;

    // The engine's word: on, off (and why) or unavailable (and why), and how many wait.
    const EngineProtocol::NativeStatus &status() const { return m_status; }
    // Definitions made from now on become native.
    bool isOn() const { return m_status.known && m_status.isOn() && m_wanted; }
    // Why they stay interpreted: the host's reason when it turned it off, else the engine's;
    // empty while it is on.
    QString reason() const;

    // The person's setting and --no-native: on or off for the running engine (definitions
    // made from then on; those native already stay native) and every engine started later
    // (`--no-native`). `whyOff` is the sentence people and agents read.
    void setEnabled(bool on, const QString &whyOff = {});
    bool isWanted() const { return m_wanted; }

    // The newest state of a definition the session made: `space` as the ledger keys names
    // ("function": a function or a macro of that name, the newer; "method"), the symbol's
    // home package and name; a method's qualifiers and specializers as the ledger writes them.
    // Null when the background compiler never saw it (a variable, a library's function, a
    // definition made while native compilation was off).
    const Definition *find(const QString &space, const QString &package, const QString &name, const QStringList &qualifiers = {},
                           const QStringList &specializers = {}) const;
    // A generic function, by its methods the session defined: interpreted while one is,
    // compiling while one is; native when all are. nullopt when none was seen.
    std::optional<Definition> genericFunction(const QString &package, const QString &name) const;
    int definitionCount() const { return int(m_definitions.size()); }

Q_SIGNALS:
    // States changed: a reply or an event brought news, or a new engine has none.
    void changed();
    // On, off or unavailable changed (an engine started, the setting, the toolchain went away).
    void statusChanged();
    // A sentence for the person, once per cause: native compilation is off or unavailable
    // (at an engine's start or when it changes), or on again after it was off.
    void notice(const QString &sentence);

private:
    void onEvent(const QJsonObject &event);
    void onJobReply(const QJsonObject &reply);
    void onEngineGone();
    // True when it changed what is known.
    bool merge(const EngineProtocol::NativeDefinition &entry);
    void askEngine(bool on);
    void setStatus(const EngineProtocol::NativeStatus &status);
    void tellOnce();
    static QString keyOf(const QString &kind, const QString &package, const QString &name, const QStringList &qualifiers,
                         const QStringList &specializers);

    EngineClient *m_engine;
    Session *m_session;
    EngineProtocol::NativeStatus m_status;
    bool m_wanted = true;
    QString m_whyOff;
    QString m_told; // the last notice: a cause is said once
    QHash<QString, Definition> m_definitions; // by keyOf
};
