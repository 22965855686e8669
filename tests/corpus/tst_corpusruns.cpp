// The tools that run a library's code, on Debian's cl-* libraries (issue 33): run-tests' counts
// against what the framework prints in a plain `ecl` (asdf:test-system), RT's systems one after
// the other in one session (RT keeps one registry per image), RT's expected failures, a
// test-op that refuses failures (iterate's), systems whose test-op does nothing, load-system's
// quiet loads, where a test run writes its files, and project-info's test systems. One engine
// for the whole suite, as a shared session is.

#include "../common/TestFiles.h"
#include "PlainEclRun.h"
#include "project/ProjectFiles.h"
#include "tools/ToolSet.h"
#include "ToolHarness.h"

#include <QDir>
#include <QHash>
#include <QDirIterator>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

namespace {
const QString SourceRoot = QStringLiteral("/usr/share/common-lisp/source");

using PlainCounts = PlainEclRun;

PlainCounts plainEclCounts(const QString &system)
{
    return PlainEclRun::of(system, 900000);
}

QStringList filesUnder(const QString &root)
{
    QStringList files;
    QDirIterator it(root, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << QDir(root).relativeFilePath(it.next());
    files.sort();
    return files;
}

} // namespace

class TestCorpusRuns : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_root;
    std::unique_ptr<ToolHarness> m_h;
    ProjectFiles m_projectFiles;
    QHash<QString, PlainCounts> m_plain; // a system's plain run is made once (alexandria's takes a minute)

    const PlainCounts &plainCountsOf(const QString &system)
    {
        auto it = m_plain.find(system);
        if (it == m_plain.end())
            it = m_plain.insert(system, plainEclCounts(system));
        return *it;
    }

    QJsonObject runTests(const QString &system)
    {
        return m_h->call(QStringLiteral("run-tests"), {{QStringLiteral("system"), system}, {QStringLiteral("timeout_seconds"), 1200}, {QStringLiteral("wait_seconds"), 1210}},
                         1220000);
    }

    // The names RT printed as failing ("Test X failed"), for a message.
    static QStringList failedTests(const QString &output)
    {
        static const QRegularExpression failedLine(QStringLiteral("^Test (\\S+) failed"), QRegularExpression::MultilineOption);
        QStringList names;
        for (auto it = failedLine.globalMatch(output); it.hasNext();)
            names << it.next().captured(1);
        return names;
    }

