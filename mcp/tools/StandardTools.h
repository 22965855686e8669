#pragma once

class Session;
class ToolRegistry;

// Registers the tools of issue 5 beyond evaluate-lisp (definitions, reset, systems, limits,
// compile, timing, introspection, transcript), in the order tools/list shows them.
void addStandardTools(ToolRegistry *tools, Session *session);
