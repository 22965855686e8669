#pragma once

// What the engine sends, as the host reads it (engine/README.md, "Protocol"), in three parts:
// its events (EngineEvents.h: a line is parsed once, in Incoming::decode), its replies to jobs
// (JobReplies.h) and to questions (QueryReplies.h). EngineProtocol.h, which includes this,
// builds what the host sends.
#include "EngineEvents.h"
#include "JobReplies.h"
#include "QueryReplies.h"
