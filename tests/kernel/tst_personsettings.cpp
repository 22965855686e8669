// No setting of the person's kills the session (issue 41): *BREAK-ON-SIGNALS*, debugger hooks
// of their own that return, *STANDARD-INPUT* rebound, printer variables at values no printer
// can use. Every evaluation answers, or parks when it asked for the debugger; ECL's terminal
// debugger (which read /dev/null and printed banners until the host killed the engine) is
// never reached. The kernel's own threads and ECL's compiler keep the standard printer.

#include "../common/EngineHarness.h"
#include "../common/TestFiles.h"

#include "client/EngineProtocol.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

class TestPersonSettings : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> m_lisp;

    JobResult eval(const QString &code, int ms = 20000) { return m_lisp->result(code, QString(), ms); }

    // A fresh engine for each test: the settings are global.
    void fresh()
    {
        m_lisp = std::make_unique<EngineHarness>();
        QVERIFY2(m_lisp->waitReady(), "the engine did not start");
    }

    void verifyServing()
    {
        QCOMPARE(eval(QStringLiteral("(+ 1 2)")).values, QStringList{"3"});
        const QJsonObject reply = m_lisp->ask(EngineProtocol::definitions(), 10000);
        QVERIFY2(EngineProtocol::Reply(reply).ok(), qPrintable(QJsonDocument(reply).toJson()));
    }

