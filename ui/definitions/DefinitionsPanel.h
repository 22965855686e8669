#pragma once

#include <QWidget>

class DefinitionsModel;
class QLineEdit;
class QPlainTextEdit;
class QLabel;
class QSortFilterProxyModel;
class QTreeView;

// The definitions dock: a filter box, the tree (package -> definitions) and, for the selected
// entry, its documentation, who defined it when, and the form that did.
class DefinitionsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit DefinitionsPanel(DefinitionsModel *model, QWidget *parent = nullptr);

    QTreeView *tree() const { return m_tree; }
    QLineEdit *filter() const { return m_filter; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QString detailText() const;

private:
    void showDetails();

    DefinitionsModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QLineEdit *m_filter;
    QTreeView *m_tree;
    QLabel *m_info;
    QPlainTextEdit *m_form;
    QString m_selectedPackage;
    QString m_selectedName;
};
