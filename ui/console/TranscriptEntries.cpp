#include "TranscriptEntries.h"

#include "TranscriptView.h"

#include "session/Origin.h"

int TranscriptEntries::laneFor(const Origin &origin)
{
    if (origin.isPerson())
        return 1;
    if (!origin.isAgent() && !origin.isEditor()) // the person's editor has a lane of its own, as an agent has
        return 0;
    auto it = m_lanes.find(origin.clientKey);
    if (it == m_lanes.end())
        it = m_lanes.insert(origin.clientKey, int(m_lanes.size()) + 2);
    return *it;
}

void TranscriptEntries::startEntry()
{
    if (m_hasEntries) {
        // One blank line between entries, outside any lane, so each entry's bar starts at it.
        m_transcript->newLine(0);
        m_transcript->appendText(QStringLiteral("\n"), TranscriptView::Style::Plain, 0);
    }
    m_hasEntries = true;
}

void TranscriptEntries::showNote(const QString &text, bool problem, int lane)
{
    startEntry();
    m_transcript->newLine(lane);
    m_transcript->appendText(QStringLiteral("; ") + text + QLatin1Char('\n'), problem ? TranscriptView::Style::Error : TranscriptView::Style::Note, lane);
}
