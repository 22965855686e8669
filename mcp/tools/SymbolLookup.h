#pragma once

#include "client/EngineProtocol.h"
#include "toolapi/Tool.h"

#include <functional>

class Session;

// What describe-symbol and documentation share: both ask the engine one question about a
// symbol, read in a package, and answer with what it names.
namespace SymbolLookup {

// "package": where a name that is not qualified is read.
const Argument<QString> &packageArgument();
// The read-only tool over `symbol` and packageArgument(): `question` asks the engine, `answer`
// formats its reply for the symbol as the call gave it. The spec's name, title, description
// and outputProperties are the tool's own; "found" is always in the output.
Tool tool(ToolSpec spec, Session *session, const Argument<QString> &symbol,
          std::function<EngineProtocol::Query(const QString &symbol, const QString &package)> question,
          std::function<ToolResult(const QJsonObject &reply, const QString &symbol)> answer);
// "Kinds: function, macro" (or "none (the symbol names nothing)") and, when it has one,
// "Lambda list: (x y)".
QStringList kindLines(const QStringList &kinds, const QJsonValue &lambdaList);

} // namespace SymbolLookup
