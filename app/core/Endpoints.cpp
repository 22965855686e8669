#include "Endpoints.h"

#include "AccessToken.h"
#include "transports/HttpTransport.h"
#include "transports/LocalSocketTransport.h"
#include "RuntimeDirectory.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocalSocket>

#include <utility>

Endpoints::Options::Options() : port(HttpTransport::DefaultPort) {}

Endpoints::Endpoints(McpServer *server, const Options &options, QObject *parent)
    : QObject(parent), m_server(server), m_options(options)
{
}

Endpoints::~Endpoints()
{
    // The link in the fallback directory goes with the socket it points to (unless another
    // app has replaced it meanwhile).
    if (!m_linkPath.isEmpty() && QFileInfo(m_linkPath).symLinkTarget() == socketPath())
        QFile::remove(m_linkPath);
}

bool Endpoints::start()
{
    m_errors.clear();
    if (m_options.auth) {
        QString error;
        m_token = AccessToken::loadOrCreate(&error);
        if (m_token.isEmpty()) {
            m_errors << error;
            return false;
        }
    }
    HttpTransport::Options http;
    http.address = m_options.address;
    http.port = m_options.port;
    http.token = m_token;
    m_http = new HttpTransport(m_server, http, this);
    if (!m_http->listen()) {
        m_errors << m_http->errorString();
        delete std::exchange(m_http, nullptr);
    }

    const QString name = m_options.socketName.isEmpty() ? LocalSocketTransport::defaultName() : m_options.socketName;
    RuntimeDirectory runtime;
    const QStringList paths = runtime.socketPaths(name);
    if (paths.isEmpty()) {
        m_errors << QStringLiteral("No directory for the local socket: %1").arg(runtime.error());
        return false;
    }
    m_local = new LocalSocketTransport(m_server, paths.first(), this);
    if (!m_local->listen()) {
        m_errors << m_local->errorString();
        delete std::exchange(m_local, nullptr);
        return false;
    }
    if (!QDir::isAbsolutePath(name))
        linkFromFallback(runtime.fallback(), name);
    return m_errors.isEmpty();
}

void Endpoints::linkFromFallback(const QString &fallbackDirectory, const QString &name)
{
    if (fallbackDirectory.isEmpty() || QFileInfo(socketPath()).absolutePath() == fallbackDirectory)
        return;
    const QString link = QDir(fallbackDirectory).filePath(name);
    if (QFileInfo(link).exists() || QFileInfo(link).isSymLink()) {
        QLocalSocket probe;
        probe.connectToServer(link);
        if (probe.waitForConnected(500))
            return; // another app of this user answers there; the bridge finds it first
        QFile::remove(link);
    }
    if (QFile::link(socketPath(), link))
        m_linkPath = link;
}

QString Endpoints::httpUrl() const
{
    return m_http ? m_http->url() : QString();
}

QString Endpoints::socketPath() const
{
    return m_local ? m_local->path() : QString();
}
