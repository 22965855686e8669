#include "HandoffTools.h"

#include "ToolRegistry.h"

void addHandoffTools(ToolRegistry *tools, Session *session, DefinitionLedger *ledger, FormStaging *staging)
{
    tools->add(stageFormTool(staging));
    tools->add(definitionHistoryTool(session, ledger));
    tools->add(revertDefinitionTool(session, ledger));
}
