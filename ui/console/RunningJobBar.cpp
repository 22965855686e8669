#include "RunningJobBar.h"

#include "highlight/LispHighlighter.h"
#include "session/JobSummary.h"

#include "session/LocalClock.h"
#include "session/Session.h"
#include "session/TextLines.h"

#include <QEvent>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace {
constexpr qsizetype LineShown = 160;
} // namespace

RunningJobBar::RunningJobBar(Session *session, QWidget *parent)
    : QFrame(parent), m_session(session), m_title(new QLabel(this)), m_elapsed(new QLabel(this)), m_output(new QLabel(this)),
      m_background(new QLabel(this)), m_interrupt(new QPushButton(tr("&Interrupt"), this))
{
    setObjectName(QStringLiteral("runningJobBar"));
    m_title->setObjectName(QStringLiteral("runningJobTitle"));
    m_elapsed->setObjectName(QStringLiteral("runningJobElapsed"));
    m_output->setObjectName(QStringLiteral("runningJobOutput"));
    m_interrupt->setObjectName(QStringLiteral("runningJobInterrupt"));
    m_background->setObjectName(QStringLiteral("runningJobBackground"));
    m_background->setTextFormat(Qt::PlainText);
    m_background->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_background->hide();
    m_title->setTextFormat(Qt::RichText);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_output->setTextFormat(Qt::PlainText);
    m_output->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_elapsed->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_interrupt->setToolTip(tr("Stop this evaluation (Ctrl+C in the input); the session and its definitions stay"));
    m_interrupt->setAutoDefault(false);
    m_elapsed->setToolTip(tr("How long it has run"));
    // Long code or output is cut at the bar's edge rather than widening the window.
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_output->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addSpacing(12);
    top->addWidget(m_elapsed);
    top->addSpacing(8);
    top->addWidget(m_interrupt);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 6, 10, 6);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(m_output);
    layout->addWidget(m_background);

    connect(m_interrupt, &QPushButton::clicked, this, &RunningJobBar::interruptRequested);
    connect(session, &Session::started, this, &RunningJobBar::onStarted);
    connect(session, &Session::output, this, &RunningJobBar::onOutput);
    connect(session, &Session::progress, this, &RunningJobBar::onProgress);
    connect(session, &Session::finished, this, &RunningJobBar::onFinished);
    // A job parked in the debugger is not running (the Debugger panel shows it); it runs again
    // when a restart continues it.
    connect(session->debugger(), &SessionDebugger::parked, this, &RunningJobBar::onFinished);
    connect(session->debugger(), &SessionDebugger::resumed, this, &RunningJobBar::onStarted);
    connect(&m_ticker, &QTimer::timeout, this, &RunningJobBar::tick);
    m_ticker.setInterval(250); // the clock shows seconds; a quarter keeps it from lagging a whole one
    setAccent(QColor(0x3e, 0x6e, 0x9d));
    hide();
}

void RunningJobBar::setAccent(const QColor &colour)
{
    if (!colour.isValid())
        return;
    m_accent = colour;
    m_colouredDark = -1;
    followTheme();
}

bool RunningJobBar::isDark() const
{
    // The application's palette: the bar's own is its style sheet's.
    return SyntaxHighlighting::themeFor(QGuiApplication::palette().color(QPalette::Base)) == SyntaxHighlighting::Theme::Dark;
}

void RunningJobBar::followTheme()
{
    // The bar follows the theme, also when it changes while the bar is up.
    const bool dark = isDark();
    if (m_colouredDark == int(dark))
        return;
    m_colouredDark = int(dark);
    setStyleSheet(dark ? QStringLiteral("#runningJobBar { background: #1f2a36; border: 1px solid #34475c; border-left: 4px solid %1; }"
                                        "#runningJobBar QLabel { background: transparent; color: #dce6f0; }"
                                        "#runningJobOutput, #runningJobBackground { color: #a9b7c4; }")
                             .arg(m_accent.name())
                       : QStringLiteral("#runningJobBar { background: #eef4fa; border: 1px solid #c8d6e6; border-left: 4px solid %1; }"
                                        "#runningJobBar QLabel { background: transparent; color: #22303d; }"
                                        "#runningJobOutput, #runningJobBackground { color: #4f5d6b; }")
                             .arg(m_accent.name()));
    if (m_job)
        m_title->setText(whatRuns());
}

QString RunningJobBar::headline() const
{
    return m_title->text();
}

QString RunningJobBar::elapsedText() const
{
    return m_elapsed->text();
}

QString RunningJobBar::outputLine() const
{
    return m_output->text();
}

QString RunningJobBar::backgroundLine() const
{
    if (m_backgroundTitle.isEmpty() || isHidden())
        return {};
    return m_jobShown ? m_background->text() : m_output->text();
}

void RunningJobBar::setBackgroundWork(const QString &title, const QString &line, const QDateTime &since)
{
    m_backgroundTitle = title;
    m_backgroundLine = TextLines::shortened(line, LineShown);
    m_backgroundSince = since;
    render();
}

