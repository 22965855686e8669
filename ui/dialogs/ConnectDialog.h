#pragma once

#include <QDialog>
#include <QList>

class EditorBridge;
class McpServer;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;

// "Connect an agent": for each MCP client the text that connects it (the app layer makes it,
// from ClientConfig) in a read-only box with a Copy button, and which clients are connected
// now, kept current from the server's peer signals.
class ConnectDialog : public QDialog
{
    Q_OBJECT
public:
    struct Client
    {
        QString id;    // "claude-code"
        QString title; // "Claude Code"
        QString where; // a sentence: where the text goes
        QString text;
    };

    ConnectDialog(McpServer *server, const QList<Client> &clients, QWidget *parent = nullptr);

    // The person's own editors (Swank) are listed with the agents, kept current.
    void showEditors(EditorBridge *editors);
    QString connectedText() const;
    QPlainTextEdit *textBox(const QString &id) const;
    QPushButton *copyButton(const QString &id) const;
    QTabWidget *tabs() const { return m_tabs; }

private:
    void updateConnected();

    McpServer *m_server;
    EditorBridge *m_editors = nullptr;
    QLabel *m_connected;
    QTabWidget *m_tabs;
};
