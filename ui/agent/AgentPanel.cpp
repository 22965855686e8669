#include "AgentPanel.h"

#include "AgentChatView.h"
#include "AgentPromptEdit.h"
#include "ChatDocument.h"
#include "ContextChips.h"

#include "acp/AgentSession.h"
#include "acp/PermissionRequest.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QDesktopServices>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTextDocumentFragment>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

namespace {
using Severity = ChatDocument::Severity;

QFrame *banner(QWidget *parent, const QString &name)
{
    auto *frame = new QFrame(parent);
    frame->setObjectName(name);
    frame->setFrameShape(QFrame::StyledPanel);
    frame->setVisible(false);
    return frame;
}

QString tokens(qint64 count)
{
    if (count >= 10000)
        return QStringLiteral("%1k").arg(QLocale().toString(double(count) / 1000.0, 'f', count >= 100000 ? 0 : 1));
    return QLocale().toString(count);
}

QString permissionOutcome(const PermissionRequest &request)
{
    switch (request.outcome()) {
    case PermissionRequest::Outcome::Selected:
        for (const Acp::PermissionOption &option : request.options()) {
            if (option.id != request.selectedOptionId())
                continue;
            if (option.kind == QLatin1String("allow_once"))
                return QObject::tr("you allowed it once");
            if (option.kind == QLatin1String("allow_always"))
                return QObject::tr("you allowed it from now on");
            if (option.kind.startsWith(QLatin1String("reject")))
                return QObject::tr("you rejected it");
            return QObject::tr("you chose \u201c%1\u201d").arg(option.name);
        }
        return QObject::tr("answered");
    case PermissionRequest::Outcome::Cancelled: return QObject::tr("not asked any more: the turn was stopped");
    case PermissionRequest::Outcome::Withdrawn: return QObject::tr("the agent withdrew the question");
    case PermissionRequest::Outcome::Pending: break;
    }
    return {};
}
} // namespace

