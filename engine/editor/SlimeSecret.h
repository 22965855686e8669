#pragma once

#include <QString>

// SLIME's ~/.slime-secret: the only authentication Swank has. SLIME (and slimv through its
// Swank client) sends its first line first; the engine refuses a client that does not, and listens only when the file is the person's and nobody else can read it. The
// host checks the same before it asks (so that the window can offer to make one) and makes
// one when the person agrees.
namespace SlimeSecret {

// ~/.slime-secret of the user running Lisp Duet.
QString defaultPath();
// Why `path` cannot be the secret (missing, not a regular file, someone else's, readable by
// others, empty), as a sentence; empty when it is fine.
QString problem(const QString &path);
// The command that makes one by hand, for a terminal: "(umask 077; head -c 32 /dev/urandom |
// base64 > ~/.slime-secret)".
QString shellCommand(const QString &path);
// Makes `path` a new secret: 32 random bytes from the system's generator, base64 on one line,
// written to a temporary file that only its owner may read before a byte is written, then
// renamed over `path` (atomic). False with a sentence in *error.
bool create(const QString &path, QString *error);

} // namespace SlimeSecret
