#include "AgentPanel.h"

#include "AgentChatView.h"
#include "AgentControls.h"
#include "AgentPromptEdit.h"
#include "ChatDocument.h"
#include "ContextChips.h"

#include "acp/AgentSession.h"
#include "acp/PermissionRequest.h"

#include <QComboBox>
#include <QDateTime>
#include <QDesktopServices>
#include <QHBoxLayout>
#include <QLabel>
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
    : QWidget(parent), m_controls(new AgentControls(this)), m_chatView(new AgentChatView(this)), m_chips(new ContextChips(this)),
      m_prompt(new AgentPromptEdit(this))
{
    setObjectName(QStringLiteral("agentPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addWidget(m_controls);
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
    connect(m_controls, &AgentControls::startRequested, this, &AgentPanel::startRequested);
    connect(m_controls, &AgentControls::stopRequested, this, &AgentPanel::stopRequested);
    connect(m_controls, &AgentControls::restartRequested, this, &AgentPanel::restartRequested);
    connect(m_controls, &AgentControls::loginRequested, this, &AgentPanel::loginRequested);
    connect(m_controls, &AgentControls::done, this, &AgentPanel::focusPrompt);
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
    m_controls->setAgents(agents, current);
}

AgentCommand AgentPanel::currentAgent() const
{
    return m_controls->currentAgent();
}

void AgentPanel::setClient(AcpClient *client)
{
    for (const QMetaObject::Connection &connection : std::as_const(m_clientConnections))
        disconnect(connection);
    m_clientConnections.clear();
    m_client = client;
    m_controls->setClient(client);
    if (client) {
        m_clientConnections << connect(client, &AcpClient::stateChanged, this, &AgentPanel::updateState)
                            << connect(client, &AcpClient::failed, this, [this](const QString &message) {
                                   notice(message, int(Severity::Error));
                                   log(message);
                               })
                            << connect(client, &AcpClient::exited, this, [this](int code, bool crashed) { onExited(code, crashed); })
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
    m_controls->setMissing(whatIsMissing, commandThatFixesIt);
}

void AgentPanel::setAuthMethods(const QList<Acp::AuthMethod> &methods)
{
    m_controls->setAuthMethods(methods);
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
        m_controls->say(m_client ? tr("%1 has no conversation open yet: wait a moment, then send again.").arg(m_client->command().name)
                                  : tr("No agent is running: choose one and press Start, then send."));
        return false;
    }
    if (m_session->isPrompting()) {
        m_controls->say(tr("The agent is still answering: wait, or Stop it (Esc), then send."));
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
        m_controls->say(tr("Stopping: the agent was asked to end its turn."));
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

void AgentPanel::onExited(int exitCode, bool crashed)
{
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
    m_controls->setSession(m_session);
    const bool prompting = m_session && m_session->isPrompting();
    m_send->setText(prompting ? tr("Stop") : tr("Send"));
    m_send->setToolTip(prompting ? tr("Stop the agent's answer (Esc)") : tr("Send the prompt (Enter)"));
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
QString AgentPanel::stateText() const { return m_controls->stateText(); }
QString AgentPanel::missingText() const { return m_controls->missingText(); }
QString AgentPanel::usageText() const { return m_usage->text(); }
QString AgentPanel::planText() const { return m_plan->isVisible() ? QTextDocumentFragment::fromHtml(m_plan->text()).toPlainText() : QString(); }
QString AgentPanel::logText() const { return m_log->toPlainText(); }

QStringList AgentPanel::loginButtons() const
{
    return m_controls->loginButtons();
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

QComboBox *AgentPanel::agentBox() const { return m_controls->agentBox(); }
QPushButton *AgentPanel::startButton() const { return m_controls->startButton(); }
QPushButton *AgentPanel::stopButton() const { return m_controls->stopButton(); }
QPushButton *AgentPanel::restartButton() const { return m_controls->restartButton(); }
