#include "session/JobOutcome.h"

#include <QTest>

// One text for a job's outcome, whichever view shows it (tool, digest, resource, export, console).
class TestJobOutcome : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void valuesAreArrowLinesOrNoValues()
    {
        QCOMPARE(JobOutcome::values({}), QStringLiteral("; No values"));
        QCOMPARE(JobOutcome::values({QStringLiteral("3")}), QStringLiteral("=> 3"));
        QCOMPARE(JobOutcome::values({QStringLiteral("1"), QStringLiteral("\"two\"")}), QStringLiteral("=> 1\n=> \"two\""));
    }

    void theDigestShowsTheFirstValueOnOneShortLine()
    {
        QCOMPARE(JobOutcome::firstValueInOneLine({}, 10), QStringLiteral("; No values"));
        QCOMPARE(JobOutcome::firstValueInOneLine({QStringLiteral("(1\n   2 3 4 5 6 7 8)"), QStringLiteral("x")}, 10),
                 QStringLiteral("=> (1 2 3 4 \u2026"));
    }

    void aFailureNamesWhatStoppedIt()
    {
        JobResult error;
        error.status = JobResult::Status::Error;
        error.error.type = QStringLiteral("DIVISION-BY-ZERO");
        error.error.message = QStringLiteral("Arithmetic error\nwhen dividing 1 by 0");
        QCOMPARE(JobOutcome::text(error), QStringLiteral("[ERROR] DIVISION-BY-ZERO: Arithmetic error\nwhen dividing 1 by 0"));
        QCOMPARE(JobOutcome::failure(error, 40), QStringLiteral("[ERROR] DIVISION-BY-ZERO: Arithmetic error when dividing 1 by 0"));
        JobResult late;
        late.status = JobResult::Status::TimedOut;
        late.error.type = QStringLiteral("TIMEOUT");
        late.error.message = QStringLiteral("The evaluation did not finish within 1 s.");
        QCOMPARE(JobOutcome::text(late), QStringLiteral("[TIMED-OUT] The evaluation did not finish within 1 s."));
        JobResult ok;
        ok.values = {QStringLiteral("NIL")};
        QCOMPARE(JobOutcome::text(ok), QStringLiteral("=> NIL"));
    }
};

QTEST_APPLESS_MAIN(TestJobOutcome)
#include "tst_joboutcome.moc"