void RunningJobBar::render()
{
    const bool background = !m_backgroundTitle.isEmpty();
    if (m_job && m_jobShown) {
        m_title->setText(whatRuns());
        m_interrupt->show();
        m_background->setText(background ? tr("In the background: %1").arg(m_backgroundLine) : QString());
        m_background->setVisible(background);
        showActivity();
    } else if (background) {
        m_title->setText(m_backgroundTitle.toHtmlEscaped());
        m_output->setText(m_backgroundLine);
        m_interrupt->hide();
        m_background->hide();
    } else {
        if (!m_job)
            m_ticker.stop(); // a young job's tick shows it when it has run long enough
        hide();
        return;
    }
    if (!m_ticker.isActive())
        m_ticker.start();
    tick();
    show();
}

QString RunningJobBar::clock(qint64 ms)
{
    const qint64 seconds = ms / 1000;
    if (seconds >= 3600)
        return QStringLiteral("%1:%2:%3").arg(seconds / 3600).arg(seconds / 60 % 60, 2, 10, QLatin1Char('0')).arg(seconds % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0'));
}

void RunningJobBar::onStarted(const JobPtr &job)
{
    m_job = job;
    m_jobShown = false;
    m_newest.clear();
    if (jobOwnsLabels()) {
        m_title->setText(whatRuns());
        m_output->setText(tr("(no output yet)"));
    }
    tick();
    m_ticker.start();
}

bool RunningJobBar::jobOwnsLabels() const
{
    // While a young job runs, the background work keeps the bar: quick evaluations do not flash it.
    return m_job && (m_jobShown || m_backgroundTitle.isEmpty());
}

void RunningJobBar::onOutput(quint64 id, const QString &, const QString &text)
{
    if (!m_job || m_job->id != id)
        return;
    m_newest.addOutput(text);
    showActivity();
}

void RunningJobBar::onProgress(quint64 id, const QString &message)
{
    if (!m_job || m_job->id != id)
        return;
    m_newest.setProgress(message);
    showActivity();
}

void RunningJobBar::showActivity()
{
    if (!jobOwnsLabels())
        return;
    const QString line = TextLines::shortened(m_newest.line(), LineShown);
    if (line.isEmpty() && m_output->text() == m_backgroundLine)
        m_output->setText(tr("(no output yet)")); // it showed the background work
    if (!line.isEmpty() && line != m_output->text())
        m_output->setText(line);
}

void RunningJobBar::onFinished(const JobPtr &job)
{
    if (!m_job || m_job->id != job->id)
        return;
    m_job.reset();
    m_jobShown = false;
    render(); // the background work, if any goes on, else nothing
}

void RunningJobBar::tick()
{
    const qint64 ms = m_job && m_job->startedAt.isValid() ? m_job->startedAt.msecsTo(LocalClock::now()) : -1;
    if (ms >= ShowAfterMs && !m_jobShown) {
        m_jobShown = true;
        render(); // the job takes the bar (and ticks)
        return;
    }
    if (!jobOwnsLabels() || ms < 0) {
        if (!m_backgroundTitle.isEmpty() && m_backgroundSince.isValid()) {
            m_elapsed->setText(clock(m_backgroundSince.msecsTo(LocalClock::now())));
            m_elapsed->setToolTip(tr("How long it has gone on"));
        }
        return;
    }
    // When its time limit stops it, if nothing else does first (running time only: time
    // parked in the debugger does not count).
    const int limitMs = m_session->timeLimitOf(*m_job);
    if (limitMs > 0) {
        m_elapsed->setText(tr("%1 \u00b7 limit %2").arg(clock(ms), clock(limitMs)));
        m_elapsed->setToolTip(tr("It has run %1; its time limit stops it after %2 of running (%3 left). Agents may give "
                                 "another with timeout_seconds; File \u25b8 Settings\u2026 sets the default.")
                                  .arg(clock(ms), clock(limitMs), clock(qMax<qint64>(0, limitMs - m_job->runningMs()))));
    } else {
        m_elapsed->setText(clock(ms));
        m_elapsed->setToolTip(tr("How long it has run; it has no time limit"));
    }
    showActivity(); // a progress message that grew stale gives way to the newest output
    if (ms >= ShowAfterMs && isHidden())
        show();
}

QString RunningJobBar::whatRuns() const
{
    const JobRequest &request = m_job->request;
    const QString who = request.origin.isPerson() ? tr("You are") : tr("<b>%1</b> is").arg(request.origin.name.toHtmlEscaped());
    const QString operation = JobSummary::shownOperation(request);
    const bool evaluating = operation.isEmpty();
    QString what = !request.tool.isEmpty() ? request.tool : evaluating ? tr("evaluating") : operation;
    QString title = tr("%1 running %2").arg(who, what.toHtmlEscaped());
    if (request.tool.isEmpty() && evaluating)
        title = tr("%1 evaluating").arg(who);
    if (!request.description.isEmpty())
        title += QStringLiteral(" \u2014 ") + request.description.toHtmlEscaped();
    const QString firstLine = JobSummary::subject(request).section(QLatin1Char('\n'), 0, 0).trimmed();
    if (!firstLine.isEmpty()) {
        const QString shown = firstLine.size() > 80 ? firstLine.left(80) + QStringLiteral("\u2026") : firstLine;
        title += QStringLiteral(" <span style='color:%1; font-family:monospace'>%2</span>")
                     .arg(isDark() ? QStringLiteral("#9aa8b6") : QStringLiteral("#5b6875"), shown.toHtmlEscaped());
    }
    return title;
}
