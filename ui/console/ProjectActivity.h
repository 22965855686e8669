#pragma once

#include "project/FileChange.h"

#include <QObject>

class ProjectFiles;
class TranscriptEntries;

// What happens to the project's files, in the transcript as it happens: each applied change
// as a block (who, why, the file, the summary and the coloured diff, long diffs collapsed) in
// its author's lane, with an "Undo" link on an agent's change; an agent's change that was not
// made, with why. Undo asks ProjectFiles::undo,
// which holds the rules (only the newest change of a file, never losing later ones), as the
// person; the transcript says so, or shows ProjectFiles' sentence for why it could not.
class ProjectActivity : public QObject
{
    Q_OBJECT
public:
    ProjectActivity(ProjectFiles *files, TranscriptEntries *entries, QObject *parent = nullptr);

    // What the "Undo" link of change `changeId` does.
    void undo(quint64 changeId);

private:
    void showChange(const FileChange &change);
    void showNote(const QString &text, bool error);
    const FileChange *findChange(quint64 id) const;

    ProjectFiles *m_files;
    TranscriptEntries *m_entries;
};
