#pragma once

// Boots ECL on the calling thread, runs the kernel's Lisp (lisp/*.lisp, linked in as native
// code) and the supervisor loop until the host closes the protocol channel. Returns the
// process exit code.
class EclRuntime
{
public:
    static int run(int argc, char **argv);
    // The same boot, then LIBRARY-COMPILER-MAIN instead of the supervisor: a background
    // process compiling a library (--compile-library). Returns its exit code.
    static int runLibraryCompiler(int argc, char **argv);

private:
    static void configureBootOptions();
    static void chainSegvHandler();
    static bool initKernel();
    static bool boot(int argc, char **argv);
};
