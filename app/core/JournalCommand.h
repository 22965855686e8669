#pragma once

struct CommandLine;

// lisp-duet --export-journal FILE [--format md|html] [-o OUT]: the journal as a document for
// teaching and demos, written without starting an engine. Returns the exit code.
int exportJournalCommand(const CommandLine &options);
