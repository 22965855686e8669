#pragma once

#include <QObject>
#include <QTimer>

class QTreeView;

// Shares a tree's width out so that its first column (the names) comes first: the other
// columns take what their contents need when there is room; in a narrow dock they give way,
// down to a time's width (a short column such as When stays whole), until the names have half the width or all they need.
// (QHeaderView's ResizeToContents columns never give way: at the default window size the
// names were cut to about ten letters, "describe-s…", once the Runs column came.)
class NameFirstColumns : public QObject
{
    Q_OBJECT
public:
    // `capped` columns never want more than `cap` pixels (By: a long file path stays in its
    // tooltip). Fits again when the tree's width or its rows change.
    NameFirstColumns(QTreeView *tree, int capped, int cap);

    void fit();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    int contentWidth(int column) const;

    QTreeView *m_tree;
    QWidget *m_viewport; // compared, never called: its tree may be half destroyed when it is deleted
    int m_capped;
    int m_cap;
    QTimer m_later; // one fit per burst of changes
};
