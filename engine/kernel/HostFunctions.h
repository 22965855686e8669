#pragma once

// The table of C++ functions that the Lisp side may call. Each is interned in the
// LISP-DUET.KERNEL package under a %NAME and wrapped by friendlier Lisp in lisp/*.lisp.
namespace HostFunctions {
void define();
}
