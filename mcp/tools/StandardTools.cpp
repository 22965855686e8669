#include "StandardTools.h"

#include "AproposTool.h"
#include "CheckParensTool.h"
#include "CompileFormTool.h"
#include "CompleteSymbolTool.h"
#include "ConfigureLimitsTool.h"
#include "DescribeSymbolTool.h"
#include "InspectObjectTool.h"
#include "ListDefinitionsTool.h"
#include "LoadSystemTool.h"
#include "MacroexpandTool.h"
#include "ResetSessionTool.h"
#include "SessionLimits.h"
#include "SessionTranscriptTool.h"
#include "TimeExecutionTool.h"
#include "ToolRegistry.h"

#include <memory>

void addStandardTools(ToolRegistry *tools, Session *session, QObject *owner)
{
    auto *limits = new SessionLimits(session, owner);
    tools->add(std::make_unique<ListDefinitionsTool>(session));
    tools->add(std::make_unique<ResetSessionTool>(session));
    tools->add(std::make_unique<LoadSystemTool>(session));
    tools->add(std::make_unique<ConfigureLimitsTool>(session, limits));
    tools->add(std::make_unique<CompileFormTool>(session));
    tools->add(std::make_unique<TimeExecutionTool>(session));
    tools->add(std::make_unique<DescribeSymbolTool>(session));
    tools->add(std::make_unique<AproposTool>(session));
    tools->add(std::make_unique<MacroexpandTool>(session));
    tools->add(std::make_unique<InspectObjectTool>(session));
    tools->add(std::make_unique<CheckParensTool>(session));
    tools->add(std::make_unique<CompleteSymbolTool>(session));
    tools->add(std::make_unique<SessionTranscriptTool>(session));
}
