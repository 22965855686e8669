// The tools that change or run things in the session, against the real engine through
// McpServer: reset-session, configure-limits, load-system, compile-form, time-execution and
// session-transcript.

#include "ToolHarness.h"
#include "client/EngineProtocol.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>

class TestToolsSession : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ToolHarness> m_h;
    QTemporaryDir m_systems;

    QJsonObject eval(const QString &code)
    {
        return m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), code}});
    }
    void writeFile(const QString &relative, const QByteArray &text)
    {
        const QString path = m_systems.filePath(relative);
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_systems.isValid());
        writeFile(QStringLiteral("greeter/greeter.asd"),
                  "(defsystem \"greeter\" :version \"0.3.1\" :components ((:file \"greeter\")))\n");
        writeFile(QStringLiteral("greeter/greeter.lisp"),
                  "(defpackage \"GREETER\" (:use \"CL\") (:export \"HELLO\"))\n(in-package \"GREETER\")\n"
                  "(defun hello (name) (format nil \"Hello, ~A\" name))\n");
        writeFile(QStringLiteral("nested/deeper/warner/warner.asd"),
                  "(defsystem \"warner\" :components ((:file \"warner\")))\n");
        writeFile(QStringLiteral("nested/deeper/warner/warner.lisp"),
                  "(defun warner-uses-a-free-variable () (1+ *warner-never-declared*))\n");
        writeFile(QStringLiteral("sleeper/sleeper.asd"), "(defsystem \"sleeper\" :components ((:file \"sleeper\")))\n");
        writeFile(QStringLiteral("sleeper/sleeper.lisp"), "(eval-when (:compile-toplevel :load-toplevel :execute) (sleep 60))\n");
        qputenv("LISP_DUET_SYSTEM_PATHS", QStringLiteral("/nonexistent-dir:%1").arg(m_systems.path()).toUtf8());
        m_h = std::make_unique<ToolHarness>();
        QVERIFY(m_h->waitUntilReady());
    }
    void cleanupTestCase() { m_h.reset(); }

    void resetSessionClearsDefinitionsAndAnswersOnceTheNewEngineIsReady()
    {
        eval(QStringLiteral("(defun survivor () :still-here)"));
        const qint64 before = m_h->m_engine.pid();
        const QJsonObject reset = m_h->call(QStringLiteral("reset-session"));
        QCOMPARE(ToolHarness::text(reset), QStringLiteral("Session reset. All definitions cleared."));
        QVERIFY(!ToolHarness::isError(reset));
        QVERIFY(m_h->m_engine.isReady()); // answered only once the new engine was ready
        QVERIFY(m_h->m_engine.pid() != before);
        QCOMPARE(qint64(ToolHarness::structured(reset).value(QStringLiteral("engine_pid")).toDouble()), m_h->m_engine.pid());
        const QJsonObject gone = eval(QStringLiteral("(survivor)"));
        QVERIFY(ToolHarness::isError(gone));
        QVERIFY(ToolHarness::text(gone).startsWith(QStringLiteral("[ERROR] UNDEFINED-FUNCTION")));
    }

    void resetSessionLeavesNoCallBehind()
    {
        // The call holds its trace: a trace that is gone is a call that is gone.
        QWeakPointer<RequestTrace> weak;
        QObject guard;
        QObject::connect(&m_h->m_server, &McpServer::requestTraced, &guard, [&weak](const RequestTracePtr &trace) {
            if (trace->tool() == QStringLiteral("reset-session"))
                weak = trace.toWeakRef();
        });
        QCOMPARE(ToolHarness::text(m_h->call(QStringLiteral("reset-session"))), QStringLiteral("Session reset. All definitions cleared."));
        QVERIFY(QTest::qWaitFor([&weak] { return weak.isNull(); }, 5000));
    }

    void configureLimitsReadsTheDefaults()
    {
        const QJsonObject result = m_h->call(QStringLiteral("configure-limits"));
        const QJsonObject s = ToolHarness::structured(result);
        QCOMPARE(s.value(QStringLiteral("timeout_seconds")).toDouble(), 300.0);
        QCOMPARE(s.value(QStringLiteral("max_output_chars")).toInt(), 100000);
        QCOMPARE(s.value(QStringLiteral("print_length")).toInt(), 100);
        QCOMPARE(s.value(QStringLiteral("print_level")).toInt(), 10);
        QCOMPARE(s.value(QStringLiteral("heap_limit_mb")).toDouble(), 4096.0);
        QVERIFY(ToolHarness::text(result).startsWith(QStringLiteral("[limits]\ntimeout: 300 s\nmax output: 100,000 characters")));
    }

    void configureLimitsAppliesToLaterEvaluationsAndSurvivesAReset()
    {
        const QJsonObject set = m_h->call(QStringLiteral("configure-limits"), {{QStringLiteral("max_output_chars"), 500}, {QStringLiteral("print_length"), 3},
                                                                                {QStringLiteral("timeout_seconds"), 5}});
        QCOMPARE(ToolHarness::structured(set).value(QStringLiteral("max_output_chars")).toInt(), 500);
        QCOMPARE(m_h->m_session.defaultTimeoutMs(), 5000);
        // Output past the cap is dropped in the engine as it is produced, and counted.
        const QJsonObject loud = eval(QStringLiteral("(progn (dotimes (i 1000) (princ \"0123456789\")) (make-list 10))"));
        QCOMPARE(ToolHarness::structured(loud).value(QStringLiteral("stdout")).toString().size(), 500);
        QCOMPARE(ToolHarness::structured(loud).value(QStringLiteral("output_truncated_chars")).toInt(), 10000 - 500);
        QVERIFY(ToolHarness::text(loud).endsWith(QStringLiteral("=> (NIL NIL NIL ...)")));
        // An evaluation that passes its own options still wins.
        const QJsonObject own = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(make-list 5)")}, {QStringLiteral("print_length"), 5}});
        QCOMPARE(ToolHarness::text(own), QStringLiteral("=> (NIL NIL NIL NIL NIL)"));

        m_h->call(QStringLiteral("reset-session"));
        // The new engine gets the limits before its first evaluation can start.
        QCOMPARE(ToolHarness::text(eval(QStringLiteral("(make-list 10)"))), QStringLiteral("=> (NIL NIL NIL ...)"));
        const QJsonObject after = m_h->call(QStringLiteral("configure-limits"));
        QCOMPARE(ToolHarness::structured(after).value(QStringLiteral("print_length")).toInt(), 3);
        QCOMPARE(ToolHarness::structured(after).value(QStringLiteral("timeout_seconds")).toDouble(), 5.0);
        m_h->call(QStringLiteral("configure-limits"), {{QStringLiteral("max_output_chars"), 100000}, {QStringLiteral("print_length"), 100},
                                                      {QStringLiteral("timeout_seconds"), 30}});
    }

    void configureLimitsHeapLimitHoldsAfterStorageIsExhausted()
    {
        const QJsonObject set = m_h->call(QStringLiteral("configure-limits"), {{QStringLiteral("heap_limit_mb"), 512}});
        QCOMPARE(ToolHarness::structured(set).value(QStringLiteral("heap_limit_mb")).toDouble(), 512.0);
        const QJsonObject big = eval(QStringLiteral("(length (make-array (* 1024 1024 1024) :element-type 'double-float))"));
        QVERIFY(ToolHarness::isError(big));
        QVERIFY2(ToolHarness::text(big).startsWith(QStringLiteral("[ERROR] EXT:STORAGE-EXHAUSTED")), qPrintable(ToolHarness::text(big)));
        const QJsonObject after = m_h->call(QStringLiteral("configure-limits"));
        QCOMPARE(ToolHarness::structured(after).value(QStringLiteral("heap_limit_mb")).toDouble(), 512.0);
        QCOMPARE(ToolHarness::text(eval(QStringLiteral("(+ 1 2)"))), QStringLiteral("=> 3"));
        m_h->call(QStringLiteral("configure-limits"), {{QStringLiteral("heap_limit_mb"), 4096}});
    }

    void loadSystemLoadsASystemFromTheConfiguredPaths()
    {
        const QJsonObject result = m_h->call(QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("greeter")}}, 120000);
        // Seed 001's two lines, then what the library runs as (issue 39: a first load is bytecode;
        // the suites run with background compiles off, so it stays bytecode and says why).
        QCOMPARE(ToolHarness::text(result), QStringLiteral("Loading system: greeter\nLoaded: greeter (version 0.3.1)\n\nLibraries:\n"
                                                           "- greeter runs as bytecode (1 file): Compiling libraries in the background is "
                                                           "off (LISP_DUET_LIBRARY_NATIVE=0): libraries loaded as bytecode stay bytecode "
                                                           "in this engine."));
        const QJsonObject s = ToolHarness::structured(result);
        QCOMPARE(s.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
        QCOMPARE(s.value(QStringLiteral("version")).toString(), QStringLiteral("0.3.1"));
        QCOMPARE(s.value(QStringLiteral("warning_count")).toInt(), 0);
        QVERIFY(s.value(QStringLiteral("compiler_output")).isNull());
        QCOMPARE(ToolHarness::text(eval(QStringLiteral("(greeter:hello \"you\")"))), QStringLiteral("=> \"Hello, you\""));
        // A loaded library is not the session's own work.
        QVERIFY(!ToolHarness::text(m_h->call(QStringLiteral("list-definitions"))).contains(QStringLiteral("HELLO")));
        QVERIFY(ToolHarness::text(m_h->call(QStringLiteral("list-definitions"), {{QStringLiteral("package"), QStringLiteral("greeter")}}))
                    .contains(QStringLiteral("- GREETER:HELLO (GREETER::NAME)")));
    }

    void loadSystemWithForceAndVerboseRecompilesAndShowsCompilerOutput()
    {
        const QJsonObject result = m_h->call(QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("greeter")},
                                                                            {QStringLiteral("force"), true}, {QStringLiteral("verbose"), true}}, 120000);
        const QString text = ToolHarness::text(result);
        QVERIFY2(text.contains(QStringLiteral("Forced a reload")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("[compiler output]")) && text.contains(QStringLiteral("greeter.lisp")), qPrintable(text));
        QCOMPARE(ToolHarness::structured(result).value(QStringLiteral("forced")).toBool(), true);
    }

    void loadSystemCountsAndListsWarnings()
    {
        // The project's own systems compile natively, with ECL's compiler warnings; a library
        // (outside the project root) loads as bytecode first, which warns of nothing (issue 39).
        bool rooted = false;
        m_h->m_session.query(EngineProtocol::projectRoot(m_systems.filePath(QStringLiteral("nested"))),
                             [&](const QJsonObject &) { rooted = true; });
        QVERIFY(QTest::qWaitFor([&] { return rooted; }, 30000));
        const QJsonObject result = m_h->call(QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("warner")}}, 120000);
        const QJsonObject s = ToolHarness::structured(result);
        QVERIFY2(s.value(QStringLiteral("warning_count")).toInt() >= 1, qPrintable(ToolHarness::text(result)));
        QVERIFY2(ToolHarness::text(result).contains(QStringLiteral("*WARNER-NEVER-DECLARED*")), qPrintable(ToolHarness::text(result)));
        QVERIFY(ToolHarness::text(result).contains(QStringLiteral("[warnings] ")));
    }

    void loadSystemReportsASystemThatDoesNotExist()
    {
        const QJsonObject result = m_h->call(QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("nonexistent-system")}}, 120000);
        QVERIFY(ToolHarness::isError(result));
        QCOMPARE(ToolHarness::text(result), QStringLiteral("[ERROR] ASDF/FIND-SYSTEM:MISSING-COMPONENT\nSystem \"nonexistent-system\" not found."));
        QCOMPARE(ToolHarness::structured(result).value(QStringLiteral("status")).toString(), QStringLiteral("error"));
    }

    void loadSystemStopsAtItsTimeLimitAndTheSessionGoesOn()
    {
        QElapsedTimer clock;
        clock.start();
        const QJsonObject result = m_h->call(QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("sleeper")},
                                                                            {QStringLiteral("timeout_seconds"), 1}}, 30000);
        QVERIFY(ToolHarness::isError(result));
        QVERIFY2(ToolHarness::text(result).startsWith(QStringLiteral("[ERROR] TIMEOUT\nThe evaluation did not finish within 1 s")), qPrintable(ToolHarness::text(result)));
        QCOMPARE(ToolHarness::structured(result).value(QStringLiteral("status")).toString(), QStringLiteral("timed-out"));
        QVERIFY(clock.elapsed() < 20000);
        QCOMPARE(ToolHarness::text(eval(QStringLiteral("(greeter:hello \"again\")"))), QStringLiteral("=> \"Hello, again\""));
    }

    void loadSystemLoadsAnEclContrib()
    {
        const QJsonObject result = m_h->call(QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("deflate")}}, 120000);
        QVERIFY2(!ToolHarness::isError(result), qPrintable(ToolHarness::text(result)));
        QVERIFY(ToolHarness::text(result).startsWith(QStringLiteral("Loading system: deflate\nLoaded: deflate (version ")));
    }

    void compileFormReportsProblemsPerFormWithoutDefiningAnything()
    {
        const QString code = QStringLiteral("(defun qq (a b)\n  (let ((y 1)) (car 1 2) (undefined-fn a)))\n(defun ok (x) (qq x))\n(defmacro compiled-only (x) x)");
        const QJsonObject result = m_h->call(QStringLiteral("compile-form"), {{QStringLiteral("code"), code}}, 120000);
        QVERIFY(!ToolHarness::isError(result));
        const QString text = ToolHarness::text(result);
        const QJsonObject s = ToolHarness::structured(result);
        QCOMPARE(s.value(QStringLiteral("compiled")).toBool(), false);
        QCOMPARE(s.value(QStringLiteral("forms")).toArray().size(), 3);
        QVERIFY2(text.startsWith(QStringLiteral("Compiled: no (3 forms; nothing was defined or run)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("[form 1, line 1] (DEFUN QQ (A B)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("ERROR: Wrong number of arguments for function CAR")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("WARNING: undefined function: UNDEFINED-FN")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("STYLE-WARNING: The variable Y is defined but never used.")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("[form 2, line 3] (DEFUN OK (X) (QQ X))\n  WARNING: The function QQ is called with 1 argument, but wants exactly 2.")), qPrintable(text));
        QVERIFY(s.value(QStringLiteral("counts")).toObject().value(QStringLiteral("error")).toInt() >= 1);
        const QJsonObject defined = eval(QStringLiteral("(list (fboundp 'qq) (fboundp 'ok) (macro-function 'compiled-only))"));
        QCOMPARE(ToolHarness::text(defined), QStringLiteral("=> (NIL NIL NIL)"));
    }

    void compileFormOfCleanCodeCompiles()
    {
        const QJsonObject result = m_h->call(QStringLiteral("compile-form"), {{QStringLiteral("code"), QStringLiteral("(defun add2 (x) (+ x 2)) (defun use-add2 () (add2 40))")}}, 120000);
        QCOMPARE(ToolHarness::text(result), QStringLiteral("Compiled: yes (2 forms; nothing was defined or run)"));
    }

    void compileFormOfUnreadableCodeSaysSo()
    {
        const QJsonObject result = m_h->call(QStringLiteral("compile-form"), {{QStringLiteral("code"), QStringLiteral("(defun broken ( (x)")}}, 120000);
        const QJsonObject s = ToolHarness::structured(result);
        QCOMPARE(s.value(QStringLiteral("compiled")).toBool(), false);
        const QJsonObject diagnostic = s.value(QStringLiteral("diagnostics")).toArray().first().toObject();
        QCOMPARE(diagnostic.value(QStringLiteral("source")).toString(), QStringLiteral("reader"));
        QVERIFY(ToolHarness::text(result).contains(QStringLiteral("END-OF-FILE")));
    }

    void timeExecutionAddsATimingSectionToTheEvaluationText()
    {
        const QJsonObject result = m_h->call(QStringLiteral("time-execution"), {{QStringLiteral("code"), QStringLiteral("(progn (princ \"hi\") (length (make-list 200000)))")}});
        const QString text = ToolHarness::text(result);
        QVERIFY2(text.startsWith(QStringLiteral("[stdout]\nhi\n\n=> 200000\n\n[timing]\nreal time: ")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("\nrun time: ")) && text.contains(QStringLiteral("\nGC time: ")) && text.contains(QStringLiteral("\nbytes allocated: ")));
        const QJsonObject timing = ToolHarness::structured(result).value(QStringLiteral("timing")).toObject();
        QVERIFY(timing.value(QStringLiteral("bytes_allocated")).toDouble() >= 200000 * 16); // a cons is two words
        QVERIFY(timing.value(QStringLiteral("real_ms")).toDouble() > 0);
    }

    void timeExecutionOfAnErrorIsAnErrorWithTiming()
    {
        const QJsonObject result = m_h->call(QStringLiteral("time-execution"), {{QStringLiteral("code"), QStringLiteral("(/ 1 0)")}});
        QVERIFY(ToolHarness::isError(result));
        QVERIFY(ToolHarness::text(result).startsWith(QStringLiteral("[ERROR] DIVISION-BY-ZERO")));
        QVERIFY(ToolHarness::text(result).contains(QStringLiteral("[timing]")));
    }

    void sessionTranscriptListsNewestLastAndFiltersByOrigin()
    {
        JobRequest byPerson;
        byPerson.code = QStringLiteral("(defvar *typed-by-person* 1)");
        const quint64 id = m_h->m_session.submit(byPerson);
        QVERIFY(QTest::qWaitFor([&] { return !m_h->m_session.job(id); }, 10000));
        eval(QStringLiteral("(+ 40 2)"));
        const QJsonObject all = m_h->call(QStringLiteral("session-transcript"), {{QStringLiteral("limit"), 2}});
        const QJsonArray entries = ToolHarness::structured(all).value(QStringLiteral("entries")).toArray();
        QCOMPARE(entries.size(), 2);
        QCOMPARE(entries.at(0).toObject().value(QStringLiteral("who")).toString(), QStringLiteral("You"));
        QCOMPARE(entries.at(1).toObject().value(QStringLiteral("code")).toString(), QStringLiteral("(+ 40 2)"));
        QCOMPARE(entries.at(1).toObject().value(QStringLiteral("result")).toString(), QStringLiteral("=> 42"));
        QVERIFY(ToolHarness::text(all).endsWith(QStringLiteral("tool-test [eval]: (+ 40 2)\n  => 42")));
        const QJsonObject person = m_h->call(QStringLiteral("session-transcript"), {{QStringLiteral("origin"), QStringLiteral("person")}});
        for (const QJsonValue &e : ToolHarness::structured(person).value(QStringLiteral("entries")).toArray())
            QCOMPARE(e.toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("person"));
        QVERIFY(ToolHarness::structured(person).value(QStringLiteral("total")).toInt() >= 1);
        QCOMPARE(ToolHarness::text(m_h->call(QStringLiteral("session-transcript"), {{QStringLiteral("origin"), QStringLiteral("nobody-at-all")}})),
                 QStringLiteral("No transcript entries by \"nobody-at-all\"."));
    }

    // Issue 41: after the editor (here, the person) evaluated one 16 MiB form, every
    // session-transcript answer was 16 MiB, and HTTP clients were cut off for not reading it.
    void aHugeFormIsCutInTheTranscriptAndSaysHowMuch()
    {
        JobRequest huge;
        huge.code = QStringLiteral("(length \"") + QString(16 * 1024 * 1024, QLatin1Char('x')) + QStringLiteral("\")");
        const quint64 id = m_h->m_session.submit(huge);
        QVERIFY(QTest::qWaitFor([&] { return !m_h->m_session.job(id); }, 120000));
        const QJsonObject answer = m_h->call(QStringLiteral("session-transcript"), {{QStringLiteral("limit"), 3}});
        const QJsonArray entries = ToolHarness::structured(answer).value(QStringLiteral("entries")).toArray();
        QJsonObject entry;
        for (const QJsonValue &v : entries)
            if (v.toObject().value(QStringLiteral("code_chars")).toDouble() > 0)
                entry = v.toObject();
        QCOMPARE(entry.value(QStringLiteral("code_chars")).toInteger(), huge.code.size());
        QVERIFY(entry.value(QStringLiteral("code")).toString().size() < 4100);
        QVERIFY2(entry.value(QStringLiteral("code")).toString().endsWith(QStringLiteral("more characters]")),
                 qPrintable(entry.value(QStringLiteral("code")).toString().right(80)));
        QCOMPARE(entry.value(QStringLiteral("result")).toString(), QStringLiteral("=> 16777216"));
        QVERIFY(QJsonDocument(answer).toJson(QJsonDocument::Compact).size() < 64 * 1024);
    }
};

QTEST_GUILESS_MAIN(TestToolsSession)
#include "tst_tools_session.moc"
