// EngineProtocol's views over what the engine sends, each read over a reply of the real kernel:
// a field the host spells differently from the kernel reads as empty here, not in a tool's
// result three layers up.

#include "../common/EngineHarness.h"

#include "client/EngineProtocol.h"

#include <QJsonArray>

using namespace EngineProtocol;

class TestEngineProtocolViews : public QObject
{
    Q_OBJECT

    std::unique_ptr<EngineHarness> m_h;

    // The engine's reply to a question, or an empty object if none came.
    QJsonObject ask(const Query &query)
    {
        QJsonObject reply;
        bool answered = false;
        m_h->session.query(query, [&](const QJsonObject &json) {
            reply = json;
            answered = true;
        });
        (void)QTest::qWaitFor([&answered] { return answered; }, 20000);
        return reply;
    }
    // The whole reply of a job.
    QJsonObject run(const JobRequest &request)
    {
        const JobPtr job = m_h->run(request);
        return job ? job->result.reply : QJsonObject();
    }
    static QStringList strings(const QJsonArray &array)
    {
        QStringList list;
        for (const QJsonValue &value : array)
            list << (value.isObject() ? value.toObject().value("name").toString() : value.toString());
        return list;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_h = std::make_unique<EngineHarness>();
        QVERIFY(m_h->waitReady());
        QVERIFY(m_h->result("(defun proto-square (x) \"Squares X.\" (* x x)) (defvar *proto-count* 3)").ok());
    }
    void cleanupTestCase() { m_h.reset(); }

    void aReplyTheSessionMakesForAFailureSaysWhy()
    {
        const Reply reply(Reply::failure(QStringLiteral("The engine is not running.")));
        QVERIFY(reply.failed());
        QVERIFY(!reply.ok());
        QCOMPARE(reply.errorMessage(), QStringLiteral("The engine is not running."));
    }

    void anEvaluationGivesItsValuesPackageAndAResultIdForAnObject()
    {
        const QJsonObject list = run(evaluation(QStringLiteral("(list 1 2 3)")));
        QVERIFY(Reply(list).ok());
        const JobResult result = jobResult(list);
        QCOMPARE(result.values, QStringList{QStringLiteral("(1 2 3)")});
        QCOMPARE(result.package, QStringLiteral("COMMON-LISP-USER"));
        QVERIFY(result.realMicroseconds > 0);
        QVERIFY(!EvalReply(list).resultId().isEmpty());
        QVERIFY(EvalReply(run(evaluation(QStringLiteral("(+ 1 2)")))).resultId().isEmpty()); // a number is shown whole
    }

    void anErrorGivesItsTypeMessageAndBacktrace()
    {
        const QJsonObject reply = run(evaluation(QStringLiteral("(car 5)")));
        const Reply view(reply);
        QVERIFY(!view.ok());
        QVERIFY2(view.errorType().endsWith(QStringLiteral("TYPE-ERROR")), qPrintable(view.errorType())); // ECL: SIMPLE-TYPE-ERROR
        QVERIFY(!view.errorMessage().isEmpty());
        const JobResult result = jobResult(reply);
        QCOMPARE(result.status, JobResult::Status::Error);
        QCOMPARE(result.error.type, view.errorType());
        QVERIFY(!result.error.phase.isEmpty());
    }

    void aTimedEvaluationGivesAllocationAndCollections()
    {
        const TimingReply timing(run(timedEvaluation(QStringLiteral("(length (make-list 100000))"))));
        QVERIFY(timing.ok());
        QVERIFY(timing.hasTiming());
        QVERIFY2(timing.bytesAllocated() >= 100000 * 8, qPrintable(QString::number(timing.bytesAllocated())));
        QVERIFY(timing.gcCount() >= 0 && timing.gcMs() >= 0);
    }

    void aCompilationGivesEachFormAndEachDiagnostic()
    {
        const CompileReply compiled(run(compilation(QStringLiteral("(defun proto-broken (x)\n  (+ x undefined-variable))"))));
        QVERIFY(compiled.ok());
        QCOMPARE(compiled.forms().size(), 1);
        const CompileReply::Form form(compiled.forms().first());
        QCOMPARE(form.index().toInt(-1), 0);
        QCOMPARE(form.line(), 1);
        QVERIFY2(form.text().startsWith(QStringLiteral("(DEFUN PROTO-BROKEN")), qPrintable(form.text())); // as the reader read it
        QVERIFY(!compiled.diagnostics().isEmpty());
        const CompileReply::Diagnostic diagnostic(compiled.diagnostics().first());
        QVERIFY2(QStringList({"error", "warning", "style-warning", "note"}).contains(diagnostic.severity()), qPrintable(diagnostic.severity()));
        QCOMPARE(diagnostic.form().toInt(-1), 0);
    }