private Q_SLOTS:
    void init() { fresh(); }
    void cleanup() { m_lisp.reset(); }

    void breakOnSignalsErrorAnswersWithTheError()
    {
        QVERIFY(eval(QStringLiteral("(setf *break-on-signals* 'error)")).ok());
        QElapsedTimer clock;
        clock.start();
        JobRequest agent;
        agent.code = QStringLiteral("(car 5)");
        agent.origin = Origin::agent(QStringLiteral("claude-code"), QStringLiteral("claude-code-1"));
        const JobPtr failed = m_lisp->run(agent, 20000);
        QVERIFY2(failed, "the evaluation did not answer");
        QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(failed->result.status, JobResult::Status::Error);
        QCOMPARE(failed->result.error.type, QStringLiteral("SIMPLE-TYPE-ERROR"));
        QVERIFY2(failed->result.warnings.join(QLatin1Char(' ')).contains(QLatin1String("*BREAK-ON-SIGNALS* (ERROR)")),
                 qPrintable(failed->result.warnings.join(QLatin1Char(' '))));
        QVERIFY(!failed->result.stderrText.contains(QLatin1String("Return from BREAK")));
        // Handled errors and warnings go on as before.
        QCOMPARE(eval(QStringLiteral("(ignore-errors (error \"handled\"))")).values.value(0), QStringLiteral("NIL"));
        QVERIFY(eval(QStringLiteral("(setf *break-on-signals* t)")).ok());
        QVERIFY(eval(QStringLiteral("(warn \"noted\")")).ok());
        QVERIFY(eval(QStringLiteral("(defun bos-f (x) (* x 2)) (defmethod bos-m ((x integer)) x)")).ok());
        verifyServing();
    }

    void breakOnSignalsWithTheDebuggerParksAtTheBreak()
    {
        QVERIFY(eval(QStringLiteral("(setf *break-on-signals* 'error)")).ok());
        const quint64 id = m_lisp->debugEval(QStringLiteral("(car 6)"));
        const DebuggerPtr broke = m_lisp->waitParked(id);
        QVERIFY(broke);
        QVERIFY2(broke->message.contains(QLatin1String("*BREAK-ON-SIGNALS*")), qPrintable(broke->message));
        QString refusal;
        // CONTINUE returns from the break: the error itself then parks one level up.
        const quint64 go = m_lisp->session.debugger()->invokeRestart(broke->id, QStringLiteral("CONTINUE"), {}, Origin::person(), &refusal);
        QVERIFY2(go, qPrintable(refusal));
        const DebuggerPtr error = m_lisp->waitParked(id, 2);
        QVERIFY(error);
        QVERIFY2(error->message.contains(QLatin1String("CONS")), qPrintable(error->message));
        const quint64 abort = m_lisp->session.debugger()->invokeRestart(error->id, QStringLiteral("ABORT"), {}, Origin::person(), &refusal);
        QVERIFY2(abort, qPrintable(refusal));
        QVERIFY(m_lisp->waitFor(id));
        QVERIFY(eval(QStringLiteral("(setf *break-on-signals* nil)")).ok());
        verifyServing();
    }

    void debuggerHooksOfThePersonsThatReturnNeverReachECLsDebugger()
    {
        QVERIFY(eval(QStringLiteral("(setf ext:*invoke-debugger-hook* (lambda (c h) (declare (ignore c h)) :returned)"
                                    "      *debugger-hook* (lambda (c h) (declare (ignore c h)) :returned))")).ok());
        QElapsedTimer clock;
        clock.start();
        const JobResult broke = eval(QStringLiteral("(break)"));
        QCOMPARE(broke.status, JobResult::Status::Error);
        QCOMPARE(broke.error.type, QStringLiteral("LISP-DUET:DEBUGGER-UNAVAILABLE"));
        QVERIFY2(!broke.stderrText.contains(QLatin1String("Available restarts")), qPrintable(broke.stderrText));
        QCOMPARE(eval(QStringLiteral("(error \"plain\")")).error.message, QStringLiteral("plain"));
        QCOMPARE(eval(QStringLiteral("(invoke-debugger (make-condition 'simple-error :format-control \"direct\"))")).status, JobResult::Status::Error);
        QVERIFY(clock.elapsed() < 10000);
        // Off entirely: the same.
        QVERIFY(eval(QStringLiteral("(setf ext:*invoke-debugger-hook* nil *debugger-hook* nil)")).ok());
        QCOMPARE(eval(QStringLiteral("(break)")).status, JobResult::Status::Error);
        // A job that asked for the debugger still parks.
        const quint64 id = m_lisp->debugEval(QStringLiteral("(error \"park me\")"));
        const DebuggerPtr parked = m_lisp->waitParked(id);
        QVERIFY(parked);
        QString refusal;
        const quint64 abort = m_lisp->session.debugger()->invokeRestart(parked->id, QStringLiteral("ABORT"), {}, Origin::person(), &refusal);
        QVERIFY2(abort, qPrintable(refusal));
        QVERIFY(m_lisp->waitFor(id));
        verifyServing();
    }

    void aReboundStandardInputIsNotADebugger()
    {
        QVERIFY(eval(QStringLiteral("(setf *standard-input* (make-string-input-stream \":q\n(ext:quit)\n\")"
                                    "      *debug-io* (make-two-way-stream *standard-input* *standard-output*)"
                                    "      *terminal-io* *debug-io* ext:*invoke-debugger-hook* nil *debugger-hook* nil)")).ok());
        QCOMPARE(eval(QStringLiteral("(break)")).status, JobResult::Status::Error);
        QCOMPARE(eval(QStringLiteral("(error \"e\")")).status, JobResult::Status::Error);
        QCOMPARE(eval(QStringLiteral("(let ((*standard-input* (make-string-input-stream \"42\"))) (read))")).values, QStringList{"42"});
        verifyServing();
    }

    void printerSettingsNoPrinterCanUseStillAnswer()
    {
        QVERIFY(eval(QStringLiteral("(defun ps-list (x) (list x 15 1.5 'sym \"s\"))")).ok());
        QVERIFY(eval(QStringLiteral("(setf *print-base* 37 *print-lines* 0 *print-right-margin* -5 *print-miser-width* -1"
                                    "      *print-length* -1 *print-level* 'x *print-circle* :maybe *print-case* :bogus)")).ok());
        const JobResult listed = eval(QStringLiteral("(ps-list 7)"));
        QVERIFY2(listed.ok(), qPrintable(listed.error.message));
        QCOMPARE(listed.values, QStringList{"(7 15 1.5 SYM \"s\")"});
        QCOMPARE(eval(QStringLiteral("(car 5)")).error.type, QStringLiteral("SIMPLE-TYPE-ERROR"));
        verifyServing();
        // The background compiler writes its constants with the standard printer.
        QVERIFY(eval(QStringLiteral("(setf *print-base* 7 *print-lines* nil *print-right-margin* nil *print-miser-width* nil"
                                    "      *print-length* nil *print-level* nil *print-circle* nil *print-case* :downcase"
                                    "      *read-default-float-format* 'double-float)"
                                    "(defun ps-constant () (list 15 1.5f0 'sym))")).ok());
        const JobPtr settled = m_lisp->run(EngineProtocol::nativeSettling(60000), 90000);
        QVERIFY(settled && settled->result.reply.value(QStringLiteral("settled")).toBool());
        QCOMPARE(eval(QStringLiteral("(if (lisp-duet.kernel::bytecoded-p #'ps-constant) :interpreted :native)")).values,
                 QStringList{":native"});
        QVERIFY(eval(QStringLiteral("(setf *print-base* 10 *print-case* :upcase *read-default-float-format* 'single-float)")).ok());
        QCOMPARE(eval(QStringLiteral("(ps-constant)")).values, QStringList{"(15 1.5 SYM)"});
    }

    void anInitFileThatBreaksOnSignalsIsNamedAndErrorsStillAnswer()
    {
        QTemporaryDir home;
        const QString file = home.filePath(QStringLiteral("init.lisp"));
        QVERIFY(TestFiles::write(file, "(setf *break-on-signals* 'error)\n"));
        JobRequest request = EngineProtocol::initFileLoad(file, 10000);
        request.origin = Origin::system(QStringLiteral("Lisp Duet"));
        const JobPtr loaded = m_lisp->run(request);
        QVERIFY(loaded && loaded->result.ok());
        const QJsonArray changed = loaded->result.reply.value(QStringLiteral("changed_settings")).toArray();
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.at(0).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("*BREAK-ON-SIGNALS*"));
        QCOMPARE(changed.at(0).toObject().value(QStringLiteral("value")).toString(), QStringLiteral("ERROR"));
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(eval(QStringLiteral("(/ 1 0)")).error.type, QStringLiteral("DIVISION-BY-ZERO"));
        QVERIFY(clock.elapsed() < 10000);
        verifyServing();
    }
};

QTEST_GUILESS_MAIN(TestPersonSettings)
#include "tst_personsettings.moc"
