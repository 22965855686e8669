#include "ApprovalBar.h"

#include "access/AccessGate.h"
#include "highlight/DiffFormats.h"
#include "highlight/LispHighlighter.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBlock>
#include <QTextCursor>
#include <QVBoxLayout>

ApprovalBar::ApprovalBar(AccessGate *access, QWidget *parent)
    : QFrame(parent), m_access(access), m_title(new QLabel(this)), m_count(new QLabel(this)), m_summary(new QLabel(this)),
      m_code(new QPlainTextEdit(this)), m_diff(new QPlainTextEdit(this)), m_approve(new QPushButton(tr("&Approve"), this)),
      m_deny(new QPushButton(tr("&Deny"), this)), m_reason(new QLineEdit(this))
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
    m_summary->setWordWrap(true);
    m_summary->setStyleSheet(QStringLiteral("color: #5c4a20;"));
    m_diff->setObjectName(QStringLiteral("approvalDiff"));
    m_diff->setReadOnly(true);
    m_diff->setLineWrapMode(QPlainTextEdit::NoWrap); // a diff's columns matter; it scrolls sideways
    m_diff->setFrameShape(QFrame::StyledPanel);
    m_diff->setStyleSheet(QStringLiteral("QPlainTextEdit { background: #ffffff; color: #1f1f1f; border: 1px solid #ead7a8; }"));
    m_approve->setDefault(false);
    m_approve->setToolTip(tr("Run this call now"));
    m_deny->setToolTip(tr("Refuse it; the agent is told that you denied it, with your reason if you typed one"));
    m_reason->setObjectName(QStringLiteral("approvalReason"));
    m_reason->setPlaceholderText(tr("Why not? (optional: the agent reads it; Enter denies)"));
    m_reason->setClearButtonEnabled(true);
    m_reason->setStyleSheet(QStringLiteral("QLineEdit { background: #fffdf7; color: #1f1f1f; border: 1px solid #ead7a8; }"));

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
    layout->addWidget(m_summary);
    layout->addWidget(m_code);
    layout->addWidget(m_diff);
    layout->addWidget(m_reason);

    connect(m_approve, &QPushButton::clicked, access, &AccessGate::approve);
    const auto deny = [this] {
        const QString reason = m_reason->text();
        m_reason->clear(); // the next call waiting gets a reason of its own
        m_access->deny(reason);
    };
    connect(m_deny, &QPushButton::clicked, this, deny);
    connect(m_reason, &QLineEdit::returnPressed, this, deny);
    connect(m_approve, &QPushButton::clicked, m_reason, &QLineEdit::clear);
    connect(access, &AccessGate::pendingChanged, this, &ApprovalBar::refresh);
    refresh();
}

void ApprovalBar::setCodeFont(const QFont &font)
{
    m_code->setFont(font);
    m_diff->setFont(font);
}

QString ApprovalBar::summary() const
{
    return m_summary->text();
}

QString ApprovalBar::diffText() const
{
    return m_diff->isHidden() ? QString() : m_diff->toPlainText();
}

bool ApprovalBar::showsDiff() const
{
    return !m_diff->isHidden();
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
    const AccessGate::Pending &first = pending.first();
    m_count->setText(pending.size() > 1 ? tr("1 of %1").arg(pending.size()) : QString());
    if (first.isChange) {
        showChange(first.change);
        show();
        return;
    }
    m_diff->hide();
    m_approve->setToolTip(tr("Run this call now"));
    QString title = tr("<b>%1</b> wants to run <b>%2</b>").arg(first.clientName.toHtmlEscaped(), first.toolName.toHtmlEscaped());
    if (!first.description.isEmpty())
        title += QStringLiteral(" \u2014 ") + first.description.toHtmlEscaped();
    m_title->setText(title);
    if (first.code.isEmpty()) {
        // A call without code says what it will do: "It will run the tests of system shapes."
        m_code->hide();
        m_summary->setText(tr("It will %1.").arg(first.intent));
        m_summary->show();
    } else {
        m_summary->hide();
        m_code->setPlainText(first.code);
        const int lines = qBound(1, m_code->document()->blockCount(), 6);
        m_code->setFixedHeight(m_code->fontMetrics().lineSpacing() * lines + 12);
        m_code->show();
    }
    show();
}

void ApprovalBar::showChange(const FileChange &change)
{
    QString title = change.created ? tr("<b>%1</b> wants to create <b>%2</b>") : tr("<b>%1</b> wants to change <b>%2</b>");
    title = title.arg(change.origin.name.toHtmlEscaped(), change.path.toHtmlEscaped());
    if (!change.tool.isEmpty())
        title += tr(" with %1").arg(change.tool.toHtmlEscaped());
    if (!change.description.isEmpty())
        title += QStringLiteral(" \u2014 ") + change.description.toHtmlEscaped();
    m_title->setText(title);
    QString summary = change.summary;
    if (!change.followUp.isEmpty()) // approving the change approves this too: say so
        summary += (summary.isEmpty() ? QString() : QStringLiteral(", ")) + change.followUp;
    // No-break spaces: the counts wrap as one piece.
    const QString counts = tr("+%1\u00a0\u2212%2\u00a0lines").arg(change.diff.added).arg(change.diff.removed);
    m_summary->setText(summary.isEmpty() ? counts : summary + QStringLiteral("  \u00b7\u00a0") + counts);
    m_summary->show();
    m_code->hide();
    m_diff->clear();
    QTextCursor cursor(m_diff->document());
    DiffFormats::insert(cursor, change.diff.lines, false); // the bar is light in every theme
    m_diff->moveCursor(QTextCursor::Start);
    // Up to 16 lines of diff; a longer one scrolls, so the input stays in view.
    const int lines = qBound(3, m_diff->document()->blockCount(), 16);
    m_diff->setFixedHeight(m_diff->fontMetrics().lineSpacing() * lines + 14);
    m_diff->show();
    m_approve->setToolTip(change.followUp.isEmpty() ? tr("Write this change to the file now")
                                                    : tr("Write this change to the file now, %1").arg(change.followUp));
}
