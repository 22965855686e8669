#pragma once

#include "acp/AcpClient.h"
#include "acp/AcpTypes.h"
#include "acp/AgentCommand.h"

#include <QPointer>
#include <QWidget>

class AgentSession;
class QComboBox;
class QFrame;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;

// The top of the Agent panel: which agent (the chooser) and what it does (Start, Stop agent,
// Restart), its state in a sentence ("Starting Claude Code…", "Mock Agent 1.0.0 is ready.",
// "mock-agent exited with status 3: <its last stderr lines>"), what is missing to run it with
// the command that fixes it (Copy), and, when it is not logged in, a button per way to log in.
class AgentControls : public QWidget
{
    Q_OBJECT
public:
    explicit AgentControls(QWidget *parent = nullptr);

    void setAgents(const QList<AgentCommand> &agents, const QString &current);
    AgentCommand currentAgent() const;
    void setClient(AcpClient *client);
    void setSession(AgentSession *session);
    void setMissing(const QString &whatIsMissing, const QString &commandThatFixesIt);
    void setAuthMethods(const QList<Acp::AuthMethod> &methods);
    // A sentence for the state line until the state changes ("No agent is running: ...").
    void say(const QString &sentence);
    // The state line and the buttons again (a turn began or ended).
    void refresh();

    QString stateText() const;
    QString missingText() const;
    QStringList loginButtons() const;
    QComboBox *agentBox() const { return m_agents; }
    QPushButton *startButton() const { return m_start; }
    QPushButton *stopButton() const { return m_stop; }
    QPushButton *restartButton() const { return m_restart; }

Q_SIGNALS:
    void startRequested(const AgentCommand &agent);
    void stopRequested();
    void restartRequested();
    void loginRequested(const Acp::AuthMethod &method);
    // After a button: the keyboard goes back to the prompt box.
    void done();

private:
    void onExited(int exitCode, bool crashed, const QStringList &lastStderr);

    QPointer<AcpClient> m_client;
    QPointer<AgentSession> m_session;
    QList<QMetaObject::Connection> m_connections;
    QList<AgentCommand> m_agentList;
    QString m_exitText; // "exited with status 3: ..."
    QComboBox *m_agents;
    QPushButton *m_start;
    QPushButton *m_stop;
    QPushButton *m_restart;
    QLabel *m_state;
    QFrame *m_missing;
    QLabel *m_missingText;
    QLineEdit *m_missingCommand;
    QFrame *m_login;
    QLabel *m_loginText;
    QHBoxLayout *m_loginButtons;
};
