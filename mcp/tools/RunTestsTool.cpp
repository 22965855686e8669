#include "Tools.h"

#include "JobHandles.h"

#include "client/EngineProtocol.h"
#include "EvalFormatter.h"
#include "schema/JsonSchema.h"
#include "ToolKit.h"

#include <QJsonArray>

namespace {
const auto System = Arg::string(QStringLiteral("system"), QStringLiteral("ASDF system whose tests to run, e.g. \"shapes\""))
                        .required(QStringLiteral("the ASDF system whose tests to run"))
                        .notBlank(QStringLiteral("must name an ASDF system, but it is empty"));
const auto Test = Arg::string(QStringLiteral("test"), QStringLiteral("One FiveAM test or suite to run alone"));
const auto Timeout = Arg::number(QStringLiteral("timeout_seconds"), QStringLiteral("Time limit (default 300)"), 1, 3600);
const auto Debug = Arg::boolean(QStringLiteral("debug"),
                                QStringLiteral("Park the first error or failed check in the debugger, in its test"));

// The report's output is the framework's own text; the structured failures say it better,
// so the text keeps only its end when it is long.
constexpr qsizetype OutputShown = 4000;

QJsonObject outputProperties()
{
    using namespace Schema;
    QJsonObject properties = ToolKit::jobStatusProperties();
    properties.insert(QStringLiteral("framework"), stringEnum(QStringLiteral("fiveam: every check in structure; rt, ptester: their printed summary "
                                                                             "read into counts and failures; asdf: only the test-op's output"),
                                                              {QStringLiteral("fiveam"), QStringLiteral("rt"), QStringLiteral("ptester"), QStringLiteral("asdf")}));
    properties.insert(QStringLiteral("outcome"), stringEnum(QStringLiteral("passed; failed (a check failed, or the output tells of a failure or an "
                                                                           "unhandled error: status is then \"failed\" too); unknown"),
                                                            {QStringLiteral("passed"), QStringLiteral("failed"), QStringLiteral("unknown")}));
    properties.insert(QStringLiteral("system"), string(QStringLiteral("The system asked for")));
    properties.insert(QStringLiteral("test"), nullableString(QStringLiteral("The one test or suite asked for, or null for all")));
    properties.insert(QStringLiteral("passed"), integer(QStringLiteral("Checks (FiveAM, ptester) or tests (RT) that passed; -1 when the framework does not say"), -1, 2147483647));
    properties.insert(QStringLiteral("failed"), integer(QStringLiteral("Checks that failed, errors included (RT: its unexpected failures); -1 when unknown"), -1, 2147483647));
    properties.insert(QStringLiteral("expected_failures"), integer(QStringLiteral("RT: failures the run's *expected-failures* names, not counted in failed"), 0, 2147483647));
    properties.insert(QStringLiteral("rt_tests_set_aside"), integer(QStringLiteral("RT tests of other systems in the session, left out of this run"), 0, 2147483647));
    properties.insert(QStringLiteral("test_op_error"),
                      nullableString(QStringLiteral("The error the test-op signalled after the tests reported (\"TYPE: message\"): a test-op "
                                                    "that refuses failures; the counts are the tests' own. Null when none")));
    properties.insert(QStringLiteral("test_op_defined"), boolean(QStringLiteral("False when the system's definition gives ASDF's test-op nothing to do")));
    properties.insert(QStringLiteral("skipped"), integer(QStringLiteral("Checks skipped; -1 when unknown"), -1, 2147483647));
    properties.insert(QStringLiteral("failures"),
                      objectArray(QStringLiteral("Every failed check, in the order they ran"),
                                  {{QStringLiteral("test"), string(QStringLiteral("The test's name"))},
                                   {QStringLiteral("form"), nullableString(QStringLiteral("The failing check, printed; null for an error outside a check"))},
                                   {QStringLiteral("expected"), nullableString(QStringLiteral("The expected value, printed, when the check compared two values"))},
                                   {QStringLiteral("actual"), nullableString(QStringLiteral("The actual value, printed"))},
                                   {QStringLiteral("expected_failure"), boolean(QStringLiteral("RT: the run expected this test to fail"))},
                                   {QStringLiteral("reason"), string(QStringLiteral("FiveAM's reason; \"error: ...\" for an unexpected error"))}},
                                  {QStringLiteral("test"), QStringLiteral("reason")}));
    properties.insert(QStringLiteral("output"), string(QStringLiteral("What the tests printed, captured (capped like evaluation output)")));
    properties.insert(QStringLiteral("warnings"), stringArray(QStringLiteral("Warnings signalled while loading and running")));
    properties.insert(QStringLiteral("duration_ms"), number(QStringLiteral("Time the run took"), 0, 1e12));
    return properties;
}

QString countText(int count)
{
    return count < 0 ? QStringLiteral("?") : QString::number(count);
}

// A value over several lines (RT's multiple values, a pretty-printed form) stays aligned
// under its label.
QString indented(const QString &value)
{
    QString text = value;
    return text.replace(QLatin1Char('\n'), QStringLiteral("\n            "));
}

QString failureText(const EngineProtocol::TestRunReply::Failure &failure)
{
    const bool expected = failure.json.value(QStringLiteral("expected_failure")).toBool();
    QString text = QStringLiteral("%1 %2").arg(expected ? QStringLiteral("EXPECTED FAIL") : QStringLiteral("FAIL"), failure.test());
    if (!failure.form().isEmpty())
        text += QStringLiteral("\n  form:     %1").arg(indented(failure.form()));
    if (failure.expected().isString())
        text += QStringLiteral("\n  expected: %1").arg(indented(failure.expected().toString()));
    if (failure.actual().isString())
        text += QStringLiteral("\n  actual:   %1").arg(indented(failure.actual().toString()));
    text += QStringLiteral("\n  reason:   %1").arg(failure.reason());
    return text;
}

ToolResult reported(const Job &job, const QString &system)
{
    const EngineProtocol::TestRunReply reply(job.result.reply);
    QJsonObject structured = ToolKit::jobStatus(job.result);
    structured.insert(QStringLiteral("system"), system);
    structured.insert(QStringLiteral("duration_ms"), double(job.result.realMicroseconds) / 1000.0);
    structured.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(job.result.warnings));
    if (!job.result.ok())
        return ToolKit::jobError(job, structured);

