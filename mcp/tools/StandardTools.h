#pragma once

class QObject;
class Session;
class ToolRegistry;

// Registers the tools of issue 5 beyond evaluate-lisp (definitions, reset, systems, limits,
// compile, timing, introspection, transcript), in the order tools/list shows them. The
// session's limits object is created here, owned by `owner`.
void addStandardTools(ToolRegistry *tools, Session *session, QObject *owner);
