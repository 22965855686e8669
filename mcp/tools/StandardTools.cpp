#include "StandardTools.h"

#include "ToolRegistry.h"
#include "Tools.h"

void addStandardTools(ToolRegistry *tools, Session *session)
{
    tools->add(listDefinitionsTool(session));
    tools->add(resetSessionTool(session));
    tools->add(loadSystemTool(session));
    tools->add(runTestsTool(session));
    tools->add(jobTool(session));
    tools->add(configureLimitsTool(session));
    tools->add(compileFormTool(session));
    tools->add(timeExecutionTool(session));
    tools->add(describeSymbolTool(session));
    tools->add(documentationTool(session));
    tools->add(aproposTool(session));
    tools->add(macroexpandTool(session));
    tools->add(inspectObjectTool(session));
    tools->add(checkParensTool());
    tools->add(completeSymbolTool(session));
    tools->add(sessionTranscriptTool(session));
    tools->add(listDebuggersTool(session));
    tools->add(debuggerFrameTool(session));
    tools->add(debuggerEvalTool(session));
    tools->add(invokeRestartTool(session));
}
