#pragma once

#include "CommandHistory.h"

#include <QPlainTextEdit>

class QKeyEvent;

// A plain-text input that remembers what was sent from it (the REPL's input, the Agent panel's
// prompt box): Up on the first line and Down on the last walk its CommandHistory (edits to a
// recalled entry are kept), and each text sent is added to the history and saved in the history
// file. What the keys do otherwise, and what counts as sent, is the input's own business.
class HistoryEdit : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit HistoryEdit(QWidget *parent = nullptr) : QPlainTextEdit(parent) {}

    CommandHistory &history() { return m_history; }
    // Where the history lives between runs; loaded now, saved after every text sent.
    void setHistoryFile(const QString &path);
    QString historyFile() const { return m_historyFile; }

protected:
    // Adds a text sent to the history, and saves the history.
    void remember(const QString &text);
    // Up on the first line or Down on the last, without Shift or Ctrl: the previous or next
    // entry replaces the text. False for every other key (the event is left to the caller).
    bool walkHistory(const QKeyEvent *event);
    // The whole text becomes `text`, the cursor at its end.
    void replaceText(const QString &text);

private:
    CommandHistory m_history;
    QString m_historyFile;
};
