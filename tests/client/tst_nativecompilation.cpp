// How the host keeps what became of the session's definitions in the background compiler
// (issue 30; NativeCompilation, engine/native): the job's reply says what it queued, the
// engine's "native" events say what became of each, and the two come in either order. These
// feed the client's signals with the engine's own shapes (engine/README.md, "Native code for
// the session's definitions"), no process: the order of arrival is the test's to choose. The
// real engine's sequence is tst_nativewindow's and tst_tools_native's.

#include "client/EngineClient.h"
#include "session/Session.h"
#include "native/NativeCompilation.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

namespace {
QJsonObject entry(qint64 serial, const QString &name, const QString &state, const QString &kind = QStringLiteral("function"),
                  const QStringList &specializers = {}, const QString &reason = {})
{
    return {{"serial", serial},
            {"kind", kind},
            {"package", "COMMON-LISP-USER"},
            {"name", name},
            {"qualifiers", QJsonArray()},
            {"specializers", QJsonArray::fromStringList(specializers)},
            {"state", state},
            {"since_ms", 1795777747404.0 + double(serial) * 1000},
            {"after_ms", state == QStringLiteral("native") ? QJsonValue(140) : QJsonValue(QJsonValue::Null)},
            {"job", 3},
            {"reason", reason.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(reason)},
            {"notes", QJsonArray()}};
}

QJsonObject newsEvent(const QJsonArray &definitions, int pending = 0)
{
    return {{"event", "native"}, {"definitions", definitions}, {"pending", pending}};
}

QJsonObject reply(const QJsonArray &native, const QJsonArray &defined = {})
{
    QJsonObject json{{"id", 7}, {"status", "ok"}, {"values", QJsonArray{"FIB"}}};
    if (!native.isEmpty())
        json.insert("native", native);
    if (!defined.isEmpty())
        json.insert("defined", defined);
    return json;
}

QJsonObject ready(bool enabled, bool available, const QString &reason = {})
{
    return {{"event", "ready"},
            {"version", "21.2.1"},
            {"implementation", "ECL"},
            {"package", "COMMON-LISP-USER"},
            {"native", QJsonObject{{"enabled", enabled}, {"available", available},
                                   {"reason", reason.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(reason)}, {"pending", 0}}}};
}
} // namespace

class TestNativeCompilation : public QObject
{
    Q_OBJECT

private:
    // The client is never started: the test speaks for the engine through its signals.
    std::unique_ptr<EngineClient> m_engine;
    std::unique_ptr<Session> m_session;
    std::unique_ptr<NativeCompilation> m_native;

    NativeCompilation *native() const { return m_native.get(); }
    QString stateOf(const QString &name, const QString &space = QStringLiteral("function"), const QStringList &specializers = {}) const
    {
        const NativeCompilation::Definition *d = native()->find(space, QStringLiteral("COMMON-LISP-USER"), name, {}, specializers);
        return d ? d->execution() : QStringLiteral("unknown");
    }

private Q_SLOTS:
    void init()
    {
        m_engine = std::make_unique<EngineClient>();
        m_session = std::make_unique<Session>(m_engine.get());
        m_native = std::make_unique<NativeCompilation>(m_engine.get(), m_session.get());
        m_session->setEngineStart({m_native.get()});
        Q_EMIT m_engine->ready(ready(true, true));
    }
    void cleanup()
    {
        m_native.reset();
        m_session.reset();
        m_engine.reset();
    }

    void aDefinitionIsCompilingFromItsReplyAndNativeFromTheEvent()
    {
        QSignalSpy changed(native(), &NativeCompilation::changed);
        QCOMPARE(stateOf("FIB"), QStringLiteral("unknown"));
        Q_EMIT m_engine->reply(7, reply({entry(1, "FIB", "queued")}));
        QCOMPARE(stateOf("FIB"), QStringLiteral("compiling"));
        Q_EMIT m_engine->otherEvent(newsEvent({entry(1, "FIB", "compiling")}, 1));
        Q_EMIT m_engine->otherEvent(newsEvent({entry(1, "FIB", "native")}));
        QCOMPARE(stateOf("FIB"), QStringLiteral("native"));
        const NativeCompilation::Definition *fib = native()->find("function", "COMMON-LISP-USER", "FIB");
        QCOMPARE(fib->afterMs, 140);
        QCOMPARE(fib->since, QDateTime::fromMSecsSinceEpoch(qint64(1795777747404.0 + 1000)));
        QCOMPARE(fib->sentence(), QStringLiteral("Runs native code since %1 (0.14 s after it was defined).")
                                      .arg(fib->since.toString(QStringLiteral("HH:mm:ss"))));
        QCOMPARE(changed.size(), 3);
    }

