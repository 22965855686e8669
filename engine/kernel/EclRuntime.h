#pragma once

#include <QString>

// Boots ECL on the calling thread, loads the kernel's Lisp code and runs the supervisor
// loop until the host closes the protocol channel. Returns the process exit code.
class EclRuntime
{
public:
    static int run(int argc, char **argv);

private:
    static void configureBootOptions();
    static void chainSegvHandler();
    static bool loadKernelSources(QString *error);
};
