#pragma once

#include "client/LineBuffer.h"

#include <QByteArray>
#include <QObject>

class McpServer;
class McpPeer;
class QSocketNotifier;

// MCP over stdio: one JSON-RPC message per line on stdin and stdout, nothing else on stdout
// (logs go to stderr). finished() is emitted at end of input.
class StdioTransport : public QObject
{
    Q_OBJECT
public:
    StdioTransport(McpServer *server, int inputFd = 0, int outputFd = 1, QObject *parent = nullptr);
    ~StdioTransport() override;

    void start();
    McpPeer *peer() const { return m_peer; }

Q_SIGNALS:
    void finished();

private:
    void onReadable();
    void write(const QByteArray &line);

    McpServer *m_server;
    McpPeer *m_peer = nullptr;
    int m_inputFd;
    int m_outputFd;
    QSocketNotifier *m_notifier = nullptr;
    LineBuffer m_lines;
    // Reads and writes by number, for the stage log (engine/client/StageLog.h).
    qint64 m_readsLogged = 0;
    qint64 m_writesLogged = 0;
};
