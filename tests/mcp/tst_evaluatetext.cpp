// The text of evaluate-lisp results (EvalFormatter::text over real engine results): the
// seeds' own examples checked literally, and every case compared with a golden file in
// tests/mcp/golden/<case>.txt. After a deliberate change, tests/refresh-golden.sh rewrites
// the golden files; review the diff before committing it.

#include "../common/EngineHarness.h"

#include "tools/EvalFormatter.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include "../common/GoldenFile.h"

namespace {
struct Case
{
    const char *name;
    const char *code;
    const char *package = "";
    int maxOutputChars = 0; // 0: the default
    int timeoutMs = -1;
};

// Each runs in a fresh engine.
const Case Cases[] = {
    {"000-simple-value", "(+ 1 2)"},
    {"000-sum-of-three", "(+ 1 2 3)"},
    {"000-mapcar", "(mapcar #'1+ '(1 2 3))"},
    {"000-definition-then-call", "(defun foo (x) (* x 2))\n(foo 21)"},
    {"000-with-stdout", "(progn (print 'hello) 42)"},
    {"000-multiple-values", "(floor 17 5)"},
    {"000-with-warnings", "(defun foo () (let ((x 10))))"},
    {"000-division-by-zero", "(/ 1 0)"},
    {"000-undefined-function", "(foo 42)"},
    {"000-type-error", "(car 42)"},
    {"000-truncation", "(make-list 200)"},
    {"000-circular-list", "(let ((x (list 1 2 3))) (setf (cdddr x) x) x)"},
    {"000-stream-capture", "(progn (format t \"Output~%\") (format *error-output* \"Error~%\") 42)"},
    {"000-multiple-forms", "(setf x 10) (setf y 20) (+ x y)"},
    {"000-package-argument", "(package-name *package*)", "cl-user"},
    {"001-sum", "(+ 1 2 3)"},
    {"001-two-values", "(floor 10 3)"},
    {"001-output", "(progn (format t \"Hello, World!~%\") (format *error-output* \"Warning: deprecated function~%\") nil)"},
    {"001-undefined-function", "(nonexistent-function)"},
    {"003-nil", "(member 'x '(a b c))"},
    {"003-multiple-forms", "(+ 1 1) (+ 2 2) (+ 3 3)"},
    {"003-print-twice", "(print 'hello) (print 'world)"},
    {"003-one-warning", "(warn \"Test warning\") 42"},
    {"003-two-warnings", "(warn \"First\") (warn \"Second\") :done"},
    {"003-undefined-function", "(this-function-does-not-exist-12345)"},
    {"003-type-error", "(+ 1 \"not a number\")"},
    {"003-reader-error", "(+ 1 2"},
    {"003-output-kept-before-error", "(print 'before-error) (error \"boom\")"},
    {"003-format-result-error", "(error \"test\")"},
    {"nested-user-frames", "(defun inner (x) (/ x 0)) (defun outer (y) (inner (* 2 y))) (outer 5)"},
    {"trace-output-in-stderr", "(defun sq (x) (* x x)) (trace sq) (sq 3)"},
    {"no-values", "(values)"},
    {"print-object-signals", "(defstruct pt x) (defmethod print-object ((p pt) s) (error \"nope\")) (make-pt :x 1)"},
    {"output-cut-at-the-limit", "(dotimes (i 50) (format t \"line ~D~%\" i))", "", 100},
    {"long-value-cut", "(make-string 1000 :initial-element #\\a)", "", 200},
    {"quit-refused", "(ext:quit)"},
    {"y-or-n-p-refused", "(y-or-n-p \"Proceed?\")"},
    {"timeout", "(loop)", "", 0, 300},
};

QString goldenDir()
{
    return QStringLiteral(DUET_SOURCE_DIR "/tests/mcp/golden");
}

// Addresses of unreadable objects change from run to run.
QString stable(QString text)
{
    static const QRegularExpression address(QStringLiteral("0x[0-9a-f]+"));
    return text.replace(address, QStringLiteral("0x…"));
}
} // namespace

