// Wrappers are not definitions (issue 40): the background native compiler never compiles or
// swaps a wrapper (TRACE's, with or without :BREAK; a closure a library or the person puts
// around a function with (SETF FDEFINITION); the person's own COMPILE), never swaps a native
// version over a function traced or wrapped since it was queued, and what UNTRACE puts back
// is exactly what was there, native if it was native (or compiled then, if the trace kept
// it from being compiled). A trace is never a version of the definition.

#include "../common/EngineHarness.h"

#include "client/EngineProtocol.h"

#include <QJsonArray>
#include <QTest>

namespace {

// Every entry for NAME in a list of native definition objects.
QList<QJsonObject> entriesNamed(const QJsonArray &entries, const QString &name)
{
    QList<QJsonObject> found;
    for (const QJsonValue &v : entries)
        if (v.toObject().value(QStringLiteral("name")).toString() == name)
            found << v.toObject();
    return found;
}

QString stateOf(const QJsonObject &entry) { return entry.value(QStringLiteral("state")).toString(); }

} // namespace

class TestNativeWrappers : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> m_lisp;
    QList<QJsonObject> m_events; // every "native" event

    QJsonArray settled()
    {
        const JobPtr done = m_lisp->run(EngineProtocol::nativeSettling(60000), 90000);
        if (!done || !done->result.reply.value(QStringLiteral("settled")).toBool())
            return {};
        return done->result.reply.value(QStringLiteral("definitions")).toArray();
    }

    // The newest state of NAME's function after the compiler settled.
    QJsonObject settledEntry(const QString &name)
    {
        QJsonObject newest;
        for (const QJsonObject &entry : entriesNamed(settled(), name))
            if (entry.value(QStringLiteral("serial")).toInt() >= newest.value(QStringLiteral("serial")).toInt())
                newest = entry;
        return newest;
    }

    JobResult eval(const QString &code) { return m_lisp->result(code); }

    QString runsNative(const QString &name)
    {
        return eval(QStringLiteral("(if (lisp-duet.kernel::bytecoded-p (fdefinition '%1)) :interpreted :native)").arg(name)).values.value(0);
    }

    // Every entry the engine ever announced for NAME (replies' "native" and events).
    int versionsAnnounced(const QString &name)
    {
        QSet<int> serials;
        for (const QJsonObject &event : std::as_const(m_events))
            for (const QJsonObject &entry : entriesNamed(event.value(QStringLiteral("definitions")).toArray(), name))
                serials << entry.value(QStringLiteral("serial")).toInt();
        return int(serials.size());
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_lisp = std::make_unique<EngineHarness>();
        connect(&m_lisp->engine, &EngineClient::otherEvent, this, [this](const QJsonObject &event) {
            if (event.value(QStringLiteral("event")) == QStringLiteral("native"))
                m_events << event;
        });
        QVERIFY2(m_lisp->waitReady(), "the engine did not start");
    }
    void cleanupTestCase() { m_lisp.reset(); }

    void aTraceBeforeTheCompileKeepsTheWrapperAndUntraceBringsTheNativeVersion()
    {
        const JobResult defined = eval(QStringLiteral("(defun wr-queued (x) (* x 2))"));
        QVERIFY(defined.ok());
        const JobResult traced = eval(QStringLiteral("(trace wr-queued)"));
        QVERIFY(traced.ok());
        // The trace is not a version of the definition: its job queued nothing.
        QVERIFY(!traced.reply.contains(QStringLiteral("native")));
        const QJsonObject entry = settledEntry(QStringLiteral("WR-QUEUED"));
        QCOMPARE(stateOf(entry), QStringLiteral("superseded"));
        QVERIFY2(entry.value(QStringLiteral("reason")).toString().contains(QLatin1String("traced")),
                 qPrintable(entry.value(QStringLiteral("reason")).toString()));
        const JobResult call = eval(QStringLiteral("(wr-queued 3)"));
        QCOMPARE(call.values, QStringList{"6"});
        QVERIFY2(call.stderrText.contains(QLatin1String("(WR-QUEUED 3)")), qPrintable(call.stderrText));
        QCOMPARE(eval(QStringLiteral("(untrace wr-queued)")).values, QStringList{"(WR-QUEUED)"});
        QCOMPARE(eval(QStringLiteral("(trace)")).values, QStringList{"NIL"});
        // What UNTRACE put back is compiled now, and no trace output comes any more.
        QCOMPARE(stateOf(settledEntry(QStringLiteral("WR-QUEUED"))), QStringLiteral("native"));
        QCOMPARE(runsNative(QStringLiteral("wr-queued")), QStringLiteral(":NATIVE"));
        const JobResult after = eval(QStringLiteral("(wr-queued 4)"));
        QCOMPARE(after.values, QStringList{"8"});
        QVERIFY2(after.stderrText.isEmpty(), qPrintable(after.stderrText));
        QCOMPARE(eval(QStringLiteral("(lisp-duet.kernel::lambda-list-text 'wr-queued)")).values, QStringList{"\"(X)\""});
    }

    void aTraceOfANativeFunctionUntracesToTheNativeFunction()
    {
        QVERIFY(eval(QStringLiteral("(defun wr-native (x) (+ x 1))")).ok());
        QCOMPARE(stateOf(settledEntry(QStringLiteral("WR-NATIVE"))), QStringLiteral("native"));
        const int before = versionsAnnounced(QStringLiteral("WR-NATIVE"));
        QVERIFY(eval(QStringLiteral("(trace wr-native)")).ok());
        // TRACE's lambda list is not shown for the function.
        QCOMPARE(eval(QStringLiteral("(lisp-duet.kernel::lambda-list-text 'wr-native)")).values, QStringList{"\"(X)\""});
        QVERIFY(eval(QStringLiteral("(wr-native 1)")).stderrText.contains(QLatin1String("(WR-NATIVE 1)")));
        QVERIFY(settled().size() > 0);
        QVERIFY(eval(QStringLiteral("(untrace wr-native)")).ok());
        QVERIFY(settled().size() > 0);
        QCOMPARE(runsNative(QStringLiteral("wr-native")), QStringLiteral(":NATIVE"));
        const JobResult after = eval(QStringLiteral("(wr-native 1)"));
        QCOMPARE(after.values, QStringList{"2"});
        QVERIFY(after.stderrText.isEmpty());
        QCOMPARE(versionsAnnounced(QStringLiteral("WR-NATIVE")), before);
    }

    void aTraceWithBreakIsNotCompiledEither()
    {
        QVERIFY(eval(QStringLiteral("(defun wr-break (x) (- x))")).ok());
        const JobResult traced = eval(QStringLiteral("(trace (wr-break :break (> (first si::args) 100)))"));
        QVERIFY2(traced.ok(), qPrintable(traced.error.message));
        QVERIFY(!traced.reply.contains(QStringLiteral("native")));
        QVERIFY(settled().size() > 0);
        QCOMPARE(runsNative(QStringLiteral("wr-break")), QStringLiteral(":INTERPRETED"));
        QCOMPARE(eval(QStringLiteral("(wr-break 5)")).values, QStringList{"-5"});
        // The break itself: no debugger for this evaluation, so it says so, and the session goes on.
        const JobResult broke = eval(QStringLiteral("(wr-break 500)"));
        QCOMPARE(broke.status, JobResult::Status::Error);
        QVERIFY(eval(QStringLiteral("(untrace wr-break)")).ok());
        QCOMPARE(stateOf(settledEntry(QStringLiteral("WR-BREAK"))), QStringLiteral("native"));
        QCOMPARE(eval(QStringLiteral("(wr-break 500)")).values, QStringList{"-500"});
    }

    void aTraceOfAFunctionThatIsCompilingWaitsForTheUntrace()
    {
        m_events.clear();
        // A declared type that takes a second to expand under the native compiler keeps the
        // compile running while the function is traced.
        QVERIFY(eval(QStringLiteral("(deftype wr-slowly () (when (let ((s (find-symbol \"*COMPILER-IN-USE*\" \"C\"))) (and s (boundp s) (symbol-value s)) (not (get 'wr-slowly 'slept)))"
                                    "  (setf (get 'wr-slowly 'slept) t) (sleep 1)) 'integer)"
                                    "(defun wr-compiling (x) (let ((y (* x 10))) (declare (type wr-slowly y)) y))")).ok());
        QVERIFY(QTest::qWaitFor([this] {
            for (const QJsonObject &event : std::as_const(m_events))
                for (const QJsonObject &entry : entriesNamed(event.value(QStringLiteral("definitions")).toArray(), QStringLiteral("WR-COMPILING")))
                    if (stateOf(entry) == QStringLiteral("compiling"))
                        return true;
            return false;
        }, 30000));
        QVERIFY(eval(QStringLiteral("(trace wr-compiling)")).ok());
        const QJsonObject entry = settledEntry(QStringLiteral("WR-COMPILING"));
        QCOMPARE(stateOf(entry), QStringLiteral("superseded"));
        // The native version was not swapped over the trace: calls are still traced.
        QVERIFY(eval(QStringLiteral("(wr-compiling 2)")).stderrText.contains(QLatin1String("(WR-COMPILING 2)")));
        QVERIFY(eval(QStringLiteral("(untrace wr-compiling)")).ok());
        QCOMPARE(stateOf(settledEntry(QStringLiteral("WR-COMPILING"))), QStringLiteral("native"));
        const JobResult after = eval(QStringLiteral("(wr-compiling 2)"));
        QCOMPARE(after.values, QStringList{"20"});
        QVERIFY(after.stderrText.isEmpty());
    }

    void untraceOfAFunctionRedefinedSinceKeepsTheNewDefinition()
    {
        QVERIFY(eval(QStringLiteral("(defun wr-redefined () :old) (trace wr-redefined)")).ok());
        QVERIFY(eval(QStringLiteral("(defun wr-redefined () :new)")).ok());
        const JobResult untraced = eval(QStringLiteral("(untrace wr-redefined)"));
        QVERIFY(untraced.ok());
        QVERIFY2(untraced.warnings.join(QLatin1Char(' ')).contains(QLatin1String("redefined")), qPrintable(untraced.warnings.join(QLatin1Char(' '))));
        QCOMPARE(stateOf(settledEntry(QStringLiteral("WR-REDEFINED"))), QStringLiteral("native"));
        const JobResult after = eval(QStringLiteral("(wr-redefined)"));
        QCOMPARE(after.values, QStringList{":NEW"});
        QVERIFY(after.stderrText.isEmpty());
    }

    void anAdviceWrapperIsLeftAsItIsAndTheOriginalComesBack()
    {
        QVERIFY(eval(QStringLiteral("(defun wr-advised (x) (* x x))")).ok());
        QCOMPARE(stateOf(settledEntry(QStringLiteral("WR-ADVISED"))), QStringLiteral("native"));
        const int before = versionsAnnounced(QStringLiteral("WR-ADVISED"));
        // A library's advice: a closure around the function it replaces, and a way back.
        const JobResult wrapped = eval(QStringLiteral("(defvar *wr-original* #'wr-advised)"
                                                      "(let ((inner #'wr-advised)) (setf (fdefinition 'wr-advised) (lambda (x) (list :outer (funcall inner x)))))"
                                                      "(defparameter *wr-wrapper* #'wr-advised)"));
        QVERIFY(wrapped.ok());
        QVERIFY(!wrapped.reply.contains(QStringLiteral("native")));
        QVERIFY(settled().size() > 0);
        QCOMPARE(eval(QStringLiteral("(wr-advised 3)")).values, QStringList{"(:OUTER 9)"});
        // The closure around the original was not compiled: the library finds its own wrapper.
        QCOMPARE(runsNative(QStringLiteral("wr-advised")), QStringLiteral(":INTERPRETED"));
        QCOMPARE(eval(QStringLiteral("(eq #'wr-advised *wr-wrapper*)")).values, QStringList{"T"});
        QCOMPARE(versionsAnnounced(QStringLiteral("WR-ADVISED")), before);
        QVERIFY(eval(QStringLiteral("(setf (fdefinition 'wr-advised) *wr-original*)")).ok());
        QCOMPARE(eval(QStringLiteral("(eq #'wr-advised *wr-original*)")).values, QStringList{"T"});
        QCOMPARE(eval(QStringLiteral("(wr-advised 3)")).values, QStringList{"9"});
    }

    void thePersonsCompileIsNotSwappedOver()
    {
        QVERIFY(eval(QStringLiteral("(defun wr-compiled (x) (list :mine x))")).ok());
        QVERIFY(eval(QStringLiteral("(compile 'wr-compiled) (defparameter *wr-mine* #'wr-compiled)")).ok());
        const QJsonObject entry = settledEntry(QStringLiteral("WR-COMPILED"));
        QVERIFY2(stateOf(entry) == QStringLiteral("superseded") || stateOf(entry) == QStringLiteral("native"), qPrintable(stateOf(entry)));
        QCOMPARE(eval(QStringLiteral("(eq #'wr-compiled *wr-mine*)")).values, QStringList{"T"});
        QCOMPARE(eval(QStringLiteral("(wr-compiled 1)")).values, QStringList{"(:MINE 1)"});
    }

    void aThousandTracedCallsPrintingWhileAnAgentWaits()
    {
        QVERIFY(eval(QStringLiteral("(defun wr-many (i) (1+ i)) (trace wr-many)")).ok());
        JobRequest person;
        person.code = QStringLiteral("(loop for i below 1000 sum (wr-many i))");
        const quint64 printing = m_lisp->session.submit(person);
        JobRequest agent;
        agent.code = QStringLiteral("(+ 1 2)");
        agent.origin = Origin::agent(QStringLiteral("claude-code"), QStringLiteral("claude-code-1"));
        const quint64 waiting = m_lisp->session.submit(agent);
        const JobPtr printed = m_lisp->waitFor(printing, 60000);
        QVERIFY(printed);
        QCOMPARE(printed->result.values, QStringList{"500500"});
        QVERIFY(printed->result.stderrText.contains(QLatin1String("(WR-MANY 999)")) || printed->result.outputDropped > 0);
        const JobPtr answered = m_lisp->waitFor(waiting, 60000);
        QVERIFY(answered);
        QCOMPARE(answered->result.values, QStringList{"3"});
        QVERIFY(eval(QStringLiteral("(untrace wr-many)")).ok());
        QCOMPARE(stateOf(settledEntry(QStringLiteral("WR-MANY"))), QStringLiteral("native"));
        QVERIFY(eval(QStringLiteral("(wr-many 1)")).stderrText.isEmpty());
    }

    // The host counts what is pending from the events: the last one says nothing is.
    void theLastEventSaysNothingIsPending()
    {
        QVERIFY(eval(QStringLiteral("(defun wr-last (x) x)")).ok());
        QVERIFY(settled().size() > 0);
        QVERIFY(QTest::qWaitFor([this] { return !m_events.isEmpty() && m_events.last().value(QStringLiteral("pending")).toInt() == 0; }, 5000));
    }
};

QTEST_GUILESS_MAIN(TestNativeWrappers)
#include "tst_nativewrappers.moc"
