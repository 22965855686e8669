// Test runs in the window (issue 11): a run is one block with its counts and each failure; the
// real kernel runs tests/data/shapes' FiveAM suite (one test fails on purpose) for an agent;
// the person runs the project's tests from Session ▸ Run project tests….
//
// With DUET_SCREENSHOT_DIR set (tests/ui/screenshots.sh), test-run.png is saved there.

#include "ProjectWindow.h"

#include "console/TestRunBlock.h"
#include "window/RunTestsAction.h"

#include <QJsonArray>

class TestProjectTestRuns : public QObject
{
    Q_OBJECT

private:
    ProjectWindow m_project;
    // m_project's, for short.
    LiveSession *m_live = nullptr;
    ProjectFiles *m_files = nullptr;
    MainWindow *m_window = nullptr;
    const Origin m_claude = Origin::agent(QStringLiteral("claude"), QStringLiteral("claude#1"));

    QString transcript() const { return m_project.transcript(); }
    QTextBlock blockStartingWith(const QString &prefix) const { return m_project.blockStartingWith(prefix); }
    void saveScreenshot(const QString &name) { QVERIFY2(m_project.saveScreenshot(name), qPrintable(name)); }

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_project.open(&error), qPrintable(error));
        m_live = m_project.live();
        m_files = m_project.files();
        m_window = m_project.window();
    }

    void cleanupTestCase() { m_project.close(); }

    void aTestRunIsOneBlockWithTheCountsAndEachFailure()
    {
        const QJsonObject reply{
            {"status", "ok"}, {"framework", "fiveam"}, {"system", "shapes"}, {"test", QJsonValue::Null},
            {"passed", 3}, {"failed", 1}, {"skipped", 0},
            {"failures", QJsonArray{QJsonObject{{"test", "AREA-OF-SQUARE"}, {"form", "(IS (= 16 (AREA (MAKE-SQUARE 4))))"},
                                                {"expected", "16"}, {"actual", "15"}, {"reason", "15 is not = to 16"}}}},
            {"output", "Running test suite SHAPES-SUITE\n ...f\n"}};
        EngineProtocol::TestRunReply run(reply);
        QCOMPARE(TestRunBlock::headline(run), QStringLiteral("Tests of shapes: 3 passed, 1 failed"));
        TranscriptView t;
        TestRunBlock::append(&t, run, 2);
        t.flushNow();
        const QString text = t.toPlainText();
        QVERIFY2(text.contains(QStringLiteral("Tests of shapes: 3 passed, 1 failed\n  \u2717 AREA-OF-SQUARE\n"
                                              "      form:     (IS (= 16 (AREA (MAKE-SQUARE 4))))\n"
                                              "      expected: 16\n      actual:   15\n      reason:   15 is not = to 16")),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("[+] Output (2 lines)")));
        // A run through ASDF's test-op has no counts: the output says how it went.
        // The kernel sends -1 for counts it does not know; the block never shows them.
        const QJsonObject asdfReply{{"status", "ok"}, {"framework", "asdf"}, {"system", "other"}, {"passed", -1}, {"failed", -1},
                                    {"skipped", -1}, {"outcome", "unknown"}, {"output", "All 4 tests passed."}};
        EngineProtocol::TestRunReply asdf(asdfReply);
        QCOMPARE(TestRunBlock::headline(asdf), QStringLiteral("Tests of other (ASDF test-op): finished; the output says how it went"));
        QJsonObject alarmingReply = asdfReply;
        alarmingReply.insert(QStringLiteral("outcome"), QStringLiteral("failed"));
        EngineProtocol::TestRunReply alarming(alarmingReply);
        QCOMPARE(TestRunBlock::headline(alarming),
                 QStringLiteral("Tests of other (ASDF test-op): the output tells of a failure or an unexpected error"));
        TranscriptView shown;
        TestRunBlock::append(&shown, alarming, 2);
        shown.flushNow();
        QVERIFY2(!shown.toPlainText().contains(QStringLiteral("-1")), qPrintable(shown.toPlainText()));
        // ptester's summary counts no failure, but the output tells of an unexpected error.
        EngineProtocol::TestRunReply ptester(QJsonObject{{"status", "ok"}, {"framework", "ptester"}, {"system", "cl-base64"},
                                                         {"passed", 6}, {"failed", 0}, {"skipped", 0}, {"outcome", "failed"}});
        QCOMPARE(TestRunBlock::headline(ptester),
                 QStringLiteral("Tests of cl-base64: 6 passed, 0 failed; the output tells of an unexpected error"));
    }

    // The real kernel runs tests/data/shapes' FiveAM suite (one test fails on purpose); the
    // finished job is one block in the agent's lane.
    void aFinishedTestRunShowsAsOneBlockWithItsFailure()
    {
        const QString tested = m_project.folder(QStringLiteral("tested"));
        QVERIFY(copyTree(QStringLiteral(DUET_SOURCE_DIR "/tests/data/shapes"), tested + QStringLiteral("/shapes")));
        m_live->session.setProjectRoot(tested);
        JobRequest request = EngineProtocol::testRun(QStringLiteral("shapes"));
        request.origin = m_claude;
        request.description = QStringLiteral("run the suite");
        request.timeoutMs = 150000;
        bool done = false;
        const quint64 id = m_live->session.submit(request);
        m_live->session.whenFinished(id, [&done](JobPtr) { done = true; });
        QVERIFY(QTest::qWaitFor([&done] { return done; }, 160000));
        const QString text = transcript();
        QVERIFY2(text.contains(QStringLiteral("claude \u00b7 run-tests \u2014 run the suite")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Tests of shapes: 5 passed, 1 failed\n"
                                              "  \u2717 AREA-OF-A-SQUARE\n"
                                              "      form:     (= 9 (AREA (MAKE-SQUARE 3)))\n"
                                              "      expected: 9\n"
                                              "      actual:   6\n"
                                              "      reason:   (AREA (MAKE-SQUARE 3)) evaluated to 6 which is\n"
                                              "                not = to 9\n")), // long values hang under their first character
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("[+] Output (")));
        // FiveAM's report is shown once, behind that link, not streamed into the transcript too.
        QCOMPARE(text.count(QStringLiteral("Did 6 checks.")), 1);
        const QTextBlock output = blockStartingWith(QStringLiteral("[+] Output ("));
        QVERIFY(output.next().isValid() && !output.next().isVisible());
        saveScreenshot(QStringLiteral("test-run.png"));
    }

    // Session ▸ Run project tests…: the person runs the open project's suite (one .asd, so the
    // action asks nothing); the run is one block in the person's lane, with the same failure.
    void thePersonRunsTheProjectsTestsFromTheSessionMenu()
    {
        const QString original = m_files->root().path();
        RunTestsAction *action = m_window->runTestsAction();
        QVERIFY(action->isEnabled());
        QCOMPARE(action->systems(), QStringList()); // the scratch project has no .asd
        const QString project = m_project.folder(QStringLiteral("menu/shapes"));
        QVERIFY(copyTree(QStringLiteral(DUET_SOURCE_DIR "/tests/data/shapes"), project));
        QString error;
        QVERIFY2(m_window->openProject(project, &error), qPrintable(error));
        m_live->session.setProjectRoot(project); // what the app's services do when the root changes
        QCOMPARE(action->systems(), QStringList{QStringLiteral("shapes")});
        QVERIFY(action->toolTip().contains(QDir::toNativeSeparators(m_files->root().path())));

        const QString report = QStringLiteral("Tests of shapes: 5 passed, 1 failed\n  \u2717 AREA-OF-A-SQUARE\n");
        const qsizetype before = transcript().count(report);
        action->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(transcript().count(report), before + 1, 160000);
        const QString text = transcript();
        QVERIFY2(text.contains(QStringLiteral("run-tests shapes")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("You \u00b7 run-tests")), "the person's own run has no agent header");

        QVERIFY2(m_window->openProject(original, &error), qPrintable(error));
        m_live->session.setProjectRoot(original);
    }
};

QTEST_MAIN(TestProjectTestRuns)
#include "tst_projecttestruns.moc"
