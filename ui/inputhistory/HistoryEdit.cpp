#include "HistoryEdit.h"

#include <QKeyEvent>
#include <QLoggingCategory>
#include <QTextBlock>

Q_LOGGING_CATEGORY(lcHistory, "duet.ui.history")

void HistoryEdit::setHistoryFile(const QString &path)
{
    m_historyFile = path;
    QString error;
    if (!m_history.load(path, &error) && !error.isEmpty())
        qCInfo(lcHistory) << "history not loaded:" << error;
}

void HistoryEdit::remember(const QString &text)
{
    m_history.add(text);
    if (m_historyFile.isEmpty())
        return;
    QString error;
    if (!m_history.save(m_historyFile, &error))
        qCWarning(lcHistory) << "history not saved:" << error;
}

bool HistoryEdit::walkHistory(const QKeyEvent *event)
{
    if (event->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier))
        return false;
    const QTextCursor cursor = textCursor();
    if (event->key() == Qt::Key_Up && cursor.blockNumber() == 0) {
        replaceText(m_history.previous(toPlainText()));
        return true;
    }
    if (event->key() == Qt::Key_Down && cursor.blockNumber() == document()->blockCount() - 1) {
        replaceText(m_history.next(toPlainText()));
        return true;
    }
    return false;
}

void HistoryEdit::replaceText(const QString &text)
{
    QTextCursor cursor(document());
    cursor.select(QTextCursor::Document);
    cursor.insertText(text);
    cursor.movePosition(QTextCursor::End);
    setTextCursor(cursor);
}
