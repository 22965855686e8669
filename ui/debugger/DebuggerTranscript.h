#pragma once

#include "session/Job.h"

#include <QObject>

class LispConsole;
class Session;

// The debugger's episodes in the transcript, in the lane of the evaluation they belong to: it
// parked (the error, its backtrace, the restarts), how its debugger closed when that was not a
// choice of its own (unwound by a choice below it, ended by an engine restart), and that it goes
// on, after whose choice. The choices and looks themselves are jobs the console shows.
class DebuggerTranscript : public QObject
{
    Q_OBJECT
public:
    DebuggerTranscript(Session *session, LispConsole *console);

private:
    void onParked(const JobPtr &job);
    void onClosed(const DebuggerPtr &debugger);
    void onResumed(const JobPtr &job);

    Session *m_session;
    LispConsole *m_console;
};
