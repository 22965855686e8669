#pragma once

#include "Origin.h"
#include "client/EngineJob.h"

#include <QDateTime>
#include <QJsonValue>
#include <QList>
#include <QSharedPointer>
#include <QStringList>

// One episode of the shared debugger: a job with debugging on hit an error (or a break) and
// waits, parked, with its restarts and frames, until the person or an agent chooses how it
// goes on. The Session makes and changes them; everyone else reads. A job that parks again
// later gets a new Debugger with a new id.
// Who ended the episode and how. `by` is empty (no name) until somebody chose.
struct DebuggerChoice
{
    Origin by;
    QString restart;       // the restart's name; empty when control left otherwise (a throw)
    QStringList arguments; // the Lisp texts given to it
    QDateTime at;
    QString why;           // the chooser's reason, when it gave one ("nobody answered for 10 min")
    bool isMade() const { return at.isValid(); }
    // "the person chose USE-VALUE (5000) at 10:42:03"
    QString sentence() const;
};

struct Debugger
{
    enum class State {
        Open,      // parked, waiting for a choice
        Continued, // a restart of its own was chosen: the job goes on (or ends, for ABORT)
        Unwound,   // a restart chosen for an evaluation parked below it cut it short
        Ended      // the engine restarted (a reset, a crash, a kill) while it was parked
    };

    int id = 0;         // the session's number for it, never reused: the tools' debugger_id
    quint64 jobId = 0;  // the parked job
    int level = 1;      // 1 for the outermost; a level runs nested in the one below it
    Origin owner;       // whose evaluation it is
    QString code;       // what that evaluation was
    QString conditionType;
    QString message;
    QString package;    // where the job parked: restart arguments are read there
    bool isBreak = false; // an interrupt, not an error
    QList<DebuggerRestart> restarts;
    QList<DebuggerFrame> frames;
    QDateTime parkedAt;

    State state = State::Open;
    DebuggerChoice choice; // set when it stops being open by somebody's choice
    QString endNote;       // why it ended without a choice of its own ("the engine restarted", ...)
    QString notice;        // while open: a choice that did not leave it ("USE-VALUE returned without leaving the level.")
    QDateTime endedAt;

    bool isOpen() const { return state == State::Open; }
    // How it stopped being open, for people and agents: "the person chose USE-VALUE (5000) at
    // 10:42:03", "it was unwound at 10:42:03 when claude chose ABORT in debugger 3 below it"...
    QString outcomeSentence() const;
    // "0 USE-VALUE, 1 RETRY, 2 ABORT"
    QString restartList() const;
    // The restart that `designator` names: its index (a number) or its name, case-insensitively,
    // without a package prefix. Null when there is none.
    const DebuggerRestart *restart(const QJsonValue &designator) const
    {
        if (designator.isDouble()) {
            const int index = designator.toInt(-1);
            return index >= 0 && index < restarts.size() ? &restarts[index] : nullptr;
        }
        QString name = designator.toString().trimmed().toUpper();
        name = name.mid(name.lastIndexOf(QLatin1Char(':')) + 1);
        for (const DebuggerRestart &r : restarts) {
            if (r.name == name)
                return &r;
        }
        return nullptr;
    }
};

using DebuggerPtr = QSharedPointer<Debugger>;
