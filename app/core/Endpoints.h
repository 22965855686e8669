#pragma once

#include <QHostAddress>
#include <QObject>
#include <QStringList>

class HttpTransport;
class LocalSocketTransport;
class McpServer;

// The MCP endpoints a running app offers besides stdio: Streamable HTTP on 127.0.0.1 and the
// local socket that lisp-duet-bridge uses. Headless mode and the window start the same ones
// and show the same addresses.
class Endpoints : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QHostAddress address = QHostAddress(QHostAddress::LocalHost);
        quint16 port;        // set from HttpTransport::DefaultPort by the constructor's default
        QString socketName;  // empty: LocalSocketTransport::defaultName(); resolved by RuntimeDirectory
        bool auth = true;
        Options();
    };

    Endpoints(McpServer *server, const Options &options, QObject *parent = nullptr);
    ~Endpoints() override;

    // Starts both; false (with errors()) when one could not start, e.g. the port is taken.
    // An endpoint that could not start is absent afterwards (httpUrl() or socketPath() empty).
    bool start();
    QStringList errors() const { return m_errors; }

    QString httpUrl() const;
    QString socketPath() const;
    QByteArray token() const { return m_token; } // empty with --no-auth
    HttpTransport *http() const { return m_http; }
    LocalSocketTransport *localSocket() const { return m_local; }

private:
    // Lets a bridge that looks only in the fallback directory find the socket (RuntimeDirectory).
    void linkFromFallback(const QString &fallbackDirectory, const QString &name);

    McpServer *m_server;
    Options m_options;
    QByteArray m_token;
    HttpTransport *m_http = nullptr;
    LocalSocketTransport *m_local = nullptr;
    QStringList m_errors;
    QString m_linkPath;
};