    void anEventThatOvertakesTheReplyIsNotUndoneByIt()
    {
        // A long job: its definition became native while it still ran; its reply, built at
        // its end, may still say an earlier state.
        Q_EMIT m_engine->otherEvent(newsEvent({entry(4, "LONG", "native")}));
        Q_EMIT m_engine->reply(7, reply({entry(4, "LONG", "queued")}));
        QCOMPARE(stateOf("LONG"), QStringLiteral("native"));
    }

    void theNewestSerialWinsAndAnOlderDefinitionsEndIsIgnored()
    {
        Q_EMIT m_engine->reply(7, reply({entry(5, "F", "queued")}));
        Q_EMIT m_engine->reply(8, reply({entry(6, "F", "queued")}));
        // The first (defun f () 1) was replaced before its native version was ready.
        Q_EMIT m_engine->otherEvent(newsEvent({entry(5, "F", "superseded", "function", {}, "A newer definition replaced it.")}));
        QCOMPARE(stateOf("F"), QStringLiteral("compiling"));
        QCOMPARE(native()->find("function", "COMMON-LISP-USER", "F")->serial, 6);
        Q_EMIT m_engine->otherEvent(newsEvent({entry(6, "F", "native")}));
        QCOMPARE(stateOf("F"), QStringLiteral("native"));
    }

    void aCompileFailureKeepsItsReason()
    {
        const QString why = QStringLiteral("It uses LOAD-TIME-VALUE: compiled now, its form would run again.");
        Q_EMIT m_engine->reply(7, reply({entry(9, "STAMP", "queued")}));
        Q_EMIT m_engine->otherEvent(newsEvent({entry(9, "STAMP", "interpreted", "function", {}, why)}));
        QCOMPARE(stateOf("STAMP"), QStringLiteral("interpreted"));
        QCOMPARE(native()->find("function", "COMMON-LISP-USER", "STAMP")->sentence(), QStringLiteral("Runs interpreted: ") + why);
    }

    void aMacroReplacingAFunctionIsFoundUnderTheFunctionsName()
    {
        Q_EMIT m_engine->otherEvent(newsEvent({entry(10, "TWICE", "native")}));
        Q_EMIT m_engine->otherEvent(newsEvent({entry(11, "TWICE", "interpreted", "macro", {}, "gcc failed.")}));
        QCOMPARE(native()->find("function", "COMMON-LISP-USER", "TWICE")->kind, QStringLiteral("macro"));
        QCOMPARE(stateOf("TWICE"), QStringLiteral("interpreted"));
    }

    void methodsAreKeyedByTheirSpecializersAsTheLedgerWritesThem()
    {
        Q_EMIT m_engine->otherEvent(newsEvent({entry(12, "AREA", "native", "method", {"SQUARE"}),
                                          entry(13, "AREA", "interpreted", "method", {"CIRCLE"}, "gcc failed.")}));
        // The ledger drops trailing Ts and writes upper case.
        QCOMPARE(stateOf("AREA", "method", {"square", "T"}), QStringLiteral("native"));
        QCOMPARE(stateOf("AREA", "method", {"CIRCLE"}), QStringLiteral("interpreted"));
        QCOMPARE(stateOf("AREA", "method", {"TRIANGLE"}), QStringLiteral("unknown"));
        // The generic function is interpreted while one of its methods is, and says which.
        const std::optional<NativeCompilation::Definition> area = native()->genericFunction("COMMON-LISP-USER", "AREA");
        QVERIFY(area);
        QCOMPARE(area->execution(), QStringLiteral("interpreted"));
        QCOMPARE(area->reason, QStringLiteral("its method (CIRCLE) stays interpreted: gcc failed."));
        Q_EMIT m_engine->otherEvent(newsEvent({entry(14, "AREA", "native", "method", {"CIRCLE"})}));
        QCOMPARE(native()->genericFunction("COMMON-LISP-USER", "AREA")->execution(), QStringLiteral("native"));
        QVERIFY(!native()->genericFunction("COMMON-LISP-USER", "VOLUME"));
    }

