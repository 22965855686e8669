#include "ContextChips.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QToolButton>

namespace {
// Space or Delete on a chip with the focus takes it away, as a click does.
class ChipButton : public QToolButton
{
public:
    using QToolButton::QToolButton;

protected:
    void keyPressEvent(QKeyEvent *event) override
    {
        if (event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace) {
            click();
            return;
        }
        QToolButton::keyPressEvent(event);
    }
};
} // namespace

ContextChips::ContextChips(QWidget *parent) : QWidget(parent), m_layout(new QHBoxLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(4);
    m_layout->addStretch(1);
    setVisible(false);
}

void ContextChips::add(const Acp::ContentBlock &resource, const QString &label)
{
    for (Chip &chip : m_chips) {
        if (chip.resource.uri == resource.uri && !resource.uri.isEmpty()) {
            chip.resource = resource;
            return;
        }
    }
    auto *button = new ChipButton(this);
    button->setObjectName(QStringLiteral("contextChip"));
    button->setText(label + QStringLiteral("  \u2715"));
    button->setAutoRaise(false);
    QString preview = resource.text.left(600);
    if (resource.text.size() > 600)
        preview += QChar(0x2026);
    button->setToolTip(tr("%1\nGoes with your next prompt. Click (or Delete) to take it away.\n\n%2").arg(resource.uri, preview));
    button->setAccessibleName(tr("Context: %1").arg(label));
    connect(button, &QToolButton::clicked, this, [this, button] { remove(button); });
    m_layout->insertWidget(m_layout->count() - 1, button);
    m_chips.append({resource, label, button});
    setVisible(true);
    Q_EMIT changed();
}

QList<Acp::ContentBlock> ContextChips::resources() const
{
    QList<Acp::ContentBlock> list;
    for (const Chip &chip : m_chips)
        list << chip.resource;
    return list;
}

QStringList ContextChips::labels() const
{
    QStringList list;
    for (const Chip &chip : m_chips)
        list << chip.label;
    return list;
}

void ContextChips::remove(QToolButton *button)
{
    for (qsizetype i = 0; i < m_chips.size(); ++i) {
        if (m_chips.at(i).button == button) {
            m_chips.removeAt(i);
            button->deleteLater();
            break;
        }
    }
    setVisible(!m_chips.isEmpty());
    Q_EMIT changed();
}

void ContextChips::clear()
{
    for (const Chip &chip : std::as_const(m_chips))
        chip.button->deleteLater();
    m_chips.clear();
    setVisible(false);
    Q_EMIT changed();
}
