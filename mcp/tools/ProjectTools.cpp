#include "ProjectTools.h"

#include "ToolRegistry.h"

void addProjectTools(ToolRegistry *tools, Session *session, ProjectFiles *files)
{
    tools->add(projectInfoTool(files));
    tools->add(setProjectRootTool(files));
    tools->add(listFilesTool(files));
    tools->add(readFileTool(files));
    tools->add(viewLispFileTool(files));
    tools->add(searchFormsTool(files));
    tools->add(findDefinitionTool(files, session));
    tools->add(findReferencesTool(files));
    tools->add(writeFileTool(files));
    tools->add(editFormTool(files, session));
}
