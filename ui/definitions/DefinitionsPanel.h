#pragma once

#include "DefinitionsModel.h"
#include "history/DefinitionVersion.h"

#include <QWidget>

class DefinitionsModel;
class QLabel;
class QLineEdit;
class QMenu;
class QPlainTextEdit;
class QPushButton;
class QSortFilterProxyModel;
class QToolButton;
class QTreeView;
class QTreeWidget;
class Session;

// The definitions dock: a filter box, the tree (package -> definitions) and, for the selected
// entry, its documentation, who defined it when, and its history from the ledger: every
// version (who, how, when), the selected one's text or its changes from the version before,
// and Revert, which evaluates an earlier version as the person's own job.
class DefinitionsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit DefinitionsPanel(DefinitionsModel *model, QWidget *parent = nullptr);

    // The session reverts run in, as the person.
    void setSession(Session *session) { m_session = session; }

    QTreeView *tree() const { return m_tree; }
    QLineEdit *filter() const { return m_filter; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTreeWidget *history() const { return m_history; }
    QPushButton *revertButton() const { return m_revert; }
    QToolButton *changesButton() const { return m_showChanges; }
    QString detailText() const;
    // What the text view shows now: a version's text, or its changes from the one before.
    QString shownText() const;

    // Selects the definition and its version `number` (0: the newest) in the history.
    bool select(const DefinitionKey &key, int number = 0);
    // Evaluates the selected version as the person; false with the reason in the status line.
    bool revertSelected();
    QString statusText() const;
    // The tree's context menu for the row at `index` (of tree()'s model): "Send to the agent".
    QMenu *contextMenu(const QModelIndex &index);

Q_SIGNALS:
    // The person sent a definition to the agent's prompt (the Agent panel's context).
    void sendToAgentRequested(const DefinitionsModel::Definition &definition);
    // A revert was submitted (the job id), for the window's status bar.
    void reverted(quint64 job, const QString &summary);

protected:
    // The theme changed (File ▸ Settings…): the definition's text follows it.
    void changeEvent(QEvent *event) override;

private:
    void showDetails();
    void showHistory();
    void showVersion();

    DefinitionsModel *m_model;
    Session *m_session = nullptr;
    QSortFilterProxyModel *m_proxy;
    QLineEdit *m_filter;
    QTreeView *m_tree;
    QLabel *m_info;
    QTreeWidget *m_history;
    QToolButton *m_showText;
    QToolButton *m_showChanges;
    QPushButton *m_revert;
    QLabel *m_status;
    QPlainTextEdit *m_form;
    QPlainTextEdit *m_diff;
    QString m_selectedPackage;
    QString m_selectedName;
    DefinitionKey m_selectedKey;
    DefinitionKey m_historyKey; // whose versions the history list shows
    int m_selectedVersion = 0;
    bool m_followNewest = true;
};
