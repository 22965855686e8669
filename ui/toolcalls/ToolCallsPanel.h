#pragma once

#include <QWidget>

class RequestTrace;
class ToolCallLog;
class QPlainTextEdit;
class QTableView;

// The tool calls dock: the log as a table that follows new calls (unless the person looks at
// an older one), and the selected call below it in words: who, the tool, why (the agent's
// description), its arguments, how it stands or ended (and what became of the job it left
// going), its answer as the agent read it; then the JSON-RPC request and response.
class ToolCallsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ToolCallsPanel(ToolCallLog *log, QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    QString detailText() const;
    // The selected call in words, without the JSON-RPC.
    static QString describe(const RequestTrace &trace);
    // Writes the log as JSON lines; false with a sentence in *error when it cannot.
    bool exportTo(const QString &path, QString *error) const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showDetails();
    // Widths that keep every column readable: the short ones as wide as their contents up to
    // a cap, the arguments the rest (never less than a readable minimum).
    void layoutColumns();
    void followNewRows();
    bool followsNewest() const; // nobody looks at an older call

    ToolCallLog *m_log;
    QTableView *m_table;
    QPlainTextEdit *m_details;
    bool m_layoutQueued = false;
};
