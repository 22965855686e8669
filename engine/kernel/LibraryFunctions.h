#pragma once

// What the kernel's library loading (lisp/library-*.lisp) needs from C++: putting a compiled
// file into ASDF's cache atomically, the number of processors, and waking the idle worker
// for the swap of native library code (a request the engine posts to itself).
namespace LibraryFunctions {
void define();
} // namespace LibraryFunctions
