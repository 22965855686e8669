#pragma once

// Helpers for tests that drive a real Session and engine: submit, then wait for the result.

#include "session/Session.h"

#include <QTest>

namespace SessionHarness {

inline quint64 submit(Session &session, const QString &code, const Origin &origin = Origin::person(), int timeoutMs = -1)
{
    JobRequest request;
    request.code = code;
    request.origin = origin;
    request.timeoutMs = timeoutMs;
    return session.submit(request);
}

// The finished evaluation, or null when it did not finish in time.
inline JobPtr waitFor(Session &session, quint64 id, int timeoutMs = 30000)
{
    JobPtr done;
    const QMetaObject::Connection connection = QObject::connect(&session, &Session::finished, [&](JobPtr e) {
        if (e->id == id)
            done = e;
    });
    (void)QTest::qWaitFor([&] { return !done.isNull(); }, timeoutMs);
    QObject::disconnect(connection);
    return done;
}

inline JobPtr evaluate(Session &session, const QString &code, const Origin &origin = Origin::person(), int timeoutMs = -1)
{
    return waitFor(session, submit(session, code, origin, timeoutMs), timeoutMs > 0 ? timeoutMs + 30000 : 30000);
}

} // namespace SessionHarness
