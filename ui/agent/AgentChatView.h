#pragma once

#include <QTextBrowser>

class ChatDocument;

// The chat as the person sees it: the ChatDocument's text, read-only, selectable, links
// followed by keyboard (Tab, Enter) or mouse, and kept at its end while the agent writes unless
// the person scrolled up to read.
class AgentChatView : public QTextBrowser
{
    Q_OBJECT
public:
    explicit AgentChatView(QWidget *parent = nullptr);

    ChatDocument *chat() const { return m_chat; }
    bool followsEnd() const { return m_atEnd; }

Q_SIGNALS:
    // A link the document does not handle itself: "debugger:N", "code:N", a web address.
    void linkActivated(const QString &href);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    ChatDocument *m_chat;
    bool m_atEnd = true;
};
