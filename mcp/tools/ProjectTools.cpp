#include "ProjectTools.h"

#include "ToolRegistry.h"

void addProjectTools(ToolRegistry *tools, Session *session, ProjectFiles *files)
{
    tools->add(projectInfoTool(files));
    tools->add(setProjectRootTool(files));
    tools->add(listFilesTool(files));
    tools->add(readFileTool(files));
    tools->add(viewLispFileTool(files));
    tools->add(searchFormsTool(files, session));
    tools->add(findDefinitionTool(files, session));
    tools->add(findReferencesTool(files, session));
    tools->add(writeFileTool(files));
    tools->add(editFormTool(files, session));
}
