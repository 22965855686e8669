#include "AgentPromptEdit.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QKeyEvent>
#include <QStringListModel>
#include <QTextBlock>

AgentPromptEdit::AgentPromptEdit(QWidget *parent)
    : HistoryEdit(parent), m_completer(new QCompleter(this)), m_model(new QStringListModel(this))
{
    setTabChangesFocus(true);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setPlaceholderText(tr("Ask the agent\u2026  (Enter sends, Shift+Enter a new line, / for its commands)"));
    m_completer->setModel(m_model);
    m_completer->setWidget(this);
    m_completer->setCompletionMode(QCompleter::UnfilteredPopupCompletion);
    m_completer->setMaxVisibleItems(10);
    connect(m_completer, qOverload<const QModelIndex &>(&QCompleter::activated), this,
            [this](const QModelIndex &index) { takeCommand(index.row()); });
}

void AgentPromptEdit::setCommands(const QList<Acp::AvailableCommand> &commands)
{
    m_commands.setCommands(commands);
    if (m_completer->popup()->isVisible())
        offerCommands();
}

QStringList AgentPromptEdit::offered() const
{
    return m_completer->popup()->isVisible() ? m_model->stringList() : QStringList();
}

void AgentPromptEdit::submit()
{
    const QString text = toPlainText();
    if (text.trimmed().isEmpty())
        return;
    remember(text);
    clear();
    Q_EMIT submitted(text);
}

void AgentPromptEdit::offerCommands()
{
    QString prefix;
    if (!SlashCommands::typingCommand(toPlainText(), textCursor().position(), &prefix)) {
        m_completer->popup()->hide();
        return;
    }
    m_offered = m_commands.matching(prefix);
    if (m_offered.isEmpty()) {
        m_completer->popup()->hide();
        return;
    }
    QStringList lines;
    for (const Acp::AvailableCommand &command : std::as_const(m_offered))
        lines << SlashCommands::describe(command);
    m_model->setStringList(lines);
    QRect where = cursorRect();
    where.setWidth(qMax(width() - where.left(), 300));
    m_completer->complete(where);
    m_completer->popup()->setCurrentIndex(m_model->index(0));
}

void AgentPromptEdit::takeCommand(int row)
{
    if (row < 0 || row >= m_offered.size())
        return;
    // The command's name replaces the "/..." typed so far; what follows stays.
    QTextCursor cursor(document());
    cursor.setPosition(0);
    cursor.setPosition(textCursor().position(), QTextCursor::KeepAnchor);
    cursor.insertText(SlashCommands::completion(m_offered.at(row)));
    setTextCursor(cursor);
    m_completer->popup()->hide();
}

void AgentPromptEdit::keyPressEvent(QKeyEvent *event)
{
    QAbstractItemView *popup = m_completer->popup();
    if (popup->isVisible()) {
        switch (event->key()) {
        case Qt::Key_Return:
        case Qt::Key_Enter:
        case Qt::Key_Tab:
            takeCommand(popup->currentIndex().isValid() ? popup->currentIndex().row() : 0);
            return;
        case Qt::Key_Escape:
            popup->hide();
            return;
        default:
            break;
        }
    }
    if (walkHistory(event))
        return;
    switch (event->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (event->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier))
            textCursor().insertBlock(); // a new line (a block, so that Up and Down know lines)
        else
            submit();
        return;
    case Qt::Key_Escape:
        Q_EMIT escapePressed();
        return;
    default:
        break;
    }
    QPlainTextEdit::keyPressEvent(event);
    offerCommands();
}
