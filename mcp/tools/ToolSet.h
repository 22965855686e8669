#pragma once

#include "Tools.h"

class DefinitionLedger;
class EditorBridge;
class FormStaging;
class InitFile;
class LibraryCompilation;
class NativeCompilation;
class ProjectFiles;
class ToolRegistry;

// The one place tools are registered, group by group, in the order tools/list shows them.
// Every tool of Lisp Duet: the session's (evaluate-lisp first), the project's, the hand-offs,
// replay-session. AppServices makes what they work with, once: the session's native code
// (time-execution, project-info, definition-history tell of it) and the person's own setup
// (project-info tells where their editor connects and how their init files went), and what
// the libraries the session loaded run as (load-system and project-info tell, issue 39).
struct SessionSetup
{
    const NativeCompilation *native = nullptr;
    const EditorBridge *editors = nullptr;
    const InitFile *initFile = nullptr;
    const LibraryCompilation *libraries = nullptr;
};
void addAllTools(ToolRegistry *tools, Session *session, JobHandles *jobs, ProjectFiles *files, DefinitionLedger *ledger,
                 FormStaging *staging, Replayer *replayer, JournalSource journal, const SessionSetup &setup);
// The groups, for tests that serve only some of them.
// Without evaluate-lisp.
void addSessionTools(ToolRegistry *tools, Session *session, JobHandles *jobs, const NativeCompilation *native,
                     const LibraryCompilation *libraries = nullptr);
void addProjectTools(ToolRegistry *tools, Session *session, JobHandles *jobs, ProjectFiles *files, const SessionSetup &setup);
void addHandoffTools(ToolRegistry *tools, Session *session, JobHandles *jobs, DefinitionLedger *ledger, FormStaging *staging,
                     const NativeCompilation *native);
