#include "StagedForms.h"

#include "ConsoleWidget.h"

#include "client/EngineProtocol.h"
#include "session/Session.h"

#include <QApplication>
#include <QTextCursor>

StagedForms::StagedForms(Session *session, ConsoleWidget *input, QWidget *window, QObject *parent)
    : FormStager(parent), m_session(session), m_input(input), m_window(window)
{
}

StagedForms::~StagedForms()
{
    // The agents waiting must not wait for ever.
    for (Entry &entry : m_queue)
        entry.done({StagingOutcome::Kind::Dropped, {}, tr("The Lisp Duet window closed before the person answered, so the form did not run."), {}});
}

QString StagedForms::unavailableReason() const
{
    if (!m_window || !m_input)
        return tr("The Lisp Duet window is gone, so nobody can see a staged form; nothing was staged. Run the code with "
                  "evaluate-lisp instead.");
    if (!m_window->isVisible())
        return tr("The Lisp Duet window is hidden (Lisp Duet runs in the tray), so nobody sees a staged form; nothing was "
                  "staged. Run the code with evaluate-lisp instead, or ask the person to open the window.");
    return {};
}

void StagedForms::stage(const StagedForm &form, Done done)
{
    m_queue.append({form, std::move(done)});
    if (m_queue.size() == 1)
        showFirst();
    else
        Q_EMIT changed();
    if (m_window && !m_window->isActiveWindow())
        QApplication::alert(m_window); // the taskbar says the person has something to decide
}

void StagedForms::showFirst()
{
    if (!m_input || m_queue.isEmpty())
        return;
    if (!m_saved) {
        m_saved = true;
        m_savedText = m_input->toPlainText();
        m_savedCursor = m_input->textCursor().position();
    }
    m_input->setPlainText(m_queue.first().form.code);
    m_input->moveCursor(QTextCursor::End);
    m_input->setFocus();
    Q_EMIT changed();
}

void StagedForms::next()
{
    m_queue.removeFirst();
    if (!m_queue.isEmpty()) {
        showFirst();
        return;
    }
    if (m_input && m_saved) {
        m_input->setPlainText(m_savedText);
        QTextCursor cursor = m_input->textCursor();
        cursor.setPosition(qMin(m_savedCursor, int(m_savedText.size())));
        m_input->setTextCursor(cursor);
    }
    m_saved = false;
    m_savedText.clear();
    Q_EMIT changed();
}

bool StagedForms::submit(const QString &code)
{
    if (m_queue.isEmpty())
        return false;
    Entry entry = m_queue.first();
    const StagedForm &form = entry.form;
    const bool edited = code.trimmed() != form.code.trimmed();
    JobRequest request = EngineProtocol::evaluation(code, form.package);
    request.origin = Origin::person();
    request.purpose = JobPurpose::StagedForm;
    request.tool = QStringLiteral("stage-form");
    request.description = form.description.isEmpty() ? tr("staged by %1").arg(form.origin.name)
                                                     : tr("staged by %1: %2").arg(form.origin.name, form.description);
    const quint64 job = m_session->submit(request);
    m_running.insert(form.id, job);
    const quint64 id = form.id;
    QPointer<StagedForms> guard(this);
    m_session->whenFinished(job, [guard, id, done = entry.done, code, edited](JobPtr finished) {
        if (guard)
            guard->m_running.remove(id);
        done({edited ? StagingOutcome::Kind::Edited : StagingOutcome::Kind::Ran, code, {}, finished});
    });
    next();
    return true;
}

void StagedForms::reject(const QString &reason)
{
    if (m_queue.isEmpty())
        return;
    const Entry entry = m_queue.first();
    next();
    Q_EMIT rejected(entry.form, reason.trimmed());
    entry.done({StagingOutcome::Kind::Rejected, {}, reason.trimmed(), {}});
}

void StagedForms::withdraw(quint64 id)
{
    if (const auto job = m_running.constFind(id); job != m_running.constEnd()) {
        m_session->cancel(*job, tr("The agent that staged this form cancelled its request."));
        return;
    }
    for (qsizetype i = 0; i < m_queue.size(); ++i) {
        if (m_queue.at(i).form.id != id)
            continue;
        if (i == 0) {
            next(); // the person's own text comes back, or the next form
        } else {
            m_queue.removeAt(i);
            Q_EMIT changed();
        }
        return;
    }
}
