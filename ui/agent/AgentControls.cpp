#include "AgentControls.h"

#include "acp/AgentSession.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace {
QFrame *banner(QWidget *parent, const QString &name)
{
    auto *frame = new QFrame(parent);
    frame->setObjectName(name);
    frame->setFrameShape(QFrame::StyledPanel);
    frame->setVisible(false);
    return frame;
}
} // namespace

AgentControls::AgentControls(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    auto *row = new QHBoxLayout;
    row->setSpacing(4);
    auto *label = new QLabel(tr("&Agent:"), this);
    m_agents = new QComboBox(this);
    m_agents->setObjectName(QStringLiteral("agentChooser"));
    m_agents->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    label->setBuddy(m_agents);
    m_start = new QPushButton(tr("&Start"), this);
    m_stop = new QPushButton(tr("Stop a&gent"), this);
    m_restart = new QPushButton(tr("&Restart"), this);
    m_start->setToolTip(tr("Start the chosen agent in this window's session"));
    m_stop->setToolTip(tr("End the agent's process (and every process it started)"));
    m_restart->setToolTip(tr("End the agent and start it again"));
    row->addWidget(label);
    row->addWidget(m_agents, 1);
    row->addWidget(m_start);
    row->addWidget(m_stop);
    row->addWidget(m_restart);
    layout->addLayout(row);
    connect(m_start, &QPushButton::clicked, this, [this] {
        Q_EMIT startRequested(currentAgent());
        Q_EMIT done();
    });
    connect(m_stop, &QPushButton::clicked, this, [this] {
        Q_EMIT stopRequested();
        Q_EMIT done();
    });
    connect(m_restart, &QPushButton::clicked, this, [this] {
        Q_EMIT restartRequested();
        Q_EMIT done();
    });

    m_state = new QLabel(this);
    m_state->setObjectName(QStringLiteral("agentState"));
    m_state->setWordWrap(true);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_state);

    m_missing = banner(this, QStringLiteral("agentMissing"));
    auto *missing = new QVBoxLayout(m_missing);
    missing->setContentsMargins(8, 6, 8, 6);
    m_missingText = new QLabel(m_missing);
    m_missingText->setWordWrap(true);
    auto *commandRow = new QHBoxLayout;
    m_missingCommand = new QLineEdit(m_missing);
    m_missingCommand->setReadOnly(true);
    m_missingCommand->setFont(QFont(QStringLiteral("DejaVu Sans Mono")));
    auto *copy = new QPushButton(tr("&Copy"), m_missing);
    copy->setToolTip(tr("Copy the command: run it in a terminal, then Start again"));
    connect(copy, &QPushButton::clicked, this, [this] { QGuiApplication::clipboard()->setText(m_missingCommand->text()); });
    commandRow->addWidget(m_missingCommand, 1);
    commandRow->addWidget(copy);
    missing->addWidget(m_missingText);
    missing->addLayout(commandRow);
    layout->addWidget(m_missing);

    m_login = banner(this, QStringLiteral("agentLogin"));
    auto *login = new QVBoxLayout(m_login);
    login->setContentsMargins(8, 6, 8, 6);
    m_loginText = new QLabel(m_login);
    m_loginText->setWordWrap(true);
    m_loginButtons = new QHBoxLayout;
    m_loginButtons->addStretch(1);
    login->addWidget(m_loginText);
    login->addLayout(m_loginButtons);
    layout->addWidget(m_login);
}

void AgentControls::setAgents(const QList<AgentCommand> &agents, const QString &current)
{
    m_agentList = agents;
    m_agents->clear();
    for (const AgentCommand &agent : agents) {
        const bool found = !agent.resolvedProgram().isEmpty();
        m_agents->addItem(found ? agent.name : tr("%1 (not installed)").arg(agent.name));
        m_agents->setItemData(m_agents->count() - 1, agent.commandLine(), Qt::ToolTipRole);
        if (agent.name == current)
            m_agents->setCurrentIndex(m_agents->count() - 1);
    }
    refresh();
}

AgentCommand AgentControls::currentAgent() const
{
    return m_agentList.value(m_agents->currentIndex());
}

void AgentControls::setClient(AcpClient *client)
{
    for (const QMetaObject::Connection &connection : std::as_const(m_connections))
        disconnect(connection);
    m_connections.clear();
    m_client = client;
    m_exitText.clear();
    if (client) {
        m_connections << connect(client, &AcpClient::stateChanged, this, &AgentControls::refresh)
                      << connect(client, &AcpClient::exited, this, &AgentControls::onExited);
    }
    refresh();
}

void AgentControls::setSession(AgentSession *session)
{
    m_session = session;
    refresh();
}

