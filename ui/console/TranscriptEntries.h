#pragma once

#include <QHash>
#include <QString>

struct Origin;
class TranscriptView;

// How the console's transcript is shared out: a lane for each client (1 is the person's, each
// agent and each of the person's editors gets its own from 2 on, 0 is the app's), a blank line
// between entries, and the app's own notes ("; " and the text). Whoever writes an entry (the
// console for jobs, ProjectActivity for file changes, the debugger's episodes) starts it here
// and writes it in the lane it is given.
class TranscriptEntries
{
public:
    explicit TranscriptEntries(TranscriptView *transcript) : m_transcript(transcript) {}

    TranscriptView *view() const { return m_transcript; }
    int laneFor(const Origin &origin);
    // Separates the next entry from the previous one (a blank line outside any lane).
    void startEntry();
    // A line of the app's own ("; " and the text) in `lane`: a problem in the error colour.
    void showNote(const QString &text, bool problem = false, int lane = 0);
    // Whether anything stands in the transcript yet (the past session counts).
    bool hasEntries() const { return m_hasEntries; }
    void setHasEntries() { m_hasEntries = true; }

private:
    TranscriptView *m_transcript;
    QHash<QString, int> m_lanes; // client key -> lane
    bool m_hasEntries = false;
};
