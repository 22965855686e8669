#include "DebuggerTranscript.h"

#include "DebuggerWords.h"

#include "console/ConsoleWidget.h"
#include "console/LispConsole.h"
#include "console/TranscriptView.h"

#include "session/Session.h"
#include "session/TextLines.h"

DebuggerTranscript::DebuggerTranscript(Session *session, LispConsole *console)
    : QObject(console), m_session(session), m_console(console)
{
    connect(session->debugger(), &SessionDebugger::parked, this, &DebuggerTranscript::onParked);
    connect(session->debugger(), &SessionDebugger::debuggerClosed, this, &DebuggerTranscript::onClosed);
    connect(session->debugger(), &SessionDebugger::resumed, this, &DebuggerTranscript::onResumed);
}

void DebuggerTranscript::onParked(const JobPtr &job)
{
    using Style = TranscriptView::Style;
    const Debugger &d = *job->debugger;
    const int lane = m_console->laneFor(d.owner);
    TranscriptView *t = m_console->transcript();
    t->newLine(lane);
    t->appendText(QStringLiteral("[ERROR] %1\n%2\n").arg(job->result.error.type, job->result.error.message), Style::Error, lane);
    const QStringList &backtrace = job->result.error.backtrace;
    if (!backtrace.isEmpty())
        t->appendCollapsed(backtrace.size() == 1 ? tr("Backtrace (1 frame)") : tr("Backtrace (%1 frames)").arg(backtrace.size()), backtrace, lane);
    t->newLine(lane);
    t->appendText(tr("\u2016 Parked in debugger %1 (level %2). Restarts: %3. The Debugger panel shows it; the session keeps "
                     "serving meanwhile.\n")
                      .arg(d.id).arg(d.level).arg(d.restartList()),
                  Style::Note, lane);
    // Nothing runs now: the person may type (a nested evaluation), as in SLIME's REPL.
    m_console->input()->setBusy(m_session->current() != nullptr);
}

void DebuggerTranscript::onClosed(const DebuggerPtr &debugger)
{
    if (debugger->state == Debugger::State::Continued)
        return; // onResumed says it, where the evaluation goes on
    const int lane = m_console->laneFor(debugger->owner);
    m_console->startEntry();
    m_console->transcript()->newLine(lane);
    m_console->transcript()->appendText(tr("Debugger %1 (%2 %3): %4.\n")
                                            .arg(debugger->id)
                                            .arg(DebuggerWords::whose(debugger->owner).toLower(), TextLines::oneLine(debugger->code, 80),
                                                 DebuggerWords::outcome(*debugger)),
                                        TranscriptView::Style::Note, lane);
}

void DebuggerTranscript::onResumed(const JobPtr &job)
{
    const Debugger &d = *job->debugger;
    const int lane = m_console->laneFor(d.owner);
    m_console->startEntry();
    m_console->transcript()->newLine(lane);
    m_console->transcript()->appendText(tr("\u21b3 %1 %2, debugger %3: %4.\n")
                                            .arg(DebuggerWords::whose(d.owner), TextLines::oneLine(d.code, 80))
                                            .arg(d.id)
                                            .arg(DebuggerWords::outcome(d)),
                                        TranscriptView::Style::Note, lane);
    m_console->input()->setBusy(true);
}
