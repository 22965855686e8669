#pragma once

// A client of Swank's wire protocol, standing in for the person's editor in tests: each
// message is six hexadecimal digits (its length in bytes) and that many bytes of UTF-8, an
// S-expression (SLIME's slime-net-send). Messages are kept as text and asserted on by
// their text; Emacs itself is driven by tests/editor/.

#include <QRegularExpression>
#include <QTcpSocket>
#include <QTest>

#include <functional>

class SwankClient
{
public:
    SwankClient() = default;
    SwankClient(const SwankClient &) = delete;
    SwankClient &operator=(const SwankClient &) = delete;

    bool connectTo(quint16 port, int ms = 5000)
    {
        QObject::connect(&socket, &QTcpSocket::readyRead, &socket, [this] { readMessages(); });
        socket.connectToHost(QStringLiteral("127.0.0.1"), port);
        return socket.waitForConnected(ms);
    }

    // The secret goes first, as a message of its own (SLIME's slime-net-connect).
    bool connectWithSecret(quint16 port, const QString &secret)
    {
        if (!connectTo(port))
            return false;
        send(secret);
        return true;
    }

    void send(const QString &text) { sendRaw(frame(text.toUtf8())); }
    void sendRaw(const QByteArray &bytes)
    {
        socket.write(bytes);
        socket.flush();
    }
    static QByteArray frame(const QByteArray &payload)
    {
        return QByteArray::number(payload.size(), 16).rightJustified(6, '0') + payload;
    }

    // (:emacs-rex FORM PACKAGE THREAD ID): returns ID, for waitReturn.
    int rex(const QString &form, const QString &thread = QStringLiteral("t"),
            const QString &package = QStringLiteral("COMMON-LISP-USER"))
    {
        const int id = ++m_lastId;
        send(QStringLiteral("(:emacs-rex %1 \"%2\" %3 %4)").arg(form, package, thread).arg(id));
        return id;
    }

    // The first message that `matches` (from index *from on, which it moves past the match);
    // empty if none came within `ms`.
    QString waitFor(const std::function<bool(const QString &)> &matches, int ms = 30000, qsizetype *from = nullptr)
    {
        qsizetype start = from ? *from : 0;
        QString found;
        (void)QTest::qWaitFor([&] {
            for (; start < messages.size(); ++start) {
                if (matches(messages[start])) {
                    found = messages[start++];
                    return true;
                }
            }
            return false;
        }, ms);
        if (from)
            *from = start;
        return found;
    }

    // The reply to request `id`: "(:return (:ok VALUE) ID)" or "(:return (:abort TEXT) ID)".
    QString waitReturn(int id, int ms = 30000)
    {
        const QString tail = QStringLiteral(" %1)").arg(id);
        return waitFor([&](const QString &m) { return m.startsWith(QLatin1String("(:return ")) && m.endsWith(tail); }, ms);
    }

    // A request and its reply ("(:return (:ok ...) ID)"), empty (and said) if none came.
    QString ask(const QString &form, const QString &thread = QStringLiteral("t"), int ms = 30000)
    {
        const int id = rex(form, thread);
        const QString reply = waitReturn(id, ms);
        if (reply.isEmpty())
            qWarning() << "no reply to" << form << "; messages:" << messages;
        return reply;
    }

    // The next "(:debug THREAD LEVEL ...)" SLDB was opened with; `thread` gets its thread id.
    QString waitDebug(QString *thread = nullptr, int ms = 30000)
    {
        const QString debug = waitFor([](const QString &m) { return m.startsWith(QLatin1String("(:debug ")); }, ms, &m_debugs);
        const QRegularExpressionMatch match = QRegularExpression(QStringLiteral("^\\(:debug (\\d+) ")).match(debug);
        if (thread)
            *thread = match.captured(1);
        return debug;
    }

    bool waitClosed(int ms = 15000)
    {
        return QTest::qWaitFor([this] { return socket.state() == QAbstractSocket::UnconnectedState; }, ms);
    }

    QTcpSocket socket;
    QStringList messages; // every message received, in order

private:
    void readMessages()
    {
        m_buffer += socket.readAll();
        for (;;) {
            if (m_buffer.size() < 6)
                return;
            bool ok = false;
            const qsizetype length = m_buffer.left(6).toLongLong(&ok, 16);
            if (!ok || m_buffer.size() < 6 + length)
                return;
            messages.append(QString::fromUtf8(m_buffer.mid(6, length)));
            m_buffer.remove(0, 6 + length);
        }
    }

    QByteArray m_buffer;
    int m_lastId = 0;
    qsizetype m_debugs = 0; // waitDebug's place: each call takes the next one
};
