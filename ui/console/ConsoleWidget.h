#pragma once

#include "lispsource/LispSource.h"
#include "inputhistory/HistoryEdit.h"

class QCompleter;
class QStringListModel;

// The input editor of the REPL: Lisp-aware editing only, no session. Enter submits when the
// input holds complete forms (LispSource::isComplete) and otherwise opens an indented new
// line; Shift+Enter always opens one. Up/Down on the first/last line walk the history, Ctrl+R
// searches it, TAB indents or asks for completions, the paren matching the one at the cursor
// is highlighted. What to do with submitted text is the owner's business (LispConsole).
class ConsoleWidget : public HistoryEdit
{
    Q_OBJECT
public:
    explicit ConsoleWidget(QWidget *parent = nullptr);
    ~ConsoleWidget() override;

    // While busy, Ctrl+C interrupts even with text in the input.
    void setBusy(bool busy) { m_busy = busy; }

    // The answer to completionRequested(): one candidate is inserted, several open a popup.
    void showCompletions(const SymbolPrefix &prefix, const QStringList &candidates);
    QCompleter *completer() const { return m_completer; }
    bool isSearching() const { return m_searching; }

    // Submits the text now, as Enter on complete input would.
    void submit();

Q_SIGNALS:
    void submitted(const QString &code);
    void interruptRequested();
    // Esc outside a search or a completion popup (a staged form is rejected with it).
    void escapePressed();
    void completionRequested(const SymbolPrefix &prefix);
    // A sentence for the hint line (search prompt, "no completions"); empty clears it.
    void hint(const QString &text);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    bool handleSearchKey(QKeyEvent *event);
    void startSearch();
    void endSearch(bool keep);
    void updateSearch(int from);
    void insertNewLine();
    void indentLine();
    void requestCompletion();
    void insertCompletion(const QString &completion);
    void highlightMatchingParen();

    bool m_busy = false;
    QCompleter *m_completer;
    QStringListModel *m_completions;
    int m_completionStart = -1;
    bool m_searching = false;
    QString m_searchNeedle;
    int m_searchIndex = -1;
    QString m_searchSaved;
};
