#include "StagingBar.h"

#include "StagedForms.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

StagingBar::StagingBar(StagedForms *forms, QWidget *parent)
    : QFrame(parent), m_forms(forms), m_title(new QLabel(this)), m_count(new QLabel(this)), m_hint(new QLabel(this)),
      m_reason(new QLineEdit(this)), m_reject(new QPushButton(tr("&Reject\u2026"), this)), m_back(new QPushButton(tr("Back"), this)),
      m_accent(0x7a, 0x3e, 0x9d)
{
    setObjectName(QStringLiteral("stagingBar"));
    m_title->setObjectName(QStringLiteral("stagingTitle"));
    m_count->setObjectName(QStringLiteral("stagingCount"));
    m_hint->setObjectName(QStringLiteral("stagingHint"));
    m_reason->setObjectName(QStringLiteral("stagingReason"));
    m_reject->setObjectName(QStringLiteral("stagingReject"));
    m_title->setTextFormat(Qt::RichText);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_hint->setWordWrap(true);
    m_reason->setPlaceholderText(tr("Why? (optional) \u2014 Enter rejects, Esc goes back to the form"));
    m_reason->installEventFilter(this);
    m_reject->setToolTip(tr("Do not run it; the agent is told, with your reason if you give one (Esc in the input)"));
    m_back->setToolTip(tr("Back to the form in the input"));
    m_reject->setAutoDefault(false);
    m_back->setAutoDefault(false);

    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(m_count);
    top->addSpacing(8);
    top->addWidget(m_reject);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_hint, 1);
    bottom->addWidget(m_reason, 1);
    bottom->addWidget(m_back);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 6, 10, 6);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addLayout(bottom);

    connect(m_reject, &QPushButton::clicked, this, [this] {
        if (isRejecting())
            confirmReject();
        else
            startRejecting();
    });
    connect(m_back, &QPushButton::clicked, this, &StagingBar::stopRejecting);
    connect(m_reason, &QLineEdit::returnPressed, this, &StagingBar::confirmReject);
    connect(forms, &StagedForms::changed, this, &StagingBar::refresh);
    setAccent(m_accent);
    stopRejecting();
    refresh();
}

void StagingBar::setAccent(const QColor &colour)
{
    m_accent = colour;
    // A light bar in every theme (its text colours are set here too), edged in the agent's colour.
    setStyleSheet(QStringLiteral("#stagingBar { background: #f4effa; border: 1px solid #d6c8e6; border-left: 4px solid %1; }"
                                 "#stagingBar QLabel { background: transparent; color: #2a2233; }")
                      .arg(colour.name()));
}

QString StagingBar::headline() const
{
    return m_title->text();
}

QString StagingBar::countText() const
{
    return m_count->text();
}

QString StagingBar::hint() const
{
    return m_hint->text();
}

bool StagingBar::isRejecting() const
{
    return !m_reason->isHidden();
}

void StagingBar::refresh()
{
    const StagedForm *form = m_forms->current();
    if (!form) {
        stopRejecting();
        hide();
        return;
    }
    QString title = tr("<b>%1</b> staged this form for you").arg(form->origin.name.toHtmlEscaped());
    if (!form->description.isEmpty())
        title += QStringLiteral(" \u2014 ") + form->description.toHtmlEscaped();
    if (!form->package.isEmpty())
        title += tr(" <span style='color:#6b6275'>(in %1)</span>").arg(form->package.toHtmlEscaped());
    m_title->setText(title);
    const int waiting = m_forms->waiting();
    m_count->setText(waiting == 0 ? QString() : waiting == 1 ? tr("1 more waits") : tr("%1 more wait").arg(waiting));
    if (!isRejecting())
        m_hint->setText(hintText());
    show();
}

QString StagingBar::hintText() const
{
    QString hint = tr("Enter runs it \u00b7 edit it first if you like \u00b7 Esc or Reject\u2026 to refuse it");
    if (m_forms->keepsPersonsInput())
        hint += tr(" \u00b7 what you were typing comes back afterwards");
    return hint;
}

void StagingBar::startRejecting()
{
    if (!m_forms->current())
        return;
    m_hint->hide();
    m_reason->clear();
    m_reason->show();
    m_back->show();
    m_reject->setText(tr("&Reject"));
    m_reason->setFocus();
}

void StagingBar::stopRejecting()
{
    const bool was = isRejecting();
    m_reason->hide();
    m_back->hide();
    m_hint->setText(hintText());
    m_hint->show();
    m_reject->setText(tr("&Reject\u2026"));
    if (was)
        Q_EMIT returnToInput();
}

void StagingBar::confirmReject()
{
    const QString reason = m_reason->text();
    stopRejecting();
    m_forms->reject(reason);
}

bool StagingBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_reason && event->type() == QEvent::KeyPress && static_cast<QKeyEvent *>(event)->key() == Qt::Key_Escape) {
        stopRejecting();
        return true;
    }
    return QFrame::eventFilter(watched, event);
}
