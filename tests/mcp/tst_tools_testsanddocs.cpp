// run-tests and documentation (issue 11) as a client calls them, against the real engine
// through McpServer, on a copy of tests/data/shapes (a FiveAM suite with one failing test)
// that the session's project root points at.

#include "ToolHarness.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>

namespace {
constexpr int TestRunMs = 240000; // the first run may compile FiveAM
}

class TestToolsTestsAndDocs : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ToolHarness> m_h;
    QTemporaryDir m_root;

    QJsonObject runTests(const QJsonObject &arguments)
    {
        return m_h->call(QStringLiteral("run-tests"), arguments, TestRunMs + 10000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        const QString shapes = QStringLiteral(DUET_SOURCE_DIR "/tests/data/shapes");
        QDirIterator it(shapes, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString source = it.next();
            const QString target = m_root.filePath(QStringLiteral("shapes/") + QDir(shapes).relativeFilePath(source));
            QVERIFY(QDir().mkpath(QFileInfo(target).path()));
            QVERIFY(QFile::copy(source, target));
        }
        QDir().mkpath(m_root.filePath(QStringLiteral("plain")));
        QFile plain(m_root.filePath(QStringLiteral("plain/plain.asd")));
        QVERIFY(plain.open(QIODevice::WriteOnly));
        plain.write("(asdf:defsystem \"plain\" :perform (asdf:test-op (o c) (format t \"plain: all good~%\")))\n");
        plain.close();
        m_h = std::make_unique<ToolHarness>();
        QVERIFY(m_h->waitUntilReady());
        m_h->m_session.setProjectRoot(m_root.path());
    }
    void cleanupTestCase() { m_h.reset(); }

    void runTestsReportsTheOneFailureInTextAndStructure()
    {
        const QJsonObject result = runTests({{QStringLiteral("system"), QStringLiteral("shapes")},
                                             {QStringLiteral("description"), QStringLiteral("check the shapes suite")}});
        QVERIFY2(!ToolHarness::isError(result), qPrintable(ToolHarness::text(result)));
        const QString text = ToolHarness::text(result);
        QVERIFY2(text.startsWith(QStringLiteral("Tests of shapes: 5 passed, 1 failed, 0 skipped (FiveAM checks)\n\n"
                                                "FAIL AREA-OF-A-SQUARE\n"
                                                "  form:     (= 9 (AREA (MAKE-SQUARE 3)))\n"
                                                "  expected: 9\n"
                                                "  actual:   6\n"
                                                "  reason:   (AREA (MAKE-SQUARE 3)) evaluated to 6 which is not = to 9")),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("[output]\n")));
        QVERIFY(text.contains(QStringLiteral("Did 6 checks.")));

        const QJsonObject structured = ToolHarness::structured(result);
        QCOMPARE(structured.value(QStringLiteral("status")).toString(), QStringLiteral("failed")); // one check failed
        QCOMPARE(structured.value(QStringLiteral("outcome")).toString(), QStringLiteral("failed"));
        QCOMPARE(structured.value(QStringLiteral("framework")).toString(), QStringLiteral("fiveam"));
        QCOMPARE(structured.value(QStringLiteral("passed")).toInt(), 5);
        QCOMPARE(structured.value(QStringLiteral("failed")).toInt(), 1);
        QCOMPARE(structured.value(QStringLiteral("skipped")).toInt(), 0);
        QVERIFY(structured.value(QStringLiteral("test")).isNull());
        const QJsonArray failures = structured.value(QStringLiteral("failures")).toArray();
        QCOMPARE(failures.size(), 1);
        const QJsonObject failure = failures.first().toObject();
        QCOMPARE(failure.value(QStringLiteral("test")).toString(), QStringLiteral("AREA-OF-A-SQUARE"));
        QCOMPARE(failure.value(QStringLiteral("expected")).toString(), QStringLiteral("9"));
        QCOMPARE(failure.value(QStringLiteral("actual")).toString(), QStringLiteral("6"));

        // The run is a job of the shared session, with the agent's reason.
        const JobPtr job = m_h->m_session.transcript().last();
        QCOMPARE(EngineProtocol::operationName(job->request.kind), QStringLiteral("run-tests"));
        QCOMPARE(job->request.description, QStringLiteral("check the shapes suite"));
    }

    void runTestsRunsOneNamedTest()
    {
        const QJsonObject result = runTests({{QStringLiteral("system"), QStringLiteral("shapes")}, {QStringLiteral("test"), QStringLiteral("perimeters")}});
        QVERIFY2(!ToolHarness::isError(result), qPrintable(ToolHarness::text(result)));
        QVERIFY2(ToolHarness::text(result).startsWith(QStringLiteral("Tests of shapes (perimeters): 2 passed, 0 failed, 0 skipped (FiveAM checks)")),
                 qPrintable(ToolHarness::text(result)));
        QCOMPARE(ToolHarness::structured(result).value(QStringLiteral("test")).toString(), QStringLiteral("perimeters"));
    }

    void runTestsOfOtherFrameworksGivesTheOutput()
    {
        const QJsonObject result = runTests({{QStringLiteral("system"), QStringLiteral("plain")}});
        QVERIFY2(!ToolHarness::isError(result), qPrintable(ToolHarness::text(result)));
        QCOMPARE(ToolHarness::text(result), QStringLiteral("Tests of plain ran through ASDF's test-op: no summary of FiveAM, RT or ptester, so no counts; read the output.\n\n"
                                                           "[output]\nplain: all good"));
        const QJsonObject structured = ToolHarness::structured(result);
        QCOMPARE(structured.value(QStringLiteral("framework")).toString(), QStringLiteral("asdf"));
        QCOMPARE(structured.value(QStringLiteral("passed")).toInt(), -1);
    }

    void runTestsOfAMissingSystemIsAnErrorResult()
    {
        const QJsonObject result = runTests({{QStringLiteral("system"), QStringLiteral("no-such-system-here")}});
        QVERIFY(ToolHarness::isError(result));
        QVERIFY2(ToolHarness::text(result).contains(QStringLiteral("no-such-system-here")), qPrintable(ToolHarness::text(result)));
    }

    void runTestsTimeLimitStopsALoop()
    {
        // Written after ASDF scanned the root: run-tests scans again rather than say "not found".
        QDir().mkpath(m_root.filePath(QStringLiteral("spinner")));
        QFile asd(m_root.filePath(QStringLiteral("spinner/spinner.asd")));
        QVERIFY(asd.open(QIODevice::WriteOnly));
        asd.write("(asdf:defsystem \"spinner\" :perform (asdf:test-op (o c) (loop (sleep 0.01))))\n");
        asd.close();
        const QJsonObject result = runTests({{QStringLiteral("system"), QStringLiteral("spinner")}, {QStringLiteral("timeout_seconds"), 2}});
        QVERIFY(ToolHarness::isError(result));
        QVERIFY2(ToolHarness::text(result).contains(QStringLiteral("[ERROR] TIMEOUT\nThe evaluation did not finish within 2 s")), qPrintable(ToolHarness::text(result)));
        // The same engine goes on.
        QCOMPARE(ToolHarness::text(m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(+ 1 2)")}})), QStringLiteral("=> 3"));
    }

    void definitionsFromProjectFilesShowFileAndLine()
    {
        QDir().mkpath(m_root.filePath(QStringLiteral("defs")));
        QFile lib(m_root.filePath(QStringLiteral("defs/lib.lisp")));
        QVERIFY(lib.open(QIODevice::WriteOnly));
        lib.write(";; a library\n\n(defun lib-square (x)\n  (* x x))\n");
        lib.close();
        const QJsonObject loaded = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(load \"defs/lib.lisp\")")}});
        QVERIFY2(!ToolHarness::isError(loaded), qPrintable(ToolHarness::text(loaded)));

        const QJsonObject listed = m_h->call(QStringLiteral("list-definitions"), {{QStringLiteral("pattern"), QStringLiteral("lib-")}});
        QCOMPARE(ToolHarness::text(listed), QStringLiteral("[Functions]\n- LIB-SQUARE (X)  [defs/lib.lisp:3]"));
        const QJsonObject entry = ToolHarness::structured(listed).value(QStringLiteral("definitions")).toArray().first().toObject();
        QCOMPARE(entry.value(QStringLiteral("file")).toString(), m_root.filePath(QStringLiteral("defs/lib.lisp")));
        QCOMPARE(entry.value(QStringLiteral("line")).toInt(), 3);

        const QString described = ToolHarness::text(m_h->call(QStringLiteral("describe-symbol"), {{QStringLiteral("symbol"), QStringLiteral("lib-square")}}));
        QVERIFY2(described.contains(QStringLiteral("Defined (function) in defs/lib.lisp:3")), qPrintable(described));
    }

    void documentationOfAStandardSymbol()
    {
        const QJsonObject result = m_h->call(QStringLiteral("documentation"), {{QStringLiteral("symbol"), QStringLiteral("loop")}});
        QVERIFY(!ToolHarness::isError(result));
        const QString text = ToolHarness::text(result);
        QVERIFY2(text.startsWith(QStringLiteral("LOOP [COMMON-LISP] (standard Common Lisp)\nKinds: macro\n")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("Documentation (function):\nSyntax: (loop {form}*)")));
        const QJsonObject structured = ToolHarness::structured(result);
        QCOMPARE(structured.value(QStringLiteral("standard")).toBool(), true);
        QVERIFY(structured.value(QStringLiteral("documentation")).toObject().value(QStringLiteral("function")).toString().contains(QStringLiteral("NIL block")));
    }

    void documentationOfTheUsersOwnDefinition()
    {
        m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(defvar *greeting* \"hi\" \"How to say hello.\")")}});
        const QJsonObject result = m_h->call(QStringLiteral("documentation"), {{QStringLiteral("symbol"), QStringLiteral("*greeting*")}});
        QCOMPARE(ToolHarness::text(result), QStringLiteral("*GREETING* [COMMON-LISP-USER]\nKinds: variable\n\nDocumentation (variable):\nHow to say hello."));
        const QJsonObject missing = m_h->call(QStringLiteral("documentation"), {{QStringLiteral("symbol"), QStringLiteral("nothing-by-this-name")}});
        QVERIFY(ToolHarness::text(missing).contains(QStringLiteral("No symbol named nothing-by-this-name")));
        QCOMPARE(ToolHarness::structured(missing).value(QStringLiteral("found")).toBool(), false);
    }
};

QTEST_GUILESS_MAIN(TestToolsTestsAndDocs)
#include "tst_tools_testsanddocs.moc"
