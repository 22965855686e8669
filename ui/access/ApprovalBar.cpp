#include "ApprovalBar.h"

#include "AccessController.h"
#include "highlight/LispHighlighter.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBlock>
#include <QVBoxLayout>

ApprovalBar::ApprovalBar(AccessController *access, QWidget *parent)
    : QFrame(parent), m_access(access), m_title(new QLabel(this)), m_count(new QLabel(this)),
      m_code(new QPlainTextEdit(this)), m_approve(new QPushButton(tr("&Approve"), this)),
      m_deny(new QPushButton(tr("&Deny"), this))
{
    setObjectName(QStringLiteral("approvalBar"));
    setFrameShape(QFrame::StyledPanel);
    // A light warning-coloured bar in every theme, so its text colours are set here too.
    setStyleSheet(QStringLiteral("#approvalBar { background: #fff6e0; border: 1px solid #e0b060; border-radius: 4px; }"
                                 "#approvalBar QLabel { background: transparent; color: #2b2210; }"));
    m_title->setTextFormat(Qt::RichText);
    m_title->setWordWrap(true);
    m_count->setStyleSheet(QStringLiteral("color: #5c4a20;"));
    m_code->setReadOnly(true);
    m_code->setFrameShape(QFrame::NoFrame);
    m_code->setMaximumHeight(140);
    m_code->setStyleSheet(QStringLiteral("background: #fffdf7; color: #1f1f1f;"));
    SyntaxHighlighting::attach(m_code->document());
    m_approve->setDefault(false);
    m_approve->setToolTip(tr("Run this call now"));
    m_deny->setToolTip(tr("Refuse it; the agent is told that you denied it"));

    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(m_count);
    top->addSpacing(8);
    top->addWidget(m_approve);
    top->addWidget(m_deny);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->setSpacing(6);
    layout->addLayout(top);
    layout->addWidget(m_code);

    connect(m_approve, &QPushButton::clicked, access, &AccessController::approve);
    connect(m_deny, &QPushButton::clicked, access, &AccessController::deny);
    connect(access, &AccessController::pendingChanged, this, &ApprovalBar::refresh);
    refresh();
}

void ApprovalBar::setCodeFont(const QFont &font)
{
    m_code->setFont(font);
}

QString ApprovalBar::headline() const
{
    return m_title->text();
}

void ApprovalBar::refresh()
{
    const auto &pending = m_access->pending();
    if (pending.isEmpty()) {
        hide();
        return;
    }
    const AccessController::Pending &first = pending.first();
    QString title = tr("<b>%1</b> wants to run <b>%2</b>").arg(first.clientName.toHtmlEscaped(), first.toolName.toHtmlEscaped());
    if (!first.description.isEmpty())
        title += QStringLiteral(" \u2014 ") + first.description.toHtmlEscaped();
    m_title->setText(title);
    m_count->setText(pending.size() > 1 ? tr("1 of %1").arg(pending.size()) : QString());
    m_code->setPlainText(first.code.isEmpty() ? tr("(no code)") : first.code);
    const int lines = qBound(1, m_code->document()->blockCount(), 6);
    m_code->setFixedHeight(m_code->fontMetrics().lineSpacing() * lines + 12);
    show();
}
