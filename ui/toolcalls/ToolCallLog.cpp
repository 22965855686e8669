#include "ToolCallLog.h"

#include "server/McpServer.h"

#include <QBrush>
#include <QGuiApplication>
#include <QPalette>
#include <QColor>
#include <QJsonArray>
#include <QJsonDocument>

ToolCallLog::ToolCallLog(QObject *parent) : QAbstractTableModel(parent) {}

void ToolCallLog::attach(McpServer *server)
{
    connect(server, &McpServer::requestTraced, this, &ToolCallLog::add);
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
    case State::HandedOff: return tr("goes on as a job");
    case State::Parked: return tr("parked");
    }
    return {};
}

QString ToolCallLog::stateText(const RequestTrace &trace)
{
    if (!trace.isFollowed())
        return stateName(trace.state());
    return QStringLiteral("%1 \u2192 %2").arg(stateName(trace.state()), trace.followText());
}

QColor ToolCallLog::stateColour(State state, bool darkBackground)
{
    switch (state) {
    case State::Error:
    case State::Denied: return darkBackground ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x20, 0x20);
    case State::AwaitingApproval:
    case State::Parked:
    case State::AwaitingPerson: return darkBackground ? QColor(0xff, 0xc1, 0x6b) : QColor(0xa0, 0x5a, 0x00);
    case State::HandedOff:
    case State::Running: return darkBackground ? QColor(0x8a, 0xb8, 0xff) : QColor(0x0b, 0x57, 0xa3);
    default: return {};
    }
}

QString ToolCallLog::summarize(const QJsonObject &arguments, int maxChars)
{
    // The code (or the first string argument) says most; newlines would break the row.
    QString text;
    if (arguments.contains(QStringLiteral("code"))) {
        text = arguments.value(QStringLiteral("code")).toString();
    } else {
        // What the call is about first; the agent's reason (the transcript shows it) last.
        QStringList parts;
        QString reason;
        for (auto it = arguments.begin(); it != arguments.end(); ++it) {
            const QJsonValue value = it.value();
            const QString shown = value.isString() ? value.toString()
                                                   : QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
            if (it.key() == QLatin1String("description"))
                reason = it.key() + QLatin1Char('=') + shown;
            else
                parts << it.key() + QLatin1Char('=') + shown;
        }
        if (!reason.isEmpty())
            parts << reason;
        text = parts.join(QStringLiteral(", "));
    }
    text = text.simplified();
    if (text.size() > maxChars)
        text = text.left(maxChars - 1) + QChar(0x2026);
    return text;
}

QString ToolCallLog::millisecondsText(qint64 ms)
{
    if (ms < 1000)
        return tr("%1 ms").arg(ms);
    return tr("%1 s").arg(double(ms) / 1000.0, 0, 'f', ms < 10000 ? 1 : 0);
}

QString ToolCallLog::durationText(const RequestTrace &trace)
{
    if (!trace.isOver())
        return {};
    if (trace.waitedMs() == 0)
        return millisecondsText(trace.elapsedMs());
    return tr("%1 \u00b7 waited %2").arg(millisecondsText(trace.ranMs()), millisecondsText(trace.waitedMs()));
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
    const RequestTrace &e = *m_entries.at(index.row());
    if (role == RequestRole)
        return e.request();
    if (role == ResponseRole)
        return e.response();
    if (role == StateRole)
        return int(e.state());
    if (role == Qt::ForegroundRole && index.column() == StateColumn) {
        // The job it left going decides, once it is followed; the table's base colour says
        // which variant is readable (the dark theme's base is dark).
        const bool dark = QGuiApplication::palette().color(QPalette::Base).lightness() < 128;
        const QColor colour = stateColour(e.isFollowed() ? e.followState() : e.state(), dark);
        return colour.isValid() ? QVariant(QBrush(colour)) : QVariant();
    }
    if (role == Qt::ToolTipRole && index.column() == StateColumn)
        return stateText(e);
    if (role == Qt::ToolTipRole && index.column() == ArgumentsColumn) {
        if (!e.refusal().isEmpty())
            return e.refusal();
        QString tip = summarize(e.arguments(), 2000);
        if (e.hasChange())
            tip += QStringLiteral("\n") + tr("Changes %1: %2").arg(e.change().path, e.change().summary);
        return tip;
    }
    if (role == Qt::ToolTipRole && index.column() == DurationColumn && e.isOver() && e.waitedMs() > 0)
        return tr("Waited %1 for the person, ran %2").arg(millisecondsText(e.waitedMs()), millisecondsText(e.ranMs()));
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case TimeColumn: return e.receivedAt().toString(QStringLiteral("HH:mm:ss"));
    case ClientColumn: return e.client();
    case ToolColumn: return e.tool().isEmpty() ? e.method() : e.tool();
    case ArgumentsColumn: return summarize(e.arguments());
    // What it is now, short enough for the column: what became of its job once followed
    // ("ended: done"); the tooltip and the detail pane have the whole story.
    case StateColumn: return e.isFollowed() ? e.followText() : stateName(e.state());
    case DurationColumn: return durationText(e);
    }
    return {};
}

void ToolCallLog::add(const RequestTracePtr &trace)
{
    if (m_entries.size() >= m_capacity) {
        beginRemoveRows({}, 0, 0);
        m_entries.removeFirst();
        endRemoveRows();
    }
    beginInsertRows({}, int(m_entries.size()), int(m_entries.size()));
    m_entries.append(trace);
    endInsertRows();
    const RequestTrace *raw = trace.data();
    connect(raw, &RequestTrace::changed, this, [this, raw] { redraw(raw); });
}

void ToolCallLog::redraw(const RequestTrace *trace)
{
    // The newest rows change most: look from the end. A trace whose row went beyond the
    // capacity has none.
    for (int row = int(m_entries.size()) - 1; row >= 0; --row) {
        if (m_entries.at(row).data() == trace) {
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
            return;
        }
    }
}

QByteArray ToolCallLog::toJsonLines() const
{
    QByteArray out;
    for (const RequestTracePtr &trace : m_entries) {
        const RequestTrace &e = *trace;
        QJsonObject line{{QStringLiteral("time"), e.receivedAt().toString(Qt::ISODateWithMs)},
                         {QStringLiteral("client"), e.client()},
                         {QStringLiteral("method"), e.method()},
                         {QStringLiteral("state"), stateName(e.state())},
                         {QStringLiteral("request"), e.request()}};
        if (!e.tool().isEmpty())
            line.insert(QStringLiteral("tool"), e.tool());
        if (e.isOver()) {
            line.insert(QStringLiteral("duration_ms"), double(e.elapsedMs()));
            if (e.waitedMs() > 0)
                line.insert(QStringLiteral("waited_ms"), double(e.waitedMs()));
            if (!e.response().isEmpty())
                line.insert(QStringLiteral("response"), e.response());
        }
        if (!e.refusal().isEmpty())
            line.insert(QStringLiteral("refusal"), e.refusal());
        if (e.jobId() != 0)
            line.insert(QStringLiteral("job"), double(e.jobId()));
        if (e.isFollowed())
            line.insert(QStringLiteral("job_state"), e.followText());
        if (e.hasChange())
            line.insert(QStringLiteral("file_change"), QJsonObject{{QStringLiteral("path"), e.change().path},
                                                                   {QStringLiteral("summary"), e.change().summary}});
        out += QJsonDocument(line).toJson(QJsonDocument::Compact);
        out += '\n';
    }
    return out;
}
