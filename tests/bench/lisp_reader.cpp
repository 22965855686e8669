// bench_lisp_reader: the Lisp reader of engine/lispsource on a large generated file.
//
//   build/bin/bench_lisp_reader [--lines 10000] [--runs 20] [--once]
//
// Prints the median time of each step over the runs, with the load average beside it (timings
// on a shared machine are only comparable within one run), and the tree's size. --once runs
// each step once, for `valgrind --tool=callgrind` instruction counts.

#include "lispsource/LispFile.h"
#include "lispsource/LispReader.h"
#include "lispsource/LispSource.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QStringList>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

namespace {
// A file as people write them: a package, definitions with docstrings and comments, methods,
// macros with backquote, strings and character literals, reader conditionals. About 20 lines
// a unit, repeated with numbered names until it has the lines asked for.
QString generate(int lines)
{
    QString text = QStringLiteral(";;;; generated.lisp\n\n(defpackage #:bench (:use #:cl) (:export #:run))\n(in-package #:bench)\n\n");
    int count = 4;
    for (int i = 0; count < lines; ++i) {
        const QString unit = QStringLiteral(
            ";; Unit %1: a function, a method, a macro and some data.\n"
            "(defparameter *table-%1* (make-hash-table :test 'equal)\n"
            "  \"Lookups for unit %1; a ) in a docstring is not a paren.\")\n"
            "\n"
            "(defun compute-%1 (x &optional (scale 2) &key verbose)\n"
            "  \"Compute something with X, scaled.\"\n"
            "  (declare (type number x))\n"
            "  (when verbose (format t \"~&computing ~a (~c)~%\" x #\\())\n"
            "  (let ((result (* x scale)))\n"
            "    #+sbcl (declare (optimize speed))\n"
            "    (setf (gethash %1 *table-%1*) result)))\n"
            "\n"
            "(defmethod area-%2 :around ((s shape) &rest args)\n"
            "  (declare (ignore args))\n"
            "  (call-next-method))\n"
            "\n"
            "(defmacro with-unit-%1 ((var) &body body)\n"
            "  `(let ((,var %1)) ,@body))\n"
            "#| a block comment\n   over two lines |#\n")
                                 .arg(i)
                                 .arg(i % 50);
        text += unit;
        count += int(unit.count(u'\n'));
    }
    return text;
}

double medianMs(int runs, const std::function<void()> &step)
{
    std::vector<double> times;
    for (int r = 0; r < runs; ++r) {
        QElapsedTimer clock;
        clock.start();
        step();
        times.push_back(double(clock.nsecsElapsed()) / 1e6);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

QString loadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    return file.open(QIODevice::ReadOnly) ? QString::fromLatin1(file.readAll()).section(u' ', 0, 2) : QStringLiteral("?");
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    auto option = [&](const QString &name, int fallback) {
        const qsizetype i = args.indexOf(name);
        return i >= 0 && i + 1 < args.size() ? args[i + 1].toInt() : fallback;
    };
    const bool once = args.contains(QStringLiteral("--once"));
    const int lines = option(QStringLiteral("--lines"), 10000);
    const int runs = once ? 1 : option(QStringLiteral("--runs"), 20);
    const QString text = generate(lines);
    const SyntaxTree tree = SyntaxTree::read(text);
    const LispFile file(text);
    std::printf("file: %d lines, %lld characters, %d top-level forms, %d nodes, %lld comments\n", tree.lineCount(),
                static_cast<long long>(text.size()), int(file.forms().size()), tree.nodeCount(),
                static_cast<long long>(tree.comments().size()));
    std::printf("load average before: %s\n", qPrintable(loadAverage()));

    volatile int sink = 0;
    const QStringList textLines = text.split(u'\n');
    const struct
    {
        const char *name;
        std::function<void()> step;
    } steps[] = {
        {"SyntaxTree::read", [&] { sink = sink + SyntaxTree::read(text).nodeCount(); }},
        {"LispFile (read + definitions + packages)", [&] { sink = sink + int(LispFile(text).forms().size()); }},
        {"LispFile::find(\"defmethod area-7 :around (shape)\")",
         [&] { sink = sink + int(file.find(QStringLiteral("defmethod area-7 :around (shape)")).forms.size()); }},
        {"LispFile::occurrences(\"result\")", [&] { sink = sink + int(file.occurrences(QStringLiteral("result")).size()); }},
        {"LispSource::checkParens (check-parens)", [&] { sink = sink + int(LispSource::checkParens(text).ok); }},
        {"LispSource::splitTopLevelForms", [&] { sink = sink + int(LispSource::splitTopLevelForms(text).size()); }},
        {"LispSource::tokens, line by line (highlighter)",
         [&] {
             LexState state;
             for (const QString &line : textLines) {
                 LexState next;
                 sink = sink + int(LispSource::tokens(line, state, &next).size());
                 state = next;
             }
         }},
    };
    for (const auto &step : steps)
        std::printf("%-55s %9.2f ms (median of %d)\n", step.name, medianMs(runs, step.step), runs);
    std::printf("load average after: %s\n", qPrintable(loadAverage()));
    return sink == -1;
}