void AgentControls::onExited(int exitCode, bool crashed, const QStringList &lastStderr)
{
    m_exitText = crashed ? tr("was killed") : tr("exited with status %1").arg(exitCode);
    if (!lastStderr.isEmpty())
        m_exitText += QStringLiteral(": ") + lastStderr.mid(qMax(0, int(lastStderr.size()) - 3)).join(QStringLiteral(" / "));
    refresh();
}

void AgentControls::setMissing(const QString &whatIsMissing, const QString &commandThatFixesIt)
{
    m_missingText->setText(whatIsMissing);
    m_missingCommand->setText(commandThatFixesIt);
    m_missingCommand->setVisible(!commandThatFixesIt.isEmpty());
    m_missing->setVisible(!whatIsMissing.isEmpty());
    refresh();
}

void AgentControls::setAuthMethods(const QList<Acp::AuthMethod> &methods)
{
    while (m_loginButtons->count() > 1) {
        QLayoutItem *item = m_loginButtons->takeAt(0);
        delete item->widget();
        delete item;
    }
    const QString name = m_client ? m_client->command().name : tr("The agent");
    m_loginText->setText(tr("%1 needs you to log in. Choose how:").arg(name));
    for (const Acp::AuthMethod &method : methods) {
        auto *button = new QPushButton(method.isTerminal() ? tr("%1 (in a terminal)").arg(method.name) : method.name, m_login);
        button->setObjectName(QStringLiteral("loginButton"));
        QString tip = method.description;
        if (method.isTerminal() && m_client)
            tip += (tip.isEmpty() ? QString() : QStringLiteral("\n")) + tr("Runs: %1").arg(m_client->command().forLogin(method).commandLine());
        button->setToolTip(tip);
        connect(button, &QPushButton::clicked, this, [this, method] { Q_EMIT loginRequested(method); });
        m_loginButtons->insertWidget(m_loginButtons->count() - 1, button);
    }
    m_login->setVisible(!methods.isEmpty());
}

void AgentControls::say(const QString &sentence)
{
    m_state->setText(sentence);
}

void AgentControls::refresh()
{
    QString text;
    const QString name = m_client ? m_client->command().name : QString();
    const AcpClient::State state = m_client ? m_client->state() : AcpClient::State::Idle;
    switch (state) {
    case AcpClient::State::Idle:
        text = m_client                         ? tr("%1 is not started.").arg(name)
               : !m_missingText->text().isEmpty() ? tr("%1 cannot start yet: what it needs is below.").arg(currentAgent().name)
                                                  : tr("No agent is running. Choose one and press Start.");
        break;
    case AcpClient::State::Starting:
    case AcpClient::State::Initializing:
        text = tr("Starting %1\u2026").arg(name);
        break;
    case AcpClient::State::Ready: {
        const Acp::AgentInfo &info = m_client->capabilities().info;
        const QString who = info.title.isEmpty() ? name : info.version.isEmpty() ? info.title : info.title + QLatin1Char(' ') + info.version;
        text = !m_session                ? tr("%1 is ready; opening a conversation\u2026").arg(who)
               : m_session->isPrompting() ? tr("%1 is answering\u2026 (Esc stops it)").arg(who)
                                          : tr("%1 is ready.").arg(who);
        break;
    }
    case AcpClient::State::Failed:
        text = m_client->failure();
        break;
    case AcpClient::State::Exited:
        text = tr("%1 %2. Restart starts it again.").arg(name, m_exitText.isEmpty() ? tr("ended") : m_exitText);
        break;
    }
    m_state->setText(text);

    const bool running = state == AcpClient::State::Starting || state == AcpClient::State::Initializing || state == AcpClient::State::Ready;
    const bool hadFocus = m_start->hasFocus() || m_stop->hasFocus() || m_restart->hasFocus();
    m_start->setEnabled(!running && m_agents->count() > 0);
    m_stop->setEnabled(running);
    m_restart->setEnabled(m_client != nullptr);
    m_agents->setEnabled(!running);
    if (hadFocus && !QApplication::focusWidget())
        Q_EMIT done(); // a button that went disabled does not leave the keyboard nowhere
}

QString AgentControls::stateText() const
{
    return m_state->text();
}

QString AgentControls::missingText() const
{
    return m_missing->isVisibleTo(this) ? m_missingText->text() + QLatin1Char('\n') + m_missingCommand->text() : QString();
}

QStringList AgentControls::loginButtons() const
{
    QStringList texts;
    if (!m_login->isVisibleTo(this))
        return texts;
    for (const QPushButton *button : m_login->findChildren<QPushButton *>(QStringLiteral("loginButton")))
        texts << button->text();
    return texts;
}
