#include "StdioTransport.h"

#include "client/StageLog.h"
#include "jsonrpc/JsonRpc.h"
#include "server/McpServer.h"

#include <QSocketNotifier>

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

StdioTransport::StdioTransport(McpServer *server, int inputFd, int outputFd, QObject *parent)
    : QObject(parent), m_server(server), m_inputFd(inputFd), m_outputFd(outputFd), m_lines(McpServer::MaxMessageBytes)
{
}

StdioTransport::~StdioTransport()
{
    if (m_peer)
        m_server->closePeer(m_peer);
}

void StdioTransport::start()
{
    m_peer = m_server->createPeer(QStringLiteral("stdio"));
    connect(m_peer, &McpPeer::message, this, [this](const McpMessage &message, const QJsonValue &) {
        write(message.text());
    });
    fcntl(m_inputFd, F_SETFL, fcntl(m_inputFd, F_GETFL) | O_NONBLOCK);
    m_notifier = new QSocketNotifier(m_inputFd, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &StdioTransport::onReadable);
}

void StdioTransport::onReadable()
{
    char chunk[65536];
    for (;;) {
        const ssize_t n = ::read(m_inputFd, chunk, sizeof chunk);
        if (n > 0) {
            StageLog::mark("received", ++m_readsLogged);
            m_server->receiveLines(m_peer, m_lines.append(chunk, n));
            // Less than asked for: the pipe is empty now, and the notifier tells when it is
            // not (one read() per message instead of two).
            if (size_t(n) < sizeof chunk)
                return;
            continue;
        }
        if (n < 0 && (errno == EINTR))
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        // End of input (or an error reading it): the client is done.
        m_notifier->setEnabled(false);
        const QByteArray rest = m_lines.takeRest().trimmed();
        if (!rest.isEmpty())
            m_server->receive(m_peer, rest);
        Q_EMIT finished();
        return;
    }
}

void StdioTransport::write(const QByteArray &json)
{
    QByteArray line = json;
    line.append('\n');
    const char *data = line.constData();
    qsizetype left = line.size();
    while (left > 0) {
        const ssize_t n = ::write(m_outputFd, data, size_t(left));
        if (n > 0) {
            data += n;
            left -= n;
        } else if (n < 0 && errno != EINTR && errno != EAGAIN) {
            return; // the client closed its end; end of input follows
        }
    }
    StageLog::mark("answered", ++m_writesLogged);
}