    for (const char *field : {"framework", "test", "passed", "failed", "skipped", "expected_failures", "rt_tests_set_aside", "test_op_defined",
                              "test_op_error", "failures", "output", "outcome"})
        structured.insert(QLatin1String(field), reply.json().value(QLatin1String(field)));
    // The job ran; whether the tests passed is the run's status too.
    if (reply.outcome() == QLatin1String("failed"))
        structured.insert(QStringLiteral("status"), QStringLiteral("failed"));

    const QString which = reply.test().isEmpty() ? system : QStringLiteral("%1 (%2)").arg(system, reply.test());
    QString text;
    const QString framework = reply.framework();
    const QString refusal = reply.testOpError();
    if (framework == QLatin1String("fiveam") || framework == QLatin1String("rt") || framework == QLatin1String("ptester")) {
        const QString counted = framework == QLatin1String("fiveam") ? QStringLiteral("FiveAM checks")
            : framework == QLatin1String("rt")                       ? QStringLiteral("RT tests, from its summary")
                                                                     : QStringLiteral("ptester checks, from its summary");
        text = QStringLiteral("Tests of %1: %2 passed, %3 failed, %4 skipped").arg(which, countText(reply.passed()), countText(reply.failed()), countText(reply.skipped()));
        if (const int expected = reply.json().value(QStringLiteral("expected_failures")).toInt(); expected > 0)
            text += QStringLiteral(", %1 expected failure%2").arg(expected).arg(expected == 1 ? QString() : QStringLiteral("s"));
        text += QStringLiteral(" (%1)").arg(counted);
        if (!refusal.isEmpty())
            text += QStringLiteral("\nThen the test-op signalled %1").arg(refusal);
        else if (reply.outcome() == QLatin1String("failed") && reply.failed() == 0)
            text += QStringLiteral("\nThe output tells of an unexpected error: read it.");
        if (const int aside = reply.json().value(QStringLiteral("rt_tests_set_aside")).toInt(); aside > 0)
            text += QStringLiteral("\n%1 RT test%2 of other systems in the session left out of this run.").arg(aside).arg(aside == 1 ? QString() : QStringLiteral("s"));
        for (const auto &failure : reply.failures())
            text += QLatin1String("\n\n") + failureText(failure);
    } else if (reply.outcome() == QLatin1String("failed")) {
        text = QStringLiteral("Tests of %1 ran through ASDF's test-op, and the output tells of a failure or an unexpected error "
                              "(no framework summary Lisp Duet reads, so no counts): read the output.").arg(which);
    } else if (!reply.json().value(QStringLiteral("test_op_defined")).toBool(true)) {
        text = QStringLiteral("Tests of %1: none ran. The definition of %1 gives ASDF's test-op nothing to do (no :in-order-to "
                              "(test-op ...), no perform method), so test-op did nothing and printed nothing. Its tests, if it has "
                              "any, run some other way: a test system or file its .asd does not name, or a function to call.").arg(which);
    } else if (reply.output().trimmed().isEmpty()) {
        text = QStringLiteral("Tests of %1 ran through ASDF's test-op, which printed nothing and ran no FiveAM, RT or ptester test: "
                              "no counts, and no output to read (a test-op that only returns a value says nothing here).").arg(which);
    } else {
        text = QStringLiteral("Tests of %1 ran through ASDF's test-op: no summary of FiveAM, RT or ptester, so no counts; read the output.").arg(which);
    }
    EvalFormatter::appendSection(text, EvalFormatter::warningsSection(job.result.warnings));
    EvalFormatter::appendSection(text, EvalFormatter::section(QStringLiteral("output"), reply.output().trimmed(), OutputShown));
    return ToolResult{text, structured, false};
}
} // namespace

