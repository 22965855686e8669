#pragma once

#include "Tools.h"

class DefinitionLedger;
class FormStaging;
class JobHandles;
class ProjectFiles;
class Replayer;
class Session;
class ToolRegistry;

// What the tools work with: AppServices makes each of these once and hands them here.
struct ToolServices
{
    Session *session = nullptr;
    JobHandles *jobs = nullptr;
    ProjectFiles *files = nullptr;
    DefinitionLedger *ledger = nullptr;
    FormStaging *staging = nullptr;
    Replayer *replayer = nullptr;
    JournalSource journal;
};

// The one place tools are registered, group by group, in the order tools/list shows them.
// Every tool of Lisp Duet: the session's (evaluate-lisp first), the project's, the hand-offs,
// replay-session.
void addAllTools(ToolRegistry *tools, const ToolServices &services);
// The groups, for tests that serve only some of them.
void addSessionTools(ToolRegistry *tools, Session *session, JobHandles *jobs); // without evaluate-lisp
void addProjectTools(ToolRegistry *tools, Session *session, JobHandles *jobs, ProjectFiles *files);
void addHandoffTools(ToolRegistry *tools, Session *session, JobHandles *jobs, DefinitionLedger *ledger, FormStaging *staging);
