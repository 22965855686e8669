#pragma once

#include "Tools.h"

class DefinitionLedger;
class FormStaging;
class ProjectFiles;
class ToolRegistry;

// The one place tools are registered, group by group, in the order tools/list shows them.
// Every tool of Lisp Duet: the session's (evaluate-lisp first), the project's, the hand-offs,
// replay-session. AppServices makes what they work with, once.
void addAllTools(ToolRegistry *tools, Session *session, JobHandles *jobs, ProjectFiles *files, DefinitionLedger *ledger,
                 FormStaging *staging, Replayer *replayer, JournalSource journal);
// The groups, for tests that serve only some of them.
void addSessionTools(ToolRegistry *tools, Session *session, JobHandles *jobs); // without evaluate-lisp
void addProjectTools(ToolRegistry *tools, Session *session, JobHandles *jobs, ProjectFiles *files);
void addHandoffTools(ToolRegistry *tools, Session *session, JobHandles *jobs, DefinitionLedger *ledger, FormStaging *staging);
