#pragma once

#include "session/Job.h"
#include "session/Origin.h"
#include "toolapi/Tool.h"

#include <QObject>
#include <QPointer>

#include <functional>

// A form an agent hands the person (stage-form): it appears in the person's REPL input, marked
// with the agent and its reason, for the person to run, edit first, or reject.
struct StagedForm
{
    quint64 id = 0;      // unique while it waits: the tool call's serial
    QString code;
    QString package;     // empty: the session's
    QString description; // the agent's reason
    Origin origin;       // the agent
};

// What the person did with a staged form.
struct StagingOutcome
{
    enum class Kind {
        Ran,      // as staged
        Edited,   // changed first; `code` is what ran
        Rejected, // `reason` is the person's, possibly empty
        Dropped   // the person can no longer answer (the window closed); `reason` says so
    };
    Kind kind = Kind::Rejected;
    QString code;
    QString reason;
    JobPtr job; // Ran and Edited: the finished evaluation, the person's job
};

// The person's side of staging. The window provides one (the REPL input); headless there is
// none. The MCP layer talks to this interface only, never to widgets.
class FormStager : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    using Done = std::function<void(const StagingOutcome &outcome)>;

    // Empty while a person can take staged forms; else the sentence that says why not.
    virtual QString unavailableReason() const = 0;
    // Queues the form behind those already waiting; `done` is called once, with what the person
    // did, after the evaluation finished when the person ran it.
    virtual void stage(const StagedForm &form, Done done) = 0;
    // The agent no longer waits (its call was cancelled): the form leaves the queue or the
    // input. An evaluation the person already started is interrupted.
    virtual void withdraw(quint64 id) = 0;
};

// Where stage-form finds the person's stager: none until a window sets one (AppServices owns
// this; the app's window setup fills it in).
class FormStaging : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    void setStager(FormStager *stager) { m_stager = stager; }
    FormStager *stager() const { return m_stager; }

private:
    QPointer<FormStager> m_stager;
};
