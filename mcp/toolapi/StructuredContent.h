#pragma once

#include "json/JsonObjectText.h"

// A tool result's structuredContent: an object a tool builds and changes, or the JSON text a
// formatter on the hot path wrote directly (EvalFormatter: an evaluation's result). The text of
// a result nobody changes goes to the client as it was written; a tool that adds a field to it
// (time-execution's timing) gets an object to change.
using StructuredContent = JsonObjectText;
