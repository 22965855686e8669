#pragma once

class LibraryCompilation;
class RunningJobBar;

// The running-job bar's line for libraries compiled in the background (issue 39): while any
// compiles, "Libraries compile natively in the background — they work as bytecode meanwhile"
// and how far each is ("alexandria 7 of 22 files · cl-ppcre queued"), under a running job's
// own lines or alone; a warm-up says it compiles ahead at idle priority. Gone when done.
namespace LibraryProgress {
void follow(LibraryCompilation *libraries, RunningJobBar *bar);
} // namespace LibraryProgress
