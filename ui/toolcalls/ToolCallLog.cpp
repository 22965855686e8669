#include "ToolCallLog.h"

#include "JsonRpc.h"
#include "McpPeer.h"
#include "McpServer.h"
#include "Session.h"

#include <QBrush>
#include <QColor>
#include <QJsonArray>
#include <QJsonDocument>

ToolCallLog::ToolCallLog(QObject *parent) : QAbstractTableModel(parent) {}

void ToolCallLog::attach(McpServer *server, Session *session)
{
    connect(server, &McpServer::requestReceived, this, &ToolCallLog::onRequest);
    connect(server, &McpServer::toolCallQueued, this, &ToolCallLog::onQueued);
    connect(server, &McpServer::toolCallRefused, this, &ToolCallLog::onRefused);
    connect(server, &McpServer::responseSent, this, &ToolCallLog::onResponse);
    connect(session, &Session::started, this, &ToolCallLog::onJobStarted);
}

QString ToolCallLog::stateName(State state)
{
    switch (state) {
    case State::Queued: return tr("queued");
    case State::AwaitingApproval: return tr("awaiting approval");
    case State::AwaitingPerson: return tr("waiting for the person");
    case State::Running: return tr("running");
    case State::Done: return tr("done");
    case State::Error: return tr("error");
    case State::Cancelled: return tr("cancelled");
    case State::Denied: return tr("denied");
    }
    return {};
}

QString ToolCallLog::summarize(const QJsonObject &arguments, int maxChars)
{
    // The code (or the first string argument) says most; newlines would break the row.
    QString text;
    if (arguments.contains(QStringLiteral("code"))) {
        text = arguments.value(QStringLiteral("code")).toString();
    } else {
        QStringList parts;
        for (auto it = arguments.begin(); it != arguments.end(); ++it) {
            const QJsonValue value = it.value();
            QString shown = value.isString() ? value.toString()
                                             : QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
            parts << it.key() + QLatin1Char('=') + shown;
        }
        text = parts.join(QStringLiteral(", "));
    }
    text = text.simplified();
    if (text.size() > maxChars)
        text = text.left(maxChars - 1) + QChar(0x2026);
    return text;
}

int ToolCallLog::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int ToolCallLog::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ToolCallLog::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn: return tr("Time");
    case ClientColumn: return tr("Client");
    case ToolColumn: return tr("Tool");
    case ArgumentsColumn: return tr("Arguments");
    case StateColumn: return tr("State");
    case DurationColumn: return tr("Duration");
    }
    return {};
}

QVariant ToolCallLog::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_entries.size())
        return {};
    const Entry &e = m_entries.at(index.row());
    if (role == RequestRole)
        return e.request;
    if (role == ResponseRole)
        return e.response;
    if (role == StateRole)
        return int(e.state);
    if (role == Qt::ForegroundRole && index.column() == StateColumn) {
        switch (e.state) {
        case State::Error:
        case State::Denied: return QBrush(QColor(0xb0, 0x20, 0x20));
        case State::AwaitingApproval:
        case State::AwaitingPerson: return QBrush(QColor(0xa0, 0x5a, 0x00));
        case State::Running: return QBrush(QColor(0x0b, 0x57, 0xa3));
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == ArgumentsColumn)
        return e.refusal.isEmpty() ? summarize(e.request.value(QStringLiteral("params")).toObject()
                                                   .value(QStringLiteral("arguments")).toObject(), 2000)
                                   : e.refusal;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case TimeColumn: return e.received.toString(QStringLiteral("HH:mm:ss"));
    case ClientColumn: return e.client;
    case ToolColumn: return e.tool.isEmpty() ? e.method : e.tool;
    case ArgumentsColumn: return e.summary;
    case StateColumn: return stateName(e.state);
    case DurationColumn:
        if (!e.finished.isValid())
            return QString();
        return QStringLiteral("%1 ms").arg(e.received.msecsTo(e.finished));
    }
    return {};
}

void ToolCallLog::onRequest(McpPeer *peer, const QJsonObject &request)
{
    Entry e;
    e.peerKey = peer->key();
    e.id = request.value(QStringLiteral("id"));
    e.idKey = JsonRpc::idKey(e.id);
    e.received = QDateTime::currentDateTime();
    e.method = request.value(QStringLiteral("method")).toString();
    const QJsonObject params = request.value(QStringLiteral("params")).toObject();
    // initialize names the client before the peer knows it.
    e.client = e.method == QStringLiteral("initialize")
        ? params.value(QStringLiteral("clientInfo")).toObject().value(QStringLiteral("name")).toString(peer->clientName())
        : peer->clientName();
    if (e.method == QStringLiteral("tools/call")) {
        e.tool = params.value(QStringLiteral("name")).toString();
        e.summary = summarize(params.value(QStringLiteral("arguments")).toObject());
    } else {
        e.summary = summarize(params);
        e.state = State::Running;
    }
    e.request = request;
    if (m_entries.size() >= m_capacity) {
        beginRemoveRows({}, 0, 0);
        m_entries.removeFirst();
        endRemoveRows();
    }
    beginInsertRows({}, int(m_entries.size()), int(m_entries.size()));
    m_entries.append(e);
    endInsertRows();
}

