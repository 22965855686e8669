// The shared debugger in the engine (issue 20): a job with debugging on parks on an error with
// its restarts and frames, the session keeps serving from inside the parked level, frames show
// their locals, code evaluates in a frame, and the restarts continue the job. Against the real
// lisp-duet-engine through Session.

#include "../common/EngineHarness.h"
#include "../common/TestFiles.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {
QStringList restartNames(const Debugger &debugger)
{
    QStringList names;
    for (const DebuggerRestart &r : debugger.restarts)
        names << r.name;
    return names;
}

QStringList frameTexts(const Debugger &debugger)
{
    QStringList texts;
    for (const DebuggerFrame &f : debugger.frames)
        texts << f.text;
    return texts;
}

// name -> printed value of a debugger-frame reply's arguments or locals
QHash<QString, QString> variables(const QJsonArray &list)
{
    QHash<QString, QString> map;
    for (const QJsonValue &v : list) {
        const EngineProtocol::FrameReply::Variable variable(v);
        map.insert(variable.name(), variable.value());
    }
    return map;
}
} // namespace

class TestDebugger : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> m_lisp;

    Session &session() { return m_lisp->session; }

    void setNative(bool enabled)
    {
        bool answered = false;
        session().query(EngineProtocol::nativeCompilation(enabled),
                        [&](const QJsonObject &) { answered = true; });
        QVERIFY(QTest::qWaitFor([&] { return answered; }, 10000));
    }

    JobPtr choose(const DebuggerPtr &debugger, const QJsonValue &restart, const QStringList &arguments = {})
    {
        QString refusal;
        const quint64 invocation = session().debugger()->invokeRestart(debugger->id, restart, arguments, Origin::person(), &refusal);
        if (!invocation) {
            qWarning("refused: %s", qPrintable(refusal));
            return {};
        }
        return m_lisp->waitFor(invocation);
    }

    QJsonObject frame(const DebuggerPtr &debugger, int index)
    {
        QJsonObject answer;
        bool answered = false;
        session().debugger()->inspectFrame(debugger->id, index, Origin::person(), false, [&](const QJsonObject &reply) {
            answer = reply;
            answered = true;
        });
        (void)QTest::qWaitFor([&] { return answered; }, 10000);
        return answer;
    }

    JobPtr evalInFrame(const DebuggerPtr &debugger, int index, const QString &code)
    {
        QString refusal;
        const quint64 id = session().debugger()->evaluateInFrame(debugger->id, index, code, Origin::person(), {}, &refusal);
        if (!id)
            qWarning("refused: %s", qPrintable(refusal));
        return id ? m_lisp->waitFor(id) : JobPtr();
    }

