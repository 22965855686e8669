#include "Replayer.h"

#include "lispsource/DefiningOperators.h"
#include "lispsource/LispReader.h"
#include "client/EngineProtocol.h"
#include "session/JobSummary.h"
#include "session/Session.h"
#include "session/TextLines.h"

#include <QJsonArray>
#include <QSet>

namespace {
using TextLines::oneLine;

// Forms that change the session's global state without defining a name (DefiningOperators
// knows those): assignments, and loading code or systems.
bool changesGlobalState(const QString &operatorName)
{
    static const QSet<QString> operators = {
        QStringLiteral("setf"), QStringLiteral("setq"), QStringLiteral("psetf"), QStringLiteral("psetq"),
        QStringLiteral("require"), QStringLiteral("load"), QStringLiteral("load-system"), QStringLiteral("quickload"),
        QStringLiteral("use-package"), QStringLiteral("defsystem"),
    };
    return operators.contains(operatorName);
}

bool isDefining(const SyntaxNode &form)
{
    const QString op = form.operatorName();
    return !op.isEmpty() && (DefiningOperators::find(op).isValid() || changesGlobalState(op));
}
} // namespace

QString Replayer::Summary::text() const
{
    QString text = QStringLiteral("Replayed %1 definition%2").arg(replayed).arg(replayed == 1 ? QString() : QStringLiteral("s"));
    if (!failed.isEmpty()) {
        QStringList failures;
        for (const Failure &failure : failed)
            failures << QStringLiteral("%1 -> %2").arg(oneLine(failure.form, 80), oneLine(failure.error, 160));
        text += QStringLiteral(" (%1 failed: %2)").arg(failed.size()).arg(failures.join(QStringLiteral("; ")));
    }
    text += QLatin1Char('.');
    if (total == 0)
        text = QStringLiteral("Nothing to replay: the journal holds no successful definitions.");
    if (aborted)
        text += QStringLiteral(" The replay stopped after %1 of %2 steps: %3").arg(replayed + int(failed.size())).arg(total).arg(abortReason);
    if (skipped > 0)
        text += QStringLiteral(" %1 top-level form%2 that define nothing %3 not replayed.")
                    .arg(skipped).arg(skipped == 1 ? QString() : QStringLiteral("s"))
                    .arg(skipped == 1 ? QStringLiteral("was") : QStringLiteral("were"));
    return text;
}

QJsonObject Replayer::Summary::toJson() const
{
    QJsonArray failures;
    for (const Failure &failure : failed)
        failures.append(QJsonObject{{QStringLiteral("form"), failure.form}, {QStringLiteral("error"), failure.error}});
    QJsonObject json{{QStringLiteral("replayed"), replayed},
                     {QStringLiteral("failed"), failures},
                     {QStringLiteral("skipped"), skipped},
                     {QStringLiteral("total"), total},
                     {QStringLiteral("aborted"), aborted}};
    if (aborted)
        json.insert(QStringLiteral("abort_reason"), abortReason);
    return json;
}

Replayer::Replayer(Session *session, QObject *parent) : QObject(parent), m_session(session)
{
}

bool Replayer::isDefiningForm(const QString &form)
{
    const QList<SyntaxNode> forms = SyntaxTree::read(form).forms();
    return !forms.isEmpty() && isDefining(forms.first());
}

QList<Replayer::Step> Replayer::plan(const QList<JournalEntry> &entries, int *skipped)
{
    QList<Step> steps;
    int left = 0;
    for (const JournalEntry &entry : entries) {
        if (!entry.isJob())
            continue;
        const Job &job = entry.job;
        if (!job.result.ok() || job.request.origin.clientKey == Origin::system(QStringLiteral("replay")).clientKey)
            continue;
        if (job.request.kind == EngineJob::Kind::LoadSystem) {
            // Loading a system takes longer than a definition: as long as the original was allowed.
            Step load = job.request;
            load.timeoutMs = qMax(job.request.timeoutMs, 120000);
            steps.append(load);
            continue;
        }
        if (job.request.kind != EngineJob::Kind::Evaluate)
            continue; // describe, complete, ...: questions, not changes
        bool afterInPackage = false;
        for (const SyntaxNode &form : SyntaxTree::read(job.request.code).forms()) {
            if (!form.isComplete())
                continue;
            if (!isDefining(form)) {
                ++left;
                continue;
            }
            // Until an in-package of this same evaluation runs, its forms ran in the package
            // the journal recorded; after it, in the package the in-package chose.
            steps.append(EngineProtocol::evaluation(form.text().toString(), afterInPackage ? QString() : job.request.package));
            if (DefiningOperators::find(form.operatorName()).changesPackage())
                afterInPackage = true;
        }
    }
    if (skipped)
        *skipped = left;
    return steps;
}

bool Replayer::start(const QList<JournalEntry> &entries)
{
    if (m_running || !m_session)
        return false;
    m_summary = {};
    m_steps = plan(entries, &m_summary.skipped);
    m_summary.total = int(m_steps.size());
    m_next = 0;
    m_cancelled = false;
    m_running = true;
    runNext();
    return true;
}

void Replayer::cancel()
{
    if (!m_running)
        return;
    m_cancelled = true;
    if (m_waitingFor == 0)
        finish();
}

void Replayer::runNext()
{
    if (m_cancelled) {
        m_summary.aborted = true;
        m_summary.abortReason = QStringLiteral("it was cancelled.");
        finish();
        return;
    }
    if (m_next >= m_steps.size()) {
        finish();
        return;
    }
    const Step &step = m_steps.at(m_next);
    JobRequest request = step;
    request.origin = Origin::system(QStringLiteral("replay"));
    request.purpose = JobPurpose::Replay;
    request.description = QStringLiteral("Replaying definition %1 of %2 from the journal").arg(m_next + 1).arg(m_steps.size());
    m_waitingFor = m_session->submit(request);
    // Heard at once if the session finished it already (no engine).
    m_session->whenFinished(m_waitingFor, [self = QPointer<Replayer>(this)](JobPtr job) {
        if (self)
            self->onJobFinished(job);
    });
}

void Replayer::onJobFinished(JobPtr job)
{
    if (!m_running || m_waitingFor == 0 || job->id != m_waitingFor)
        return;
    m_waitingFor = 0;
    const Step step = m_steps.at(m_next++);
    const JobResult &result = job->result;
    if (result.ok()) {
        ++m_summary.replayed;
    } else {
        m_summary.failed.append({JobSummary::subject(step), QStringLiteral("%1: %2").arg(result.error.type, result.error.message)});
        if (result.status == JobResult::Status::EngineRestarted) {
            // Whatever was replayed so far is gone with the engine: going on would leave
            // a half-restored session that looks whole.
            m_summary.aborted = true;
            m_summary.abortReason = QStringLiteral("the engine restarted during the replay.");
        } else if (result.status == JobResult::Status::Cancelled || result.status == JobResult::Status::Failed) {
            m_summary.aborted = true;
            m_summary.abortReason = result.error.message;
        }
    }
    Q_EMIT progress(m_next, int(m_steps.size()), JobSummary::subject(step));
    if (m_summary.aborted) {
        finish();
        return;
    }
    runNext();
}

void Replayer::finish()
{
    m_running = false;
    m_waitingFor = 0;
    m_steps.clear();
    Q_EMIT finished(m_summary);
}
