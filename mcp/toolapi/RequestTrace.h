#pragma once

#include "json/JsonObjectText.h"
#include "project/FileChange.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QSharedPointer>

// One request of a client, from its arrival to its end, as an inspector (the window's Tool
// calls panel) shows it: McpServer makes one for every request it accepts and hands it out
// (McpServer::requestTraced); the server, the access gate and the tools report what happens
// to it; changed() tells the inspector to draw it again. Nobody finds a request by its id: the
// trace is the request.
//
// A tool that waits for the person reports it with awaitPerson() and personDecided() (for
// their approval, or for work it handed them: Waiting::ForThePerson); a tool that queues work
// in the session reports queuedAsJob() and jobStarted(). The time spent waiting for the person
// is counted apart from the rest (ranMs).
class RequestTrace : public QObject
{
    Q_OBJECT
public:
    // HandedOff: answered "running" with a job id (wait_seconds passed), the job goes on;
    // Parked: answered with its evaluation parked in the debugger.
    enum class State { Queued, AwaitingApproval, AwaitingPerson, Running, Done, Error, Cancelled, Denied, HandedOff, Parked };
    // What the person is to do: approve the call (or its change), or the work it handed them.
    enum class Waiting { ForApproval, ForThePerson };

    RequestTrace(const QString &client, const QJsonObject &request);

    const QString &client() const { return m_client; }
    const QJsonObject &request() const { return m_request; }
    QString method() const;
    QString tool() const;          // tools/call: the tool's name; empty for other methods
    QJsonObject arguments() const; // tools/call: its arguments; other methods: their params
    State state() const { return m_state; }
    bool isOver() const { return m_over; } // answered, or cancelled
    const QJsonObject &response() const { return m_response.object(); } // made from its text when asked
    const QString &refusal() const { return m_refusal; } // why access refused it
    quint64 jobId() const { return m_jobId; }            // 0: no session job
    bool hasChange() const { return m_change.id != 0; }
    const FileChange &change() const { return m_change; } // the file change it proposed, the latest
    const QDateTime &receivedAt() const { return m_receivedAt; }
    qint64 elapsedMs() const; // from its arrival to its end (or now)
    qint64 waitedMs() const;  // of which it waited for the person's approval
    qint64 ranMs() const { return elapsedMs() - waitedMs(); }

    // The server's reports.
    void nameClient(const QString &client);
    void run(); // handed to its handler: running, unless it waits in the session's queue or for the person
    void refuse(const QString &reason);
    void answer(const JsonObjectText &response); // not a tool call: done, or an error
    void answerAs(const JsonObjectText &response, State state); // a tool call: how its ToolResult ended
    void cancel(); // the client cancelled it, or went away

    // What the access gate and tools report. Waiting for the person may be reported more than
    // once (a change held while access is paused, then asked about): the wait ends once.
    void awaitPerson(Waiting why = Waiting::ForApproval);
    void personDecided();
    void queuedAsJob(quint64 jobId);
    void jobStarted();
    void proposedChange(const FileChange &change);
    // After its answer: what became of the job it left going (handed off as a job, or parked
    // in the debugger), until that job ends: "resumed: the person chose CONTINUE at ...",
    // "ended: TIMEOUT". `state` says how it stands (running, parked, done, error).
    void follow(State state, const QString &text);
    bool isFollowed() const { return !m_followText.isEmpty(); }
    State followState() const { return m_followState; }
    const QString &followText() const { return m_followText; }

Q_SIGNALS:
    void changed();

private:
    void setState(State state);

    QString m_client;
    QJsonObject m_request;
    JsonObjectText m_response; // the answer as the server sent it (McpMessage)
    QString m_refusal;
    State m_state = State::Queued;
    State m_beforeWaiting = State::Queued;
    bool m_over = false;
    quint64 m_jobId = 0;
    FileChange m_change;
    State m_followState = State::Queued;
    QString m_followText;
    QDateTime m_receivedAt;
    QElapsedTimer m_clock;
    qint64 m_endedMs = -1;      // m_clock's reading when it ended
    qint64 m_waitedMs = 0;      // waits that ended
    qint64 m_waitStartedMs = -1; // the wait going on, if one is
};

using RequestTracePtr = QSharedPointer<RequestTrace>;
Q_DECLARE_METATYPE(RequestTracePtr)
