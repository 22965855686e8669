#include "EditorSupport.h"

#include "HostFunctions.h"

#include "InterruptsDisabled.h"
#include "Marshal.h"
#include "swankwire/SocketOwner.h"
#include "swankwire/SwankHandshake.h"
#include "swankwire/SwankListener.h"

#include <QByteArray>
#include <QFile>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#ifdef LISP_DUET_SWANK_DIR
extern "C" void init_lisp_duet_editor(cl_object);
#endif

namespace {

// (%file-status path): (values permission-bits owned-by-us-p regular-file-p), or NIL when
// PATH cannot be examined. The editor's secret must be a regular file only its owner reads.
cl_object fileStatus(cl_object path)
{
    const cl_env_ptr env = ecl_process_env();
    const QByteArray name = QFile::encodeName(Marshal::fromLispString(path));
    struct stat status{};
    if (name.isEmpty() || ::stat(name.constData(), &status) != 0)
        ecl_return1(env, ECL_NIL);
    ecl_return3(env, ecl_make_fixnum(status.st_mode & 07777),
                status.st_uid == ::getuid() ? ECL_T : ECL_NIL,
                S_ISREG(status.st_mode) ? ECL_T : ECL_NIL);
}

// (%socket-process local-port remote-port): (values pid command) of the local process at the
// other end of one of our TCP connections (its own port LOCAL-PORT, ours REMOTE-PORT), or
// NIL. It names an editor that connected: "emacs", "nvim".
cl_object socketProcess(cl_object localPort, cl_object remotePort)
{
    const cl_env_ptr env = ecl_process_env();
    const std::optional<SocketOwner::Process> process =
        ECL_FIXNUMP(localPort) && ECL_FIXNUMP(remotePort)
            ? SocketOwner::connectedTo(int(ecl_fixnum(localPort)), int(ecl_fixnum(remotePort)))
            : std::nullopt;
    if (!process)
        ecl_return1(env, ECL_NIL);
    ecl_return2(env, ecl_make_integer(process->pid), Marshal::toLispString(process->command));
}

// (%port-taken-message port): what the person must know when another program holds the
// Swank port they asked for (the host says the same when it holds the port: SwankListener).
cl_object portTakenMessage(cl_object port)
{
    ecl_return1(ecl_process_env(),
                Marshal::toLispString(SwankListener::takenMessage(ECL_FIXNUMP(port) ? int(ecl_fixnum(port)) : 0)));
}

// (%shutdown-socket fd): ends both directions of a socket, which wakes a thread blocked
// reading it (closing the descriptor would not).
cl_object shutdownSocket(cl_object fd)
{
    if (ECL_FIXNUMP(fd)) {
        InterruptsDisabled guard;
        ::shutdown(int(ecl_fixnum(fd)), SHUT_RDWR);
    }
    ecl_return0(ecl_process_env());
}

// Bytes as a Lisp base string, one character per byte (the secret is compared as bytes: SLIME
// sends the file's first line as it is, whatever its encoding).
cl_object byteString(const QByteArray &bytes)
{
    cl_object string = ecl_alloc_simple_base_string(bytes.size());
    std::memcpy(string->base_string.self, bytes.constData(), size_t(bytes.size()));
    return string;
}

QByteArray stringBytes(cl_object string)
{
    QByteArray bytes;
    if (!ECL_STRINGP(string))
        return bytes;
    const cl_index n = ecl_length(string);
    bytes.reserve(qsizetype(n));
    for (cl_index i = 0; i < n; ++i)
        bytes.append(char(ecl_char(string, i) & 0xff));
    return bytes;
}

// (%secret-line path): the secret in PATH as SLIME reads and sends it (its first line, as
// bytes: SwankHandshake::secretLine), or NIL when it cannot be read or is longer than any
// secret. The caller has checked the file's owner and mode.
cl_object secretLine(cl_object path)
{
    const cl_env_ptr env = ecl_process_env();
    QFile file(Marshal::fromLispString(path));
    if (!file.open(QIODevice::ReadOnly))
        ecl_return1(env, ECL_NIL);
    const QByteArray line = SwankHandshake::secretLine(file.read(SwankHandshake::MaxSecretSize + 2));
    if (line.size() > SwankHandshake::MaxSecretSize)
        ecl_return1(env, ECL_NIL);
    ecl_return1(env, byteString(line));
}

// Reads exactly what SwankHandshake asks for from the client's socket FD until a verdict,
// within `timeoutMs`: nothing past the secret's message is read (it is Swank's).
SwankHandshake::Verdict readHandshake(int fd, const QByteArray &secret, int timeoutMs)
{
    using Clock = std::chrono::steady_clock;
    const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    QByteArray received;
    for (;;) {
        const SwankHandshake::Verdict verdict = SwankHandshake::judge(received, secret);
        if (verdict.kind != SwankHandshake::Verdict::Kind::NeedMore)
            return verdict;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        pollfd ready{fd, POLLIN, 0};
        const int polled = left > 0 ? ::poll(&ready, 1, int(left)) : 0;
        if (polled < 0 && errno == EINTR)
            continue; // the collector stopped this thread for a moment
        if (polled <= 0)
            return {SwankHandshake::Verdict::Kind::Refuse, 0,
                    received.isEmpty()
                        ? QStringLiteral("It sent nothing within %1 s (SLIME sends ~/.slime-secret at once).").arg(timeoutMs / 1000)
                        : QStringLiteral("It stopped within its first message for %1 s.").arg(timeoutMs / 1000)};
        char buffer[512];
        const ssize_t n = ::recv(fd, buffer, size_t(std::min<qsizetype>(verdict.needed, qsizetype(sizeof buffer))), 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return {SwankHandshake::Verdict::Kind::Refuse, 0,
                    received.isEmpty() ? QStringLiteral("It closed the connection without sending anything.")
                                       : QStringLiteral("It closed the connection within its first message.")};
        received.append(buffer, n);
    }
}

// (%editor-handshake fd secret timeout-ms): (values T NIL) when the client on socket FD sent
// SECRET (a byte string, %SECRET-LINE's) as its first message within TIMEOUT-MS, else
// (values NIL reason). Called inside MP:WITHOUT-INTERRUPTS: it blocks in poll().
cl_object editorHandshake(cl_object fd, cl_object secret, cl_object timeoutMs)
{
    const cl_env_ptr env = ecl_process_env();
    if (!ECL_FIXNUMP(fd) || !ECL_FIXNUMP(timeoutMs) || !ECL_STRINGP(secret) || ecl_length(secret) == 0)
        ecl_return2(env, ECL_NIL, Marshal::toLispString(QStringLiteral("Lisp Duet's handshake was called wrongly.")));
    const QByteArray expected = stringBytes(secret);
    SwankHandshake::Verdict verdict;
    {
        InterruptsDisabled guard;
        verdict = readHandshake(int(ecl_fixnum(fd)), expected, int(ecl_fixnum(timeoutMs)));
    }
    if (verdict.kind == SwankHandshake::Verdict::Kind::Accept)
        ecl_return2(env, ECL_T, ECL_NIL);
    ecl_return2(env, ECL_NIL, Marshal::toLispString(verdict.reason));
}

// The engine's end of the descriptor channel the app made (engine/client's
// EngineProtocol::DescriptorChannel: the kernel knows no host header, so the number is here too).
constexpr int DescriptorChannel = 3;

// (%receive-descriptor token timeout-ms): the descriptor the app passed on the channel with
// TOKEN (editor-listen's "descriptor_token": the Swank port's listening socket it holds),
// waiting up to TIMEOUT-MS; descriptors passed with other tokens (for requests that never
// came) are closed on the way. NIL when none came.
cl_object receiveDescriptor(cl_object token, cl_object timeoutMs)
{
    const cl_env_ptr env = ecl_process_env();
    if (!ECL_STRINGP(token) || !ECL_FIXNUMP(timeoutMs))
        ecl_return1(env, ECL_NIL);
    const QByteArray wanted = stringBytes(token);
    int found = -1;
    {
        InterruptsDisabled guard;
        using Clock = std::chrono::steady_clock;
        const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(ecl_fixnum(timeoutMs));
        while (found < 0) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            pollfd ready{DescriptorChannel, POLLIN, 0};
            const int polled = left > 0 ? ::poll(&ready, 1, int(left)) : 0;
            if (polled < 0 && errno == EINTR)
                continue;
            if (polled <= 0)
                break;
            char data[256];
            iovec part{data, sizeof data};
            alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
            msghdr message{};
            message.msg_iov = &part;
            message.msg_iovlen = 1;
            message.msg_control = control;
            message.msg_controllen = sizeof control;
            const ssize_t n = ::recvmsg(DescriptorChannel, &message, MSG_CMSG_CLOEXEC);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            int received = -1;
            for (cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header))
                if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS)
                    std::memcpy(&received, CMSG_DATA(header), sizeof(int));
            if (received >= 0 && QByteArray(data, qsizetype(n)) == wanted)
                found = received;
            else if (received >= 0)
                ::close(received);
        }
    }
    ecl_return1(env, found >= 0 ? ecl_make_fixnum(found) : ECL_NIL);
}

