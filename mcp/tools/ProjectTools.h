#pragma once

#include "toolapi/Tool.h"

class EditorBridge;
class InitFile;
class JobHandles;
class NativeCompilation;
class ProjectFiles;
class Session;
struct SessionSetup;

// The tools over the person's project files (issue 11): where the project is, its files, a Lisp
// file's forms, edits of one form, definitions and references. Paths go through
// ProjectFiles::root() (confinement); files change only through ProjectFiles::propose.
// project-info also says whether the session's definitions become native code (issue 30), where
// the person's editor connects and how their init file went (issue 31), and what the libraries
// the session loaded run as (issue 39): of those given (ToolSet.h).
Tool projectInfoTool(ProjectFiles *files, const SessionSetup &setup);
Tool setProjectRootTool(ProjectFiles *files);
Tool listFilesTool(ProjectFiles *files);
Tool readFileTool(ProjectFiles *files);
Tool writeFileTool(ProjectFiles *files);
Tool viewLispFileTool(ProjectFiles *files);
Tool editFormTool(ProjectFiles *files, Session *session, JobHandles *jobs);
Tool findDefinitionTool(ProjectFiles *files, Session *session);
Tool findReferencesTool(ProjectFiles *files, Session *session);
Tool searchFormsTool(ProjectFiles *files, Session *session);