AgentPanel::AgentPanel(QWidget *parent)
    : QWidget(parent), m_chatView(new AgentChatView(this)), m_chips(new ContextChips(this)), m_prompt(new AgentPromptEdit(this))
{
    setObjectName(QStringLiteral("agentPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    buildHeader(layout);
    layout->addWidget(m_chatView, 1);
    buildFooter(layout);

    m_prompt->setObjectName(QStringLiteral("agentPrompt"));
    const QString dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (!dataDir.isEmpty())
        m_prompt->setHistoryFile(dataDir + QStringLiteral("/agent-prompts.jsonl"));
    connect(m_prompt, &AgentPromptEdit::submitted, this, [this](const QString &text) {
        if (!sendPrompt(text))
            m_prompt->setPlainText(text); // nothing lost: it waits for a session or the turn's end
    });
    connect(m_prompt, &AgentPromptEdit::escapePressed, this, &AgentPanel::stopTurn);
    connect(m_chatView, &AgentChatView::linkActivated, this, &AgentPanel::onLink);
    connect(chat(), &ChatDocument::ignored, this, &AgentPanel::log);
    setFocusProxy(m_prompt);
    applyTheme();
    setClient(nullptr);
}

AgentPanel::~AgentPanel()
{
    // No signal of the agent or its session may reach a half-destroyed panel.
    for (const QMetaObject::Connection &connection : std::as_const(m_sessionConnections) + std::as_const(m_clientConnections))
        disconnect(connection);
}

void AgentPanel::buildHeader(QLayout *layout)
{
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
    layout->addItem(row);
    connect(m_start, &QPushButton::clicked, this, [this] {
        Q_EMIT startRequested(currentAgent());
        focusPrompt();
    });
    connect(m_stop, &QPushButton::clicked, this, [this] {
        Q_EMIT stopRequested();
        focusPrompt();
    });
    connect(m_restart, &QPushButton::clicked, this, [this] {
        Q_EMIT restartRequested();
        focusPrompt();
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

void AgentPanel::buildFooter(QLayout *layout)
{
    m_plan = new QLabel(this);
    m_plan->setObjectName(QStringLiteral("agentPlan"));
    m_plan->setWordWrap(true);
    m_plan->setTextFormat(Qt::RichText);
    m_plan->setVisible(false);
    m_plan->setContentsMargins(6, 4, 6, 4);
    layout->addWidget(m_plan);

    auto *row = new QHBoxLayout;
    row->setSpacing(6);
    auto *modeLabel = new QLabel(tr("&Mode:"), this);
    m_modes = new QComboBox(this);
    m_modes->setObjectName(QStringLiteral("agentMode"));
    modeLabel->setBuddy(m_modes);
    modeLabel->setVisible(false);
    m_modes->setVisible(false);
    connect(m_modes, &QComboBox::activated, this, [this, modeLabel](int index) {
        Q_UNUSED(modeLabel)
        Q_EMIT modeChosen(m_modes->itemData(index).toString());
        focusPrompt();
    });
    m_earlier = new QToolButton(this);
    m_earlier->setObjectName(QStringLiteral("agentEarlier"));
    m_earlier->setText(tr("&Earlier conversations"));
    m_earlier->setPopupMode(QToolButton::InstantPopup);
    m_earlierMenu = new QMenu(m_earlier);
    m_earlier->setMenu(m_earlierMenu);
    m_earlier->setVisible(false);
    connect(m_earlierMenu, &QMenu::aboutToShow, this, &AgentPanel::listSessionsRequested);
    m_usage = new QLabel(this);
    m_usage->setObjectName(QStringLiteral("agentUsage"));
    m_usage->setForegroundRole(QPalette::PlaceholderText);
    row->addWidget(modeLabel);
    row->addWidget(m_modes);
    row->addWidget(m_earlier);
    row->addStretch(1);
    row->addWidget(m_usage);
    layout->addItem(row);
    m_modes->setProperty("label", QVariant::fromValue<QObject *>(modeLabel));

    layout->addWidget(m_chips);
    auto *promptRow = new QHBoxLayout;
    promptRow->setSpacing(4);
    m_prompt->setMinimumHeight(m_prompt->fontMetrics().lineSpacing() * 3 + 12);
    m_prompt->setMaximumHeight(m_prompt->fontMetrics().lineSpacing() * 8 + 12);
    m_send = new QPushButton(tr("Send"), this);
    m_send->setObjectName(QStringLiteral("agentSend"));
    m_send->setToolTip(tr("Send the prompt (Enter)"));
    connect(m_send, &QPushButton::clicked, this, [this] {
        if (m_session && m_session->isPrompting())
            stopTurn();
        else
            m_prompt->submit();
        focusPrompt();
    });
    promptRow->addWidget(m_prompt, 1);
    promptRow->addWidget(m_send, 0, Qt::AlignBottom);
    layout->addItem(promptRow);

    m_logButton = new QToolButton(this);
    m_logButton->setObjectName(QStringLiteral("agentLogButton"));
    m_logButton->setCheckable(true);
    m_logButton->setAutoRaise(true);
    m_logButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_logButton->setArrowType(Qt::RightArrow);
    m_log = new QPlainTextEdit(this);
    m_log->setObjectName(QStringLiteral("agentLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_log->setVisible(false);
    m_log->setMaximumHeight(160);
    m_log->setFont(QFont(QStringLiteral("DejaVu Sans Mono")));
    connect(m_logButton, &QToolButton::toggled, this, [this](bool open) {
        m_log->setVisible(open);
        m_logButton->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    });
    layout->addWidget(m_logButton);
    layout->addWidget(m_log);
    log({}); // the button's text
}

// --- what the host gives -----------------------------------------------------------------------

void AgentPanel::setAgents(const QList<AgentCommand> &agents, const QString &current)
{
    m_agentList = agents;
    m_agents->clear();
    for (const AgentCommand &agent : agents) {
        const bool found = !agent.resolvedProgram().isEmpty();
        m_agents->addItem(found ? agent.name : tr("%1 (not installed)").arg(agent.name));
        m_agents->setItemData(m_agents->count() - 1, agent.commandLine(), Qt::ToolTipRole);
    }
    for (int i = 0; i < agents.size(); ++i) {
        if (agents.at(i).name == current)
            m_agents->setCurrentIndex(i);
    }
    updateButtons();
}

AgentCommand AgentPanel::currentAgent() const
{
    return m_agentList.value(m_agents->currentIndex());
}

void AgentPanel::setClient(AcpClient *client)
{
    for (const QMetaObject::Connection &connection : std::as_const(m_clientConnections))
        disconnect(connection);
    m_clientConnections.clear();
    m_client = client;
    m_exitText.clear();
    if (client) {
        m_clientConnections << connect(client, &AcpClient::stateChanged, this, &AgentPanel::updateState)
                            << connect(client, &AcpClient::failed, this, [this](const QString &message) {
                                   notice(message, int(Severity::Error));
                                   log(message);
                               })
                            << connect(client, &AcpClient::exited, this, &AgentPanel::onExited)
                            << connect(client, &AcpClient::logLine, this, &AgentPanel::log)
                            << connect(client, &QObject::destroyed, this, [this] { setClient(nullptr); });
        log(tr("starting %1").arg(client->command().commandLine()));
    }
    updateState();
}

void AgentPanel::setSession(AgentSession *session)
{
    for (const QMetaObject::Connection &connection : std::as_const(m_sessionConnections))
        disconnect(connection);
    m_sessionConnections.clear();
    m_session = session;
    Conversation *conversation = session ? session->conversation() : nullptr;
    chat()->setConversation(conversation);
    m_prompt->setCommands(conversation ? conversation->commands() : QList<Acp::AvailableCommand>());
    if (session) {
        m_sessionConnections
            << connect(session, &AgentSession::turnStarted, this, &AgentPanel::updateState)
            << connect(session, &AgentSession::turnEnded, this, &AgentPanel::onTurnEnded)
            << connect(session, &AgentSession::permissionRequested, this, &AgentPanel::onPermission)
            << connect(session, &QObject::destroyed, this, [this] { setSession(nullptr); })
            << connect(conversation, &Conversation::planChanged, this, &AgentPanel::updatePlan)
            << connect(conversation, &Conversation::commandsChanged, this,
                       [this, conversation] { m_prompt->setCommands(conversation->commands()); })
            << connect(conversation, &Conversation::modesChanged, this, &AgentPanel::updateModes)
            << connect(conversation, &Conversation::currentModeChanged, this, &AgentPanel::updateModes)
            << connect(conversation, &Conversation::usageChanged, this, &AgentPanel::updateUsage)
            << connect(conversation, &Conversation::unknownUpdate, this, [this](const QString &kind) {
                   log(tr("ignored: an update of a kind ACP v1 does not define: %1").arg(kind));
               });
        for (PermissionRequest *request : session->pendingPermissions())
            onPermission(request);
    }
    updatePlan();
    updateModes();
    updateUsage();
    updateState();
}

void AgentPanel::setMissing(const QString &whatIsMissing, const QString &commandThatFixesIt)
{
    m_missingText->setText(whatIsMissing);
    m_missingCommand->setText(commandThatFixesIt);
    m_missingCommand->setVisible(!commandThatFixesIt.isEmpty());
    m_missing->setVisible(!whatIsMissing.isEmpty());
}

void AgentPanel::setAuthMethods(const QList<Acp::AuthMethod> &methods)
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

void AgentPanel::setSessions(const QList<Acp::SessionInfo> &earlier)
{
    m_earlierMenu->clear();
    for (const Acp::SessionInfo &info : earlier) {
        QString text = info.title.isEmpty() ? info.sessionId : info.title;
        if (text.size() > 60)
            text = text.left(59) + QChar(0x2026);
        const QDateTime when = QDateTime::fromString(info.updatedAt, Qt::ISODate);
        if (when.isValid())
            text += QStringLiteral("  \u2014 ") + QLocale().toString(when.toLocalTime(), QLocale::ShortFormat);
        QAction *action = m_earlierMenu->addAction(text);
        action->setToolTip(info.cwd);
        const QString id = info.sessionId;
        connect(action, &QAction::triggered, this, [this, id] {
            Q_EMIT resumeRequested(id);
            focusPrompt();
        });
    }
    if (earlier.isEmpty())
        m_earlierMenu->addAction(tr("No earlier conversations"))->setEnabled(false);
    m_earlier->setVisible(!earlier.isEmpty() || (m_client && m_client->capabilities().listSessions));
}

void AgentPanel::showToolCallTrace(const QString &toolCallId, RequestTrace *trace)
{
    chat()->setTrace(toolCallId, trace);
}

void AgentPanel::addContext(const Acp::ContentBlock &resource, const QString &label)
{
    m_chips->add(resource, label);
}

// --- what the person does ----------------------------------------------------------------------

bool AgentPanel::sendPrompt(const QString &text)
{
    if (!m_session) {
        m_state->setText(m_client ? tr("%1 has no conversation open yet: wait a moment, then send again.").arg(m_client->command().name)
                                  : tr("No agent is running: choose one and press Start, then send."));
        return false;
    }
    if (m_session->isPrompting()) {
        m_state->setText(tr("The agent is still answering: wait, or Stop it (Esc), then send."));
        return false;
    }
    QList<Acp::ContentBlock> prompt{Acp::ContentBlock::fromText(text)};
    // ACP: embedded resources only to an agent that takes them; the others read them as text.
    const bool embedded = !m_client || m_client->capabilities().promptEmbeddedContext;
    for (const Acp::ContentBlock &resource : m_chips->resources()) {
        prompt << (embedded ? resource
                            : Acp::ContentBlock::fromText(tr("Context %1:\n%2").arg(resource.uri, resource.text)));
    }
    if (!m_session->prompt(prompt))
        return false;
    m_chips->clear();
    return true;
}

void AgentPanel::stopTurn()
{
    if (m_session && m_session->isPrompting()) {
        m_session->cancel();
        m_state->setText(tr("Stopping: the agent was asked to end its turn."));
    }
    focusPrompt();
}

void AgentPanel::focusPrompt()
{
    m_prompt->setFocus(Qt::OtherFocusReason);
}

void AgentPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    focusPrompt();
}

void AgentPanel::onLink(const QString &href)
{
    if (href.startsWith(QLatin1String("debugger:"))) {
        Q_EMIT debuggerRequested(href.mid(9).toInt());
    } else if (href.startsWith(QLatin1String("code:"))) {
        if (const QString code = chat()->codeOf(href); !code.isEmpty())
            Q_EMIT codeToInputRequested(code);
    } else if (href.startsWith(QLatin1String("http://")) || href.startsWith(QLatin1String("https://"))) {
        QDesktopServices::openUrl(QUrl(href));
    }
}

// --- what the agent does -----------------------------------------------------------------------

void AgentPanel::onTurnEnded(const QString &stopReason, const Acp::Error &error)
{
    if (stopReason.isEmpty()) {
        notice(error.describe(), int(Severity::Error));
    } else if (stopReason == QLatin1String("cancelled")) {
        notice(tr("Stopped: the agent ended its turn when asked."), int(Severity::Info));
    } else if (stopReason == QLatin1String("max_tokens")) {
        notice(tr("The agent stopped: it reached its limit of tokens for one answer."), int(Severity::Warning));
    } else if (stopReason == QLatin1String("max_turn_requests")) {
        notice(tr("The agent stopped: it reached its limit of requests in one turn."), int(Severity::Warning));
    } else if (stopReason == QLatin1String("refusal")) {
        notice(tr("The agent refused to go on with this prompt."), int(Severity::Warning));
    } else if (stopReason != QLatin1String("end_turn")) {
        notice(tr("The turn ended: %1.").arg(stopReason), int(Severity::Info));
    }
    updateState();
}

void AgentPanel::onPermission(PermissionRequest *request)
{
    const QString id = request->toolCall().id;
    chat()->setPermission(id, tr("awaiting your approval (above the REPL)"), true);
    connect(request, &PermissionRequest::finished, this, [this, request, id] {
        chat()->setPermission(id, permissionOutcome(*request), false);
    });
}

void AgentPanel::onExited(int exitCode, bool crashed, const QStringList &lastStderr)
{
    m_exitText = crashed ? tr("was killed") : tr("exited with status %1").arg(exitCode);
    if (!lastStderr.isEmpty())
        m_exitText += QStringLiteral(": ") + lastStderr.mid(qMax(0, int(lastStderr.size()) - 3)).join(QStringLiteral(" / "));
    chat()->interruptUnfinished(tr("The agent ended before this call finished."));
    if (m_client && m_client->state() == AcpClient::State::Exited)
        notice(m_client->failure(), int(crashed || exitCode != 0 ? Severity::Error : Severity::Info));
    updateState();
}

void AgentPanel::notice(const QString &text, int severity)
{
    if (text.isEmpty() || text == m_lastNotice)
        return; // the agent's end fails the turn and ends the client with the same words
    m_lastNotice = text;
    chat()->addNotice(text, Severity(severity));
}

void AgentPanel::log(const QString &line)
{
    if (!line.isEmpty()) {
        m_log->appendPlainText(QTime::currentTime().toString(QStringLiteral("HH:mm:ss  ")) + line);
        ++m_logLines;
    }
    m_logButton->setText(m_logLines == 1 ? tr("Log: 1 line from the agent and the connection")
                                         : tr("Log: %1 lines from the agent and the connection").arg(m_logLines));
}

// --- what the panel shows ----------------------------------------------------------------------

void AgentPanel::updateState()
{
    QString text;
    const QString name = m_client ? m_client->command().name : QString();
    switch (m_client ? m_client->state() : AcpClient::State::Idle) {
    case AcpClient::State::Idle:
        text = m_client ? tr("%1 is not started.").arg(name) : tr("No agent is running. Choose one and press Start.");
        break;
    case AcpClient::State::Starting:
    case AcpClient::State::Initializing:
        text = tr("Starting %1\u2026").arg(name);
        break;
    case AcpClient::State::Ready: {
        const Acp::AgentInfo &info = m_client->capabilities().info;
        const QString who = info.title.isEmpty() ? name : info.version.isEmpty() ? info.title : info.title + QLatin1Char(' ') + info.version;
        text = !m_session ? tr("%1 is ready; opening a conversation\u2026").arg(who)
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
    updateButtons();
}

void AgentPanel::updateButtons()
{
    const AcpClient::State state = m_client ? m_client->state() : AcpClient::State::Idle;
    const bool running = state == AcpClient::State::Starting || state == AcpClient::State::Initializing || state == AcpClient::State::Ready;
    const bool hadFocus = m_start->hasFocus() || m_stop->hasFocus() || m_restart->hasFocus();
    m_start->setEnabled(!running && m_agents->count() > 0);
    m_stop->setEnabled(running);
    m_restart->setEnabled(m_client != nullptr);
    m_agents->setEnabled(!running);
    const bool prompting = m_session && m_session->isPrompting();
    m_send->setText(prompting ? tr("Stop") : tr("Send"));
    m_send->setToolTip(prompting ? tr("Stop the agent's answer (Esc)") : tr("Send the prompt (Enter)"));
    if (hadFocus && !QApplication::focusWidget())
        focusPrompt(); // a button that went disabled does not leave the keyboard nowhere
}

void AgentPanel::updatePlan()
{
    const QList<Acp::PlanEntry> plan = m_session ? m_session->conversation()->plan() : QList<Acp::PlanEntry>();
    if (plan.isEmpty()) {
        m_plan->clear();
        m_plan->setVisible(false);
        return;
    }
    const ChatTheme theme = ChatTheme::forPalette(palette());
    int done = 0;
    QStringList rows;
    for (const Acp::PlanEntry &entry : plan) {
        const bool finished = entry.status == QLatin1String("completed");
        const bool running = entry.status == QLatin1String("in_progress");
        done += finished;
        const QString mark = finished ? QStringLiteral("\u2611") : running ? QStringLiteral("\u25d0") : QStringLiteral("\u2610");
        const QColor colour = finished ? theme.muted : running ? theme.running : theme.text;
        rows << QStringLiteral("<span style=\"color:%1\">%2&nbsp;%3</span>")
                    .arg(colour.name(), mark, entry.content.toHtmlEscaped());
    }
    m_plan->setText(tr("<b>Plan</b> \u00b7 %1 of %2 done<br>").arg(done).arg(plan.size()) + rows.join(QStringLiteral("<br>")));
    m_plan->setVisible(true);
}

void AgentPanel::updateModes()
{
    const Conversation *conversation = m_session ? m_session->conversation() : nullptr;
    const QList<Acp::SessionMode> modes = conversation ? conversation->modes() : QList<Acp::SessionMode>();
    m_modes->clear();
    for (const Acp::SessionMode &mode : modes) {
        m_modes->addItem(mode.name.isEmpty() ? mode.id : mode.name, mode.id);
        m_modes->setItemData(m_modes->count() - 1, mode.description, Qt::ToolTipRole);
        if (mode.id == conversation->currentModeId())
            m_modes->setCurrentIndex(m_modes->count() - 1);
    }
    m_modes->setVisible(!modes.isEmpty());
    if (auto *label = qobject_cast<QWidget *>(m_modes->property("label").value<QObject *>()))
        label->setVisible(!modes.isEmpty());
}

void AgentPanel::updateUsage()
{
    const Acp::Usage usage = m_session ? m_session->conversation()->usage() : Acp::Usage();
    QStringList parts;
    if (usage.used >= 0)
        parts << (usage.size > 0 ? tr("%1 of %2 tokens").arg(tokens(usage.used), tokens(usage.size)) : tr("%1 tokens").arg(tokens(usage.used)));
    if (usage.costAmount)
        parts << (usage.costCurrency == QLatin1String("USD") || usage.costCurrency.isEmpty()
                      ? QStringLiteral("$%1").arg(*usage.costAmount, 0, 'f', 4)
                      : QStringLiteral("%1 %2").arg(*usage.costAmount, 0, 'f', 4).arg(usage.costCurrency));
    if (usage.turnInputTokens >= 0 || usage.turnOutputTokens >= 0)
        parts << tr("last turn %1 in, %2 out").arg(tokens(qMax<qint64>(0, usage.turnInputTokens)), tokens(qMax<qint64>(0, usage.turnOutputTokens)));
    m_usage->setText(parts.join(QStringLiteral(" \u00b7 ")));
    m_usage->setToolTip(tr("What the agent reported of its context window and the session's cost"));
}

void AgentPanel::applyTheme()
{
    chat()->setTheme(ChatTheme::forPalette(palette()));
    updatePlan();
}

void AgentPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyTheme();
}

void AgentPanel::setZoom(double factor)
{
    if (m_basePointSize <= 0)
        m_basePointSize = font().pointSizeF() > 0 ? font().pointSizeF() : 10.0;
    m_zoom = qBound(0.5, factor, 4.0);
    QFont chatFont = m_chatView->font();
    chatFont.setPointSizeF(m_basePointSize * m_zoom);
    m_chatView->setFont(chatFont);
    m_chatView->document()->setDefaultFont(chatFont);
    QFont promptFont = m_prompt->font();
    promptFont.setPointSizeF(m_basePointSize * m_zoom);
    m_prompt->setFont(promptFont);
}

// --- for the window and tests ------------------------------------------------------------------

ChatDocument *AgentPanel::chat() const { return m_chatView->chat(); }
QString AgentPanel::stateText() const { return m_state->text(); }
QString AgentPanel::missingText() const { return m_missing->isVisible() ? m_missingText->text() + QLatin1Char('\n') + m_missingCommand->text() : QString(); }
QString AgentPanel::usageText() const { return m_usage->text(); }
QString AgentPanel::planText() const { return m_plan->isVisible() ? QTextDocumentFragment::fromHtml(m_plan->text()).toPlainText() : QString(); }
QString AgentPanel::logText() const { return m_log->toPlainText(); }

QStringList AgentPanel::loginButtons() const
{
    QStringList texts;
    if (!m_login->isVisibleTo(this))
        return texts;
    for (const QPushButton *button : m_login->findChildren<QPushButton *>(QStringLiteral("loginButton")))
        texts << button->text();
    return texts;
}

QStringList AgentPanel::earlierConversations() const
{
    QStringList texts;
    for (const QAction *action : m_earlierMenu->actions())
        texts << action->text();
    return texts;
}

QStringList AgentPanel::modeNames() const
{
    QStringList names;
    for (int i = 0; i < m_modes->count(); ++i)
        names << m_modes->itemText(i);
    return names;
}

QString AgentPanel::currentModeName() const
{
    return m_modes->currentText();
}
