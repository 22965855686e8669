#pragma once

#include "Tool.h"

class ProjectFiles;
class Session;
class ToolRegistry;

// The tools over the person's project files (issue 11): where the project is, its files, a Lisp
// file's forms, edits of one form, definitions and references. Paths go through
// ProjectFiles::root() (confinement); files change only through ProjectFiles::propose.
Tool projectInfoTool(ProjectFiles *files);
Tool setProjectRootTool(ProjectFiles *files);
Tool listFilesTool(ProjectFiles *files);
Tool readFileTool(ProjectFiles *files);
Tool writeFileTool(ProjectFiles *files);
Tool viewLispFileTool(ProjectFiles *files);
Tool editFormTool(ProjectFiles *files, Session *session);
Tool findDefinitionTool(ProjectFiles *files, Session *session);
Tool findReferencesTool(ProjectFiles *files, Session *session);
Tool searchFormsTool(ProjectFiles *files, Session *session);

// Registers them, in this order, after the standard tools.
void addProjectTools(ToolRegistry *tools, Session *session, ProjectFiles *files);
