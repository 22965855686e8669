#include "HostFunctions.h"

#include "Marshal.h"
#include "ProtocolChannel.h"

#include <ecl/ecl.h>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <sys/resource.h>
#include <ctime>
#include <unistd.h>

namespace {

// An interrupt from the supervisor runs as a signal handler and may longjmp: it must never
// unwind through the C++ frames below (a mutex left locked, a QByteArray leaked).
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

cl_object sendLine(cl_object json)
{
    {
        InterruptsDisabled guard;
        ProtocolChannel::writeLine(Marshal::fromLispString(json).toUtf8());
    }
    ecl_return0(ecl_process_env());
}

cl_object readRequest()
{
    cl_object result = ECL_NIL;
    {
        InterruptsDisabled guard;
        QByteArray line;
        if (!ProtocolChannel::readLine(line)) {
            result = ecl_make_keyword("EOF");
        } else {
            QJsonParseError error;
            const QJsonDocument document = QJsonDocument::fromJson(line, &error);
            QJsonObject request = document.object();
            if (error.error != QJsonParseError::NoError || !document.isObject()) {
                request = QJsonObject{{QStringLiteral("op"), QStringLiteral("invalid")},
                                      {QStringLiteral("error"), error.errorString()}};
            }
            result = Marshal::toLisp(request);
        }
    }
    ecl_return1(ecl_process_env(), result);
}

cl_object monotonicMicroseconds()
{
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    ecl_return1(ecl_process_env(), ecl_make_integer(cl_fixnum(now.tv_sec) * 1000000 + now.tv_nsec / 1000));
}

// ECL's internal time units are milliseconds; timings want microseconds of this process.
cl_object runTimeMicroseconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const cl_fixnum us = cl_fixnum(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000
                         + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
    ecl_return1(ecl_process_env(), ecl_make_integer(us));
}

cl_object processId()
{
    ecl_return1(ecl_process_env(), ecl_make_integer(cl_fixnum(getpid())));
}

template<typename Function>
void defineFunction(const char *name, Function function, int arguments)
{
    // ECL stores fixed-arity functions as cl_objectfn_fixed; going through void(*)() is the
    // sanctioned way to convert between function pointer types.
    const auto generic = reinterpret_cast<void (*)()>(function);
    ecl_def_c_function(ecl_make_symbol(name, "LISP-DUET.KERNEL"),
                       reinterpret_cast<cl_objectfn_fixed>(generic), arguments);
}

} // namespace

namespace HostFunctions {

void define()
{
    defineFunction("%SEND-LINE", sendLine, 1);
    defineFunction("%READ-REQUEST", readRequest, 0);
    defineFunction("%MONOTONIC-US", monotonicMicroseconds, 0);
    defineFunction("%RUN-TIME-US", runTimeMicroseconds, 0);
    defineFunction("%PROCESS-ID", processId, 0);
}

} // namespace HostFunctions
