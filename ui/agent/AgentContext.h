#pragma once

#include "acp/AcpTypes.h"
#include "definitions/DefinitionsModel.h"
#include "session/Debugger.h"
#include "session/Job.h"

class Session;

// Context from the session for an agent's prompt, as ACP embedded resources
// ({type: "resource", resource: {uri, mimeType, text}}) with a label for the prompt box's chip:
// a REPL entry (lisp-duet://transcript/N, N its number in the transcript: its code, outcome and output, in the words of the
// transcript resource), a definition (lisp-duet://definition/PKG::NAME: its form), a debugger
// (lisp-duet://debugger/N: condition, restarts, frames, how to answer) and a selected region of
// the transcript. Widget-free.
namespace AgentContext {

struct Context
{
    Acp::ContentBlock resource;
    QString label;
};

// A resource's text is cut beyond this many characters, with a line that says so.
inline constexpr int MaxChars = 100000;

Context forEntry(const Job &job);
Context forDefinition(const DefinitionsModel::Definition &definition, const QString &location = {});
Context forDebugger(const Debugger &debugger, const Session *session);
// `job`: the entry the selection lies in; null when it spans several or none.
Context forSelection(const QString &text, const Job *job = nullptr);

// How a prompt's resource reads in the chat: "REPL entry #12", "definition CL-USER::SQUARE",
// "debugger 3"; another URI as it is.
QString describeUri(const QString &uri);

} // namespace AgentContext
