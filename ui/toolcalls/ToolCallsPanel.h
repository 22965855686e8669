#pragma once

#include <QWidget>

class ToolCallLog;
class QPlainTextEdit;
class QTableView;

// The tool calls dock: the log as a table, and the selected row's request and response as
// pretty-printed JSON below it.
class ToolCallsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ToolCallsPanel(ToolCallLog *log, QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    QString detailText() const;
    // Writes the log as JSON lines; false with a sentence in *error when it cannot.
    bool exportTo(const QString &path, QString *error) const;

private:
    void showDetails();

    ToolCallLog *m_log;
    QTableView *m_table;
    QPlainTextEdit *m_details;
};