    void aMacroexpansionGivesTheExpansion()
    {
        const MacroexpandReply once(run(macroexpansion(QStringLiteral("(when a b)"), false)));
        QVERIFY(once.expanded());
        QVERIFY(!once.full());
        QVERIFY2(once.expansion().startsWith(QStringLiteral("(IF A")), qPrintable(once.expansion()));
        QVERIFY(MacroexpandReply(run(macroexpansion(QStringLiteral("(when a b)"), true))).full());
    }

    void completionsAndArglistsComeFromTheLiveImage()
    {
        const CompletionReply completions(ask(completion(QStringLiteral("proto-squ"))));
        QVERIFY(completions.ok());
        QCOMPARE(completions.total(), 1);
        QCOMPARE(strings(completions.completions()), QStringList{QStringLiteral("proto-square")});
        const ArglistReply arglist(ask(EngineProtocol::arglist(QStringLiteral("proto-square"))));
        QCOMPARE(arglist.kind(), QStringLiteral("function"));
        QCOMPARE(arglist.lambdaList(), QStringLiteral("(X)"));
        QVERIFY(arglist.name().contains(QStringLiteral("PROTO-SQUARE"), Qt::CaseInsensitive));
    }

    void definitionsNameEachOfTheSessionsOwn()
    {
        const DefinitionsReply reply(ask(definitions()));
        QVERIFY(reply.ok());
        QVERIFY(reply.hasDefinitions());
        QHash<QString, QJsonValue> byName;
        for (const QJsonValue &value : reply.definitions())
            byName.insert(DefinitionsReply::Entry(value).name(), value);
        QVERIFY2(byName.contains(QStringLiteral("PROTO-SQUARE")), qPrintable(byName.keys().join(QLatin1Char(' '))));
        const DefinitionsReply::Entry square(byName.value(QStringLiteral("PROTO-SQUARE")));
        const DefinitionsReply::Entry count(byName.value(QStringLiteral("*PROTO-COUNT*")));
        QCOMPARE(square.kind(), QStringLiteral("function"));
        QCOMPARE(square.lambdaList().toString(), QStringLiteral("(X)"));
        QCOMPARE(count.kind(), QStringLiteral("variable"));
        QCOMPARE(count.value().toString(), QStringLiteral("3"));
        QVERIFY(square.file().isNull() || square.file().isUndefined()); // typed in, not loaded from a file
        QCOMPARE(square.line(), 0);
    }

    void aDescriptionSaysWhatANameIsAndWhereItCameFrom()
    {
        const DescribeReply mine(ask(description(QStringLiteral("proto-square"))));
        QVERIFY(mine.found());
        QCOMPARE(mine.name(), QStringLiteral("PROTO-SQUARE"));
        QCOMPARE(mine.package().toString(), QStringLiteral("COMMON-LISP-USER"));
        QVERIFY(strings(mine.kinds()).contains(QStringLiteral("function")));
        QCOMPARE(mine.lambdaList().toString(), QStringLiteral("(X)"));
        QCOMPARE(mine.functionDocumentation().toString(), QStringLiteral("Squares X."));
        QVERIFY(!mine.locations().isEmpty());
        const DescribeReply::Location location(mine.locations().first());
        QCOMPARE(location.where(), QStringLiteral("session"));
        QVERIFY2(location.form().startsWith(QStringLiteral("(DEFUN PROTO-SQUARE (X)")), qPrintable(location.form()));
        QCOMPARE(location.kind(), QStringLiteral("function"));
        const DescribeReply counter(ask(description(QStringLiteral("*proto-count*"))));
        QCOMPARE(counter.value().toString(), QStringLiteral("3"));
        const DescribeReply missing(ask(description(QStringLiteral("no-such-symbol-anywhere"))));
        QVERIFY(!missing.found());
        QVERIFY(!missing.message().isEmpty());
    }

    void aproposFindsMatchesWithTheirKinds()
    {
        const AproposReply reply(ask(apropos(QStringLiteral("mapc"), QStringLiteral("COMMON-LISP"), 10)));
        QVERIFY(reply.total() >= 4);
        bool sawMapcar = false;
        for (const QJsonValue &value : reply.matches()) {
            const AproposReply::Match match(value);
            if (match.name() == QStringLiteral("MAPCAR")) {
                sawMapcar = true;
                QCOMPARE(match.package().toString(), QStringLiteral("COMMON-LISP"));
                QVERIFY(match.kinds().contains(QStringLiteral("function")));
            }
        }
        QVERIFY(sawMapcar);
    }

