// evaluate-lisp as seeds 000, 001 and 003 specify it, checked on the fields of JobResult,
// against the real lisp-duet-engine process through EngineClient and Session.
// Where ECL answers differently from the SBCL of the seeds, the rows assert ECL's honest
// answer; engine/README.md lists those differences.

#include "../common/EngineHarness.h"

#include <QRegularExpression>
#include <QTest>

class TestEvaluate : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> m_lisp;

private Q_SLOTS:
    void init()
    {
        // A fresh engine for every test: the seeds reuse names such as FOO for different things.
        m_lisp = std::make_unique<EngineHarness>();
        QVERIFY2(m_lisp->waitReady(), "the engine did not start");
    }
    void cleanup() { m_lisp.reset(); }

    void examplesGiveTheirValuesAndOutput_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QStringList>("values");
        QTest::addColumn<QString>("out");
        QTest::addColumn<QString>("err");

        const QStringList none;
        // seed 000
        QTest::newRow("000 a sum of three") << "(+ 1 2 3)" << QStringList{"6"} << "" << "";
        QTest::newRow("000 mapcar") << "(mapcar #'1+ '(1 2 3))" << QStringList{"(2 3 4)"} << "" << "";
        QTest::newRow("000 a definition and its use") << "(defun foo (x) (* x 2))\n(foo 21)" << QStringList{"42"} << "" << "";
        QTest::newRow("000 simple value") << "(+ 1 2)" << QStringList{"3"} << "" << "";
        QTest::newRow("000 print then a value") << "(progn (print 'hello) 42)" << QStringList{"42"} << "\nHELLO " << "";
        QTest::newRow("000 multiple values") << "(floor 17 5)" << QStringList{"3", "2"} << "" << "";
        QTest::newRow("000 stdout and stderr")
            << "(progn (format t \"Output~%\") (format *error-output* \"Error~%\") 42)" << QStringList{"42"} << "Output\n" << "Error\n";
        QTest::newRow("000 several forms, the last one's value") << "(setf x 10) (setf y 20) (+ x y)" << QStringList{"30"} << "" << "";
        QTest::newRow("000 circular list") << "(let ((x (list 1 2 3))) (setf (cdddr x) x) x)" << QStringList{"#1=(1 2 3 . #1#)"} << "" << "";
        // seed 001
        QTest::newRow("001 sum") << "(+ 1 2 3)" << QStringList{"6"} << "" << "";
        QTest::newRow("001 two values") << "(floor 10 3)" << QStringList{"3", "1"} << "" << "";
        QTest::newRow("001 output on both streams")
            << "(progn (format t \"Hello, World!~%\") (format *error-output* \"Warning: deprecated function~%\") nil)"
            << QStringList{"NIL"} << "Hello, World!\n" << "Warning: deprecated function\n";
        // seed 003
        QTest::newRow("003 simple expression") << "(+ 1 2 3)" << QStringList{"6"} << "" << "";
        QTest::newRow("003 multiple values") << "(floor 17 5)" << QStringList{"3", "2"} << "" << "";
        QTest::newRow("003 NIL") << "(member 'x '(a b c))" << QStringList{"NIL"} << "" << "";
        QTest::newRow("003 multiple forms") << "(+ 1 1) (+ 2 2) (+ 3 3)" << QStringList{"6"} << "" << "";
        QTest::newRow("003 stdout") << "(format t \"Hello, World!~%\") 42" << QStringList{"42"} << "Hello, World!\n" << "";
        QTest::newRow("003 stderr") << "(format *error-output* \"Error message~%\") :ok" << QStringList{":OK"} << "" << "Error message\n";
        QTest::newRow("003 print twice") << "(print 'hello) (print 'world)" << QStringList{"WORLD"} << "\nHELLO \nWORLD " << "";
        QTest::newRow("003 format-result with output") << "(format t \"hello~%\") 42" << QStringList{"42"} << "hello\n" << "";
        // beyond the seeds
        QTest::newRow("no values at all") << "(values)" << none << "" << "";
        QTest::newRow("a string value is printed readably") << "(format nil \"a~Ab\" #\\\")" << QStringList{"\"a\\\"b\""} << "" << "";
        QTest::newRow("whitespace and newlines around forms") << "\n  (+ 1\n 2)  \n\n" << QStringList{"3"} << "" << "";
        QTest::newRow("only a comment") << "; nothing here\n" << none << "" << "";
        // CL's CHAR-UPCASE maps one character to one: ß has no single upper-case letter.
        QTest::newRow("unicode survives the round trip") << "(string-upcase \"grüße ✓\")" << QStringList{"\"GRÜßE ✓\""} << "" << "";
    }
    void examplesGiveTheirValuesAndOutput()
    {
        QFETCH(QString, code);
        QFETCH(QStringList, values);
        QFETCH(QString, out);
        QFETCH(QString, err);
        const JobResult result = m_lisp->result(code);
        QVERIFY2(result.ok(), qPrintable(result.error.type + QLatin1Char(' ') + result.error.message));
        QCOMPARE(result.values, values);
        QCOMPARE(result.stdoutText, out);
        QCOMPARE(result.stderrText, err);
        QCOMPARE(result.warnings, QStringList());
        QCOMPARE(result.package, QStringLiteral("COMMON-LISP-USER"));
    }

    void errorsNameTheirConditionMessageAndFrames_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QStringList>("backtrace");

        QTest::newRow("000 division by zero")
            << "(/ 1 0)" << "DIVISION-BY-ZERO" << "arithmetic error DIVISION-BY-ZERO signalled\nOperation was (/ 1 0)."
            << QStringList{"0: (/ 1 0)"};
        // ECL prints the name relative to the session package, and its CAR wants a CONS.
        QTest::newRow("000 undefined function")
            << "(foo 42)" << "UNDEFINED-FUNCTION" << "The function FOO is undefined." << QStringList{"0: (FOO ...)"};
        QTest::newRow("000 type error")
            << "(car 42)" << "SIMPLE-TYPE-ERROR" << "The value 42 is not of type CONS.\nIn function CAR, the value of the only argument."
            << QStringList{"0: (CAR 42)"};
        QTest::newRow("001 undefined function without arguments")
            << "(nonexistent-function)" << "UNDEFINED-FUNCTION" << "The function NONEXISTENT-FUNCTION is undefined."
            << QStringList{"0: (NONEXISTENT-FUNCTION ...)"};
        QTest::newRow("003 undefined function")
            << "(this-function-does-not-exist-12345)" << "UNDEFINED-FUNCTION"
            << "The function THIS-FUNCTION-DOES-NOT-EXIST-12345 is undefined." << QStringList{"0: (THIS-FUNCTION-DOES-NOT-EXIST-12345 ...)"};
        QTest::newRow("003 type error")
            << "(+ 1 \"not a number\")" << "SIMPLE-TYPE-ERROR"
            << "The value \"not a number\" is not of type NUMBER.\nIn function +, the value of the second argument." << QStringList{"0: (+ ...)"};
        QTest::newRow("003 a plain error") << "(error \"test\")" << "SIMPLE-ERROR" << "test" << QStringList();
        QTest::newRow("an error inside user functions shows their frames with arguments")
            << "(defun inner (x) (/ x 0)) (defun outer (y) (inner (* 2 y))) (outer 5)" << "DIVISION-BY-ZERO"
            << "arithmetic error DIVISION-BY-ZERO signalled\nOperation was (/ 10 0)."
            << QStringList{"0: (/ 10 0)", "1: (INNER 10)", "2: (OUTER 5)"};
        QTest::newRow("an unbound variable") << "(+ 1 no-such-variable)" << "UNBOUND-VARIABLE"
                                             << "The variable NO-SUCH-VARIABLE is unbound." << QStringList();
        QTest::newRow("a user-defined condition keeps its report")
            << "(define-condition oops (error) () (:report \"Oops, it broke.\")) (error 'oops)" << "OOPS" << "Oops, it broke." << QStringList();
    }
    void errorsNameTheirConditionMessageAndFrames()
    {
        QFETCH(QString, code);
        QFETCH(QString, type);
        QFETCH(QString, message);
        QFETCH(QStringList, backtrace);
        const JobResult result = m_lisp->result(code);
        QCOMPARE(result.status, JobResult::Status::Error);
        QCOMPARE(result.error.type, type);
        QCOMPARE(result.error.message, message);
        QCOMPARE(result.error.phase, QStringLiteral("eval"));
        QCOMPARE(result.error.backtrace, backtrace);
        QVERIFY(result.values.isEmpty());
    }

    void aReaderErrorNamesTheProblem()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(+ 1 2"));
        QCOMPARE(result.status, JobResult::Status::Error);
        QCOMPARE(result.error.type, QStringLiteral("END-OF-FILE"));
        QCOMPARE(result.error.phase, QStringLiteral("read"));
        // The reader's stream object (with its address) tells nobody anything; where the
        // unfinished form starts does.
        QCOMPARE(result.error.message, QStringLiteral("The code ends before the form that starts at line 1, column 1 is complete: "
                                                      "a parenthesis, string or #| comment is not closed."));
    }

    void aReaderErrorInALaterFormKeepsTheEarlierFormsEffects()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(defvar *before* 1)\n(print 'read-ok)\n  (oops"));
        QCOMPARE(result.status, JobResult::Status::Error);
        QCOMPARE(result.error.phase, QStringLiteral("read"));
        QVERIFY2(result.error.message.contains(QStringLiteral("line 3, column 3")), qPrintable(result.error.message));
        QCOMPARE(result.stdoutText, QStringLiteral("\nREAD-OK "));
        QCOMPARE(m_lisp->result(QStringLiteral("*before*")).values, QStringList{"1"});
    }

    void anUnknownReaderSyntaxIsAReaderError()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(list 1 #<)"));
        QCOMPARE(result.status, JobResult::Status::Error);
        QCOMPARE(result.error.phase, QStringLiteral("read"));
        QVERIFY2(result.error.type.contains(QStringLiteral("READER-ERROR")), qPrintable(result.error.type));
    }

    void outputBeforeAnErrorIsKept()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(print 'before-error) (format *error-output* \"err-before\") (error \"boom\")"));
        QCOMPARE(result.status, JobResult::Status::Error);
        QCOMPARE(result.error.type, QStringLiteral("SIMPLE-ERROR"));
        QCOMPARE(result.error.message, QStringLiteral("boom"));
        QCOMPARE(result.stdoutText, QStringLiteral("\nBEFORE-ERROR "));
        QCOMPARE(result.stderrText, QStringLiteral("err-before"));
    }

    void oneWarningIsRecordedAndMuffled()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(warn \"Test warning\") 42"));
        QVERIFY(result.ok());
        QCOMPARE(result.values, QStringList{"42"});
        QCOMPARE(result.warnings, QStringList{"SIMPLE-WARNING: Test warning"});
        QCOMPARE(result.stderrText, QString()); // muffled: not printed as well
    }

    void twoWarningsAreRecordedInOrder()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(warn \"First\") (warn \"Second\") :done"));
        QVERIFY(result.ok());
        QCOMPARE(result.values, QStringList{":DONE"});
        QCOMPARE(result.warnings, (QStringList{"SIMPLE-WARNING: First", "SIMPLE-WARNING: Second"}));
    }

    void warningsBeforeAnErrorAreKept()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(warn \"careful\") (error \"then it broke\")"));
        QCOMPARE(result.status, JobResult::Status::Error);
        QCOMPARE(result.warnings, QStringList{"SIMPLE-WARNING: careful"});
    }

    void anUnusedVariableGivesAStyleWarning()
    {
        // Seed 000's example. ECL's own evaluator is silent about it; the kernel's lint reports it.
        const JobResult result = m_lisp->result(QStringLiteral("(defun foo () (let ((x 10))))"));
        QVERIFY(result.ok());
        QCOMPARE(result.values, QStringList{"FOO"});
        QCOMPARE(result.warnings, QStringList{"STYLE-WARNING: The variable X is defined but never used."});
    }

    void definitionsPersistBetweenEvaluations()
    {
        QCOMPARE(m_lisp->result(QStringLiteral("(defun square (x) (* x x))")).values, QStringList{"SQUARE"});
        QCOMPARE(m_lisp->result(QStringLiteral("(square 7)")).values, QStringList{"49"});
        QCOMPARE(m_lisp->result(QStringLiteral("(defvar *counter* 0) (defparameter *step* 5) (setf *global* 1)")).values, QStringList{"1"});
        QCOMPARE(m_lisp->result(QStringLiteral("(incf *counter* *step*)")).values, QStringList{"5"});
        QCOMPARE(m_lisp->result(QStringLiteral("(list *counter* *global*)")).values, QStringList{"(5 1)"});
        QCOMPARE(m_lisp->result(QStringLiteral("(defclass point () ((x :initarg :x :reader point-x)))")).ok(), true);
        QCOMPARE(m_lisp->result(QStringLiteral("(defstruct pair a b)")).values, QStringList{"PAIR"});
        QCOMPARE(m_lisp->result(QStringLiteral("(defmethod describe-it ((p point)) (list :point (point-x p)))")).ok(), true);
        QCOMPARE(m_lisp->result(QStringLiteral("(list (describe-it (make-instance 'point :x 3)) (pair-b (make-pair :a 1 :b 2)))")).values,
                 QStringList{"((:POINT 3) 2)"});
    }

    void localAndDynamicBindingsDoNotPersist()
    {
        QVERIFY(m_lisp->result(QStringLiteral("(defvar *dyn* :global)")).ok());
        QCOMPARE(m_lisp->result(QStringLiteral("(let ((*dyn* :local) (lexical 1)) (list *dyn* lexical))")).values, QStringList{"(:LOCAL 1)"});
        QCOMPARE(m_lisp->result(QStringLiteral("*dyn*")).values, QStringList{":GLOBAL"});
        QCOMPARE(m_lisp->result(QStringLiteral("(boundp 'lexical)")).values, QStringList{"NIL"});
    }

    void inPackagePersistsIntoLaterEvaluations()
    {
        const JobResult made = m_lisp->result(QStringLiteral("(defpackage :my-package (:use :cl)) (in-package :my-package)"));
        QVERIFY(made.ok());
        QCOMPARE(made.package, QStringLiteral("MY-PACKAGE"));
        QCOMPARE(m_lisp->session.currentPackage(), QStringLiteral("MY-PACKAGE"));
        QCOMPARE(m_lisp->result(QStringLiteral("(defun foo () :mine)")).values, QStringList{"FOO"});
        const JobResult where = m_lisp->result(QStringLiteral("(list (package-name *package*) (symbol-package 'foo))"));
        QCOMPARE(where.values, QStringList{"(\"MY-PACKAGE\" #<\"MY-PACKAGE\" package>)"});
        QCOMPARE(m_lisp->result(QStringLiteral("(my-package::foo)"), QStringLiteral("CL-USER")).values, QStringList{":MINE"});
        // A package argument binds *package* for that evaluation only.
        QCOMPARE(m_lisp->session.currentPackage(), QStringLiteral("MY-PACKAGE"));
        QVERIFY(m_lisp->result(QStringLiteral("(in-package :cl-user)")).ok());
        QCOMPARE(m_lisp->session.currentPackage(), QStringLiteral("COMMON-LISP-USER"));
    }

    void inPackageWithAPackageArgumentPersistsToo()
    {
        // Seed 000: {"code": "(in-package :my-package)", "package": "CL-USER"}, then MY-PACKAGE code.
        QVERIFY(m_lisp->result(QStringLiteral("(defpackage :my-package (:use :cl))")).ok());
        QCOMPARE(m_lisp->result(QStringLiteral("(in-package :my-package)"), QStringLiteral("CL-USER")).package, QStringLiteral("MY-PACKAGE"));
        const JobResult defined = m_lisp->result(QStringLiteral("(defun foo () (package-name *package*))"), QStringLiteral("MY-PACKAGE"));
        QCOMPARE(defined.values, QStringList{"FOO"});
        QCOMPARE(m_lisp->result(QStringLiteral("(foo)")).values, QStringList{"\"MY-PACKAGE\""});
    }

    void thePackageArgumentIsCaseInsensitive_data()
    {
        QTest::addColumn<QString>("package");
        QTest::addColumn<QString>("expected");
        QTest::newRow("upper case") << "CL-USER" << "COMMON-LISP-USER";
        QTest::newRow("lower case") << "cl-user" << "COMMON-LISP-USER";
        QTest::newRow("mixed case") << "Cl-User" << "COMMON-LISP-USER";
        QTest::newRow("full name, lower case") << "common-lisp-user" << "COMMON-LISP-USER";
        QTest::newRow("keyword") << "keyword" << "KEYWORD";
    }
    void thePackageArgumentIsCaseInsensitive()
    {
        QFETCH(QString, package);
        QFETCH(QString, expected);
        // Fully qualified: in KEYWORD, a bare PACKAGE-NAME would read as a keyword.
        const JobResult result = m_lisp->result(QStringLiteral("(cl:package-name cl:*package*)"), package);
        QVERIFY2(result.ok(), qPrintable(result.error.message));
        QCOMPARE(result.values, QStringList{QLatin1Char('"') + expected + QLatin1Char('"')});
    }

    void anUnknownPackageIsAPackageError()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(+ 1 2)"), QStringLiteral("no-such-package"));
        QCOMPARE(result.status, JobResult::Status::Error);
        QCOMPARE(result.error.type, QStringLiteral("PACKAGE-ERROR"));
        QVERIFY2(result.error.message.contains(QStringLiteral("\"no-such-package\" does not exist")), qPrintable(result.error.message));
        QVERIFY(result.values.isEmpty());
        QCOMPARE(m_lisp->session.currentPackage(), QStringLiteral("COMMON-LISP-USER"));
    }

    void aLongListIsCutAfterAHundredElements()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(make-list 200)"));
        QVERIFY(result.ok());
        QCOMPARE(result.values.size(), 1);
        const QString value = result.values.first();
        QVERIFY2(value.startsWith(QStringLiteral("(NIL NIL")), qPrintable(value));
        QVERIFY2(value.endsWith(QStringLiteral(" NIL ...)")), qPrintable(value));
        QCOMPARE(value.count(QStringLiteral("NIL")), 100);
    }

    void deepNestingIsCutAtLevelTen()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(let ((x 0)) (dotimes (i 15 x) (setf x (list x))))"));
        QVERIFY(result.ok());
        QCOMPARE(result.values, QStringList{QString(10, QLatin1Char('(')) + QStringLiteral("#") + QString(10, QLatin1Char(')'))});
    }

    void aCircularListPrintsWithLabels()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(let ((x (list 1 2 3))) (setf (cdddr x) x) x)"));
        QVERIFY(result.ok());
        QCOMPARE(result.values, QStringList{"#1=(1 2 3 . #1#)"});
    }

    void sharedStructureInSeveralValuesIsPrintedPerValue()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(let ((x (list 1 2))) (values (list x x) x))"));
        QVERIFY(result.ok());
        QCOMPARE(result.values, (QStringList{"(#1=(1 2) #1#)", "(1 2)"}));
    }

    void traceOutputGoesToStderr()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(defun sq (x) (* x x)) (trace sq) (sq 3)"));
        QVERIFY2(result.ok(), qPrintable(result.error.message));
        QCOMPARE(result.values, QStringList{"9"});
        QCOMPARE(result.stdoutText, QString());
        QVERIFY2(result.stderrText.contains(QStringLiteral("(SQ 3)")) && result.stderrText.contains(QStringLiteral("(SQ 9)")),
                 qPrintable(result.stderrText));
        const JobResult timed = m_lisp->result(QStringLiteral("(untrace sq) (time (sq 4))"));
        QCOMPARE(timed.values, QStringList{"16"});
        QVERIFY2(timed.stderrText.contains(QStringLiteral("real time")), qPrintable(timed.stderrText));
        QCOMPARE(timed.stdoutText, QString());
    }

    // The captures are C streams (engine/kernel/OutputStreams.cpp): every way of writing goes
    // through their two write operations, and FRESH-LINE reads the column they keep.
    void everyWayOfWritingIsCaptured()
    {
        const JobResult result = m_lisp->result(QStringLiteral(
            "(write-char #\\a) (write-string \"xbcx\" *standard-output* :start 1 :end 3) (fresh-line) (fresh-line)"
            " (format t \"~&grüße ✓~%\") (write-sequence (vector #\\d #\\e) *standard-output*) (terpri)"
            " (write-line \"err\" *error-output*) (princ 42 *trace-output*) (values)"));
        QVERIFY2(result.ok(), qPrintable(result.error.message));
        QCOMPARE(result.stdoutText, QStringLiteral("abc\ngrüße ✓\nde\n"));
        QCOMPARE(result.stderrText, QStringLiteral("err\n42"));
    }

    // The engine's JSON writer (JsonWriter.cpp) escapes control characters and encodes every
    // character as UTF-8, from Lisp strings straight.
    void controlAndAstralCharactersSurviveTheJson()
    {
        const JobResult result = m_lisp->result(QStringLiteral(
            "(write-char (code-char 1)) (write-string \"\\\"é✓😀\") (format nil \"a~Cb\" (code-char 0))"));
        QVERIFY2(result.ok(), qPrintable(result.error.message));
        QCOMPARE(result.stdoutText, QStringLiteral("\x01\"é✓😀"));
        QCOMPARE(result.values, QStringList{QStringLiteral("\"a") + QChar(0) + QStringLiteral("b\"")});
    }

    // The worker reuses its captures job after job; code that closes one gets new ones next.
    void closingTheStandardStreamsBreaksNoLaterEvaluation()
    {
        QVERIFY(m_lisp->result(QStringLiteral("(close *standard-output*) (close *error-output*)")).ok());
        const JobResult after = m_lisp->result(QStringLiteral("(format t \"out~%\") (format *error-output* \"err~%\") 42"));
        QVERIFY2(after.ok(), qPrintable(after.error.type + QLatin1Char(' ') + after.error.message));
        QCOMPARE(after.stdoutText, QStringLiteral("out\n"));
        QCOMPARE(after.stderrText, QStringLiteral("err\n"));
        QCOMPARE(after.values, QStringList{"42"});
    }

    // ECL 21.2's weak tables never release anything, so the registry of result ids counts: the
    // newest 200 results stay inspectable, older ones are forgotten (and their memory freed).
    void theResultRegistryKeepsTheNewestResultsOnly()
    {
        const auto resultId = [this](const QString &code) {
            const JobResult result = m_lisp->result(code);
            return result.reply.value(QStringLiteral("result_id")).toString();
        };
        const auto inspect = [this](const QString &id) {
            QJsonObject reply;
            m_lisp->session.query(EngineProtocol::inspection(id, 0, 10), [&reply](const QJsonObject &json) { reply = json; });
            (void)QTest::qWaitFor([&reply] { return !reply.isEmpty(); }, 30000);
            return reply;
        };
        const QString oldest = resultId(QStringLiteral("(list :oldest)"));
        QVERIFY(!oldest.isEmpty());
        QString newest;
        for (int i = 0; i < 200; ++i)
            newest = resultId(QStringLiteral("(list %1)").arg(i));
        QCOMPARE(inspect(newest).value(QStringLiteral("found")).toBool(), true);
        const QJsonObject expired = inspect(oldest);
        QCOMPARE(expired.value(QStringLiteral("found")).toBool(true), false);
        QVERIFY2(expired.value(QStringLiteral("message")).toString().contains(QStringLiteral("expired")),
                 qPrintable(expired.value(QStringLiteral("message")).toString()));
    }

    void theEvaluationReportsItsTimes()
    {
        const JobResult result = m_lisp->result(QStringLiteral("(sleep 0.2)"));
        QVERIFY(result.ok());
        QVERIFY2(result.realMicroseconds >= 200000, qPrintable(QString::number(result.realMicroseconds)));
        QVERIFY(result.runMicroseconds >= 0);
    }
};

QTEST_GUILESS_MAIN(TestEvaluate)
#include "tst_evaluate.moc"
