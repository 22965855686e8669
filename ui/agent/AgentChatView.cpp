#include "AgentChatView.h"

#include "ChatDocument.h"

#include <QScrollBar>

AgentChatView::AgentChatView(QWidget *parent) : QTextBrowser(parent), m_chat(new ChatDocument(document(), this))
{
    setObjectName(QStringLiteral("agentChat"));
    setOpenLinks(false);
    setOpenExternalLinks(false);
    setFrameShape(QFrame::NoFrame);
    setTextInteractionFlags(Qt::TextBrowserInteraction);
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        const QString href = url.toString();
        if (!m_chat->activateLink(href))
            Q_EMIT linkActivated(href);
    });
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this,
            [this](int value) { m_atEnd = value >= verticalScrollBar()->maximum() - 4; });
    // New text grows the range: the view goes with it while it was at the end.
    connect(verticalScrollBar(), &QScrollBar::rangeChanged, this, [this](int, int maximum) {
        if (m_atEnd)
            verticalScrollBar()->setValue(maximum);
    });
}

void AgentChatView::resizeEvent(QResizeEvent *event)
{
    const bool atEnd = m_atEnd;
    QTextBrowser::resizeEvent(event);
    if (atEnd)
        verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}
