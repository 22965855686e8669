#include "Endpoints.h"

#include "AccessToken.h"
#include "HttpTransport.h"
#include "LocalSocketTransport.h"

Endpoints::Options::Options() : port(HttpTransport::DefaultPort) {}

Endpoints::Endpoints(McpServer *server, const Options &options, QObject *parent)
    : QObject(parent), m_server(server), m_options(options)
{
}

Endpoints::~Endpoints() = default;

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
    if (!m_http->listen())
        m_errors << m_http->errorString();

    m_local = new LocalSocketTransport(m_server, m_options.socketName.isEmpty() ? LocalSocketTransport::defaultName() : m_options.socketName, this);
    if (!m_local->listen())
        m_errors << m_local->errorString();
    return m_errors.isEmpty();
}

QString Endpoints::httpUrl() const
{
    return m_http ? m_http->url() : QString();
}

QString Endpoints::socketPath() const
{
    return m_local ? m_local->path() : QString();
}
