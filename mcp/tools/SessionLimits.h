#pragma once

#include <QJsonObject>
#include <QObject>
#include <functional>
#include <optional>

class Session;

// The limits of the shared session, in one place: the evaluation time limit (the Session's
// default) and the defaults the engine applies to every evaluation that does not set its own
// (print length and level, output cap) plus the engine's heap limit. Engine-side values live
// in the engine; this object remembers them and sends them again to every new engine
// (after a crash, a kill or reset-session).
class SessionLimits : public QObject
{
    Q_OBJECT
public:
    static constexpr int DefaultPrintLength = 100;
    static constexpr int DefaultPrintLevel = 10;
    static constexpr int DefaultMaxOutputChars = 100000;

    explicit SessionLimits(Session *session, QObject *parent = nullptr);

    int timeoutMs() const;
    int printLength() const { return m_printLength; }
    int printLevel() const { return m_printLevel; }
    int maxOutputChars() const { return m_maxOutputChars; }
    qint64 heapLimitBytes() const { return m_heapLimitBytes; } // 0: the engine's default

    struct Change
    {
        std::optional<int> timeoutMs, printLength, printLevel, maxOutputChars;
        std::optional<qint64> heapLimitBytes;
    };
    // Applies the change; the callback gets the engine's reply (limits in force, or
    // "status":"failed" with an error).
    void apply(const Change &change, std::function<void(const QJsonObject &reply)> done);

private:
    void sendToEngine(std::function<void(const QJsonObject &reply)> done);

    Session *m_session;
    int m_printLength = DefaultPrintLength;
    int m_printLevel = DefaultPrintLevel;
    int m_maxOutputChars = DefaultMaxOutputChars;
    qint64 m_heapLimitBytes = 0;
};