    // iterate's own tests are not always the same: iterate-test.lisp reads 7 expected values
    // at compile time, #.(reduce #'max *list-of-lists* :key #'length) and the like, and makes
    // *list-of-lists* anew from RANDOM when the file loads (ECL seeds RANDOM per process). When
    // the longest of 101 random lists is not 20 long (or the shortest not 1), about 1 load in
    // 90, 7 of its tests fail in any Lisp: seen once, in plain ECL (254 passed, 7 failed).
    // So when the two disagree each is asked once more, and every answer is printed with the
    // names of the tests that failed: a count we get wrong disagrees again. A plain run loads
    // the test file anew; the engine keeps what it loaded, so REDRAW, evaluated before the
    // engine is asked again, loads the same compiled file again (new lists, same literals).
    static QString iterateRedraw()
    {
        return QStringLiteral("(asdf:perform (asdf:make-operation 'asdf:load-op) (asdf:find-component \"iterate/tests\" \"iterate-test\")) t");
    }
    void evaluate(const QString &code)
    {
        const QJsonObject result = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), code}}, 120000);
        QVERIFY2(!ToolHarness::isError(result), qPrintable(ToolHarness::text(result)));
    }
    void compare(const QString &system, QJsonObject &run, PlainCounts plain, const QString &redraw = {})
    {
        QJsonObject result = ToolHarness::structured(run);
        const auto agree = [&] {
            return plain.passed == result.value(QStringLiteral("passed")).toInt() && plain.failed == result.value(QStringLiteral("failed")).toInt()
                && plain.expected == result.value(QStringLiteral("expected_failures")).toInt();
        };
        const auto runFailures = [&] {
            QStringList names;
            for (const QJsonValue &failure : result.value(QStringLiteral("failures")).toArray())
                if (!failure.toObject().value(QStringLiteral("expected_failure")).toBool())
                    names << failure.toObject().value(QStringLiteral("test")).toString();
            return names.join(QLatin1Char(' '));
        };
        // Why a run ended otherwise than tests end: its status, the error's type and message.
        const auto howItEnded = [&] {
            const QJsonObject error = result.value(QStringLiteral("error")).toObject();
            return QStringLiteral("status %1%2").arg(result.value(QStringLiteral("status")).toString(),
                                                     error.isEmpty() ? QString()
                                                                     : QStringLiteral(", %1: %2").arg(error.value(QStringLiteral("type")).toString(),
                                                                                                       error.value(QStringLiteral("message")).toString()));
        };
        for (int again = 0; again < 2 && !agree(); ++again) {
            qWarning("%s: plain ECL passed %d, failed %d (%s); run-tests passed %d, failed %d (%s; %s): asking %s again", qPrintable(system), plain.passed,
                     plain.failed, qPrintable(failedTests(plain.output).join(QLatin1Char(' '))), result.value(QStringLiteral("passed")).toInt(),
                     result.value(QStringLiteral("failed")).toInt(), qPrintable(runFailures()), qPrintable(howItEnded()),
                     again == 0 ? "plain ECL" : "run-tests");
            if (again == 0) {
                plain = plainEclCounts(system);
                m_plain.insert(system, plain);
            } else {
                if (!redraw.isEmpty())
                    evaluate(redraw);
                run = runTests(system);
                result = ToolHarness::structured(run);
            }
        }
        qInfo("%s: plain ECL %d passed, %d failed, %d expected failures; run-tests %d passed, %d failed, %d expected (%s, status %s, %d RT tests of "
              "other systems set aside)",
              qPrintable(system), plain.passed, plain.failed, plain.expected, result.value(QStringLiteral("passed")).toInt(),
              result.value(QStringLiteral("failed")).toInt(), result.value(QStringLiteral("expected_failures")).toInt(),
              qPrintable(result.value(QStringLiteral("framework")).toString()), qPrintable(result.value(QStringLiteral("status")).toString()),
              result.value(QStringLiteral("rt_tests_set_aside")).toInt());
        // A run that did not end as tests end (an error, a restart, a time limit) says why.
        const QString status = result.value(QStringLiteral("status")).toString();
        if (status != QLatin1String("ok") && status != QLatin1String("failed"))
            QFAIL(qPrintable(QStringLiteral("run-tests of %1 ended with %2\n%3").arg(system, howItEnded(), ToolHarness::text(run).left(4000))));
        QVERIFY2(plain.summary(), qPrintable(QStringLiteral("the plain run of %1 printed no summary").arg(system)));
        QCOMPARE(result.value(QStringLiteral("passed")).toInt(), plain.passed);
        QCOMPARE(result.value(QStringLiteral("failed")).toInt(), plain.failed);
        QCOMPARE(result.value(QStringLiteral("expected_failures")).toInt(), plain.expected);
        QCOMPARE(result.value(QStringLiteral("status")).toString(), plain.failed > 0 ? QStringLiteral("failed") : QStringLiteral("ok"));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        // cffi and named-readtables in the project (as the corpus had them), the rest where
        // Debian puts them.
        QVERIFY(TestFiles::copyTree(SourceRoot + QStringLiteral("/cl-cffi"), m_root.filePath(QStringLiteral("cl-cffi"))));
        QVERIFY(TestFiles::copyTree(SourceRoot + QStringLiteral("/named-readtables"), m_root.filePath(QStringLiteral("named-readtables"))));
        m_h = std::make_unique<ToolHarness>();
        addProjectTools(&m_h->m_tools, &m_h->m_session, &m_h->m_jobs, &m_projectFiles, m_h->setup());
        QVERIFY(m_projectFiles.setRoot(m_root.path(), Origin::person()));
        QVERIFY(m_h->waitUntilReady());
    }

    // RT's expected failures are counted apart, as RT's "No unexpected failures." says; the
    // actual value of a failure is what RT printed, not the names of the tests after it.
    void rtExpectedFailuresAreNotFailures()
    {
        const PlainCounts plain = plainCountsOf(QStringLiteral("iterate"));
        QJsonObject run = runTests(QStringLiteral("iterate"));
        compare(QStringLiteral("iterate"), run, plain, iterateRedraw());
        if (QTest::currentTestFailed())
            return;
        QVERIFY(plain.expected > 0);
        const QJsonArray failures = ToolHarness::structured(run).value(QStringLiteral("failures")).toArray();
        QCOMPARE(failures.size(), plain.expected);
        QString thereisFinally;
        for (const QJsonValue &failure : failures) {
            QVERIFY(failure.toObject().value(QStringLiteral("expected_failure")).toBool());
            if (failure.toObject().value(QStringLiteral("test")).toString() == QLatin1String("ITERATE.TEST::THEREIS.FINALLY"))
                thereisFinally = failure.toObject().value(QStringLiteral("actual")).toString();
        }
        // RT printed "Actual value: \"\"." and then the names of the tests that passed after it.
        QCOMPARE(thereisFinally, QStringLiteral("\"\""));
        QVERIFY(ToolHarness::text(run).contains(QStringLiteral("expected failures")));
    }

    // iterate's test-op signals UNEXPECTED-FAILURES-ERROR after RT printed its summary when a
    // test failed (its perform passes :on-failure :error), as anaphora's "test-op failed": the
    // run is a failed run with its counts and failures, the error said beside them, not a
    // job error with no counts (CI, main at 10a62c5: iterate's random lists, about 1 load in
    // 90, gave "status error" twice, the engine keeping its lists between the two runs).
    // Spoiling the lists makes that load's failures every time.
    void aTestOpThatRefusesFailuresStillCounts()
    {
        // Loaded by rtExpectedFailuresAreNotFailures; longest 1, where the file's literals say 20.
        evaluate(QStringLiteral("(setf iterate.test::*list-of-lists* (list (list 0))) t"));
        if (QTest::currentTestFailed())
            return;
        QJsonObject run = runTests(QStringLiteral("iterate"));
        const QJsonObject result = ToolHarness::structured(run);
        const QString text = ToolHarness::text(run);
        QVERIFY2(!ToolHarness::isError(run), qPrintable(text.left(2000)));
        QCOMPARE(result.value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
        QCOMPARE(result.value(QStringLiteral("framework")).toString(), QStringLiteral("rt"));
        const int failed = result.value(QStringLiteral("failed")).toInt();
        QVERIFY2(failed >= 6, qPrintable(text.left(2000))); // find-longest-list.1-4, maximize.1-2
        QCOMPARE(result.value(QStringLiteral("passed")).toInt() + failed + result.value(QStringLiteral("expected_failures")).toInt(), 271);
        QStringList unexpected;
        for (const QJsonValue &failure : result.value(QStringLiteral("failures")).toArray())
            if (!failure.toObject().value(QStringLiteral("expected_failure")).toBool())
                unexpected << failure.toObject().value(QStringLiteral("test")).toString();
        QVERIFY2(unexpected.contains(QStringLiteral("ITERATE.TEST::MAXIMIZE.1")), qPrintable(unexpected.join(QLatin1Char(' '))));
        QCOMPARE(unexpected.size(), failed);
        // What the test-op signalled is said, with its type.
        const QString refusal = result.value(QStringLiteral("test_op_error")).toString();
        qInfo("iterate, its lists spoiled: %s", qPrintable(text.section(QLatin1Char('\n'), 0, 1)));
        QVERIFY2(refusal.contains(QStringLiteral("UNEXPECTED-FAILURES-ERROR")), qPrintable(refusal));
        QVERIFY2(text.contains(QStringLiteral("Then the test-op signalled ") + refusal), qPrintable(text.left(2000)));
        // Against a plain run that disagrees, run-tests is asked again with new lists: agreed.
        // (Unless the plain run asked again drew lists as bad, 1 in 90: the two agree at once.)
        compare(QStringLiteral("iterate"), run, plainCountsOf(QStringLiteral("iterate")), iterateRedraw());
        if (QTest::currentTestFailed())
            return;
        const QJsonObject again = ToolHarness::structured(run);
        QCOMPARE(again.value(QStringLiteral("test_op_error")).isString(), again.value(QStringLiteral("failed")).toInt() > 0);
    }

    // In one session, one RT system after another: each counts its own tests only.
    void rtSystemsOneAfterAnotherCountTheirOwnTests_data()
    {
        QTest::addColumn<QString>("system");
        QTest::newRow("alexandria after iterate") << QStringLiteral("alexandria");
        QTest::newRow("anaphora (its test-op refuses failures)") << QStringLiteral("anaphora");
        QTest::newRow("trivial-garbage") << QStringLiteral("trivial-garbage");
        // (anaphora, not alexandria, again: alexandria's run compiles each of its 248 tests
        // with gcc, a minute of the 20-minute budget, for the same question.)
        QTest::newRow("anaphora again") << QStringLiteral("anaphora");
        QTest::newRow("ptester: cl-base64 (one test aborts)") << QStringLiteral("cl-base64");
    }
    void rtSystemsOneAfterAnotherCountTheirOwnTests()
    {
        QFETCH(QString, system);
        const PlainCounts plain = plainCountsOf(system);
        QJsonObject run = runTests(system);
        QVERIFY2(!ToolHarness::isError(run), qPrintable(ToolHarness::text(run).left(2000)));
        compare(system, run, plain);
    }

    // Systems whose test-op does nothing say so, instead of "read the output" with none.
    void aTestOpThatDoesNothingSaysSo_data()
    {
        QTest::addColumn<QString>("system");
        QTest::newRow("yason") << QStringLiteral("yason");
        QTest::newRow("trivial-gray-streams-test") << QStringLiteral("trivial-gray-streams-test");
    }
    void aTestOpThatDoesNothingSaysSo()
    {
        QFETCH(QString, system);
        const QJsonObject run = runTests(system);
        const QString text = ToolHarness::text(run);
        QVERIFY2(!text.contains(QStringLiteral("read the output")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("none ran")), qPrintable(text));
        QCOMPARE(ToolHarness::structured(run).value(QStringLiteral("test_op_defined")).toBool(true), false);
    }

    // cffi's tests build libtest.so and its .o files where *default-pathname-defaults* says:
    // not in the project. (Its counts against a plain ECL, 652 passed and 6 expected failures,
    // are bench_test_counts' table: a plain run of cffi's tests takes minutes.)
    void aTestRunLeavesNoFilesInTheProject()
    {
        const QStringList before = filesUnder(m_root.path());
        const QJsonObject run = runTests(QStringLiteral("cffi"));
        const QJsonObject result = ToolHarness::structured(run);
        QVERIFY2(!ToolHarness::isError(run), qPrintable(ToolHarness::text(run).left(2000)));
        QCOMPARE(result.value(QStringLiteral("framework")).toString(), QStringLiteral("rt"));
        QCOMPARE(result.value(QStringLiteral("failed")).toInt(), 0);
        QVERIFY(result.value(QStringLiteral("expected_failures")).toInt() > 0);
        QCOMPARE(result.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
        QCOMPARE(filesUnder(m_root.path()), before);
    }

    void loadSystemWithoutVerbosePrintsNoCommandLines()
    {
        const QJsonObject load = m_h->call(QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("trivial-features-tests")}}, 900000);
        QVERIFY2(!ToolHarness::isError(load), qPrintable(ToolHarness::text(load)));
        QVERIFY2(!ToolHarness::text(load).contains(QStringLiteral("gcc")), qPrintable(ToolHarness::text(load)));
    }

    // Debian strips esrap's README.org, which its system names: a load that does nothing
    // warns of nothing.
    void aSecondLoadThatDoesNothingWarnsOfNothing()
    {
        const QJsonObject first = m_h->call(QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("esrap")}}, 900000);
        QVERIFY2(!ToolHarness::isError(first), qPrintable(ToolHarness::text(first)));
        const QJsonObject second = m_h->call(QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("esrap")}}, 900000);
        QVERIFY2(ToolHarness::structured(second).value(QStringLiteral("load_warnings")).toArray().isEmpty(), qPrintable(ToolHarness::text(second)));
        QVERIFY2(!ToolHarness::text(second).contains(QStringLiteral("README")), qPrintable(ToolHarness::text(second)));
    }

    void projectInfoTellsTestSystemsFromOtherSecondarySystems()
    {
        const QString text = ToolHarness::text(m_h->call(QStringLiteral("project-info")));
        QVERIFY2(text.contains(QStringLiteral("\"named-readtables/test\": a test system")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("\"named-readtables/doc\": a secondary system")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("\"cffi-tests\"")), qPrintable(text));
    }

    void cleanupTestCase() { m_h.reset(); }
};

QTEST_GUILESS_MAIN(TestCorpusRuns)
#include "tst_corpusruns.moc"
