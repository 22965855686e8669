#pragma once

#include "session/Job.h"

#include <QString>

// The jobs of the person's own setup that every new engine runs first (issue 31): their init
// file and Swank for their editor. The console shows how they ended as one note each instead
// of "; No values": they return nothing worth a value line.
namespace SetupNotes {

bool isSetupJob(const JobRequest &request); // load-init, editor-listen, editor-close
// The note for a setup job that ended well ("Loaded your init file ~/...", "Your editor can
// join: Swank (SLIME, slimv) at 127.0.0.1:4005. In Emacs: M-x slime-connect ...").
QString okNote(const Job &job);
// After the error of a setup job that failed: what it means for the session ("The session runs
// without the rest of your init file ..."); empty when the error says it all.
QString problemNote(const Job &job);

} // namespace SetupNotes
