#include "ToolSet.h"

#include "HandoffTools.h"
#include "ProjectTools.h"
#include "ToolRegistry.h"

void addSessionTools(ToolRegistry *tools, Session *session, JobHandles *jobs)
{
    tools->add(listDefinitionsTool(session));
    tools->add(resetSessionTool(session));
    tools->add(loadSystemTool(session, jobs));
    tools->add(runTestsTool(session, jobs));
    tools->add(jobTool(session, jobs));
    tools->add(configureLimitsTool(session));
    tools->add(compileFormTool(session, jobs));
    tools->add(timeExecutionTool(session, jobs));
    tools->add(describeSymbolTool(session));
    tools->add(documentationTool(session));
    tools->add(aproposTool(session));
    tools->add(macroexpandTool(session, jobs));
    tools->add(inspectObjectTool(session));
    tools->add(checkParensTool());
    tools->add(completeSymbolTool(session));
    tools->add(sessionTranscriptTool(session));
    tools->add(listDebuggersTool(session));
    tools->add(debuggerFrameTool(session));
    tools->add(debuggerEvalTool(session, jobs));
    tools->add(invokeRestartTool(session, jobs));
}

void addProjectTools(ToolRegistry *tools, Session *session, JobHandles *jobs, ProjectFiles *files)
{
    tools->add(projectInfoTool(files, session));
    tools->add(setProjectRootTool(files));
    tools->add(listFilesTool(files));
    tools->add(readFileTool(files));
    tools->add(viewLispFileTool(files));
    tools->add(searchFormsTool(files, session));
    tools->add(findDefinitionTool(files, session));
    tools->add(findReferencesTool(files, session));
    tools->add(writeFileTool(files));
    tools->add(editFormTool(files, session, jobs));
}

void addHandoffTools(ToolRegistry *tools, Session *session, JobHandles *jobs, DefinitionLedger *ledger, FormStaging *staging)
{
    tools->add(stageFormTool(staging));
    tools->add(definitionHistoryTool(session, ledger));
    tools->add(revertDefinitionTool(session, jobs, ledger));
}

void addAllTools(ToolRegistry *tools, Session *session, JobHandles *jobs, ProjectFiles *files, DefinitionLedger *ledger,
                 FormStaging *staging, Replayer *replayer, JournalSource journal)
{
    tools->add(evaluateLispTool(session, jobs));
    addSessionTools(tools, session, jobs);
    addProjectTools(tools, session, jobs, files);
    addHandoffTools(tools, session, jobs, ledger, staging);
    tools->add(replaySessionTool(replayer, std::move(journal)));
}
