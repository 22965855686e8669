#include "LispConsole.h"

#include "access/AccessGate.h"
#include "access/ApprovalBar.h"
#include "ArglistHint.h"
#include "ConsoleWidget.h"
#include "highlight/LispHighlighter.h"
#include "JobEntries.h"
#include "ProjectActivity.h"
#include "RunningJobBar.h"
#include "StagedForms.h"
#include "StagingBar.h"
#include "TranscriptView.h"

#include "client/EngineProtocol.h"
#include "session/Session.h"
#include "session/TextLines.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace {
QFont codeFont(const QString &family, double points)
{
    QFont font(family.isEmpty() ? QStringLiteral("DejaVu Sans Mono") : family);
    font.setStyleHint(QFont::Monospace);
    font.setPointSizeF(points);
    return font;
}
} // namespace

LispConsole::LispConsole(Session *session, QWidget *parent)
    : QWidget(parent), m_session(session), m_transcript(new TranscriptView(this)), m_input(new ConsoleWidget(this)),
      m_entries(m_transcript), m_prompt(new QLabel(this)), m_hint(new QLabel(this)), m_staged(new StagedForms(session, m_input, this, this)),
      m_stagingBar(new StagingBar(m_staged, this)), m_runningBar(new RunningJobBar(session, this)), m_arglist(new ArglistHint(session, this))
{
    setObjectName(QStringLiteral("lispConsole"));
    m_transcript->setObjectName(QStringLiteral("transcript"));
    m_input->setObjectName(QStringLiteral("input"));
    m_prompt->setObjectName(QStringLiteral("prompt"));
    m_hint->setObjectName(QStringLiteral("hint"));
    m_prompt->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_prompt->setStyleSheet(QStringLiteral("font-weight: bold;"));
    m_prompt->setContentsMargins(0, 4, 0, 0); // level with the input's first line (its document margin)
    m_hint->setStyleSheet(QStringLiteral("padding: 2px 8px;"));
    m_hint->setForegroundRole(QPalette::PlaceholderText); // muted in light and dark themes alike
    m_hint->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_hint->setMinimumHeight(m_hint->fontMetrics().height() + 6);

    SyntaxHighlighting::attach(m_input->document());
    const QString dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (!dataDir.isEmpty())
        m_input->setHistoryFile(dataDir + QStringLiteral("/history.jsonl"));

    auto *inputFrame = new QFrame(this);
    inputFrame->setObjectName(QStringLiteral("inputFrame"));
    inputFrame->setStyleSheet(QStringLiteral("#inputFrame { border-top: 1px solid #d0d6de; background: palette(base); }"));
    auto *inputRow = new QHBoxLayout(inputFrame);
    inputRow->setContentsMargins(12, 6, 6, 6);
    inputRow->setSpacing(6);
    inputRow->addWidget(m_prompt);
    inputRow->addWidget(m_input, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_transcript, 1);
    layout->addWidget(m_runningBar);
    layout->addWidget(m_stagingBar);
    layout->addWidget(inputFrame);
    layout->addWidget(m_hint);

    // The jobs' entries first: the running bar takes the colour of the lane a job's header got.
    m_jobs = new JobEntries(session, &m_entries, this);
    connect(session, &Session::started, this, &LispConsole::onStarted);
    connect(session, &Session::finished, this, &LispConsole::onFinished);
    // An interrupt with debugging on parks the job as a break: the interrupt is over then.
    connect(session->debugger(), &SessionDebugger::parked, this, [this] {
        if (std::exchange(m_interrupting, false))
            setHint(QString());
    });
    connect(session, &Session::packageChanged, this, [this](const QString &package) {
        m_prompt->setText(JobEntries::shortPackageName(package) + QStringLiteral(">"));
    });
    connect(session, &Session::engineStatus, this, [this](Session::EngineStatus state, const QString &message) {
        if (state == Session::EngineStatus::Ready && !m_entries.hasEntries())
            return; // the first start is not news
        m_transcript->newLine();
        m_transcript->appendText(QStringLiteral("; ") + message + QLatin1Char('\n'),
                                 state == Session::EngineStatus::Ready ? TranscriptView::Style::Note : TranscriptView::Style::Error);
    });
    connect(session, &Session::engineProcessOutput, this, [this](const QString &text) {
        // A thread the code left behind, or a program it started, still writing: said as the
        // engine's, since no evaluation claims it.
        QString shown = text;
        while (shown.endsWith(QLatin1Char('\n')))
            shown.chop(1);
        if (!shown.isEmpty())
            showNote(tr("the engine wrote: %1").arg(shown));
    });
    connect(session, &Session::sessionReset, this, [this](const Origin &origin, const QString &why) {
        m_transcript->newLine();
        const QString because = why.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(why);
        m_transcript->appendText(tr("; The session was reset by %1%2: every definition is gone.\n").arg(origin.name, because),
                                 TranscriptView::Style::Note);
    });
    connect(m_input, &ConsoleWidget::submitted, this, [this](const QString &code) {
        if (!m_staged->submit(code)) // an agent's staged form runs as the person's job
            evaluate(code);
    });
    connect(m_input, &ConsoleWidget::interruptRequested, this, &LispConsole::interrupt);
    connect(m_input, &ConsoleWidget::escapePressed, this, [this] {
        if (m_staged->current())
            m_stagingBar->startRejecting();
    });
    connect(m_runningBar, &RunningJobBar::interruptRequested, this, &LispConsole::interrupt);
    connect(m_stagingBar, &StagingBar::returnToInput, m_input, qOverload<>(&QWidget::setFocus));
    connect(m_staged, &StagedForms::changed, this, [this] {
        if (const StagedForm *form = m_staged->current())
            m_stagingBar->setAccent(TranscriptView::laneColor(laneFor(form->origin)));
    });
    connect(m_staged, &StagedForms::rejected, this, &LispConsole::showRejected);
    connect(m_input, &ConsoleWidget::hint, this, &LispConsole::setHint);
    connect(m_input, &ConsoleWidget::completionRequested, this, [this](const SymbolPrefix &prefix) {
        QPointer<LispConsole> guard(this);
        m_session->query(EngineProtocol::completion(prefix.prefix),
                         [guard, prefix](const QJsonObject &reply) {
                             if (!guard)
                                 return;
                             QStringList names;
                             for (const QJsonValue &value : EngineProtocol::CompletionReply(reply).completions())
                                 names << value.toString();
                             guard->m_input->showCompletions(prefix, names);
                         });
    });
    connect(m_input, &QPlainTextEdit::cursorPositionChanged, this, [this] {
        m_arglist->update(m_input->toPlainText(), m_input->textCursor().position());
    });
    connect(m_arglist, &ArglistHint::hintChanged, this, &LispConsole::setHint);
    connect(m_transcript, &TranscriptView::linkActivated, this, &LispConsole::onLink);
    connect(m_input->document(), &QTextDocument::contentsChanged, this, &LispConsole::fitInput);

    m_prompt->setText(JobEntries::shortPackageName(session->currentPackage()) + QStringLiteral(">"));
    applyFonts();
    setFocusProxy(m_input);
}