int ToolCallLog::findLast(const std::function<bool(const Entry &)> &matches) const
{
    for (int row = int(m_entries.size()) - 1; row >= 0; --row) {
        if (matches(m_entries.at(row)))
            return row;
    }
    return -1;
}

int ToolCallLog::findOpen(const QString &peerKey, const QJsonValue &id) const
{
    const QString key = JsonRpc::idKey(id);
    return findLast([&](const Entry &e) { return e.peerKey == peerKey && e.idKey == key && !e.finished.isValid(); });
}

int ToolCallLog::findCall(const ToolCall *call) const
{
    return findLast([call](const Entry &e) { return e.call.data() == call; });
}

void ToolCallLog::awaitApproval(int row)
{
    if (row >= 0 && m_entries[row].state == State::Queued)
        setState(row, State::AwaitingApproval);
}

void ToolCallLog::changed(int row)
{
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void ToolCallLog::setState(int row, State state)
{
    m_entries[row].state = state;
    changed(row);
}

void ToolCallLog::onQueued(McpPeer *peer, const QJsonValue &id, const ToolCallPtr &call)
{
    const int row = findOpen(peer->key(), id);
    if (row < 0)
        return;
    m_entries[row].call = call;
    // Cancelled calls get no response, so the log learns of it from the call itself.
    const ToolCall *raw = call.data();
    connect(raw, &ToolCall::cancelled, this, [this, raw] {
        const int r = findCall(raw);
        if (r >= 0 && !m_entries[r].finished.isValid()) {
            m_entries[r].finished = QDateTime::currentDateTime();
            m_entries[r].call.reset(); // the log keeps the messages, not the call
            setState(r, State::Cancelled);
        }
    });
}

void ToolCallLog::markAwaitingApproval(const ToolCallPtr &call)
{
    awaitApproval(findCall(call.data()));
}

void ToolCallLog::markAwaitingPerson(const ToolCallPtr &call)
{
    const int row = findCall(call.data());
    if (row >= 0 && !m_entries[row].finished.isValid())
        setState(row, State::AwaitingPerson);
}

void ToolCallLog::markChangeAwaitingApproval(const FileChange &change)
{
    if (change.proposedBy != 0)
        awaitApproval(findLast([&change](const Entry &e) { return e.call && e.call->serial() == change.proposedBy; }));
}

void ToolCallLog::onRefused(McpPeer *peer, const QJsonValue &id, const QString &reason)
{
    const int row = findOpen(peer->key(), id);
    if (row < 0)
        return;
    m_entries[row].refusal = reason;
    setState(row, State::Denied);
}

void ToolCallLog::onJobStarted(const JobPtr &job)
{
    const int row = findLast([&job](const Entry &e) { return e.call && e.call->jobId == job->id && !e.finished.isValid(); });
    if (row >= 0)
        setState(row, State::Running);
}

void ToolCallLog::onResponse(McpPeer *peer, const QJsonValue &id, const QJsonObject &response)
{
    const int row = findOpen(peer->key(), id);
    if (row < 0)
        return;
    Entry &e = m_entries[row];
    e.response = response;
    e.finished = QDateTime::currentDateTime();
    e.call.reset(); // a finished call is released; the log keeps its messages
    if (e.client == QStringLiteral("agent"))
        e.client = peer->clientName();
    if (e.state != State::Denied && e.state != State::Cancelled) {
        const bool failed = response.contains(QStringLiteral("error"))
            || response.value(QStringLiteral("result")).toObject().value(QStringLiteral("isError")).toBool();
        e.state = failed ? State::Error : State::Done;
    }
    changed(row);
}

QByteArray ToolCallLog::toJsonLines() const
{
    QByteArray out;
    for (const Entry &e : m_entries) {
        QJsonObject line{{QStringLiteral("time"), e.received.toString(Qt::ISODateWithMs)},
                         {QStringLiteral("client"), e.client},
                         {QStringLiteral("method"), e.method},
                         {QStringLiteral("state"), stateName(e.state)},
                         {QStringLiteral("request"), e.request}};
        if (!e.tool.isEmpty())
            line.insert(QStringLiteral("tool"), e.tool);
        if (e.finished.isValid()) {
            line.insert(QStringLiteral("duration_ms"), double(e.received.msecsTo(e.finished)));
            if (!e.response.isEmpty())
                line.insert(QStringLiteral("response"), e.response);
        }
        if (!e.refusal.isEmpty())
            line.insert(QStringLiteral("refusal"), e.refusal);
        out += QJsonDocument(line).toJson(QJsonDocument::Compact);
        out += '\n';
    }
    return out;
}
