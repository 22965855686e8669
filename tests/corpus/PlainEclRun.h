#pragma once

// What a plain `ecl` (no Lisp Duet code) prints for (asdf:test-system NAME), read as each
// framework prints its summary: RT ("Doing 271 pending tests", "10 out of 271 total tests
// failed", "No unexpected failures." or "2 unexpected failures"), FiveAM (" Did 12 checks.",
// "Pass: 11", "Skip: 0", "Fail: 1"), ptester ("Successes this test:12", "Errors detected in
// this test: 1 UNEXPECTED: 1"). For tests/corpus (tst_corpusruns) and tests/bench/test_counts.

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QRegularExpression>
#include <QString>

struct PlainEclRun
{
    QString framework; // "rt", "fiveam", "ptester", or empty when no summary was printed
    int passed = 0;
    int failed = 0;    // RT: its unexpected failures only
    int expected = 0;  // RT: the failures its *expected-failures* names
    int skipped = 0;
    bool finished = false; // false: the run outlasted its time
    bool errorEscaped = false; // test-system signalled an error ("test-op failed"...)
    qint64 ms = 0;
    QString output;

    bool summary() const { return !framework.isEmpty(); }

    // Whether a plain `ecl` reads each text (one a line, no newline in them) to its end:
    // "READ" or "REFUSED" for each, in order; fewer when ecl could not run.
    static QStringList readVerdicts(const QStringList &texts)
    {
        QTemporaryDir dir;
        QFile script(dir.filePath(QStringLiteral("read.lisp"))), input(dir.filePath(QStringLiteral("texts")));
        if (!script.open(QIODevice::WriteOnly) || !input.open(QIODevice::WriteOnly))
            return {};
        script.write("(defpackage \"CORPUS-READS\" (:use \"CL\"))\n(in-package \"CORPUS-READS\")\n"
                     "(with-open-file (in (car (last ext:*command-args*))) (loop for text = (read-line in nil) while text do "
                     "(format t \"~:[REFUSED~;READ~]~%\" (ignore-errors (with-input-from-string (s text) "
                     "(loop for form = (read s nil s) until (eq form s)) t)))))\n");
        script.close();
        input.write(texts.join(QLatin1Char('\n')).toUtf8() + '\n');
        input.close();
        QProcess ecl;
        ecl.start(QStringLiteral("ecl"), {QStringLiteral("--norc"), QStringLiteral("--shell"), script.fileName(), input.fileName()});
        if (!ecl.waitForFinished(60000))
            return {};
        return QString::fromUtf8(ecl.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }

    static PlainEclRun of(const QString &system, int timeoutMs)
    {
        PlainEclRun run;
        QElapsedTimer clock;
        clock.start();
        QProcess ecl;
        ecl.setProcessChannelMode(QProcess::MergedChannels);
        // As in the engine, whose jobs read no input: a test that asks (cl+ssl's key's
        // passphrase) gets an end of file instead of waiting for ever.
        ecl.setStandardInputFile(QProcess::nullDevice());
        ecl.start(QStringLiteral("ecl"), {QStringLiteral("--norc"), QStringLiteral("--eval"), QStringLiteral("(require :asdf)"), QStringLiteral("--eval"),
                                          QStringLiteral("(handler-case (asdf:test-system \"%1\") (error (e) (format t \"~&PLAIN-ECL-ERROR ~A~%\" e)))").arg(system),
                                          QStringLiteral("--eval"), QStringLiteral("(ext:quit 0)")});
        run.finished = ecl.waitForFinished(timeoutMs);
        if (!run.finished) {
            ecl.kill();
            ecl.waitForFinished(5000);
        }
        run.ms = clock.elapsed();
        run.output = QString::fromUtf8(ecl.readAll());
        run.read(run.output);
        return run;
    }

    void read(const QString &text)
    {
        int pending = 0, blockFailed = 0;
        static const QRegularExpression doing(QStringLiteral("^Doing (\\d+) pending test")),
            rtFailed(QStringLiteral("^(\\d+) out of \\d+ total tests failed")), unexpected(QStringLiteral("^(\\d+) unexpected failures")),
            did(QStringLiteral("^\\s*Did (\\d+) checks?")), pass(QStringLiteral("^\\s*Pass: (\\d+)")), skip(QStringLiteral("^\\s*Skip: (\\d+)")),
            fail(QStringLiteral("^\\s*Fail: (\\d+)")), successes(QStringLiteral("^Successes this test:\\s*(\\d+)")),
            errors(QStringLiteral("^Errors detected in this test: (\\d+)(?: UNEXPECTED: (\\d+))?"));
        for (const QString &line : text.split(QLatin1Char('\n'))) {
            if (line.startsWith(QLatin1String("PLAIN-ECL-ERROR")))
                errorEscaped = true;
            if (const auto m = doing.match(line); m.hasMatch())
                framework = QStringLiteral("rt"), pending = m.captured(1).toInt(), blockFailed = 0;
            else if (framework == QLatin1String("rt") && line.startsWith(QLatin1String("No tests failed.")))
                passed += pending;
            else if (const auto m = rtFailed.match(line); m.hasMatch())
                blockFailed = m.captured(1).toInt(), failed += blockFailed, passed += pending - blockFailed;
            else if (line.startsWith(QLatin1String("No unexpected failures.")))
                failed -= blockFailed, expected += blockFailed;
            else if (const auto m = unexpected.match(line); m.hasMatch())
                failed -= blockFailed - m.captured(1).toInt(), expected += blockFailed - m.captured(1).toInt();
            else if (const auto m = did.match(line); m.hasMatch())
                framework = QStringLiteral("fiveam");
            else if (const auto m = pass.match(line); m.hasMatch() && framework == QLatin1String("fiveam"))
                passed += m.captured(1).toInt();
            else if (const auto m = skip.match(line); m.hasMatch() && framework == QLatin1String("fiveam"))
                skipped += m.captured(1).toInt();
            else if (const auto m = fail.match(line); m.hasMatch() && framework == QLatin1String("fiveam"))
                failed += m.captured(1).toInt();
            else if (const auto m = successes.match(line); m.hasMatch())
                framework = QStringLiteral("ptester"), passed += m.captured(1).toInt();
            else if (const auto m = errors.match(line); m.hasMatch())
                framework = QStringLiteral("ptester"), failed += std::max(m.captured(1).toInt(), m.captured(2).toInt());
        }
    }
};
