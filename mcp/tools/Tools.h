#pragma once

#include "history/Journal.h"
#include "toolapi/Tool.h"

#include <functional>

class JobHandles;
class LibraryCompilation;
class NativeCompilation;
class Replayer;
class Session;

// The tools over the shared session: one function each, in a file of its own (NameTool.cpp),
// that returns the tool's spec and the code serving its calls. ProjectTools.h declares the
// tools over the project's files, HandoffTools.h the hand-offs between the person and the
// agents; ToolSet.cpp registers all of them, in the order tools/list shows them. README.md in
// this folder says how to write one. Tools that start jobs take the session's JobHandles.

// seed 000: evaluate code in the shared session.
Tool evaluateLispTool(Session *session, JobHandles *jobs);
// seed 001: the session's own definitions.
Tool listDefinitionsTool(Session *session);
Tool resetSessionTool(Session *session);
// `libraries` (may be null): what the libraries a load brings in run as (issue 39).
Tool loadSystemTool(Session *session, JobHandles *jobs, const LibraryCompilation *libraries);
Tool configureLimitsTool(Session *session);
Tool compileFormTool(Session *session, JobHandles *jobs);
Tool timeExecutionTool(Session *session, JobHandles *jobs, const NativeCompilation *native);
Tool describeSymbolTool(Session *session);
Tool aproposTool(Session *session);
Tool macroexpandTool(Session *session, JobHandles *jobs);
Tool inspectObjectTool(Session *session);
Tool checkParensTool();
Tool completeSymbolTool(Session *session);
Tool sessionTranscriptTool(Session *session);
// Issue 11: a system's tests (FiveAM in structure, else ASDF's test-op), a symbol's documentation.
Tool runTestsTool(Session *session, JobHandles *jobs);
Tool documentationTool(Session *session);
// Issue 20: the shared debugger (a parked evaluation's frames, evaluating in them, its restarts).
Tool listDebuggersTool(Session *session);
Tool debuggerFrameTool(Session *session);
Tool debuggerEvalTool(Session *session, JobHandles *jobs);
Tool invokeRestartTool(Session *session, JobHandles *jobs);
// Issue 21: the result of a job whose call answered "running" (JobHandles).
Tool jobTool(Session *session, JobHandles *jobs);

// The journal entries to replay: source "journal" (this session's journal, which holds a
// loaded --journal file's past too) or "previous" (the app's previous run). On failure it
// returns nothing and puts a sentence in *error.
using JournalSource = std::function<QList<JournalEntry>(const QString &source, QString *error)>;
Tool replaySessionTool(Replayer *replayer, JournalSource entries);
