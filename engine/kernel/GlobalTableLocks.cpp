// ECL 21.2.1 keeps two global hash tables behind its global environment lock (a rwlock):
// the symbols' system properties and the (SETF name) functions. Two of its functions write
// them without the write lock:
// - SI:REM-SYSPROP takes no lock at all; the compiler's proclamations call it (each INLINE,
//   NOTINLINE and FTYPE proclaimed: asdf.fas's load makes hundreds), and a new symbol's first
//   one adds an entry;
// - ECL-SETF-DEFINITION adds a new (SETF name) under the READ lock (every DEFSETF-less
//   accessor a fasl's init or DEFCLASS makes).
// A write that grows a table sets its entry vector to NULL while it allocates the new one
// (hash.d, ecl_extend_hashtable), so a thread reading the table at that moment (SI:GET-SYSPROP
// under the read lock: every SUBTYPEP and type lookup of the compiler) faults on the NULL
// vector. Inside the lock interrupts are off, so ECL queues that fault, faults again, and
// "jumps to the outermost toplevel prompt": the thread ends still holding the read lock, and
// the next writer (the next PROCLAIM, new symbol, DEFUN) waits for ever. Seen (issue 37) as
// load-system hanging: the background compiler died in SUBTYPEP while the worker loaded ASDF.
//
// The engine's executable defines both functions again, with every write under the write
// lock; libecl calls them through its PLT and fasls resolve them globally, so these are the
// ones that run (LD_DEBUG=bindings shows libecl bound to them). Otherwise ECL's code, line
// for line (src/c/assignment.d).

#include <ecl/ecl.h>
#include <ecl/internal.h>

namespace {

cl_object unboundSetfFunction(cl_narg, ...)
{
    const cl_env_ptr env = ecl_process_env();
    FEundefined_function(cl_list(2, ecl_make_symbol("SETF", "CL"), env->function->cclosure.env));
}

} // namespace

extern "C" {

cl_object si_rem_sysprop(cl_object symbol, cl_object property)
{
    const cl_env_ptr env = ecl_process_env();
    cl_object found = ECL_NIL;
    ECL_WITH_GLOBAL_ENV_WRLOCK_BEGIN(env) {
        cl_object plist = ecl_gethash_safe(symbol, cl_core.system_properties, ECL_NIL);
        plist = si_rem_f(plist, property);
        found = ecl_nth_value(env, 1);
        ecl_sethash(symbol, cl_core.system_properties, plist);
    } ECL_WITH_GLOBAL_ENV_WRLOCK_END;
    ecl_return1(env, found);
}

cl_object ecl_setf_definition(cl_object symbol, cl_object createp)
{
    const cl_env_ptr env = ecl_process_env();
    cl_object pair = ECL_NIL;
    ECL_WITH_GLOBAL_ENV_RDLOCK_BEGIN(env) {
        pair = ecl_gethash_safe(symbol, cl_core.setf_definitions, ECL_NIL);
    } ECL_WITH_GLOBAL_ENV_RDLOCK_END;
    if (Null(pair) && !Null(createp)) {
        ECL_WITH_GLOBAL_ENV_WRLOCK_BEGIN(env) {
            pair = ecl_gethash_safe(symbol, cl_core.setf_definitions, ECL_NIL);
            if (Null(pair)) {
                pair = ecl_cons(ecl_make_cclosure_va(unboundSetfFunction, symbol, ECL_NIL, 0), ECL_NIL);
                ecl_sethash(symbol, cl_core.setf_definitions, pair);
            }
        } ECL_WITH_GLOBAL_ENV_WRLOCK_END;
    }
    return pair;
}

} // extern "C"