// (%swank-directory): where Debian's cl-swank was when the engine was built (its bridge is
// compiled against it), or NIL in an engine built without it.
cl_object swankDirectory()
{
#ifdef LISP_DUET_SWANK_DIR
    ecl_return1(ecl_process_env(), Marshal::toLispString(QStringLiteral(LISP_DUET_SWANK_DIR)));
#else
    ecl_return1(ecl_process_env(), ECL_NIL);
#endif
}

// (%init-swank-bridge): runs the top-level forms of the bridge (lisp/editor/*.lisp), once
// Swank itself is loaded: they name Swank's symbols.
cl_object initSwankBridge()
{
#ifdef LISP_DUET_SWANK_DIR
    static bool initialized = false;
    if (!initialized) {
        initialized = true;
        ecl_init_module(nullptr, init_lisp_duet_editor);
    }
#endif
    ecl_return0(ecl_process_env());
}


} // namespace

namespace EditorSupport {

void define()
{
    using HostFunctions::defineFunction;
    defineFunction("%FILE-STATUS", fileStatus, 1);
    defineFunction("%SOCKET-PROCESS", socketProcess, 2);
    defineFunction("%SHUTDOWN-SOCKET", shutdownSocket, 1);
    defineFunction("%PORT-TAKEN-MESSAGE", portTakenMessage, 1);
    defineFunction("%SECRET-LINE", secretLine, 1);
    defineFunction("%EDITOR-HANDSHAKE", editorHandshake, 3);
    defineFunction("%RECEIVE-DESCRIPTOR", receiveDescriptor, 2);
    defineFunction("%SWANK-DIRECTORY", swankDirectory, 0);
    defineFunction("%INIT-SWANK-BRIDGE", initSwankBridge, 0);
}

} // namespace EditorSupport