    void anInspectionWalksAValueByItsResultId()
    {
        const QString id = EvalReply(run(evaluation(QStringLiteral("(list 10 (list 20) \"thirty\")")))).resultId();
        QVERIFY(!id.isEmpty());
        const InspectReply reply(ask(inspection(id, 0, 10)));
        QVERIFY(reply.found());
        QCOMPARE(reply.resultId().toString(), id);
        QCOMPARE(reply.total(), 3);
        QCOMPARE(reply.offset(), 0);
        QVERIFY(!reply.kind().toString().isEmpty() && !reply.summary().toString().isEmpty());
        QCOMPARE(reply.elements().size(), 3);
        const InspectReply::Element first(reply.elements().at(0));
        QCOMPARE(first.value(), QStringLiteral("10"));
        QVERIFY(first.resultId().isEmpty()); // a number is shown whole
        QVERIFY(!InspectReply::Element(reply.elements().at(1)).resultId().isEmpty());
        QVERIFY(!reply.attributes().contains(QStringLiteral("elements")));
    }

    void theLimitsAreReadBackAsTheEngineKeepsThem()
    {
        Limits limits;
        limits.printLength = 77;
        limits.maxOutputChars = 12345;
        const LimitsReply reply(ask(EngineProtocol::limits(limits)));
        QVERIFY(reply.ok());
        QCOMPARE(reply.printLength(), 77);
        QCOMPARE(reply.printLevel(), DefaultPrintLevel);
        QCOMPARE(reply.maxOutputChars(), 12345);
        QVERIFY(reply.heapLimitBytes() > 0);
        ask(EngineProtocol::limits(Limits{}));
    }

    void documentationGivesEveryDocstringOfAName()
    {
        const DocumentationReply standard(ask(documentation(QStringLiteral("mapcar"))));
        QVERIFY(standard.found());
        QVERIFY(standard.isStandard());
        QVERIFY(standard.kinds().contains(QStringLiteral("function")));
        QVERIFY(standard.documentation().contains(QStringLiteral("function")));
        const DocumentationReply mine(ask(documentation(QStringLiteral("proto-square"))));
        QVERIFY(!mine.isStandard());
        QCOMPARE(mine.name(), QStringLiteral("PROTO-SQUARE"));
        QCOMPARE(mine.documentation().value(QStringLiteral("function")).toString(), QStringLiteral("Squares X."));
        QCOMPARE(mine.lambdaList().toString(), QStringLiteral("(X)"));
    }

    void aLoadedSystemGivesItsVersionAndWarnings()
    {
        const LoadSystemReply reply(run(systemLoad(QStringLiteral("uiop"), false, false)));
        QVERIFY2(reply.ok(), qPrintable(reply.errorMessage()));
        QVERIFY(reply.version().isString() && !reply.version().toString().isEmpty());
        QVERIFY(reply.loadWarnings().isEmpty());
        const LoadSystemReply missing(run(systemLoad(QStringLiteral("no-such-system-anywhere"), false, false)));
        QVERIFY(!missing.ok());
        QVERIFY(missing.errorType().contains(QStringLiteral("MISSING-COMPONENT")));
    }

    // run-tests' reply in the shape the kernel sends (its own run against FiveAM is in
    // tests/mcp/tst_tools_testsanddocs, which compiles FiveAM).
    void aTestRunGivesCountsAndEachFailure()
    {
        const TestRunReply reply(QJsonObject{{"status", "ok"}, {"framework", "fiveam"}, {"system", "shapes"}, {"test", QJsonValue::Null},
                                             {"passed", 5}, {"failed", 1}, {"skipped", 0}, {"output", "Did 6 checks."},
                                             {"failures", QJsonArray{QJsonObject{{"test", "AREA-OF-A-SQUARE"}, {"form", "(= 9 (AREA S))"},
                                                                                 {"expected", "9"}, {"actual", "6"}, {"reason", "no"}}}}});
        QCOMPARE(reply.framework(), QStringLiteral("fiveam"));
        QCOMPARE(reply.test(), QString()); // null: the whole suite
        QCOMPARE(reply.passed() + reply.failed() + reply.skipped(), 6);
        QCOMPARE(reply.failures().size(), 1);
        QCOMPARE(reply.failures().first().expected().toString(), QStringLiteral("9"));
        QCOMPARE(reply.failures().first().actual().toString(), QStringLiteral("6"));
        QCOMPARE(reply.output(), QStringLiteral("Did 6 checks."));
    }
};

QTEST_GUILESS_MAIN(TestEngineProtocolViews)
#include "tst_engineprotocolviews.moc"
