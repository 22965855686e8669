// run-tests against a plain ECL on every system Debian packages whose tests use RT, FiveAM or
// ptester (issue 33): for each, (asdf:test-system NAME) in a plain `ecl` with its summary read
// (tests/corpus/PlainEclRun.h), then run-tests through the MCP tool, all in ONE session one
// after the other, as a shared session runs them. Prints a Markdown table, a row as each system
// finishes (also appended to the file given with --out). Not a test: some systems need what
// this machine lacks (a PostgreSQL server, the network), and the table says what each did.
//
//   build/bin/bench_test_counts [--out FILE] [--timeout SECONDS] [SYSTEM...]
// (BENCH_SHOW_TEXT=1: run-tests' whole answer for each system on stderr.)

#include "PlainEclRun.h"
#include "ToolHarness.h"

#include <QCoreApplication>
#include <QFile>

namespace {
// Which framework each system's tests use (their .asd files under /usr/share/common-lisp/source).
const QList<QPair<QString, QString>> DefaultSystems{
    {QStringLiteral("alexandria"), QStringLiteral("rt")},        {QStringLiteral("anaphora"), QStringLiteral("rt")},
    {QStringLiteral("cffi"), QStringLiteral("rt")},              {QStringLiteral("iterate"), QStringLiteral("rt")},
    {QStringLiteral("kmrcl"), QStringLiteral("rt")},             {QStringLiteral("trivial-features-tests"), QStringLiteral("rt")},
    {QStringLiteral("trivial-garbage"), QStringLiteral("rt")},   {QStringLiteral("usocket"), QStringLiteral("rt")},
    {QStringLiteral("hyperobject"), QStringLiteral("rt")},       {QStringLiteral("nibbles"), QStringLiteral("rt")},
    {QStringLiteral("named-readtables"), QStringLiteral("rt")},  {QStringLiteral("ironclad"), QStringLiteral("rt")},
    {QStringLiteral("bordeaux-threads"), QStringLiteral("fiveam")}, {QStringLiteral("cl+ssl"), QStringLiteral("fiveam")},
    {QStringLiteral("split-sequence"), QStringLiteral("fiveam")}, {QStringLiteral("esrap"), QStringLiteral("fiveam")},
    {QStringLiteral("fiveam"), QStringLiteral("fiveam")},        {QStringLiteral("xmls"), QStringLiteral("fiveam")},
    {QStringLiteral("drakma"), QStringLiteral("fiveam")},        {QStringLiteral("cl-postgres"), QStringLiteral("fiveam")},
    {QStringLiteral("s-sql"), QStringLiteral("fiveam")},         {QStringLiteral("simple-date"), QStringLiteral("fiveam")},
    {QStringLiteral("postmodern"), QStringLiteral("fiveam")},    {QStringLiteral("cl-base64"), QStringLiteral("ptester")},
    {QStringLiteral("puri"), QStringLiteral("ptester")},         {QStringLiteral("getopt"), QStringLiteral("ptester")},
};

QString counts(int passed, int failed, int expected, int skipped)
{
    if (passed < 0)
        return QStringLiteral("no counts");
    QString text = QStringLiteral("%1 / %2").arg(passed).arg(failed);
    if (expected > 0)
        text += QStringLiteral(" (+%1 expected)").arg(expected);
    if (skipped > 0)
        text += QStringLiteral(" (%1 skipped)").arg(skipped);
    return text;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    QString outPath;
    int timeoutSeconds = 900;
    QList<QPair<QString, QString>> systems;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--out") && i + 1 < args.size())
            outPath = args[++i];
        else if (args[i] == QLatin1String("--timeout") && i + 1 < args.size())
            timeoutSeconds = args[++i].toInt();
        else
            systems.append({args[i], QStringLiteral("?")});
    }
    if (systems.isEmpty())
        systems = DefaultSystems;
    QFile out(outPath);
    if (!outPath.isEmpty() && !out.open(QIODevice::Append | QIODevice::Text))
        qFatal("cannot write %s", qPrintable(outPath));
    auto report = [&](const QString &line) {
        printf("%s\n", qPrintable(line));
        fflush(stdout);
        if (out.isOpen()) {
            out.write(line.toUtf8() + '\n');
            out.flush();
        }
    };
    report(QStringLiteral("| system | framework | run-tests passed / failed | status | plain ECL passed / failed | agree | run-tests s | plain s |"));
    report(QStringLiteral("|---|---|---|---|---|---|---|---|"));
    ToolHarness harness;
    if (!harness.waitUntilReady(60000))
        qFatal("the engine did not start");
    for (const auto &[system, framework] : std::as_const(systems)) {
        const PlainEclRun plain = PlainEclRun::of(system, timeoutSeconds * 1000);
        QElapsedTimer clock;
        clock.start();
        const QJsonObject run = harness.call(QStringLiteral("run-tests"), {{QStringLiteral("system"), system}, {QStringLiteral("timeout_seconds"), timeoutSeconds},
                                              {QStringLiteral("wait_seconds"), std::min(timeoutSeconds + 10, 3600)}},
                                             (timeoutSeconds + 30) * 1000);
        const qint64 ms = clock.elapsed();
        if (qEnvironmentVariableIsSet("BENCH_SHOW_TEXT")) // what run-tests answered, in full, on stderr
            fprintf(stderr, "%s\n", qPrintable(ToolHarness::text(run)));
        const QJsonObject result = ToolHarness::structured(run);
        const bool error = run.isEmpty() || ToolHarness::isError(run);
        // An error's text may start with the output before it: its "[ERROR] TYPE" line says it.
        const QString text = ToolHarness::text(run);
        const qsizetype errorLine = text.indexOf(QLatin1String("[ERROR]"));
        const QString status = run.isEmpty() ? QStringLiteral("no answer")
            : error ? QStringLiteral("error: ") + text.mid(std::max<qsizetype>(errorLine, 0)).section(QLatin1Char('\n'), 0, 0).left(90)
                    : result.value(QStringLiteral("status")).toString();
        const int passed = error ? -1 : result.value(QStringLiteral("passed")).toInt(-1);
        const int failed = result.value(QStringLiteral("failed")).toInt(-1);
        const int expected = result.value(QStringLiteral("expected_failures")).toInt();
        const int skipped = result.value(QStringLiteral("skipped")).toInt();
        const QString plainText = !plain.finished ? QStringLiteral("timed out")
            : plain.summary() ? counts(plain.passed, plain.failed, plain.expected, plain.skipped) + (plain.errorEscaped ? QStringLiteral(", test-op error") : QString())
                              : (plain.errorEscaped ? QStringLiteral("no summary, test-op error") : QStringLiteral("no summary"));
        const bool agree = plain.summary() && passed == plain.passed && failed == plain.failed && expected == plain.expected;
        // Neither ran a test (kmrcl: Debian ships no tests.lisp): the same, and said so.
        const bool neither = !plain.summary() && plain.errorEscaped && passed < 0;
        report(QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 |")
                 .arg(system, error ? framework : result.value(QStringLiteral("framework")).toString(), counts(passed, failed, expected, skipped), status,
                      plainText, agree ? QStringLiteral("yes") : neither ? QStringLiteral("yes (neither ran)") : QStringLiteral("**no**"))
                 .arg(double(ms) / 1000.0, 0, 'f', 0)
                 .arg(double(plain.ms) / 1000.0, 0, 'f', 0));
    }
    return 0;
}
