#pragma once

#include <ecl/ecl.h>

// The table of C++ functions that the Lisp side may call. Each is interned in the
// LISP-DUET.KERNEL package under a %NAME and wrapped by friendlier Lisp in lisp/*.lisp.
namespace HostFunctions {
void define();

// Makes `function` (a C++ function of `arguments` cl_objects) the function of %NAME `name`
// in LISP-DUET.KERNEL.
template<typename Function>
void defineFunction(const char *name, Function function, int arguments)
{
    // ECL stores fixed-arity functions as cl_objectfn_fixed; going through void(*)() is the
    // sanctioned way to convert between function pointer types.
    const auto generic = reinterpret_cast<void (*)()>(function);
    ecl_def_c_function(ecl_make_symbol(name, "LISP-DUET.KERNEL"),
                       reinterpret_cast<cl_objectfn_fixed>(generic), arguments);
}
} // namespace HostFunctions
