// The kernel's operations for working on a project (issue 11), against the real engine: the
// project root (*default-pathname-defaults* and ASDF's source registry), run-tests (FiveAM in
// structure, other systems through ASDF's test-op, time limits), documentation, and the file
// and line of definitions loaded from files. One engine for the class: the first FiveAM load
// compiles FiveAM (tens of seconds), later ones load it from ECL's cache.

#include "../common/EngineHarness.h"
#include "../common/TestFiles.h"

#include "client/EngineProtocol.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

namespace {
constexpr int TestRunMs = 240000; // the first run compiles FiveAM
} // namespace

class TestProjectOps : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_root;
    std::unique_ptr<EngineHarness> m_lisp;

    QJsonObject ask(const EngineProtocol::Query &query, int ms = 30000) { return m_lisp->ask(query, ms); }

    JobPtr runTests(const QString &system, const QString &test = {}, int timeoutMs = TestRunMs)
    {
        JobRequest request = EngineProtocol::testRun(system, test);
        request.timeoutMs = timeoutMs;
        return m_lisp->run(request, TestRunMs + 10000);
    }

    QString value(const QString &code)
    {
        const JobResult result = m_lisp->result(code);
        return result.ok() && !result.values.isEmpty() ? result.values.first()
                                                       : QStringLiteral("[%1] %2").arg(result.error.type, result.error.message);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QVERIFY(TestFiles::copyTree(QStringLiteral(DUET_SOURCE_DIR "/tests/data/shapes"), m_root.filePath(QStringLiteral("shapes"))));
        // A system whose tests are not FiveAM's: ASDF's test-op prints its own report.
        QVERIFY(TestFiles::write(m_root.filePath(QStringLiteral("plain/plain.asd")),
                          "(asdf:defsystem \"plain\"\n"
                          "  :perform (asdf:test-op (o c) (format t \"plain: 3 checks, all good~%\")))\n"));
        // FiveAM tests that never end or signal an error.
        QVERIFY(TestFiles::write(m_root.filePath(QStringLiteral("looper/looper.asd")),
                          "(asdf:defsystem \"looper\" :depends-on (\"fiveam\") :components ((:file \"looper-tests\")))\n"));
        QVERIFY(TestFiles::write(m_root.filePath(QStringLiteral("looper/looper-tests.lisp")),
                          "(defpackage #:looper-tests (:use #:cl #:fiveam))\n"
                          "(in-package #:looper-tests)\n"
                          "(def-suite looper-suite)\n(in-suite looper-suite)\n"
                          "(test spins (loop (sleep 0.01)))\n"
                          "(test erroring (is (= 1 1)) (error \"boom ~A\" 42))\n"
                          "(test chatty (dotimes (i 20000) (write-line \"0123456789\")) (is (= 1 1)))\n"
                          "(test never-negative (for-all ((n (gen-integer :min 1 :max 10))) (is (< n 0))))\n"));
        // Test-ops that signal an error: after FiveAM's tests ran (they refuse its failures), and
        // before any test ran.
        QVERIFY(TestFiles::write(m_root.filePath(QStringLiteral("refuser/refuser.asd")),
                          "(asdf:defsystem \"refuser\" :depends-on (\"fiveam\") :components ((:file \"refuser-tests\"))\n"
                          "  :perform (asdf:test-op (o c) (unless (uiop:symbol-call :fiveam :run! (uiop:find-symbol* :refuser-suite :refuser-tests))\n"
                          "                                 (error \"refuser: ~D test failed\" 1))))\n"));
        QVERIFY(TestFiles::write(m_root.filePath(QStringLiteral("refuser/refuser-tests.lisp")),
                          "(defpackage #:refuser-tests (:use #:cl #:fiveam))\n(in-package #:refuser-tests)\n"
                          "(def-suite refuser-suite)\n(in-suite refuser-suite)\n"
                          "(test adds (is (= 2 (+ 1 1))))\n(test wrong (is (= 5 (+ 2 2))))\n"));
        QVERIFY(TestFiles::write(m_root.filePath(QStringLiteral("unready/unready.asd")),
                          "(asdf:defsystem \"unready\" :perform (asdf:test-op (o c) (error \"unready: no harness yet\")))\n"));
        // cl-ppcre:scan's shape: a compiled function and a compiler macro, each with a docstring;
        // and a form the compiler warns about on line 4.
        QVERIFY(TestFiles::write(m_root.filePath(QStringLiteral("scanner/scanner.asd")),
                          "(asdf:defsystem \"scanner\" :components ((:file \"scanner\")))\n"));
        QVERIFY(TestFiles::write(m_root.filePath(QStringLiteral("scanner/scanner.lisp")),
                          "(defpackage #:scanner (:use #:cl) (:export #:scan))\n(in-package #:scanner)\n"
                          "(defgeneric scan (regex target) (:documentation \"Searches TARGET for REGEX.\"))\n"
                          "(defmethod scan (regex target) (list regex target))\n"
                          "(define-compiler-macro scan (&whole form regex target)\n"
                          "  \"Compiles constant REGEX at load time.\" (declare (ignore regex target)) form)\n"));
        m_lisp = std::make_unique<EngineHarness>();
        QVERIFY2(m_lisp->waitReady(), "the engine did not start");
        m_lisp->session.setProjectRoot(m_root.path());
    }
    void cleanupTestCase() { m_lisp.reset(); }

    void projectRootIsTheDefaultDirectoryAndFindsSystems()
    {
        QCOMPARE(value(QStringLiteral("(namestring *default-pathname-defaults*)")), QStringLiteral("\"%1/\"").arg(m_root.path()));
        QCOMPARE(value(QStringLiteral("(and (probe-file \"plain/plain.asd\") t)")), QStringLiteral("T"));
        // ASDF is loaded only now, after the root was set: its registry includes the root.
        QCOMPARE(value(QStringLiteral("(require :asdf) (asdf:load-system \"plain\") (namestring (asdf:system-source-file \"plain\"))")),
                 QStringLiteral("\"%1/plain/plain.asd\"").arg(m_root.path()));
        const JobPtr load = m_lisp->run(EngineProtocol::systemLoad(QStringLiteral("shapes"), false, false), 120000);
        QVERIFY(load);
        QVERIFY2(load->result.ok(), qPrintable(load->result.error.message));
    }

    void projectRootMovesWithTheRoot()
    {
        QTemporaryDir other;
        QVERIFY(TestFiles::write(other.filePath(QStringLiteral("elsewhere/elsewhere.asd")), "(asdf:defsystem \"elsewhere\")\n"));
        const EngineProtocol::Reply moved(ask(EngineProtocol::projectRoot(other.path())));
        QVERIFY2(moved.ok(), qPrintable(moved.errorMessage()));
        QCOMPARE(value(QStringLiteral("(namestring (asdf:system-source-file (asdf:find-system \"elsewhere\")))")),
                 QStringLiteral("\"%1/elsewhere/elsewhere.asd\"").arg(other.path()));
        QVERIFY(ask(EngineProtocol::projectRoot(m_root.path())).value(QStringLiteral("status")) == QStringLiteral("ok"));
        QCOMPARE(value(QStringLiteral("(namestring *default-pathname-defaults*)")), QStringLiteral("\"%1/\"").arg(m_root.path()));
    }

    void projectRootRefusesWhatIsNotADirectory()
    {
        const EngineProtocol::Reply missing(ask(EngineProtocol::projectRoot(m_root.filePath(QStringLiteral("no/such/dir")))));
        QVERIFY(missing.failed());
        QVERIFY2(missing.errorMessage().contains(QStringLiteral("not an existing absolute directory")), qPrintable(missing.errorMessage()));
        const EngineProtocol::Reply relative(ask(EngineProtocol::projectRoot(QStringLiteral("relative/dir"))));
        QVERIFY(relative.failed());
        QCOMPARE(value(QStringLiteral("(namestring *default-pathname-defaults*)")), QStringLiteral("\"%1/\"").arg(m_root.path()));
    }

    void fiveamSuiteGivesTheOneFailureInStructure()
    {
        const JobPtr job = runTests(QStringLiteral("shapes"));
        QVERIFY(job);
        QVERIFY2(job->result.ok(), qPrintable(job->result.error.type + QLatin1Char(' ') + job->result.error.message));
        const EngineProtocol::TestRunReply reply(job->result.reply);
        QCOMPARE(reply.framework(), QStringLiteral("fiveam"));
        QCOMPARE(reply.system(), QStringLiteral("shapes"));
        QCOMPARE(reply.test(), QString());
        QCOMPARE(reply.passed(), 5); // six checks in five tests
        QCOMPARE(reply.failed(), 1);
        QCOMPARE(reply.skipped(), 0);
        const auto failures = reply.failures();
        QCOMPARE(failures.size(), 1);
        QCOMPARE(failures.first().test(), QStringLiteral("AREA-OF-A-SQUARE"));
        QCOMPARE(failures.first().form(), QStringLiteral("(= 9 (AREA (MAKE-SQUARE 3)))"));
        QCOMPARE(failures.first().expected(), QJsonValue(QStringLiteral("9")));
        QCOMPARE(failures.first().actual(), QJsonValue(QStringLiteral("6")));
        QCOMPARE(failures.first().reason(), QStringLiteral("(AREA (MAKE-SQUARE 3)) evaluated to 6 which is not = to 9"));
        QVERIFY2(reply.output().contains(QStringLiteral("Did 6 checks.")), qPrintable(reply.output()));
        // Debian's FiveAM depends on trivial-backtrace, whose missing COPYING ASDF warns about
        // on every run: not the project's business, so not reported.
        QVERIFY2(job->result.warnings.isEmpty(), qPrintable(job->result.warnings.join(QLatin1Char('\n'))));
    }

    void oneNamedTestRunsAlone()
    {
        const JobPtr job = runTests(QStringLiteral("shapes"), QStringLiteral("area-of-a-circle"));
        QVERIFY(job);
        QVERIFY2(job->result.ok(), qPrintable(job->result.error.message));
        const EngineProtocol::TestRunReply reply(job->result.reply);
        QCOMPARE(reply.test(), QStringLiteral("area-of-a-circle"));
        QCOMPARE(reply.passed(), 1);
        QCOMPARE(reply.failed(), 0);
        QVERIFY(reply.failures().isEmpty());

        const JobPtr suite = runTests(QStringLiteral("shapes"), QStringLiteral("shapes-tests:shapes-suite"));
        QVERIFY(suite && suite->result.ok());
        QCOMPARE(EngineProtocol::TestRunReply(suite->result.reply).passed(), 5);
    }

    void unknownTestOrSystemIsAClearError()
    {
        const JobPtr test = runTests(QStringLiteral("shapes"), QStringLiteral("no-such-test"));
        QVERIFY(test);
        QCOMPARE(test->result.status, JobResult::Status::Error);
        QVERIFY2(test->result.error.message.contains(QStringLiteral("No FiveAM test or suite is named no-such-test")), qPrintable(test->result.error.message));
        QVERIFY(test->result.error.message.contains(QStringLiteral("AREA-OF-A-SQUARE")));

        const JobPtr system = runTests(QStringLiteral("no-such-system"));
        QVERIFY(system);
        QCOMPARE(system->result.status, JobResult::Status::Error);
        QVERIFY2(system->result.error.type.contains(QStringLiteral("MISSING-COMPONENT")), qPrintable(system->result.error.type));
    }

    void errorInATestIsAFailure()
    {
        const JobPtr job = runTests(QStringLiteral("looper"), QStringLiteral("erroring"));
        QVERIFY(job);
        QVERIFY2(job->result.ok(), qPrintable(job->result.error.message));
        const EngineProtocol::TestRunReply reply(job->result.reply);
        QCOMPARE(reply.passed(), 1);
        QCOMPARE(reply.failed(), 1);
        QCOMPARE(reply.failures().size(), 1);
        const auto failure = reply.failures().first();
        QCOMPARE(failure.test(), QStringLiteral("ERRORING"));
        QCOMPARE(failure.reason(), QStringLiteral("error: SIMPLE-ERROR: boom 42"));
        QVERIFY(failure.expected().isNull());
        QVERIFY(failure.actual().isNull());
    }

    void forAllFailureCountsOnce()
    {
        // FiveAM explains a FOR-ALL failure's own results from inside EXPLAIN: counted once.
        const JobPtr job = runTests(QStringLiteral("looper"), QStringLiteral("never-negative"));
        QVERIFY(job);
        QVERIFY2(job->result.ok(), qPrintable(job->result.error.message));
        const EngineProtocol::TestRunReply reply(job->result.reply);
        QCOMPARE(reply.passed(), 0);
        QCOMPARE(reply.failed(), 1);
        QCOMPARE(reply.failures().size(), 1);
        QCOMPARE(reply.failures().first().test(), QStringLiteral("NEVER-NEGATIVE"));
        QVERIFY2(reply.failures().first().reason().contains(QStringLiteral("Falsifiable")), qPrintable(reply.failures().first().reason()));
    }

    void outputIsCappedLikeAnEvaluations()
    {
        const JobPtr job = runTests(QStringLiteral("looper"), QStringLiteral("chatty"));
        QVERIFY(job);
        QVERIFY2(job->result.ok(), qPrintable(job->result.error.message));
        const EngineProtocol::TestRunReply reply(job->result.reply);
        QCOMPARE(reply.passed(), 1);
        // 220,000 characters printed; the default budget keeps 100,000 and says what it dropped.
        QVERIFY2(reply.output().size() < EngineProtocol::DefaultMaxOutputChars + 200, qPrintable(QString::number(reply.output().size())));
        QVERIFY2(reply.output().endsWith(QStringLiteral("characters not kept: the output budget is spent]")), qPrintable(reply.output().right(200)));
        QVERIFY(job->result.outputDropped > 100000);
    }

    // (unless (run! ...) (error ...)): the run failed, with FiveAM's counts and failures, and
    // the error said beside them; not a job error with no counts.
    void aTestOpThatRefusesFailuresStillCounts()
    {
        const JobPtr job = runTests(QStringLiteral("refuser"));
        QVERIFY(job);
        QVERIFY2(job->result.ok(), qPrintable(job->result.error.type + QLatin1Char(' ') + job->result.error.message));
        const EngineProtocol::TestRunReply reply(job->result.reply);
        QCOMPARE(reply.framework(), QStringLiteral("fiveam"));
        QCOMPARE(reply.passed(), 1);
        QCOMPARE(reply.failed(), 1);
        QCOMPARE(reply.failures().size(), 1);
        QCOMPARE(reply.failures().first().test(), QStringLiteral("WRONG"));
        QCOMPARE(reply.outcome(), QStringLiteral("failed"));
        QCOMPARE(reply.testOpError(), QStringLiteral("SIMPLE-ERROR: refuser: 1 test failed"));
        QVERIFY2(reply.output().contains(QStringLiteral("Did 2 checks.")), qPrintable(reply.output()));
    }

    // A test-op that fails before any test reported is the run's error, as before.
    void aTestOpThatFailsBeforeItsTestsIsAnError()
    {
        const JobPtr job = runTests(QStringLiteral("unready"));
        QVERIFY(job);
        QCOMPARE(job->result.status, JobResult::Status::Error);
        QVERIFY2(job->result.error.message.contains(QStringLiteral("unready: no harness yet")), qPrintable(job->result.error.message));
        // A run after one that refused: nothing of it is left.
        const JobPtr passing = runTests(QStringLiteral("shapes"), QStringLiteral("area-of-a-circle"));
        QVERIFY(passing && passing->result.ok());
        QVERIFY(EngineProtocol::TestRunReply(passing->result.reply).testOpError().isEmpty());
        QCOMPARE(EngineProtocol::TestRunReply(passing->result.reply).outcome(), QStringLiteral("passed"));
    }

    void systemWithoutFiveamRunsThroughTestOp()
    {
        const JobPtr job = runTests(QStringLiteral("plain"));
        QVERIFY(job);
        QVERIFY2(job->result.ok(), qPrintable(job->result.error.message));
        const EngineProtocol::TestRunReply reply(job->result.reply);
        QCOMPARE(reply.framework(), QStringLiteral("asdf"));
        QCOMPARE(reply.passed(), -1);
        QCOMPARE(reply.failed(), -1);
        QVERIFY(reply.failures().isEmpty());
        QCOMPARE(reply.output(), QStringLiteral("plain: 3 checks, all good\n"));
    }

    void loopingTestIsCutByTheTimeLimit()
    {
        const JobPtr job = runTests(QStringLiteral("looper"), QStringLiteral("spins"), 3000);
        QVERIFY(job);
        QCOMPARE(job->result.status, JobResult::Status::TimedOut);
        QCOMPARE(value(QStringLiteral("(+ 1 2)")), QStringLiteral("3")); // the same engine goes on
        QCOMPARE(value(QStringLiteral("(namestring *default-pathname-defaults*)")), QStringLiteral("\"%1/\"").arg(m_root.path()));
    }

    void documentationOfStandardAndUserSymbols()
    {
        const EngineProtocol::DocumentationReply loop(ask(EngineProtocol::documentation(QStringLiteral("loop"))));
        QVERIFY(loop.ok() && loop.found());
        QCOMPARE(loop.name(), QStringLiteral("LOOP"));
        QVERIFY(loop.isStandard());
        QCOMPARE(loop.kinds(), QStringList{QStringLiteral("macro")});
        QVERIFY2(loop.documentation().value(QStringLiteral("function")).toString().contains(QStringLiteral("(loop {form}*)")),
                 qPrintable(loop.documentation().value(QStringLiteral("function")).toString()));

        const EngineProtocol::DocumentationReply mapcar(ask(EngineProtocol::documentation(QStringLiteral("mapcar"))));
        QVERIFY(mapcar.isStandard());
        QCOMPARE(mapcar.kinds(), QStringList{QStringLiteral("function")});
        QVERIFY(mapcar.lambdaList().toString().startsWith(QStringLiteral("(FUNCTION LIST")));
        QVERIFY(mapcar.documentation().value(QStringLiteral("function")).toString().contains(QStringLiteral("N-th element")));

        const EngineProtocol::DocumentationReply base(ask(EngineProtocol::documentation(QStringLiteral("*print-base*"))));
        QCOMPARE(base.kinds(), QStringList{QStringLiteral("variable")});
        QVERIFY(base.documentation().value(QStringLiteral("variable")).toString().contains(QStringLiteral("radix")));
        QVERIFY(!base.documentation().contains(QStringLiteral("function")));

        QCOMPARE(value(QStringLiteral("(defun frob-twice (x) \"Frobs X twice.\" x)")), QStringLiteral("FROB-TWICE"));
        const EngineProtocol::DocumentationReply mine(ask(EngineProtocol::documentation(QStringLiteral("frob-twice"))));
        QVERIFY(mine.found());
        QVERIFY(!mine.isStandard());
        QCOMPARE(mine.package(), QJsonValue(QStringLiteral("COMMON-LISP-USER")));
        QCOMPARE(mine.lambdaList(), QJsonValue(QStringLiteral("(X)")));
        QCOMPARE(mine.documentation(), (QJsonObject{{QStringLiteral("function"), QStringLiteral("Frobs X twice.")}}));

        const EngineProtocol::DocumentationReply none(ask(EngineProtocol::documentation(QStringLiteral("no-such-symbol-here"))));
        QVERIFY(none.ok() && !none.found());
        QVERIFY(none.message().contains(QStringLiteral("No symbol named no-such-symbol-here")));
        const EngineProtocol::DocumentationReply badPackage(ask(EngineProtocol::documentation(QStringLiteral("x"), QStringLiteral("no-such-package"))));
        QVERIFY(!badPackage.found());
        QVERIFY(badPackage.message().contains(QStringLiteral("does not exist")));
    }

    // ECL stores a compiler macro's docstring where the function's is asked for; the generic
    // function object keeps its own (issue 18: cl-ppcre:scan).
    void aCompilerMacrosDocstringIsNotTheFunctions()
    {
        const JobPtr loaded = m_lisp->run(EngineProtocol::systemLoad(QStringLiteral("scanner"), false, false), 120000);
        QVERIFY2(loaded->result.ok(), qPrintable(loaded->result.error.message));
        const EngineProtocol::DocumentationReply scan(ask(EngineProtocol::documentation(QStringLiteral("scanner:scan"))));
        QVERIFY(scan.found());
        QCOMPARE(scan.documentation().value(QStringLiteral("function")).toString(), QStringLiteral("Searches TARGET for REGEX."));
        QCOMPARE(scan.documentation().value(QStringLiteral("compiler-macro")).toString(), QStringLiteral("Compiles constant REGEX at load time."));
    }

    // ECL's compiler says where a form is as a file offset before the blank lines and comments
    // in front of it; the warning says the form's line.
    void compilerWarningsSayTheLine()
    {
        QVERIFY(TestFiles::write(m_root.filePath(QStringLiteral("warned.lisp")),
                          "(defun fine () 1)\n\n;; a comment\n(defun typed (x) (declare (fixnum x)) (car x))\n"));
        const QString texts = value(QStringLiteral(
            "(let ((texts nil)) (handler-bind ((warning (lambda (c) (push (lisp-duet.kernel::load-warning-text c) texts) (muffle-warning c))))"
            " (compile-file \"%1\" :output-file \"%2\")) (format nil \"~{~A~^|~}\" texts))")
                                        .arg(m_root.filePath(QStringLiteral("warned.lisp")), m_root.filePath(QStringLiteral("warned.fas"))));
        QVERIFY2(texts.contains(QStringLiteral("in file warned.lisp, line 4")) && !texts.contains(QStringLiteral("position")), qPrintable(texts));
    }

    void definitionsFromFilesHaveFileAndLine()
    {
        // Comments, a block comment and blank lines before the forms: the line is the form's.
        const QByteArray source = ";;;; lib.lisp\n"
                                  "\n"
                                  "#| a block comment\n   over lines |#\n"
                                  "\n"
                                  "(defun lib-square (x)\n"          // line 6
                                  "  \"Squares X.\"\n  (* x x))\n"
                                  "\n"
                                  ";; the cube\n"
                                  "(defmacro lib-cube (x) `(* ,x ,x ,x))\n"; // line 11
        QVERIFY(TestFiles::write(m_root.filePath(QStringLiteral("defs/lib.lisp")), source));
        QVERIFY(TestFiles::write(m_root.filePath(QStringLiteral("defs/compiled.lisp")), QByteArray(source).replace("lib-", "compiled-")));
        // Relative names: the project root is the default directory.
        QCOMPARE(value(QStringLiteral("(and (load \"defs/lib.lisp\") t)")), QStringLiteral("T"));
        QCOMPARE(value(QStringLiteral("(and (load (compile-file \"defs/compiled.lisp\")) t)")), QStringLiteral("T"));

        struct Expected
        {
            QString pattern, file;
            int squareLine, cubeLine;
        };
        for (const Expected &expected : {Expected{QStringLiteral("lib-"), QStringLiteral("defs/lib.lisp"), 6, 11},
                                         Expected{QStringLiteral("compiled-"), QStringLiteral("defs/compiled.lisp"), 6, 11}}) {
            const EngineProtocol::DefinitionsReply reply(ask(EngineProtocol::definitions({}, expected.pattern)));
            QVERIFY(reply.found());
            QHash<QString, QJsonValue> byName;
            for (const QJsonValue &v : reply.definitions())
                byName.insert(EngineProtocol::DefinitionsReply::Entry(v).name(), v);
            const QString prefix = expected.pattern.toUpper();
            QVERIFY2(byName.contains(prefix + QStringLiteral("SQUARE")), qPrintable(QStringList(byName.keys()).join(QLatin1Char(' '))));
            const EngineProtocol::DefinitionsReply::Entry square(byName.value(prefix + QStringLiteral("SQUARE")));
            QCOMPARE(square.file(), QJsonValue(m_root.filePath(expected.file)));
            QCOMPARE(square.line(), expected.squareLine);
            const EngineProtocol::DefinitionsReply::Entry cube(byName.value(prefix + QStringLiteral("CUBE")));
            QCOMPARE(cube.kind(), QStringLiteral("macro"));
            QCOMPARE(cube.line(), expected.cubeLine);
        }

        // describe says the same, and a definition the session evaluated has no file.
        const EngineProtocol::DescribeReply described(ask(EngineProtocol::description(QStringLiteral("compiled-square"))));
        const QJsonObject location = described.locations().first().toObject();
        QCOMPARE(location.value(QStringLiteral("where")).toString(), QStringLiteral("file"));
        QCOMPARE(location.value(QStringLiteral("line")).toInt(), 6);
        QCOMPARE(value(QStringLiteral("(defun typed-here (y) y)")), QStringLiteral("TYPED-HERE"));
        const EngineProtocol::DefinitionsReply typed(ask(EngineProtocol::definitions({}, QStringLiteral("typed-here"))));
        QCOMPARE(typed.definitions().size(), 1);
        const EngineProtocol::DefinitionsReply::Entry entry(typed.definitions().first());
        QVERIFY(entry.file().isNull());
        QCOMPARE(entry.line(), 0);
    }

    void definitionsOfTheShapesSystemPointAtTheirLines()
    {
        // shapes.lisp (compiled by ASDF): MAKE-CIRCLE is on the line that starts "(defun make-circle".
        QFile file(m_root.filePath(QStringLiteral("shapes/src/shapes.lisp")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        int realLine = 0;
        for (int i = 0; i < lines.size() && !realLine; ++i)
            if (lines[i].startsWith("(defun make-circle"))
                realLine = i + 1;
        QVERIFY(realLine > 0);
        const EngineProtocol::DefinitionsReply reply(ask(EngineProtocol::definitions(QStringLiteral("shapes"), QStringLiteral("make-circle"))));
        QVERIFY(reply.found());
        QCOMPARE(reply.definitions().size(), 1);
        const EngineProtocol::DefinitionsReply::Entry entry(reply.definitions().first());
        QCOMPARE(entry.file(), QJsonValue(file.fileName()));
        QCOMPARE(entry.line(), realLine);
    }
};

QTEST_GUILESS_MAIN(TestProjectOps)
#include "tst_projectops.moc"