void LispConsole::setAccessGate(AccessGate *access)
{
    if (m_approvalBar)
        return;
    m_approvalBar = new ApprovalBar(access, this);
    m_approvalBar->setCodeFont(codeFont(m_fontFamily, m_basePointSize * m_zoom));
    auto *layout = static_cast<QVBoxLayout *>(this->layout());
    auto *holder = new QWidget(this);
    auto *holderLayout = new QVBoxLayout(holder);
    holderLayout->setContentsMargins(8, 6, 8, 6);
    holderLayout->addWidget(m_approvalBar);
    layout->insertWidget(1, holder);
    connect(access, &AccessGate::pendingChanged, holder, [holder, access] { holder->setVisible(!access->pending().isEmpty()); });
    holder->setVisible(!access->pending().isEmpty());
    // A call that did not run leaves a line where the agent's calls appear: the person's own
    // denial, or the mode's refusal (a file change not made says so through ProjectActivity).
    connect(access, &AccessGate::refused, this, [this, access](const AccessGate::Refusal &refusal) {
        QString text = refusal.denied ? tr("You denied %1's %2").arg(refusal.origin.name, refusal.tool)
                                      : tr("%1's %2 was refused: agent access is %3").arg(refusal.origin.name, refusal.tool,
                                                                                           AccessModes::name(access->mode()));
        if (!refusal.description.isEmpty())
            text += QStringLiteral(" \u2014 ") + refusal.description;
        if (!refusal.what.isEmpty())
            text += QStringLiteral(": ") + TextLines::oneLine(refusal.what, 120);
        if (!refusal.reason.isEmpty())
            text += tr(" (your reason: \u201c%1\u201d)").arg(refusal.reason);
        showNote(text, false, laneFor(refusal.origin));
    });
}

void LispConsole::showPast(const QList<JournalEntry> &entries)
{
    m_jobs->showPast(entries);
}

QString LispConsole::promptText() const
{
    return m_prompt->text();
}