private Q_SLOTS:
    void init()
    {
        m_lisp = std::make_unique<EngineHarness>();
        QVERIFY2(m_lisp->waitReady(), "the engine did not start");
    }
    void cleanup() { m_lisp.reset(); }

    void aLoopParkedAtItem5000OfTenThousandFinishesWithItsFullSumAfterUseValue()
    {
        QVERIFY(m_lisp->result("(defun parse-item (i) (restart-case (if (= i 5000) (error \"bad record ~D\" i) i)"
                               "  (use-value (v) :report \"Use a value for this record.\" v)))"
                               "(defun total (n) (loop for i from 1 to n sum (parse-item i)))").ok());
        const quint64 id = m_lisp->debugEval(QStringLiteral("(total 10000)"));
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        QCOMPARE(session().job(id)->state, Job::State::Parked);
        QCOMPARE(debugger->conditionType, QStringLiteral("SIMPLE-ERROR"));
        QCOMPARE(debugger->message, QStringLiteral("bad record 5000"));
        QCOMPARE(debugger->level, 1);
        QCOMPARE(restartNames(*debugger), (QStringList{"USE-VALUE", "RETRY", "ABORT"}));
        QCOMPARE(debugger->restarts.first().description, QStringLiteral("Use a value for this record."));
        QCOMPARE(frameTexts(*debugger), (QStringList{"(PARSE-ITEM 5000)", "(TOTAL 10000)"}));
        // The parked result reads as seed 000's error, backtrace included.
        QCOMPARE(session().job(id)->result.error.type, QStringLiteral("SIMPLE-ERROR"));
        QCOMPARE(session().job(id)->result.error.backtrace, (QStringList{"0: (PARSE-ITEM 5000)", "1: (TOTAL 10000)"}));

        const JobPtr invocation = choose(debugger, QStringLiteral("use-value"), {QStringLiteral("5000")});
        QVERIFY(invocation && invocation->result.ok());
        const JobPtr done = m_lisp->waitFor(id);
        QVERIFY(done);
        QCOMPARE(done->result.status, JobResult::Status::Ok);
        QCOMPARE(done->result.values, QStringList{"50005000"});
        QCOMPARE(debugger->state, Debugger::State::Continued);
        QCOMPARE(debugger->choice.restart, QStringLiteral("USE-VALUE"));
        QCOMPARE(debugger->choice.arguments, QStringList{"5000"});
        QVERIFY(debugger->choice.by.isPerson());
    }

    void checkTypeOffersStoreValueAndGoesOnWithTheNewValue()
    {
        const quint64 id = m_lisp->debugEval(QStringLiteral("(let ((x 'a)) (check-type x integer) (* x 2))"));
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        QCOMPARE(debugger->message, QStringLiteral("The value of X is A, which is not of type INTEGER."));
        QCOMPARE(restartNames(*debugger), (QStringList{"STORE-VALUE", "RETRY", "ABORT"}));
        QVERIFY(choose(debugger, 0, {QStringLiteral("21")}));
        QCOMPARE(m_lisp->waitFor(id)->result.values, QStringList{"42"});
    }

    void assertAndCerrorOfferContinue()
    {
        QVERIFY(m_lisp->result("(defvar *n* 0)").ok());
        const quint64 asserted = m_lisp->debugEval(QStringLiteral("(assert (> *n* 1)) :asserted"));
        const DebuggerPtr assertion = m_lisp->waitParked(asserted);
        QVERIFY(assertion);
        QCOMPARE(assertion->message, QStringLiteral("The assertion (> *N* 1) failed"));
        QCOMPARE(restartNames(*assertion).first(), QStringLiteral("CONTINUE"));
        // The session keeps serving: the person mends the world, then the assertion is tried again.
        QCOMPARE(m_lisp->result("(setf *n* 5)").values, QStringList{"5"});
        QVERIFY(choose(assertion, QStringLiteral("CONTINUE")));
        QCOMPARE(m_lisp->waitFor(asserted)->result.values, QStringList{":ASSERTED"});

        const quint64 cerrored = m_lisp->debugEval(QStringLiteral("(cerror \"Go on anyway.\" \"Odd record ~A\" 7) :went-on"));
        const DebuggerPtr odd = m_lisp->waitParked(cerrored);
        QVERIFY(odd);
        QCOMPARE(odd->restarts.first().name, QStringLiteral("CONTINUE"));
        QCOMPARE(odd->restarts.first().description, QStringLiteral("Go on anyway."));
        QVERIFY(choose(odd, QStringLiteral("continue")));
        QCOMPARE(m_lisp->waitFor(cerrored)->result.values, QStringList{":WENT-ON"});
    }

    void breakParksWithContinueAndGoesOnAfterIt()
    {
        const quint64 id = m_lisp->debugEval(QStringLiteral("(princ 1) (break \"Look at ~A\" :this) (princ 2) :after"));
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        QCOMPARE(debugger->message, QStringLiteral("Look at THIS"));
        QCOMPARE(debugger->restarts.first().name, QStringLiteral("CONTINUE"));
        QCOMPARE(session().job(id)->result.stdoutText, QStringLiteral("1")); // output before the break is there
        QVERIFY(choose(debugger, QStringLiteral("CONTINUE")));
        const JobPtr done = m_lisp->waitFor(id);
        QCOMPARE(done->result.values, QStringList{":AFTER"});
        QCOMPARE(done->result.stdoutText, QStringLiteral("12"));
    }

    void anUndefinedFunctionDefinedWhileParkedRunsAfterRetry()
    {
        const quint64 id = m_lisp->debugEval(QStringLiteral("(princ :before) (* 2 (frobnicate 21))"));
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        QCOMPARE(debugger->conditionType, QStringLiteral("UNDEFINED-FUNCTION"));
        QCOMPARE(restartNames(*debugger), (QStringList{"RETRY", "ABORT"}));
        QVERIFY(m_lisp->result("(defun frobnicate (x) (+ x 0))").ok());
        QVERIFY(choose(debugger, QStringLiteral("RETRY")));
        const JobPtr done = m_lisp->waitFor(id);
        QCOMPARE(done->result.values, QStringList{"42"});
        QCOMPARE(done->result.stdoutText, QStringLiteral("BEFORE")); // only the failed form ran again
    }

    void abortEndsTheJobWithItsErrorAsWithoutTheDebugger()
    {
        const quint64 id = m_lisp->debugEval(QStringLiteral("(/ 1 0)"));
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        QVERIFY(choose(debugger, QStringLiteral("ABORT")));
        const JobPtr done = m_lisp->waitFor(id);
        QCOMPARE(done->result.status, JobResult::Status::Error);
        QCOMPARE(done->result.error.type, QStringLiteral("DIVISION-BY-ZERO"));
        QCOMPARE(done->result.error.backtrace, QStringList{"0: (/ 1 0)"});
    }

    void withoutDebuggingAnErrorUnwindsAsBefore()
    {
        const JobResult result = m_lisp->result("(progn (princ :out) (/ 1 0))");
        QCOMPARE(result.status, JobResult::Status::Error);
        QCOMPARE(result.error.type, QStringLiteral("DIVISION-BY-ZERO"));
        QCOMPARE(result.stdoutText, QStringLiteral("OUT"));
        QVERIFY(m_lisp->parkings.isEmpty());
        QVERIFY(session().debugger()->openDebuggers().isEmpty());
    }

    void levelsNestAndUnwindInOrder()
    {
        const quint64 outer = m_lisp->debugEval(QStringLiteral("(cerror \"Go on.\" \"outer\") :outer-done"));
        const DebuggerPtr first = m_lisp->waitParked(outer);
        QVERIFY(first);
        const quint64 inner = m_lisp->debugEval(QStringLiteral("(error \"inner\")"));
        const DebuggerPtr second = m_lisp->waitParked(inner);
        QVERIFY(second);
        QCOMPARE(second->level, 2);
        QCOMPARE(session().debugger()->openDebuggers(), (QList<DebuggerPtr>{first, second}));
        // Only its own restarts: the outer level's CONTINUE is not among the inner one's.
        QCOMPARE(restartNames(*second), (QStringList{"RETRY", "ABORT"}));

        QList<int> closedOrder;
        connect(session().debugger(), &SessionDebugger::debuggerClosed, this, [&](DebuggerPtr d) { closedOrder << d->id; });
        QVERIFY(choose(first, QStringLiteral("CONTINUE")));
        QCOMPARE(m_lisp->waitFor(outer)->result.values, QStringList{":OUTER-DONE"});
        const JobPtr cut = m_lisp->waitFor(inner);
        QCOMPARE(cut->result.error.type, QStringLiteral("LISP-DUET:UNWOUND"));
        QCOMPARE(closedOrder, (QList<int>{second->id, first->id}));
        QCOMPARE(second->state, Debugger::State::Unwound);
        QCOMPARE(first->state, Debugger::State::Continued);
        QVERIFY(session().debugger()->openDebuggers().isEmpty());
        QCOMPARE(m_lisp->result("(+ 1 2)").values, QStringList{"3"});
    }

    void framesOfInterpretedCodeShowArgumentsAndLocalsWithValues()
    {
        QVERIFY(m_lisp->result("(defun scale (x y) (let ((z (* x 2)) (items (list x y))) (/ z y)))").ok());
        const quint64 id = m_lisp->debugEval(QStringLiteral("(scale 3 0)"));
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        QCOMPARE(frameTexts(*debugger), (QStringList{"(/ 6 0)", "(SCALE 3 0)"}));
        QVERIFY(debugger->frames.at(1).localsAvailable);
        const EngineProtocol::FrameReply reply(frame(debugger, 1));
        QVERIFY2(reply.ok(), qPrintable(reply.errorMessage()));
        QCOMPARE(reply.function().toString(), QStringLiteral("SCALE"));
        const auto arguments = variables(reply.arguments());
        QCOMPARE(arguments.value("X"), QStringLiteral("3"));
        QCOMPARE(arguments.value("Y"), QStringLiteral("0"));
        const auto locals = variables(reply.locals());
        QCOMPARE(locals.value("Z"), QStringLiteral("6"));
        QCOMPARE(locals.value("ITEMS"), QStringLiteral("(3 0)"));
        // A value that is not primitive comes with a handle for inspect-object.
        bool listHasId = false;
        for (const QJsonValue &v : reply.locals())
            listHasId |= EngineProtocol::FrameReply::Variable(v).name() == QStringLiteral("ITEMS")
                         && !EngineProtocol::FrameReply::Variable(v).resultId().isEmpty();
        QVERIFY(listHasId);
        QCOMPARE(reply.source().toObject().value("where").toString(), QStringLiteral("session"));
        // The rebuilt call of a built-in has no frame of its own, and says so.
        const EngineProtocol::FrameReply builtIn(frame(debugger, 0));
        QVERIFY(!builtIn.localsAvailable());
        QVERIFY(builtIn.note().toString().contains(QStringLiteral("built-in")));
    }

    void aFrameWithALocalFunctionKeepsTheErrorAndItsLocals()
    {
        // The frame's environment holds HELPER's closure beside X: reading it must not fail
        // (it did, and the user's error became a kernel failure).
        QVERIFY(m_lisp->result("(defun outer (x) (flet ((helper () (car x))) (helper)))").ok());
        const JobResult plain = m_lisp->result("(outer 1)");
        QCOMPARE(plain.status, JobResult::Status::Error);
        QCOMPARE(plain.error.type, QStringLiteral("SIMPLE-TYPE-ERROR"));
        QCOMPARE(plain.error.backtrace.first(), QStringLiteral("0: (CAR 1)"));
        QVERIFY(plain.error.backtrace.contains(QStringLiteral("2: (OUTER 1)")));
        const quint64 id = m_lisp->debugEval(QStringLiteral("(outer 1)"));
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        const int outerFrame = int(frameTexts(*debugger).indexOf(QStringLiteral("(OUTER 1)")));
        QVERIFY(outerFrame > 0);
        QCOMPARE(variables(EngineProtocol::FrameReply(frame(debugger, outerFrame)).arguments()).value("X"), QStringLiteral("1"));
        QVERIFY(choose(debugger, QStringLiteral("ABORT")));
    }

    void debuggerEvalSeesTheFramesLocalsAndCanChangeThem()
    {
        // A SETQ in a frame reaches bytecoded code only: once the background compiler made
        // SCALE native (issue 30), its frame would hold copies (tst_native shows those). It
        // is defined with native compilation off, so the call never races the compiler.
        setNative(false);
        QVERIFY(m_lisp->result("(defun scale (x y) (let ((z (* x 2))) (restart-case (/ z y) (use-value (v) (+ z v)))))").ok());
        setNative(true);
        const quint64 id = m_lisp->debugEval(QStringLiteral("(scale 3 0)"));
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        const JobPtr seen = evalInFrame(debugger, 1, QStringLiteral("(list x y z)"));
        QVERIFY(seen);
        QCOMPARE(seen->result.values, QStringList{"(3 0 6)"});
        QVERIFY(evalInFrame(debugger, 1, QStringLiteral("(setq z 100)")));
        QVERIFY(choose(debugger, QStringLiteral("USE-VALUE"), {QStringLiteral("1")}));
        QCOMPARE(m_lisp->waitFor(id)->result.values, QStringList{"101"});
    }

    void anErrorInDebuggerEvalIsReportedAndTheDebuggerStaysOpen()
    {
        const quint64 id = m_lisp->debugEval(QStringLiteral("(let ((x 1)) (error \"stop ~A\" x))"));
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        const JobPtr failed = evalInFrame(debugger, -1, QStringLiteral("(car 42)"));
        QVERIFY(failed);
        QCOMPARE(failed->result.status, JobResult::Status::Error);
        QCOMPARE(failed->result.error.type, QStringLiteral("SIMPLE-TYPE-ERROR"));
        QVERIFY(debugger->isOpen());
        QCOMPARE(m_lisp->parkings.size(), 1);
        QVERIFY(choose(debugger, QStringLiteral("ABORT")));
        QCOMPARE(m_lisp->waitFor(id)->result.error.message, QStringLiteral("stop 1"));
    }

    void nativeCodeKeepsNoFramesButTheParkedThreadStillEvaluates()
    {
        // ECL records no frame for natively compiled functions: nothing to show but the truth.
        // (Defined with the background compiler off: its own native version, at (debug 3),
        // keeps frames, and must not beat COMPILE to it.)
        setNative(false);
        QVERIFY(m_lisp->result("(defvar *seen* :unset) (defun native-half (x) (let ((*seen* x)) (if (zerop x) (error \"zero\") (/ 1 x))))",
                               QString(), 60000).ok());
        setNative(true);
        QVERIFY(m_lisp->result("(compile 'native-half)", QString(), 60000).ok());
        const quint64 id = m_lisp->debugEval(QStringLiteral("(native-half 0)"));
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        QVERIFY(debugger->frames.isEmpty());
        const EngineProtocol::Reply noFrame(frame(debugger, 0));
        QVERIFY(noFrame.failed());
        QVERIFY2(noFrame.errorMessage().startsWith(QStringLiteral("There is no frame 0: ECL kept no frame for this error")),
                 qPrintable(noFrame.errorMessage()));
        // Without a frame, code runs in the parked thread's dynamic environment: it sees the
        // special binding the compiled function made.
        const JobPtr seen = evalInFrame(debugger, -1, QStringLiteral("*seen*"));
        QVERIFY(seen);
        QCOMPARE(seen->result.values, QStringList{"0"});
        // ...and the condition the level waits on.
        const JobPtr condition = evalInFrame(debugger, -1, QStringLiteral("(simple-condition-format-control lisp-duet:*debugger-condition*)"));
        QVERIFY(condition);
        QCOMPARE(condition->result.values, QStringList{"\"zero\""});
        QVERIFY(choose(debugger, QStringLiteral("ABORT")));
        QCOMPARE(m_lisp->result("*seen*").values, QStringList{":UNSET"});
    }

    void theProjectsOwnCompiledCodeShowsItsFramesArgumentsAndLocals()
    {
        // ASDF compiles natively; at ECL's default policy that code leaves no frame. The
        // project's systems are compiled at (debug 3): their frames, arguments and locals show.
        QTemporaryDir root;
        QVERIFY(TestFiles::writeOneFileSystem(root.path(), QStringLiteral("ledger"),
                                              "(defpackage #:ledger (:use #:cl) (:export #:balance))\n"
                                              "(in-package #:ledger)\n"
                                              "(defun average (entries)\n"
                                              "  (let ((total (reduce #'+ entries)))\n"
                                              "    (/ total (length entries))))\n"
                                              "(defun balance (account)\n"
                                              "  (average (getf account :entries)))\n"));
        bool rooted = false;
        session().query(EngineProtocol::projectRoot(root.path()), [&](const QJsonObject &) { rooted = true; });
        QVERIFY(QTest::qWaitFor([&] { return rooted; }, 10000));
        const JobPtr loaded = m_lisp->run(EngineProtocol::systemLoad(QStringLiteral("ledger"), false, false), 120000);
        QVERIFY(loaded);
        QVERIFY2(loaded->result.ok(), qPrintable(loaded->result.error.message));

        const quint64 id = m_lisp->debugEval(QStringLiteral("(ledger:balance '(:owner \"ann\" :entries ()))"));
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        const QStringList texts = frameTexts(*debugger);
        const int average = int(texts.indexOf(QStringLiteral("(LEDGER::AVERAGE NIL)")));
        const int balance = int(texts.indexOf(QStringLiteral("(LEDGER:BALANCE (:OWNER \"ann\" :ENTRIES NIL))")));
        QVERIFY2(average >= 0 && balance == average + 1, qPrintable(texts.join(QStringLiteral(" | "))));
        QVERIFY(debugger->frames.at(average).localsAvailable);

        const EngineProtocol::FrameReply reply(frame(debugger, average));
        QVERIFY2(reply.ok(), qPrintable(reply.errorMessage()));
        QVERIFY(reply.localsAvailable());
        QCOMPARE(variables(reply.arguments()).value("LEDGER::ENTRIES"), QStringLiteral("NIL"));
        QCOMPARE(variables(reply.locals()).value("LEDGER::TOTAL"), QStringLiteral("0"));
        QVERIFY2(reply.note().toString().contains(QStringLiteral("does not change the running code")), qPrintable(reply.note().toString()));
        // Code in that frame is read in the file's package and sees the values.
        const JobPtr seen = evalInFrame(debugger, average, QStringLiteral("(list total entries)"));
        QVERIFY(seen);
        QCOMPARE(seen->result.values, QStringList{"(0 NIL)"});
        QVERIFY(choose(debugger, QStringLiteral("ABORT")));
        // Only the project's own: a library outside the root keeps ECL's default policy.
        QCOMPARE(m_lisp->result("(list (lisp-duet.kernel::project-component-p (asdf:find-system \"ledger\"))"
                                " (lisp-duet.kernel::project-component-p (asdf:find-system \"uiop\")))")
                     .values,
                 QStringList{"(T NIL)"});
    }

    void badRestartArgumentsAreRefusedAndTheDebuggerStaysOpen()
    {
        const quint64 id = m_lisp->debugEval(QStringLiteral("(let ((x 'a)) (check-type x integer) x)"));
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        const JobPtr missing = choose(debugger, QStringLiteral("STORE-VALUE"));
        QVERIFY(missing);
        QCOMPARE(missing->result.status, JobResult::Status::Failed);
        QVERIFY(missing->result.error.message.contains(QStringLiteral("exactly one value")));
        const JobPtr unreadable = choose(debugger, QStringLiteral("STORE-VALUE"), {QStringLiteral("(1 2")});
        QCOMPARE(unreadable->result.status, JobResult::Status::Failed);
        QVERIFY(unreadable->result.error.message.contains(QStringLiteral("does not read")));
        QString refusal;
        QCOMPARE(session().debugger()->invokeRestart(debugger->id, QStringLiteral("USE-VALUE"), {}, Origin::person(), &refusal), 0u);
        QVERIFY(refusal.contains(QStringLiteral("0 STORE-VALUE, 1 RETRY, 2 ABORT")));
        QVERIFY(debugger->isOpen());
        QVERIFY(choose(debugger, QStringLiteral("store-value"), {QStringLiteral("7")}));
        QCOMPARE(m_lisp->waitFor(id)->result.values, QStringList{"7"});
    }

    void codeEvaluatedInALevelMayContinueTheParkedJobItself()
    {
        const quint64 id = m_lisp->debugEval(QStringLiteral("(restart-case (error \"wait\") (use-value (v) (list :got v)))"));
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        const JobPtr leaving = m_lisp->eval(QStringLiteral("(invoke-restart 'use-value 9)"));
        QVERIFY(leaving);
        QCOMPARE(leaving->result.error.type, QStringLiteral("LISP-DUET:UNWOUND"));
        QCOMPARE(m_lisp->waitFor(id)->result.values, QStringList{"(:GOT 9)"});
        QCOMPARE(debugger->state, Debugger::State::Continued);
        QVERIFY(debugger->choice.restart.isEmpty());
        QCOMPARE(m_lisp->result("(+ 2 2)").values, QStringList{"4"});
    }

    void aRestartWhoseFunctionReturnsLeavesTheJobParkedAndSaysSo()
    {
        const quint64 id = m_lisp->debugEval(QStringLiteral(
            "(restart-bind ((look (lambda () (princ :looked)) :report-function (lambda (s) (princ \"Look only.\" s)))) (error \"stay\"))"));
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        QCOMPARE(debugger->restarts.first().name, QStringLiteral("LOOK"));
        QSignalSpy stayed(session().debugger(), &SessionDebugger::restartDidNotLeave);
        QVERIFY(choose(debugger, QStringLiteral("LOOK")));
        QVERIFY(stayed.size() == 1 || stayed.wait(10000));
        QVERIFY(debugger->isOpen());
        QCOMPARE(debugger->notice, QStringLiteral("LOOK returned without leaving the level."));
        // The session serves again, and the debugger still answers.
        QCOMPARE(m_lisp->result("(+ 1 1)").values, QStringList{"2"});
        QVERIFY(choose(debugger, QStringLiteral("ABORT")));
        QCOMPARE(m_lisp->waitFor(id)->result.error.message, QStringLiteral("stay"));
    }

    void interruptWithDebuggingParksABreakThatContinueResumes()
    {
        QVERIFY(m_lisp->result("(defvar *k* 0) (defun spin () (let ((k 0)) (loop (incf k) (setf *k* k))))").ok());
        const quint64 id = m_lisp->debugEval(QStringLiteral("(spin)"));
        QVERIFY(QTest::qWaitFor([&] { return session().current() && session().current()->id == id; }, 10000));
        QTest::qWait(200);
        session().interruptCurrent();
        const DebuggerPtr debugger = m_lisp->waitParked(id);
        QVERIFY(debugger);
        QVERIFY(debugger->isBreak);
        QCOMPARE(debugger->conditionType, QStringLiteral("LISP-DUET:EVALUATION-INTERRUPTED"));
        QVERIFY(debugger->message.startsWith(QStringLiteral("The person interrupted this evaluation")));
        QCOMPARE(restartNames(*debugger).first(), QStringLiteral("CONTINUE"));
        QCOMPARE(frameTexts(*debugger), QStringList{"(SPIN)"});
        const auto locals = variables(EngineProtocol::FrameReply(frame(debugger, 0)).locals());
        const qint64 k = locals.value("K").toLongLong();
        QVERIFY(k > 0);
        QVERIFY(choose(debugger, QStringLiteral("CONTINUE")));
        QTest::qWait(200);
        QCOMPARE(session().job(id)->state, Job::State::Running);
        // It went on from where it was: the counter is past the value the frame showed.
        QVERIFY(m_lisp->parkings.value(id).size() == 1);
        session().interruptCurrent();
        const DebuggerPtr again = m_lisp->waitParked(id, 2);
        QVERIFY(again);
        QVERIFY(variables(EngineProtocol::FrameReply(frame(again, 0)).locals()).value("K").toLongLong() > k);
        QVERIFY(choose(again, QStringLiteral("ABORT")));
        QCOMPARE(m_lisp->waitFor(id)->result.status, JobResult::Status::Interrupted);
    }
};

QTEST_GUILESS_MAIN(TestDebugger)
#include "tst_debugger.moc"
