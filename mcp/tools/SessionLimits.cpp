#include "SessionLimits.h"

#include "Session.h"

SessionLimits::SessionLimits(Session *session, QObject *parent) : QObject(parent), m_session(session)
{
    connect(session, &Session::engineStatus, this, [this](const QString &state, const QString &) {
        const bool changed = m_printLength != DefaultPrintLength || m_printLevel != DefaultPrintLevel
            || m_maxOutputChars != DefaultMaxOutputChars || m_heapLimitBytes != 0;
        if (state == QStringLiteral("ready") && changed)
            sendToEngine([](const QJsonObject &) {});
    });
}

int SessionLimits::timeoutMs() const
{
    return m_session->defaultTimeoutMs();
}

void SessionLimits::apply(const Change &change, std::function<void(const QJsonObject &reply)> done)
{
    if (change.timeoutMs)
        m_session->setDefaultTimeoutMs(*change.timeoutMs);
    if (change.printLength)
        m_printLength = *change.printLength;
    if (change.printLevel)
        m_printLevel = *change.printLevel;
    if (change.maxOutputChars)
        m_maxOutputChars = *change.maxOutputChars;
    if (change.heapLimitBytes)
        m_heapLimitBytes = *change.heapLimitBytes;
    sendToEngine(std::move(done));
}

void SessionLimits::sendToEngine(std::function<void(const QJsonObject &reply)> done)
{
    QJsonObject limits{{QStringLiteral("print_length"), m_printLength},
                       {QStringLiteral("print_level"), m_printLevel},
                       {QStringLiteral("max_output_chars"), m_maxOutputChars}};
    if (m_heapLimitBytes > 0)
        limits.insert(QStringLiteral("heap_limit_bytes"), double(m_heapLimitBytes));
    m_session->query(QStringLiteral("limits"), {{QStringLiteral("limits"), limits}}, std::move(done));
}