Tool runTestsTool(Session *session, JobHandles *jobs)
{
    ToolSpec spec{
        .name = QStringLiteral("run-tests"),
        .title = QStringLiteral("Run tests"),
        .description = QStringLiteral(
            "Run a system's tests (ASDF's test-op, or one FiveAM test or suite) in the session. FiveAM: counts of checks and "
            "each failure (test, form, expected, actual, reason); RT, ptester: read from their report; others: the output. "
            "status \"failed\" if a check failed."),
        .arguments = {System, Test, Timeout, ToolKit::descriptionArgument(), Debug, ToolKit::waitSecondsArgument()},
        .outputProperties = ToolKit::withRunningProperties(outputProperties()),
        .outputRequired = {QStringLiteral("status")},
        .hints = Hints::Destructive,
        .intent = [](const QJsonObject &arguments) {
            const QString system = arguments.value(QStringLiteral("system")).toString();
            const QString test = arguments.value(QStringLiteral("test")).toString();
            return test.isEmpty() ? QStringLiteral("run the tests of system %1").arg(system)
                                  : QStringLiteral("run test %1 of system %2").arg(test, system);
        },
    };
    return Tool(spec, [session, jobs](const ToolCallPtr &call, const ToolArguments &arguments) {
        const QString system = arguments.text(System).trimmed();
        JobRequest request = EngineProtocol::testRun(system, arguments.text(Test).trimmed());
        request.timeoutMs = int(arguments.value(Timeout, EngineProtocol::DefaultTestRunTimeoutMs / 1000) * 1000);
        request.description = arguments.text(ToolKit::descriptionArgument());
        request.debug = arguments.value(Debug, false);
        ToolKit::submit(session, jobs, call, request, [system](const Job &job) { return reported(job, system); }, ToolKit::waitMsOf(arguments));
    });
}
