#pragma once

// The REPL's input history, as plain data (no widget): navigation with Up/Down that keeps the
// person's edits to recalled entries until they submit, prefix search, reverse incremental
// search for Ctrl+R, a size cap, and a file format that keeps multi-line entries whole.
//
// Navigation works like qtconsole's: the line being typed is a "draft" below the newest entry.
// previous()/next() take the text now in the input and return the text to show; whatever was
// shown is remembered as an edit of the entry it came from, so walking back and forth never
// loses typing. add() (on submit) forgets all such edits: they were scratch.

#include <QHash>
#include <QString>
#include <QStringList>

class CommandHistory
{
public:
    static constexpr int DefaultCapacity = 1000;

    explicit CommandHistory(int capacity = DefaultCapacity);

    // Records a submitted entry, unless it is blank or repeats the newest one; in any case
    // ends navigation and drops scratch edits.
    void add(const QString &entry);

    // The text to show after Up / Down, given the text in the input now. When there is nothing
    // further in that direction, currentText comes back unchanged.
    QString previous(const QString &currentText);
    QString next(const QString &currentText);
    bool isNavigating() const { return m_index < m_entries.size(); }
    // Leaves navigation (e.g. the input was cleared or replaced) and drops scratch edits.
    void resetNavigation();

    // With prefix search on (the default), Up with text typed visits only entries that start
    // with that text, as in IPython. The prefix is taken when navigation starts.
    void setPrefixSearch(bool enabled) { m_prefixSearch = enabled; }
    bool prefixSearch() const { return m_prefixSearch; }

    // Reverse incremental search (Ctrl+R): the index of the newest entry at or before from
    // (from < 0 or past the end: the newest) containing needle, or -1. Lisp symbols are case
    // insensitive, so the search is too unless told otherwise. Press Ctrl+R again with
    // search(needle, found - 1).
    int search(const QString &needle, int from = -1,
               Qt::CaseSensitivity sensitivity = Qt::CaseInsensitive) const;

    int size() const { return int(m_entries.size()); }
    bool isEmpty() const { return m_entries.isEmpty(); }
    QString at(int index) const { return m_entries.value(index); } // 0 is the oldest
    QStringList entries() const { return m_entries; }
    void clear();

    int capacity() const { return m_capacity; }
    void setCapacity(int capacity); // drops the oldest entries beyond it; at least 1

    // One JSON object per line: {"input":"(defun f ()\n  1)"}. A line that does not parse (a
    // crash mid-write of an older version, a hand edit) is skipped, not fatal. load() replaces
    // the entries and keeps the newest capacity() of them; save() writes atomically.
    bool load(const QString &path, QString *error = nullptr);
    bool save(const QString &path, QString *error = nullptr) const;

private:
    QString shown(int index) const; // an entry with its scratch edit, or the draft
    void remember(const QString &currentText);
    void trim();

    QStringList m_entries; // oldest first
    int m_capacity;
    bool m_prefixSearch = true;
    // Navigation: m_index == size() means the draft line.
    int m_index = 0;
    QString m_prefix;
    QHash<int, QString> m_edits; // index -> edited text; size() -> the draft
};
