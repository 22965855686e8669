#pragma once

#include "tools/FormStager.h"

#include <QHash>
#include <QList>
#include <QPointer>

class ConsoleWidget;
class Session;

// The window's side of stage-form: the forms agents stage, in a queue; the one in front is in
// the person's REPL input. Enter runs it as the person's job ("ran", or "edited" when the
// person changed it first); reject() drops it with an optional reason. The person's own
// unfinished input is kept while staged forms are in the input and restored after the last.
// No widget of its own: StagingBar draws it.
class StagedForms : public FormStager
{
    Q_OBJECT
public:
    // `window` is what must be shown for a person to see a staged form.
    StagedForms(Session *session, ConsoleWidget *input, QWidget *window, QObject *parent = nullptr);
    ~StagedForms() override;

    QString unavailableReason() const override;
    void stage(const StagedForm &form, Done done) override;
    void withdraw(quint64 id) override;

    // The form in the input, or null.
    const StagedForm *current() const { return m_queue.isEmpty() ? nullptr : &m_queue.first().form; }
    // How many wait behind the one in the input.
    int waiting() const { return qMax(0, int(m_queue.size()) - 1); }
    // The person had typed something of their own, which comes back after the staged forms.
    bool keepsPersonsInput() const { return m_saved && !m_savedText.trimmed().isEmpty(); }
    // The person submitted `code` from the input: while a form is staged it runs as that form
    // (true); otherwise false and the caller evaluates it as usual.
    bool submit(const QString &code);
    // The person rejects the form in the input; `reason` may be empty.
    void reject(const QString &reason);

Q_SIGNALS:
    // The form in the input or the count behind it changed.
    void changed();
    void rejected(const StagedForm &form, const QString &reason);

private:
    struct Entry
    {
        StagedForm form;
        Done done;
    };
    void showFirst();
    void next(); // the first was answered: show the next, or give the person their text back

    Session *m_session;
    QPointer<ConsoleWidget> m_input;
    QPointer<QWidget> m_window;
    QList<Entry> m_queue; // the first is in the input
    QHash<quint64, quint64> m_running; // staged form -> the person's job running it
    bool m_saved = false;
    QString m_savedText;
    int m_savedCursor = 0;
};
