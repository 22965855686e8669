#pragma once

#include <QWidget>

class LibraryCompilation;
class QLabel;
class QPushButton;
class QTreeWidget;

// The Libraries dock (issue 39): each library the session loaded (or warms up) and what it
// runs as now — native, bytecode while it compiles in the background (k of n files), partly
// native, or bytecode and why —, under it the files that stay bytecode until the next engine
// start and why, and above it whether libraries become native in this engine at all. Its
// button compiles the project's libraries ahead (warmUpRequested: the window knows the
// project).
class LibrariesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LibrariesPanel(LibraryCompilation *libraries, QWidget *parent = nullptr);

    QTreeWidget *tree() const { return m_tree; }
    QPushButton *warmUpButton() const { return m_warmUp; }
    QString summaryText() const;
    // Under the tree, whole: the chosen row's sentence (a library's, with its files that stay
    // bytecode and why; a file's reason), else the first library's.
    QString detailText() const;
    // The rows as text, one a line ("alexandria | bytecode | 7 of 22 files | ..."), children
    // indented: what tests and screenshots compare.
    QString rowsText() const;

Q_SIGNALS:
    void warmUpRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void refresh();
    void showDetail();

    LibraryCompilation *m_libraries;
    QLabel *m_summary;
    QTreeWidget *m_tree;
    QLabel *m_detail;
    QPushButton *m_warmUp;
};