    void aRedefinitionTheCompilerWasNotGivenForgetsTheOldState()
    {
        // Defined while native compilation was on, then again while it was off: the reply
        // says it defined G and queued nothing, so G's native state is no longer G's.
        Q_EMIT m_engine->otherEvent(newsEvent({entry(15, "G", "native")}));
        const QJsonObject defined{{"operator", "defun"}, {"kind", "function"}, {"package", "COMMON-LISP-USER"}, {"name", "G"},
                                  {"qualifiers", QJsonArray()}, {"specializers", QJsonArray()}, {"start", 0}, {"end", 15}};
        Q_EMIT m_engine->reply(9, reply({}, {defined}));
        QCOMPARE(stateOf("G"), QStringLiteral("unknown"));
    }

    void aNewEngineStartsWithNoStates()
    {
        Q_EMIT m_engine->otherEvent(newsEvent({entry(16, "H", "native")}));
        QCOMPARE(native()->definitionCount(), 1);
        Q_EMIT m_engine->ready(ready(true, true));
        QCOMPARE(native()->definitionCount(), 0);
    }

    void noGccIsSaidOnceAcrossEngineRestarts()
    {
        const QString why = QStringLiteral("The C compiler gcc is not on PATH: the session's definitions stay interpreted (Debian: apt install gcc).");
        QSignalSpy notices(native(), &NativeCompilation::notice);
        Q_EMIT m_engine->ready(ready(true, false, why));
        Q_EMIT m_engine->ready(ready(true, false, why));
        QCOMPARE(notices.size(), 1);
        QCOMPARE(notices.first().first().toString(), why);
        QVERIFY(!native()->isOn());
        QCOMPARE(native()->reason(), why);
        // An engine that can compile again: said once more, and the window knows it is on.
        Q_EMIT m_engine->ready(ready(true, true));
        QCOMPARE(notices.size(), 2);
        QVERIFY(native()->isOn());
        QVERIFY(native()->reason().isEmpty());
    }

    void theToolchainGoingAwayMidSessionIsSaid()
    {
        QSignalSpy notices(native(), &NativeCompilation::notice);
        Q_EMIT m_engine->otherEvent(QJsonObject{{"event", "native"}, {"definitions", QJsonArray{entry(17, "K", "interpreted", "function", {}, "gone")}},
                                                {"pending", 0}, {"available", false}, {"reason", "ECL's C headers are missing."}});
        QVERIFY(!native()->isOn());
        QCOMPARE(notices.size(), 1);
        QCOMPARE(native()->reason(), QStringLiteral("ECL's C headers are missing."));
    }

    void theHostsSwitchGoesToEveryLaterEngineAndItsReasonIsTheOneSaid()
    {
        QSignalSpy notices(native(), &NativeCompilation::notice);
        const QString why = QStringLiteral("Native compilation is off for this run (--no-native).");
        native()->setEnabled(false, why);
        QVERIFY(m_engine->arguments().contains(QStringLiteral("--no-native")));
        QVERIFY(!native()->isOn());
        QCOMPARE(native()->reason(), why);
        QCOMPARE(notices.size(), 1);
        // The engine started with --no-native says so in its words; the host's are the ones said.
        Q_EMIT m_engine->ready(ready(false, true, "Native compilation is off (--no-native): the session's definitions run interpreted."));
        QCOMPARE(native()->reason(), why);
        QCOMPARE(notices.size(), 1);
        native()->setEnabled(true);
        QVERIFY(!m_engine->arguments().contains(QStringLiteral("--no-native")));
    }
};

QTEST_GUILESS_MAIN(TestNativeCompilation)
#include "tst_nativecompilation.moc"
