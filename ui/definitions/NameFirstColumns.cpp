#include "NameFirstColumns.h"

#include <QAbstractItemModel>
#include <QEvent>
#include <QHeaderView>
#include <QStyle>
#include <QTreeView>

NameFirstColumns::NameFirstColumns(QTreeView *tree, int capped, int cap)
    : QObject(tree), m_tree(tree), m_viewport(tree->viewport()), m_capped(capped), m_cap(cap)
{
    QHeaderView *header = tree->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < header->count(); ++c)
        header->setSectionResizeMode(c, QHeaderView::Interactive);
    m_later.setSingleShot(true);
    m_later.setInterval(0);
    connect(&m_later, &QTimer::timeout, this, &NameFirstColumns::fit);
    m_viewport->installEventFilter(this);
    QAbstractItemModel *model = tree->model();
    const auto again = [this] { m_later.start(); };
    connect(model, &QAbstractItemModel::modelReset, this, again);
    connect(model, &QAbstractItemModel::layoutChanged, this, again);
    connect(model, &QAbstractItemModel::rowsInserted, this, again);
    connect(model, &QAbstractItemModel::dataChanged, this, again);
    connect(tree, &QTreeView::expanded, this, again);
}

bool NameFirstColumns::eventFilter(QObject *watched, QEvent *event)
{
    // The tree deletes its viewport from QWidget's destructor, when it is a QTreeView no more
    // and the viewport's last events still come here: m_tree is not asked.
    if (event->type() == QEvent::Resize && watched == m_viewport)
        m_later.start();
    return QObject::eventFilter(watched, event);
}

int NameFirstColumns::contentWidth(int column) const
{
    // QTreeView's own override (with the indentation of the first column) is protected there,
    // public through its base.
    return static_cast<const QAbstractItemView *>(m_tree)->sizeHintForColumn(column);
}

void NameFirstColumns::fit()
{
    QHeaderView *header = m_tree->header();
    const int columns = header->count();
    const int width = m_tree->viewport()->width();
    if (columns < 2 || width <= 0)
        return;
    QList<int> want(columns);
    QList<int> least(columns);
    int wanted = 0;
    int leastSum = 0;
    // A column gives way down to a time's width ("12:00:05"), or its header's if wider: a
    // short column (When, Runs' "native") stays whole, a long one (Kind, By) is cut first.
    const int floor = m_tree->fontMetrics().horizontalAdvance(QStringLiteral("00:00:00")) + 2 * m_tree->style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 8;
    for (int c = 1; c < columns; ++c) {
        want[c] = qMax(header->sectionSizeHint(c), contentWidth(c));
        least[c] = qMin(want[c], qMax(header->sectionSizeHint(c), floor));
        if (c == m_capped)
            want[c] = qMax(least[c], qMin(want[c], m_cap));
        wanted += want[c];
        leastSum += least[c];
    }
    const int names = qMin(contentWidth(0), width / 2);
    // What the other columns may have: all they want, or what the names leave them, shared
    // out in proportion to what each would give up.
    const int room = qMax(leastSum, width - names);
    const double share = wanted > leastSum ? qBound(0.0, double(room - leastSum) / (wanted - leastSum), 1.0) : 1.0;
    for (int c = 1; c < columns; ++c)
        header->resizeSection(c, least[c] + int((want[c] - least[c]) * share));
}
