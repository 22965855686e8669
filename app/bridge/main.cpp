// lisp-duet-bridge: stdin/stdout <-> the running Lisp Duet's local socket, line for line, so a
// client that can only spawn a command (Claude Desktop) talks to the session the person sees.
//
//   lisp-duet-bridge [--socket NAME] [--launch]

#include "AppLocator.h"
#include "client/LineBuffer.h"
#include "UserEnvironment.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QSet>
#include <QSocketNotifier>

#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

namespace {
constexpr qsizetype ToAppMaxLineBytes = 8 * 1024 * 1024;
constexpr qsizetype FromAppMaxLineBytes = 256 * 1024 * 1024;

QByteArray oversizedMessageError()
{
    return QByteArrayLiteral("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Message larger than ")
        + QByteArray::number(ToAppMaxLineBytes)
        + QByteArrayLiteral(" bytes; it was discarded. Send smaller messages (a large file is better written in parts).\"}}\n");
}

void writeAll(int fd, const QByteArray &bytes)
{
    const char *data = bytes.constData();
    qsizetype left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, size_t(left));
        if (n > 0) {
            data += n;
            left -= n;
        } else if (n < 0 && errno != EINTR && errno != EAGAIN) {
            std::exit(0); // the client closed stdout: nobody is listening any more
        }
    }
}

// Request ids seen on stdin and not yet answered: at end of input the bridge waits for them,
// so `echo REQUEST | lisp-duet-bridge` prints its answer.
QString requestKey(const QJsonValue &id)
{
    return id.isString() ? QStringLiteral("s:") + id.toString() : QStringLiteral("n:") + QString::number(id.toDouble());
}
} // namespace

int main(int argc, char **argv)
{
    UserEnvironment::ensureHome();
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("lisp-duet-bridge"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Connects stdin/stdout to a running Lisp Duet (MCP, one JSON-RPC message per line)."));
    parser.addHelpOption();
    const QCommandLineOption socketOption(QStringLiteral("socket"), QStringLiteral("The app's local socket name (default lisp-duet)."),
                                          QStringLiteral("NAME"), QStringLiteral("lisp-duet"));
    const QCommandLineOption launchOption(QStringLiteral("launch"),
                                          QStringLiteral("Start `lisp-duet --headless` (beside this program) when no Lisp Duet of this user is running."));
    parser.addOptions({socketOption, launchOption});
    parser.process(app);
    const QString name = parser.value(socketOption);

    QLocalSocket socket;
    AppLocator locator(name);
    const QString program = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("lisp-duet"));
    if (!(parser.isSet(launchOption) ? locator.joinOrLaunch(socket, program) : locator.join(socket))) {
        std::fprintf(stderr, "lisp-duet-bridge: %s\n", qPrintable(locator.error()));
        return 1;
    }
    // Say which app this is, so a person can tell the session the agent joined.
    std::fprintf(stderr, "lisp-duet-bridge: %s Lisp Duet (process %lld) on %s\n", locator.launched() ? "started" : "joined",
                 static_cast<long long>(locator.appPid()), qPrintable(locator.path()));

    QSet<QString> outstanding;
    bool inputEnded = false;
    auto maybeFinish = [&] {
        if (inputEnded && outstanding.isEmpty() && socket.bytesToWrite() == 0)
            app.quit();
    };

    // The app's messages can be long (a tool's full output); the cap only keeps memory bounded.
    LineBuffer fromSocket(FromAppMaxLineBytes);
    QObject::connect(&socket, &QLocalSocket::readyRead, &app, [&] {
        const LineBuffer::Lines lines = fromSocket.append(socket.readAll());
        for (const QByteArray &line : lines.complete) {
            const QJsonObject message = QJsonDocument::fromJson(line).object();
            if (!message.contains(QStringLiteral("method")) && message.contains(QStringLiteral("id")))
                outstanding.remove(requestKey(message.value(QStringLiteral("id"))));
            writeAll(STDOUT_FILENO, line + '\n');
        }
        if (lines.oversized > 0)
            std::fprintf(stderr, "lisp-duet-bridge: dropped %d message(s) from Lisp Duet longer than %lld bytes\n",
                         lines.oversized, static_cast<long long>(FromAppMaxLineBytes));
        maybeFinish();
    });
    QObject::connect(&socket, &QLocalSocket::disconnected, &app, [&] {
        if (!inputEnded)
            std::fprintf(stderr, "lisp-duet-bridge: Lisp Duet closed the connection\n");
        app.exit(inputEnded ? 0 : 1);
    });
    QObject::connect(&socket, &QLocalSocket::bytesWritten, &app, [&] { maybeFinish(); });

    fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK);
    // The same cap and answer as the app's own stdio transport (McpServer::MaxMessageBytes).
    LineBuffer fromStdin(ToAppMaxLineBytes);
    auto forward = [&](const LineBuffer::Lines &lines) {
        for (const QByteArray &line : lines.complete) {
            const QJsonObject message = QJsonDocument::fromJson(line).object();
            if (message.value(QStringLiteral("method")).isString() && message.contains(QStringLiteral("id")))
                outstanding.insert(requestKey(message.value(QStringLiteral("id"))));
            socket.write(line + '\n');
        }
        for (int i = 0; i < lines.oversized; ++i)
            writeAll(STDOUT_FILENO, oversizedMessageError());
    };
    QSocketNotifier input(STDIN_FILENO, QSocketNotifier::Read);
    QObject::connect(&input, &QSocketNotifier::activated, &app, [&] {
        char chunk[65536];
        for (;;) {
            const ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
            if (n > 0) {
                forward(fromStdin.append(chunk, n));
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
                input.setEnabled(false);
                const QByteArray rest = fromStdin.takeRest();
                if (!rest.trimmed().isEmpty())
                    forward(LineBuffer::Lines{{rest}, 0});
                inputEnded = true;
            }
            break;
        }
        socket.flush();
        maybeFinish();
    });
    return app.exec();
}
