#pragma once

#include "FileChange.h"
#include "Job.h"
#include "Tool.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QJsonObject>
#include <QJsonValue>
#include <QPointer>

#include <functional>

class McpServer;
class McpPeer;
class Session;

// Every MCP request the app received, as rows of a table: time, client, tool (or method), a
// short summary of the arguments, state and duration, with the full request and response.
// Widget-free; the tool calls dock shows it. Rows are capped (oldest dropped first).
class ToolCallLog : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TimeColumn, ClientColumn, ToolColumn, ArgumentsColumn, StateColumn, DurationColumn, ColumnCount };
    enum class State { Queued, AwaitingApproval, AwaitingPerson, Running, Done, Error, Cancelled, Denied };
    enum Role { RequestRole = Qt::UserRole + 1, ResponseRole, StateRole };

    struct Entry
    {
        QString peerKey;
        QString idKey;
        QJsonValue id;
        QDateTime received;
        QDateTime finished;
        QString client;
        QString method;
        QString tool;    // for tools/call
        QString summary; // the arguments, briefly
        State state = State::Queued;
        QJsonObject request;
        QJsonObject response;
        QString refusal;
        ToolCallPtr call;
    };

    explicit ToolCallLog(QObject *parent = nullptr);

    void attach(McpServer *server, Session *session);
    void setCapacity(int rows) { m_capacity = rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const Entry &entry(int row) const { return m_entries.at(row); }
    static QString stateName(State state);
    static QString summarize(const QJsonObject &arguments, int maxChars = 80);
    // One JSON object per line, oldest first.
    QByteArray toJsonLines() const;

    // The hooks the signals drive (public for tests and for the access controller).
    void onRequest(McpPeer *peer, const QJsonObject &request);
    void onQueued(McpPeer *peer, const QJsonValue &id, const ToolCallPtr &call);
    void onRefused(McpPeer *peer, const QJsonValue &id, const QString &reason);
    void onResponse(McpPeer *peer, const QJsonValue &id, const QJsonObject &response);
    void onJobStarted(const JobPtr &job);
    void markAwaitingApproval(const ToolCallPtr &call);
    // A file change waits for the person: the call that proposed it (FileChange::proposedBy)
    // is awaiting approval, not queued, until it finishes.
    void markChangeAwaitingApproval(const FileChange &change);
    // The call handed its work to the person (stage-form: FormStaging::awaitingPerson).
    void markAwaitingPerson(const ToolCallPtr &call);

private:
    int findLast(const std::function<bool(const Entry &)> &matches) const; // the newest row that matches, or -1
    int findOpen(const QString &peerKey, const QJsonValue &id) const;
    int findCall(const ToolCall *call) const;
    void setState(int row, State state);
    void awaitApproval(int row); // a queued row (-1: none) now waits for the person
    void changed(int row);

    QList<Entry> m_entries;
    int m_capacity = 5000;
};
