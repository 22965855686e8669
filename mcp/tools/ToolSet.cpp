#include "ToolSet.h"

#include "HandoffTools.h"
#include "ProjectTools.h"
#include "toolapi/ToolRegistry.h"

void addSessionTools(ToolRegistry *tools, Session *session, JobHandles *jobs, const NativeCompilation *native,
                     const LibraryCompilation *libraries)
{
    tools->add(listDefinitionsTool(session));
    tools->add(resetSessionTool(session));
    tools->add(loadSystemTool(session, jobs, libraries));
    tools->add(runTestsTool(session, jobs));
    tools->add(jobTool(session, jobs));
    tools->add(configureLimitsTool(session));
    tools->add(compileFormTool(session, jobs));
    tools->add(timeExecutionTool(session, jobs, native));
    tools->add(describeSymbolTool(session));
    tools->add(documentationTool(session));
    tools->add(aproposTool(session));
    tools->add(macroexpandTool(session, jobs));
    tools->add(inspectObjectTool(session));
    tools->add(checkParensTool());
    tools->add(completeSymbolTool(session));
    tools->add(sessionTranscriptTool(session));
    using Group = ToolRegistry::Group;
    tools->add(listDebuggersTool(session), Group::Debugger);
    tools->add(debuggerFrameTool(session), Group::Debugger);
    tools->add(debuggerEvalTool(session, jobs), Group::Debugger);
    tools->add(invokeRestartTool(session, jobs), Group::Debugger);
}

void addProjectTools(ToolRegistry *tools, Session *session, JobHandles *jobs, ProjectFiles *files, const SessionSetup &setup)
{
    tools->add(projectInfoTool(files, setup), ToolRegistry::Group::Project);
    tools->add(setProjectRootTool(files), ToolRegistry::Group::Project);
    tools->add(listFilesTool(files), ToolRegistry::Group::Project);
    tools->add(readFileTool(files), ToolRegistry::Group::Project);
    tools->add(viewLispFileTool(files), ToolRegistry::Group::Project);
    tools->add(searchFormsTool(files, session), ToolRegistry::Group::Project);
    tools->add(findDefinitionTool(files, session), ToolRegistry::Group::Project);
    tools->add(findReferencesTool(files, session), ToolRegistry::Group::Project);
    tools->add(writeFileTool(files), ToolRegistry::Group::Project);
    tools->add(editFormTool(files, session, jobs), ToolRegistry::Group::Project);
}

void addHandoffTools(ToolRegistry *tools, Session *session, JobHandles *jobs, DefinitionLedger *ledger, FormStaging *staging,
                     const NativeCompilation *native)
{
    tools->add(stageFormTool(staging), ToolRegistry::Group::Handoffs);
    tools->add(definitionHistoryTool(session, ledger, native), ToolRegistry::Group::Handoffs);
    tools->add(revertDefinitionTool(session, jobs, ledger), ToolRegistry::Group::Handoffs);
}

void addAllTools(ToolRegistry *tools, Session *session, JobHandles *jobs, ProjectFiles *files, DefinitionLedger *ledger,
                 FormStaging *staging, Replayer *replayer, JournalSource journal, const SessionSetup &setup)
{
    tools->add(evaluateLispTool(session, jobs));
    addSessionTools(tools, session, jobs, setup.native, setup.libraries);
    addProjectTools(tools, session, jobs, files, setup);
    addHandoffTools(tools, session, jobs, ledger, staging, setup.native);
    tools->add(replaySessionTool(replayer, std::move(journal)));
}
