#pragma once

#include "Tools.h"

class DefinitionLedger;
class EditorBridge;
class FormStaging;
class InitFile;
class NativeCompilation;
class ProjectFiles;
class ToolRegistry;

// The one place tools are registered, group by group, in the order tools/list shows them.
// Every tool of Lisp Duet: the session's (evaluate-lisp first), the project's, the hand-offs,
// replay-session. AppServices makes what they work with, once: the session's native code
// (time-execution, project-info, definition-history tell of it) and the person's own setup
// (project-info tells where their editor connects and how their init files went).
struct SessionSetup
{
    const NativeCompilation *native = nullptr;
    const EditorBridge *editors = nullptr;
    const InitFile *initFile = nullptr;
};
void addAllTools(ToolRegistry *tools, Session *session, JobHandles *jobs, ProjectFiles *files, DefinitionLedger *ledger,
                 FormStaging *staging, Replayer *replayer, JournalSource journal, const SessionSetup &setup);
// The groups, for tests that serve only some of them.
void addSessionTools(ToolRegistry *tools, Session *session, JobHandles *jobs, const NativeCompilation *native); // without evaluate-lisp
void addProjectTools(ToolRegistry *tools, Session *session, JobHandles *jobs, ProjectFiles *files, const SessionSetup &setup);
void addHandoffTools(ToolRegistry *tools, Session *session, JobHandles *jobs, DefinitionLedger *ledger, FormStaging *staging,
                     const NativeCompilation *native);
