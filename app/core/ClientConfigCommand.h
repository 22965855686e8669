#pragma once

struct CommandLine;

// lisp-duet --client-config CLIENT: prints the client's configuration on stdout (pure JSON for
// the JSON clients, so it can be redirected into a file) and where it goes on stderr.
// Returns the exit code: 0, 1 (the token cannot be made), 2 (unknown client).
int clientConfigCommand(int argc, char **argv, const CommandLine &options);
