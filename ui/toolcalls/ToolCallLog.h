#pragma once

#include "toolapi/RequestTrace.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QJsonObject>

class McpServer;

// Every MCP request the app received, as rows of a table: time, client, tool (or method), a
// short summary of the arguments, state and duration (with the wait for the person's approval
// apart), with the full request and response. Widget-free; the tool calls dock shows it. It is
// McpServer's inspector: each row draws one RequestTrace, which the server, the access gate and
// the tools keep up to date; the log never looks a request up. Rows are capped (oldest dropped
// first).
class ToolCallLog : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TimeColumn, ClientColumn, ToolColumn, ArgumentsColumn, StateColumn, DurationColumn, ColumnCount };
    using State = RequestTrace::State;
    enum Role { RequestRole = Qt::UserRole + 1, ResponseRole, StateRole };

    explicit ToolCallLog(QObject *parent = nullptr);

    void attach(McpServer *server);
    // One row for this request, drawn again whenever it changes.
    void add(const RequestTracePtr &trace);
    void setCapacity(int rows) { m_capacity = rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const RequestTrace &entry(int row) const { return *m_entries.at(row); }
    static QString stateName(State state);
    // What the State column says of a request: its state, or, for a call that answered before
    // its job ended (handed off, parked), what became of that job since ("ended: done").
    static QString stateText(const RequestTrace &trace);
    // The colour of a state, readable on the table's background in light and dark themes.
    static QColor stateColour(State state, bool darkBackground);
    static QString summarize(const QJsonObject &arguments, int maxChars = 80);
    // "12 ms", or "40 ms · waited 3.2 s" for a request that waited for the person's approval;
    // empty until it ends.
    static QString durationText(const RequestTrace &trace);
    static QString millisecondsText(qint64 ms); // "12 ms", "3.2 s"
    // One JSON object per line, oldest first.
    QByteArray toJsonLines() const;

private:
    void redraw(const RequestTrace *trace);

    QList<RequestTracePtr> m_entries;
    int m_capacity = 5000;
};
