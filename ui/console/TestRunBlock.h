#pragma once

#include "client/EngineProtocol.h"

class TranscriptView;

// A finished "run-tests" job as one transcript block: "Tests of shapes: 3 passed, 1 failed",
// then each failure with its test, form, expected and actual values and reason; for systems
// tested through ASDF's test-op, the captured output behind a "[+]" link.
namespace TestRunBlock {
QString headline(const EngineProtocol::TestRunReply &reply);
// The failures as the block prints them, one line each, indented.
QStringList failureLines(const EngineProtocol::TestRunReply &reply);
void append(TranscriptView *transcript, const EngineProtocol::TestRunReply &reply, int lane);
} // namespace TestRunBlock
