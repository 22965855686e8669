#pragma once

#include "acp/AcpClient.h"
#include "acp/AcpTypes.h"
#include "acp/AgentCommand.h"

#include <QPointer>
#include <QWidget>

class AgentChatView;
class AgentControls;
class AgentPromptEdit;
class AgentSession;
class ChatDocument;
class ContextChips;
class PermissionRequest;
class QComboBox;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QPushButton;
class QToolButton;
class RequestTrace;

// The Agent panel (issue 38): a coding agent hosted over ACP, in the window. It shows duet_acp's
// objects and asks for everything else through signals; the app's AgentHost starts the agent,
// makes the session and answers them. What it shows: the agent chooser with Start, Stop and
// Restart and the agent's state; what is missing to run it and the command that fixes it; the
// login buttons; the chat (ChatDocument: the prompts, the answer streamed and rendered, thoughts
// folded, tool calls as rows, notices); the plan as a checklist; the modes; the usage; earlier
// conversations to resume; the context chips; the prompt box; and a log of the agent's stderr
// and of what the connection ignored. The prompt box has the focus when the panel is shown.
class AgentPanel : public QWidget
{
    Q_OBJECT
public:
    explicit AgentPanel(QWidget *parent = nullptr);
    ~AgentPanel() override;

    // The chooser: the configured agents (the known ones, each found or not, and the person's),
    // `current` selected by name.
    void setAgents(const QList<AgentCommand> &agents, const QString &current = {});
    AgentCommand currentAgent() const;
    // The agent running (null: none): its state, failure, exit and log lines are followed.
    void setClient(AcpClient *client);
    AcpClient *client() const { return m_client; }
    // The session the chat shows (null: none); prompts and Stop go to it.
    void setSession(AgentSession *session);
    AgentSession *session() const { return m_session; }
    // What keeps the agent from running, and the command that fixes it; empty: nothing.
    void setMissing(const QString &whatIsMissing, const QString &commandThatFixesIt);
    // Not logged in: a Login button for each method (empty: none shown).
    void setAuthMethods(const QList<Acp::AuthMethod> &methods);
    // Earlier conversations the agent can resume.
    void setSessions(const QList<Acp::SessionInfo> &earlier);
    // Lisp Duet's own MCP call behind a chat row: the row shows the request's state, the REPL's
    // result and a parked debugger with the way to answer it.
    void showToolCallTrace(const QString &toolCallId, RequestTrace *trace);
    // A chip in the prompt box: goes with the next prompt as an embedded resource.
    void addContext(const Acp::ContentBlock &resource, const QString &label);

    // Sends `text` as the person's prompt, with the context chips, as Enter does; false (and a
    // sentence in the state line) when there is no session or a turn runs.
    bool sendPrompt(const QString &text);
    // Stop: the turn's session/cancel (pending permissions answered `cancelled`).
    void stopTurn();
    // Where the keyboard goes when the panel opens.
    void focusPrompt();
    void setZoom(double factor);

    QString stateText() const;
    QString missingText() const;
    QString usageText() const;
    QString planText() const;
    QString logText() const;
    QStringList loginButtons() const;
    QStringList earlierConversations() const;
    QStringList modeNames() const;
    QString currentModeName() const;
    ChatDocument *chat() const;
    AgentChatView *chatView() const { return m_chatView; }
    AgentPromptEdit *promptBox() const { return m_prompt; }
    ContextChips *chips() const { return m_chips; }
    QComboBox *modeBox() const { return m_modes; }
    AgentControls *controls() const { return m_controls; }
    QComboBox *agentBox() const;
    QPushButton *startButton() const;
    QPushButton *stopButton() const;
    QPushButton *restartButton() const;
    QPushButton *sendButton() const { return m_send; }
    QToolButton *logButton() const { return m_logButton; }
    QToolButton *earlierButton() const { return m_earlier; }

Q_SIGNALS:
    void startRequested(const AgentCommand &agent);
    void stopRequested();
    void restartRequested();
    void loginRequested(const Acp::AuthMethod &method);
    void listSessionsRequested();
    void resumeRequested(const QString &sessionId);
    void modeChosen(const QString &modeId);
    // The chat's links: "Answer it in the Debugger" under a parked call (the window raises the
    // Debugger dock and shows that debugger), and "Copy to the REPL input" under a Lisp block.
    void debuggerRequested(int debuggerId);
    void codeToInputRequested(const QString &code);

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void buildFooter(QLayout *layout);
    void updateState();
    void updatePlan();
    void updateModes();
    void updateUsage();
    void onTurnEnded(const QString &stopReason, const Acp::Error &error);
    void onPermission(PermissionRequest *request);
    void onExited(int exitCode, bool crashed);
    void onLink(const QString &href);
    void log(const QString &line);
    void notice(const QString &text, int severity);
    void applyTheme();

    QPointer<AcpClient> m_client;
    QPointer<AgentSession> m_session;
    QList<QMetaObject::Connection> m_clientConnections;
    QList<QMetaObject::Connection> m_sessionConnections;
    QList<AgentCommand> m_agentList;
    QString m_lastNotice;    // said once, whichever signal comes first
    double m_zoom = 1.0;
    double m_basePointSize = 0;

    AgentControls *m_controls;
    AgentChatView *m_chatView;
    QLabel *m_plan;
    QComboBox *m_modes;
    QToolButton *m_earlier;
    QMenu *m_earlierMenu;
    QLabel *m_usage;
    ContextChips *m_chips;
    AgentPromptEdit *m_prompt;
    QPushButton *m_send;
    QToolButton *m_logButton;
    QPlainTextEdit *m_log;
    int m_logLines = 0;
};
