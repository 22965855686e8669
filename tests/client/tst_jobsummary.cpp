#include "session/JobSummary.h"

#include <QTest>

// What a job did, in the words every view uses (console, running-job bar, export, digest): the
// operation a view names beside who ran it, and a debugger step as its own line.
class TestJobSummary : public QObject
{
    Q_OBJECT

    static JobRequest request(EngineJob::Kind kind, const Origin &origin = Origin::person())
    {
        JobRequest request;
        request.kind = kind;
        request.origin = origin;
        request.debuggerId = 3;
        return request;
    }

private Q_SLOTS:
    void anEvaluationShowsNoOperationName()
    {
        JobRequest evaluation = request(EngineJob::Kind::Evaluate);
        evaluation.code = QStringLiteral("(+ 1 2)");
        QCOMPARE(JobSummary::shownOperation(evaluation), QString());
        QCOMPARE(JobSummary::operation(evaluation), QStringLiteral("eval")); // the journal's "op" still names it
        QCOMPARE(JobSummary::action(evaluation, 80), QStringLiteral("(+ 1 2)"));
        JobRequest load = request(EngineJob::Kind::LoadSystem);
        load.system = QStringLiteral("shapes");
        QCOMPARE(JobSummary::shownOperation(load), QStringLiteral("load-system"));
        QCOMPARE(JobSummary::action(load, 80), QStringLiteral("load-system shapes"));
    }

    void theDebuggerStepIsToldToThePersonAndAboutOthers_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("person");
        QTest::addColumn<QString>("line");
        using Kind = EngineJob::Kind;
        QTest::newRow("the person's restart") << int(Kind::InvokeRestart) << true << QStringLiteral("You chose ABORT in debugger 3");
        QTest::newRow("an agent's restart") << int(Kind::InvokeRestart) << false << QStringLiteral("chose ABORT in debugger 3");
        QTest::newRow("the person's frame evaluation") << int(Kind::FrameEvaluation) << true << QStringLiteral("In debugger 3, frame 2:");
        QTest::newRow("an agent's frame evaluation") << int(Kind::FrameEvaluation) << false << QStringLiteral("in debugger 3, frame 2:");
        QTest::newRow("an agent's look at a frame") << int(Kind::FrameLook) << false << QStringLiteral("looked at frame 2 of debugger 3");
        QTest::newRow("no step") << int(Kind::Evaluate) << true << QString();
    }
    void theDebuggerStepIsToldToThePersonAndAboutOthers()
    {
        QFETCH(int, kind);
        QFETCH(bool, person);
        QFETCH(QString, line);
        JobRequest step = request(EngineJob::Kind(kind), person ? Origin::person() : Origin::agent(QStringLiteral("claude"), QStringLiteral("c1")));
        step.restart = QStringLiteral("ABORT");
        step.frame = 2;
        step.code = QStringLiteral("(* i 2)");
        QCOMPARE(JobSummary::debuggerLine(step), line);
    }
};

QTEST_APPLESS_MAIN(TestJobSummary)
#include "tst_jobsummary.moc"