class TestEvaluateText : public QObject
{
    Q_OBJECT

private:
    QString textOf(const Case &c)
    {
        EngineHarness lisp;
        if (!lisp.waitReady())
            return QStringLiteral("<the engine did not start>");
        EvalOptions options;
        if (c.maxOutputChars > 0)
            options.maxOutputChars = c.maxOutputChars;
        JobRequest request = EngineProtocol::evaluation(QString::fromUtf8(c.code), QString::fromUtf8(c.package), options);
        request.timeoutMs = c.timeoutMs;
        const JobPtr job = lisp.run(request);
        return job ? stable(EvalFormatter::text(job->result)) : QStringLiteral("<no result>");
    }

private Q_SLOTS:
    void seedTextsAreReproducedExactly_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("text");
        // Literally from seeds 000 and 001, where ECL agrees with SBCL.
        QTest::newRow("000 simple value") << "(+ 1 2)" << "=> 3";
        QTest::newRow("000 with stdout") << "(progn (print 'hello) 42)" << "[stdout]\nHELLO\n\n=> 42";
        QTest::newRow("000 multiple values") << "(floor 17 5)" << "=> 3\n=> 2";
        QTest::newRow("000 with warnings") << "(defun foo () (let ((x 10))))"
                                           << "[warnings]\nSTYLE-WARNING: The variable X is defined but never used.\n\n=> FOO";
        QTest::newRow("000 division by zero") << "(/ 1 0)"
                                              << "[ERROR] DIVISION-BY-ZERO\narithmetic error DIVISION-BY-ZERO signalled\n"
                                                 "Operation was (/ 1 0).\n\n[Backtrace]\n0: (/ 1 0)";
        QTest::newRow("000 circular") << "(let ((x (list 1 2 3))) (setf (cdddr x) x) x)" << "=> #1=(1 2 3 . #1#)";
        QTest::newRow("000 stream capture") << "(progn (format t \"Output~%\") (format *error-output* \"Error~%\") 42)"
                                            << "[stdout]\nOutput\n\n[stderr]\nError\n\n=> 42";
        QTest::newRow("000 multiple forms") << "(setf x 10) (setf y 20) (+ x y)" << "=> 30";
        QTest::newRow("001 sum") << "(+ 1 2 3)" << "=> 6";
        QTest::newRow("001 multi-value") << "(floor 10 3)" << "=> 3\n=> 1";
        QTest::newRow("001 output")
            << "(progn (format t \"Hello, World!~%\") (format *error-output* \"Warning: deprecated function~%\") nil)"
            << "[stdout]\nHello, World!\n\n[stderr]\nWarning: deprecated function\n\n=> NIL";
        // ECL's honest differences (engine/README.md): the name relative to the package, no
        // arguments for a call that never started, CONS rather than LIST.
        QTest::newRow("000 undefined function on ECL") << "(foo 42)"
                                                       << "[ERROR] UNDEFINED-FUNCTION\nThe function FOO is undefined.\n\n[Backtrace]\n0: (FOO ...)";
        QTest::newRow("000 type error on ECL") << "(car 42)"
                                               << "[ERROR] SIMPLE-TYPE-ERROR\nThe value 42 is not of type CONS.\n"
                                                  "In function CAR, the value of the only argument.\n\n[Backtrace]\n0: (CAR 42)";
    }
    void seedTextsAreReproducedExactly()
    {
        QFETCH(QString, code);
        QFETCH(QString, text);
        const QByteArray utf8 = code.toUtf8();
        QCOMPARE(textOf(Case{utf8.constData(), utf8.constData()}), text);
    }

    void everyCaseMatchesItsGoldenFile_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(std::size(Cases)); ++i)
            QTest::newRow(Cases[i].name) << i;
    }
    void everyCaseMatchesItsGoldenFile()
    {
        QFETCH(int, index);
        const Case &c = Cases[index];
        const QString actual = textOf(c);
        DUET_COMPARE_GOLDEN(actual + QLatin1Char('\n'), goldenDir() + QStringLiteral("/%1.txt").arg(QString::fromUtf8(c.name)));
    }
};

QTEST_GUILESS_MAIN(TestEvaluateText)
#include "tst_evaluatetext.moc"
