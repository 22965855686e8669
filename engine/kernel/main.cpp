// lisp-duet-engine: the ECL process of Lisp Duet. The host (lisp-duet) starts it with the
// protocol on stdin/stdout; see engine/README.md for the messages.

#include "EclRuntime.h"
#include "ProtocolChannel.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <malloc.h>
#include <sys/prctl.h>
#include <thread>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc > 1 && (std::strcmp(argv[1], "--version") == 0)) {
        std::printf("lisp-duet-engine %s\n", LISP_DUET_VERSION);
        return 0;
    }
    // lisp-duet-engine --compile-library REQUEST: a background process of an engine that
    // compiles a library to native code (lisp/library-compiler.lisp); no protocol. It ends
    // with the engine that started it.
    const bool compiler = argc > 2 && std::strcmp(argv[1], "--compile-library") == 0;
    if (compiler) {
        const pid_t parent = ::getppid();
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent)
            return 5;
    } else if (!ProtocolChannel::takeOverStandardDescriptors()) {
        std::perror("lisp-duet-engine: cannot set up the protocol descriptors");
        return 2;
    }
    // A request's text is read, copied and parsed in buffers of its size. glibc maps such a
    // buffer on its own, but when it is freed, raises the size it maps from to the freed one's:
    // the next request's buffers then came from an arena that never shrinks (18 MB more for
    // good after a second 16 MiB form). A fixed threshold keeps every buffer of 1 MiB or more
    // mapped on its own, and given back when it is freed.
    ::mallopt(M_MMAP_THRESHOLD, 1 << 20);
    // ECL boots on a thread of its own: cl_boot turns on floating-point traps in the booting
    // thread, and the threads it creates inherit them.
    int exitCode = 0;
    std::thread boot([&] { exitCode = compiler ? EclRuntime::runLibraryCompiler(argc, argv) : EclRuntime::run(argc, argv); });
    boot.join();
    return exitCode;
}
