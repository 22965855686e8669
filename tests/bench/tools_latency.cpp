// Figures for the tools of issue 5 against the real engine (never pass/fail): how long
// reset-session takes to a ready engine, compile-form (first call loads ECL's compiler; every
// call runs gcc), load-system (first call loads ASDF), list-definitions with many
// definitions, inspect-object pages, and what the unused-variable walker adds to an eval.
//
//   LISP_DUET_ENGINE=build/bin/lisp-duet-engine build/bin/bench_tools_latency

#include "../mcp/ToolHarness.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>

namespace {
double timed(ToolHarness &h, const QString &tool, const QJsonObject &arguments, QJsonObject *result = nullptr)
{
    QElapsedTimer clock;
    clock.start();
    const QJsonObject r = h.call(tool, arguments, 300000);
    const double ms = clock.nsecsElapsed() / 1e6;
    if (ToolHarness::isError(r))
        std::fprintf(stderr, "%s failed: %s\n", qPrintable(tool), qPrintable(ToolHarness::text(r).left(300)));
    if (result)
        *result = r;
    return ms;
}

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    return values.isEmpty() ? 0 : values.at(values.size() / 2);
}

void row(const char *what, double ms)
{
    std::printf("%-62s %10.1f ms\n", what, ms);
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir systems;
    QDir().mkpath(systems.filePath(QStringLiteral("bench-sys")));
    QFile asd(systems.filePath(QStringLiteral("bench-sys/bench-sys.asd")));
    asd.open(QIODevice::WriteOnly);
    asd.write("(defsystem \"bench-sys\" :components ((:file \"a\")))\n");
    asd.close();
    QFile source(systems.filePath(QStringLiteral("bench-sys/a.lisp")));
    source.open(QIODevice::WriteOnly);
    for (int i = 0; i < 20; ++i)
        source.write(QStringLiteral("(defun bench-fn-%1 (x) (+ x %1))\n").arg(i).toUtf8());
    source.close();
    qputenv("LISP_DUET_SYSTEM_PATHS", systems.path().toUtf8());

    ToolHarness h;
    if (!h.waitUntilReady()) {
        std::fprintf(stderr, "the engine did not start (set LISP_DUET_ENGINE)\n");
        return 1;
    }
    std::printf("tools of issue 5, wall-clock time of one tools/call through McpServer\n\n");

    QList<double> resets;
    for (int i = 0; i < 5; ++i)
        resets << timed(h, QStringLiteral("reset-session"), {});
    row("reset-session, median of 5 (until the new engine is ready)", median(resets));

    const QJsonObject defun{{QStringLiteral("code"), QStringLiteral("(defun f (x y) (let ((a x) (b y)) (flet ((g (q) (list q a b))) (loop for i below 10 collect (g i)))))")}};
    row("compile-form, first call (loads ECL's compiler)", timed(h, QStringLiteral("compile-form"), defun));
    QList<double> compiles;
    for (int i = 0; i < 5; ++i)
        compiles << timed(h, QStringLiteral("compile-form"), defun);
    row("compile-form, one defun, median of 5", median(compiles));
    QString many;
    for (int i = 0; i < 20; ++i)
        many += QStringLiteral("(defun g%1 (x) (list x %1))\n").arg(i);
    row("compile-form, 20 defuns in one call", timed(h, QStringLiteral("compile-form"), {{QStringLiteral("code"), many}}));

    row("load-system, first (loads ASDF, compiles 20 functions)", timed(h, QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("bench-sys")}}));
    row("load-system, already loaded", timed(h, QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("bench-sys")}}));
    row("load-system, force", timed(h, QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("bench-sys")}, {QStringLiteral("force"), true}}));

    // The walker runs on defun forms only: compare with the same definition inside an IF.
    QList<double> linted, plain;
    for (int i = 0; i < 20; ++i) {
        QJsonObject r;
        timed(h, QStringLiteral("evaluate-lisp"), defun, &r);
        linted << ToolHarness::structured(r).value(QStringLiteral("elapsed_ms")).toDouble();
        timed(h, QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(if t %1)").arg(defun.value(QStringLiteral("code")).toString())}}, &r);
        plain << ToolHarness::structured(r).value(QStringLiteral("elapsed_ms")).toDouble();
    }
    row("evaluate-lisp of a defun in the engine, with the walker (median)", median(linted));
    row("the same defun inside IF, which the walker skips (median)", median(plain));

    h.call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(dotimes (i 1000) (eval `(defun ,(intern (format nil \"BENCH-DEF-~D\" i)) (x) x)) (eval `(defvar ,(intern (format nil \"*BENCH-VAR-~D*\" i)) ,i)))")}});
    QList<double> lists;
    for (int i = 0; i < 5; ++i)
        lists << timed(h, QStringLiteral("list-definitions"), {});
    row("list-definitions with 2,000 definitions, median of 5", median(lists));

    QJsonObject big;
    timed(h, QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(loop for i below 100000 collect (list i))")}, {QStringLiteral("print_length"), 3}}, &big);
    const QString id = ToolHarness::structured(big).value(QStringLiteral("result_id")).toString();
    row("inspect-object, 50 elements at offset 0 of a 100,000-element list", timed(h, QStringLiteral("inspect-object"), {{QStringLiteral("result_id"), id}}));
    row("inspect-object, 50 elements at offset 99,000", timed(h, QStringLiteral("inspect-object"), {{QStringLiteral("result_id"), id}, {QStringLiteral("offset"), 99000}}));

    QJsonObject timing;
    timed(h, QStringLiteral("time-execution"), {{QStringLiteral("code"), QStringLiteral("(length (loop repeat 1000000 collect (make-string 10)))")}}, &timing);
    const QJsonObject t = ToolHarness::structured(timing).value(QStringLiteral("timing")).toObject();
    std::printf("\ntime-execution of 1,000,000 (make-string 10): real %.1f ms, run %.1f ms, GC %.0f ms in %d collections, %.0f bytes\n",
                t.value(QStringLiteral("real_ms")).toDouble(), t.value(QStringLiteral("run_ms")).toDouble(),
                t.value(QStringLiteral("gc_ms")).toDouble(), t.value(QStringLiteral("gc_count")).toInt(),
                t.value(QStringLiteral("bytes_allocated")).toDouble());
    return 0;
}
