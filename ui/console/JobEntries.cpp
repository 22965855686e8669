#include "JobEntries.h"

#include "SetupNotes.h"
#include "TestRunBlock.h"
#include "TranscriptEntries.h"
#include "TranscriptView.h"

#include "client/EngineProtocol.h"
#include "session/JobOutcome.h"
#include "session/JobSummary.h"
#include "session/Session.h"

#include <QLocale>

namespace {
bool isTestRun(const JobRequest &request)
{
    return request.kind == EngineJob::Kind::RunTests;
}

// A system's load or test run has no code of its own: it shows what it does as a note.
bool namesASystem(const JobRequest &request)
{
    return request.kind == EngineJob::Kind::LoadSystem || request.kind == EngineJob::Kind::RunTests;
}

bool showsCode(const JobRequest &request)
{
    return !request.code.isEmpty() && !request.isDebuggerStep();
}
} // namespace

JobEntries::JobEntries(Session *session, TranscriptEntries *entries, QObject *parent)
    : QObject(parent), m_session(session), m_entries(entries)
{
    connect(session, &Session::started, this, [this](const JobPtr &job) {
        m_packageAtStart.insert(job->id, m_session->currentPackage());
        if (isTestRun(job->request))
            m_testRuns.insert(job->id);
        showHeader(job);
    });
    connect(session, &Session::output, this, &JobEntries::showOutput);
    connect(session, &Session::finished, this, [this](const JobPtr &job) {
        if (!m_shown.contains(job->id))
            showHeader(job); // cancelled before it ran
        const int lane = m_shown.take(job->id);
        m_packageAtStart.remove(job->id);
        m_testRuns.remove(job->id);
        showResult(job, lane);
    });
}

QString JobEntries::shortPackageName(const QString &package)
{
    if (package == QStringLiteral("COMMON-LISP-USER"))
        return QStringLiteral("CL-USER");
    if (package == QStringLiteral("COMMON-LISP"))
        return QStringLiteral("CL");
    return package;
}

int JobEntries::laneOf(quint64 jobId) const
{
    return m_shown.value(jobId, 0);
}

QString JobEntries::codeOf(quint64 jobId) const
{
    return m_code.value(jobId);
}

void JobEntries::showHeader(const JobPtr &job)
{
    const JobRequest &request = job->request;
    TranscriptView *t = m_entries->view();
    const int lane = m_entries->laneFor(request.origin);
    m_shown.insert(job->id, lane);
    m_entries->startEntry();
    const QString package = shortPackageName(request.package.isEmpty() ? m_packageAtStart.value(job->id, m_session->currentPackage())
                                                                       : request.package.toUpper());
    if (!request.origin.isPerson()) {
        t->newLine(lane);
        QString title = request.origin.name;
        if (const QString operation = JobSummary::shownOperation(request); !operation.isEmpty())
            title += QStringLiteral(" \u00b7 ") + operation;
        if (!request.description.isEmpty())
            title += QStringLiteral(" \u2014 ") + request.description;
        t->appendText(title + QStringLiteral("   "), TranscriptView::Style::Header, lane);
        if (showsCode(request)) {
            m_code.insert(job->id, request.code);
            m_codeOrder.append(job->id);
            while (m_codeOrder.size() > MaxRememberedCode)
                m_code.remove(m_codeOrder.takeFirst());
            t->appendLink(tr("Copy to input"), QStringLiteral("copy:%1").arg(job->id), lane);
        }
    } else if (!request.description.isEmpty()) {
        // The person's job for a hand-off says what it is: "staged by claude-code: ...", a revert.
        t->newLine(lane);
        t->appendText(QStringLiteral("; ") + request.description, TranscriptView::Style::Note, lane);
    }
    if (const QString debuggerStep = JobSummary::debuggerLine(request); !debuggerStep.isEmpty()) {
        t->appendText(debuggerStep, TranscriptView::Style::Note, lane);
        if (request.kind == EngineJob::Kind::FrameEvaluation)
            t->appendCode(request.code, lane, package + QStringLiteral("> "));
    } else if (namesASystem(request)) { // "run-tests shapes", "load-system shapes"
        t->appendText(JobSummary::action(request, 200), TranscriptView::Style::Note, lane);
    } else if (showsCode(request)) {
        t->appendCode(request.code, lane, package + QStringLiteral("> "));
    }
    t->newLine(lane);
}

void JobEntries::showOutput(quint64 id, const QString &stream, const QString &text)
{
    if (m_testRuns.contains(id))
        return; // the framework's report: the finished block shows it behind a link
    const int lane = m_shown.value(id, 0);
    m_entries->view()->appendText(text, stream == QStringLiteral("stderr") ? TranscriptView::Style::Stderr : TranscriptView::Style::Stdout, lane);
}

