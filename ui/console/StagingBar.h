#pragma once

#include <QFrame>

class QLabel;
class QLineEdit;
class QPushButton;
class StagedForms;

// Above the REPL input while an agent's staged form is in it: who staged it and why, how many
// more wait, and how to answer (Enter runs it, edit it first, Reject… with an optional reason
// typed in a line). Draws StagedForms; holds no state of its own beyond the reason being typed.
class StagingBar : public QFrame
{
    Q_OBJECT
public:
    explicit StagingBar(StagedForms *forms, QWidget *parent = nullptr);

    // The colour of the agent's lane in the transcript, for the bar's edge.
    void setAccent(const QColor &colour);
    // Asks for a reason, then rejects (what Reject… and Esc in the input do).
    void startRejecting();
    bool isRejecting() const;

    QString headline() const;
    QString countText() const;
    QString hint() const;
    QLineEdit *reasonEdit() const { return m_reason; }
    QPushButton *rejectButton() const { return m_reject; }

Q_SIGNALS:
    // The person is done with the bar (rejected, or went back): the input takes the keys again.
    void returnToInput();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void refresh();
    QString hintText() const;
    void confirmReject();
    void stopRejecting();

    StagedForms *m_forms;
    QLabel *m_title;
    QLabel *m_count;
    QLabel *m_hint;
    QLineEdit *m_reason;
    QPushButton *m_reject;
    QPushButton *m_back;
    QColor m_accent;
};