QString LispConsole::hintText() const
{
    return m_hint->text();
}

void LispConsole::setHint(const QString &text)
{
    m_hint->setText(text);
}

void LispConsole::setBasePointSize(double points)
{
    m_basePointSize = points;
    applyFonts();
}

void LispConsole::setFontFamily(const QString &family)
{
    m_fontFamily = family;
    applyFonts();
}

void LispConsole::setZoom(double factor)
{
    m_zoom = qBound(0.5, factor, 4.0);
    applyFonts();
}

void LispConsole::applyFonts()
{
    const QFont font = codeFont(m_fontFamily, m_basePointSize * m_zoom);
    m_transcript->setFont(font);
    m_input->setFont(font);
    m_prompt->setFont(font);
    if (m_approvalBar)
        m_approvalBar->setCodeFont(font);
    fitInput();
}

// The input is as tall as its text (one line to start, up to ten), so the transcript keeps
// the room; beyond ten lines it scrolls.
void LispConsole::fitInput()
{
    const int line = QFontMetrics(m_input->font()).lineSpacing();
    const int lines = qBound(1, int(m_input->document()->size().height()), 10);
    const int margin = int(m_input->document()->documentMargin()) * 2 + m_input->frameWidth() * 2 + 2;
    m_input->setFixedHeight(lines * line + margin);
}

int LispConsole::laneFor(const Origin &origin)
{
    return m_entries.laneFor(origin);
}

void LispConsole::startEntry()
{
    m_entries.startEntry();
}

void LispConsole::showNote(const QString &text, bool problem, int lane)
{
    m_entries.showNote(text, problem, lane);
}

void LispConsole::setProjectFiles(ProjectFiles *files)
{
    if (!m_projectActivity)
        m_projectActivity = new ProjectActivity(files, &m_entries, this);
}

void LispConsole::evaluate(const QString &code)
{
    JobRequest request = EngineProtocol::evaluation(code); // a request's origin is the person unless it says otherwise
    request.purpose = JobPurpose::Repl;
    m_session->submit(request);
    if (m_session->current() && m_session->queuedCount() > 0)
        setHint(tr("Queued: %1 evaluation(s) run before yours.").arg(m_session->queuedCount()));
}

void LispConsole::interrupt()
{
    if (!m_session->current()) {
        setHint(tr("Nothing is running."));
        return;
    }
    const Origin &owner = m_session->current()->request.origin;
    setHint(owner.isPerson() ? tr("Interrupting your evaluation\u2026") : tr("Interrupting %1's evaluation\u2026").arg(owner.name));
    m_interrupting = true;
    m_session->interruptCurrent();
}

void LispConsole::copyToInput(const QString &code)
{
    m_input->setPlainText(code);
    QTextCursor cursor = m_input->textCursor();
    cursor.movePosition(QTextCursor::End);
    m_input->setTextCursor(cursor);
    m_input->setFocus();
}

void LispConsole::onLink(const QString &href)
{
    if (href.startsWith(QStringLiteral("copy:"))) {
        const QString code = m_jobs->codeOf(href.mid(5).toULongLong());
        if (!code.isNull())
            copyToInput(code);
        else
            setHint(tr("That code is no longer kept; only the last %1 entries are.").arg(JobEntries::MaxRememberedCode));
    }
}

void LispConsole::onStarted(const JobPtr &job)
{
    m_input->setBusy(true);
    m_runningBar->setAccent(TranscriptView::laneColor(m_jobs->laneOf(job->id)));
    if (!job->request.origin.isPerson())
        Q_EMIT statusMessage(tr("%1 is evaluating").arg(job->request.origin.name));
}

void LispConsole::onFinished()
{
    m_input->setBusy(m_session->current() != nullptr);
    if (!m_session->current()) {
        setHint(QString());
        m_interrupting = false;
        Q_EMIT statusMessage(QString());
    }
}

void LispConsole::showRejected(const StagedForm &form, const QString &reason)
{
    // No job ran, so nothing else records it: the transcript says what the person refused.
    const int lane = laneFor(Origin::person());
    startEntry();
    m_transcript->newLine(lane);
    m_transcript->appendText(reason.isEmpty() ? tr("; You rejected a form %1 staged:\n").arg(form.origin.name)
                                              : tr("; You rejected a form %1 staged (%2):\n").arg(form.origin.name, reason),
                             TranscriptView::Style::Note, lane);
    m_transcript->appendText(form.code.trimmed() + QLatin1Char('\n'), TranscriptView::Style::Note, lane);
}