void JobEntries::showPast(const QList<JournalEntry> &entries)
{
    using Style = TranscriptView::Style;
    constexpr int MaxPastEvaluations = 200; // the journal keeps all; the window shows the end
    QList<const JournalEntry *> shown;
    int jobs = 0;
    for (auto it = entries.crbegin(); it != entries.crend() && jobs < MaxPastEvaluations; ++it) {
        const bool restart = it->event == QStringLiteral("engine-restarted") || it->event == QStringLiteral("session-reset");
        if (it->isJob() || restart)
            shown.prepend(&*it);
        jobs += it->isJob();
    }
    if (jobs == 0)
        return;
    QDateTime when;
    for (const JournalEntry &entry : entries) {
        if (entry.time().isValid()) {
            when = entry.time();
            break;
        }
    }
    TranscriptView *t = m_entries->view();
    t->appendText(tr("\u2014 previous session, %1 \u2014\n").arg(QLocale().toString(when, QLocale::ShortFormat)), Style::Note, 0);
    int total = 0;
    for (const JournalEntry &entry : entries)
        total += entry.isJob();
    if (total > jobs)
        t->appendText(tr("(%1 earlier evaluations are in the journal, not shown)\n").arg(total - jobs), Style::Note, 0);
    for (const JournalEntry *entry : shown) {
        if (!entry->isJob()) {
            t->appendText(QStringLiteral("; ") + entry->message + QLatin1Char('\n'), Style::Note, 0);
            continue;
        }
        const Job &e = entry->job;
        const QString who = e.request.origin.isPerson() ? QString() : e.request.origin.name + QStringLiteral(": ");
        const QString operation = JobSummary::shownOperation(e.request);
        const QString op = operation.isEmpty() ? QString() : operation + QLatin1Char(' ');
        t->appendText(who + shortPackageName(e.request.package) + QStringLiteral("> ") + op + JobSummary::subject(e.request) + QLatin1Char('\n'), Style::Note, 0);
        QString out = e.result.stdoutText + e.result.stderrText;
        if (out.size() > 2000)
            out = out.left(2000) + QStringLiteral("\u2026");
        if (!out.isEmpty())
            t->appendText(out.endsWith(QLatin1Char('\n')) ? out : out + QLatin1Char('\n'), Style::Note, 0);
        t->appendText(JobOutcome::text(e.result) + QLatin1Char('\n'), Style::Note, 0);
    }
    t->appendText(tr("\u2014 end of the previous session \u2014\n"), Style::Note, 0);
    m_entries->setHasEntries();
}

void JobEntries::showResult(const JobPtr &job, int lane)
{
    using Style = TranscriptView::Style;
    const JobResult &result = job->result;
    TranscriptView *t = m_entries->view();
    t->newLine(lane);
    if (result.outputDropped > 0)
        t->appendText(tr("; %1 more characters of output were dropped (over the output cap)\n").arg(result.outputDropped), Style::Note, lane);
    for (const QString &warning : result.warnings) {
        // The engine names the condition ("STYLE-WARNING: ..."); add a label only when it did not.
        const bool named = warning.section(QLatin1Char(':'), 0, 0).endsWith(QStringLiteral("WARNING"));
        t->appendText((named ? QStringLiteral("; ") : QStringLiteral("; WARNING: ")) + warning + QLatin1Char('\n'), Style::Warning, lane);
    }
    switch (result.status) {
    case JobResult::Status::Ok:
        if (job->request.kind == EngineJob::Kind::InvokeRestart || job->request.kind == EngineJob::Kind::FrameLook)
            break; // the debugger's own lines say what came of it
        if (isTestRun(job->request)) {
            TestRunBlock::append(t, EngineProtocol::TestRunReply(result.reply), lane);
            break;
        }
        if (SetupNotes::isSetupJob(job->request)) {
            t->appendText(QStringLiteral("; ") + SetupNotes::okNote(*job) + QLatin1Char('\n'), Style::Note, lane);
            break;
        }
        t->appendText(JobOutcome::values(result.values) + QLatin1Char('\n'), result.values.isEmpty() ? Style::Note : Style::Value, lane);
        break;
    case JobResult::Status::Error: {
        t->appendText(QStringLiteral("[ERROR] ") + result.error.type + QLatin1Char('\n'), Style::Error, lane);
        t->appendText(result.error.message + QLatin1Char('\n'), Style::Error, lane);
        if (!result.error.backtrace.isEmpty())
            t->appendCollapsed(result.error.backtrace.size() == 1 ? tr("Backtrace (1 frame)") : tr("Backtrace (%1 frames)").arg(result.error.backtrace.size()), result.error.backtrace, lane);
        break;
    }
    default:
        t->appendText(QStringLiteral("; ") + (result.error.message.isEmpty() ? JobResult::statusName(result.status) : result.error.message)
                          + QLatin1Char('\n'),
                      result.status == JobResult::Status::EngineRestarted || result.status == JobResult::Status::Failed ? Style::Error
                                                                                                                          : Style::Note,
                      lane);
        break;
    }
    if (!result.ok() && SetupNotes::isSetupJob(job->request) && !SetupNotes::problemNote(*job).isEmpty())
        t->appendText(QStringLiteral("; ") + SetupNotes::problemNote(*job) + QLatin1Char('\n'), Style::Error, lane);
}
