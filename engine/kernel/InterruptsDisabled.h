#pragma once

#include <ecl/ecl.h>

// An interrupt from the supervisor runs as a signal handler and may longjmp: it must never
// unwind through the C++ frames below (a mutex left locked, a string leaked). This defers
// interrupts only while the code inside allocates no Lisp object: ECL's allocator sets and
// clears the same flag, so after an allocation interrupts are on again. Host functions that
// allocate are called from Lisp inside MP:WITHOUT-INTERRUPTS instead (see README.md).
class InterruptsDisabled
{
public:
    InterruptsDisabled() : m_env(ecl_process_env()), m_wasDisabled(m_env->disable_interrupts)
    {
        if (!m_wasDisabled)
            ecl_disable_interrupts_env(m_env);
    }
    ~InterruptsDisabled()
    {
        if (!m_wasDisabled)
            ecl_enable_interrupts_env(m_env);
    }
    InterruptsDisabled(const InterruptsDisabled &) = delete;
    InterruptsDisabled &operator=(const InterruptsDisabled &) = delete;

private:
    cl_env_ptr m_env;
    int m_wasDisabled;
};
