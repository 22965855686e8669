#include "CommandHistory.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace {
const QString InputKey = QStringLiteral("input");
}

CommandHistory::CommandHistory(int capacity)
    : m_capacity(qMax(1, capacity))
{
}

void CommandHistory::add(const QString &entry)
{
    resetNavigation();
    if (entry.trimmed().isEmpty())
        return;
    if (!m_entries.isEmpty() && m_entries.last() == entry)
        return;
    m_entries.append(entry);
    trim();
    m_index = size();
}

QString CommandHistory::previous(const QString &currentText)
{
    if (!isNavigating())
        m_prefix = m_prefixSearch ? currentText : QString();
    for (int i = m_index - 1; i >= 0; --i) {
        const QString text = shown(i);
        // An entry equal to what is shown would make Up look dead: skip it.
        if (text.startsWith(m_prefix) && text != currentText) {
            remember(currentText);
            m_index = i;
            return text;
        }
    }
    return currentText;
}

QString CommandHistory::next(const QString &currentText)
{
    if (!isNavigating())
        return currentText;
    remember(currentText);
    for (int i = m_index + 1; i < size(); ++i) {
        const QString text = shown(i);
        if (text.startsWith(m_prefix) && text != currentText) {
            m_index = i;
            return text;
        }
    }
    m_index = size(); // below the newest match: back to what was being typed
    return shown(m_index);
}

void CommandHistory::resetNavigation()
{
    m_edits.clear();
    m_prefix.clear();
    m_index = size();
}

int CommandHistory::search(const QString &needle, int from, Qt::CaseSensitivity sensitivity) const
{
    const int start = (from < 0 || from >= size()) ? size() - 1 : from;
    for (int i = start; i >= 0; --i) {
        if (m_entries[i].contains(needle, sensitivity))
            return i;
    }
    return -1;
}

void CommandHistory::clear()
{
    m_entries.clear();
    resetNavigation();
}

void CommandHistory::setCapacity(int capacity)
{
    m_capacity = qMax(1, capacity);
    trim();
    resetNavigation(); // indices of scratch edits shift when old entries go
}

bool CommandHistory::load(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.exists()) { // the first run: nothing to load is not a failure
        clear();
        return true;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    QStringList entries;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        if (line.isEmpty())
            continue;
        const QJsonValue input = QJsonDocument::fromJson(line).object().value(InputKey);
        if (input.isString() && !input.toString().trimmed().isEmpty())
            entries.append(input.toString());
    }
    m_entries = entries;
    trim();
    resetNavigation();
    return true;
}

bool CommandHistory::save(const QString &path, QString *error) const
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    // QSaveFile writes a temporary file and renames it over the old one on commit(), so a
    // crash mid-save leaves the previous history intact.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    for (const QString &entry : m_entries) {
        // Compact JSON escapes newlines, so each entry is exactly one line of the file.
        file.write(QJsonDocument(QJsonObject{{InputKey, entry}}).toJson(QJsonDocument::Compact));
        file.write("\n");
    }
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

QString CommandHistory::shown(int index) const
{
    return m_edits.value(index, index < size() ? m_entries[index] : QString());
}

void CommandHistory::remember(const QString &currentText)
{
    if (m_index >= size() || currentText != m_entries[m_index])
        m_edits.insert(m_index, currentText);
    else
        m_edits.remove(m_index);
}

void CommandHistory::trim()
{
    if (m_entries.size() > m_capacity)
        m_entries.remove(0, m_entries.size() - m_capacity);
}
