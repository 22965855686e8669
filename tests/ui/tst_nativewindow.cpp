// Native code for the session's definitions (issue 30) as the person sees it in the real
// window, against the real engine: the Definitions panel's Runs column and details say a
// definition runs interpreted while it compiles, then native since when; a definition whose
// native version failed says why; a load-system's "compiling file k of n" shows in the
// running-job bar; and a session whose engine cannot compile (no gcc on PATH) or was told not
// to says so once in the transcript and keeps everything interpreted.
// With DUET_SCREENSHOT_DIR set (tests/ui/screenshots.sh), native-definitions.png and
// native-progress.png.

#include "UiTestSupport.h"

#include "console/LispConsole.h"
#include "console/RunningJobBar.h"
#include "console/TranscriptView.h"
#include "definitions/DefinitionsModel.h"
#include "definitions/DefinitionsPanel.h"
#include "project/ProjectFiles.h"
#include "tools/ProjectTools.h"
#include "tools/ToolSet.h"
#include "window/MainWindow.h"

#include <QFile>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeView>

class TestNativeWindow : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<LiveSession> m_live;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<AgentClient> m_agent;

    DefinitionsModel *model() const { return m_window->definitions(); }
    QString runs(const QString &name) const
    {
        return model()->data(model()->find(QStringLiteral("COMMON-LISP-USER"), name).siblingAtColumn(DefinitionsModel::RunsColumn)).toString();
    }
    QString transcript() const
    {
        m_window->console()->transcript()->flushNow();
        return m_window->console()->transcript()->toPlainText();
    }
    void agentEvaluates(const QString &code)
    {
        const QJsonObject response = m_agent->response(m_agent->evaluate(code));
        QVERIFY2(!AgentClient::isError(response), qPrintable(AgentClient::resultText(response)));
    }
    void saveScreenshot(const QString &name)
    {
        QVERIFY2(saveScreenshotIfAsked(m_window.get(), name, [this] { m_window->console()->transcript()->flushNow(); }), qPrintable(name));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_live = std::make_unique<LiveSession>();
        QVERIFY2(m_live->engine.isReady(), "the engine did not start");
        addSessionTools(&m_live->tools, &m_live->session, &m_live->jobs, &m_live->rooms.native); // load-system
        m_window = m_live->showWindow(QSize(1300, 780), true);
        QVERIFY(m_window);
        m_agent = std::make_unique<AgentClient>(&m_live->server, QStringLiteral("claude-code"));
        QVERIFY2(m_live->rooms.native.isOn(), qPrintable(m_live->rooms.native.reason()));
    }
    void cleanupTestCase()
    {
        m_agent.reset();
        m_window.reset();
        m_live.reset();
    }

    void aDefinitionRunsInterpretedWhileItCompilesThenNativeInTheDefinitionsPanel()
    {
        // What the session knew of it at each change, and what the panel's Runs column said.
        QStringList states;
        QStringList shown;
        QObject scope; // the watchers end with this test
        NativeCompilation *native = &m_live->rooms.native;
        connect(native, &NativeCompilation::changed, &scope, [&] {
            const NativeCompilation::Definition *d = native->find(QStringLiteral("function"), QStringLiteral("COMMON-LISP-USER"), QStringLiteral("NATIVE-PANEL-FIB"));
            if (d && (states.isEmpty() || states.last() != d->execution()))
                states << d->execution();
        });
        // The rows come with the engine's list (a reset); their Runs change in place.
        const auto watch = [&] {
            const QString now = runs(QStringLiteral("NATIVE-PANEL-FIB"));
            if (!now.isEmpty() && (shown.isEmpty() || shown.last() != now))
                shown << now;
        };
        connect(model(), &QAbstractItemModel::modelReset, &scope, watch);
        connect(model(), &QAbstractItemModel::dataChanged, &scope, watch);
        agentEvaluates(QStringLiteral("(defun native-panel-fib (n) (if (< n 2) n (+ (native-panel-fib (- n 1)) (native-panel-fib (- n 2)))))"));
        QVERIFY2(QTest::qWaitFor([&] { return runs(QStringLiteral("NATIVE-PANEL-FIB")) == QStringLiteral("native"); }, 60000),
                 qPrintable(shown.join(QStringLiteral(", "))));
        QCOMPARE(states, (QStringList{QStringLiteral("compiling"), QStringLiteral("native")}));
        QCOMPARE(shown.last(), QStringLiteral("native"));
        QVERIFY2(shown.size() == 1 || shown.first() == QStringLiteral("compiling\u2026"), qPrintable(shown.join(QStringLiteral(", "))));
        // Selected, its details say since when.
        DefinitionsPanel *panel = m_window->definitionsPanel();
        panel->tree()->setCurrentIndex(panel->proxy()->mapFromSource(model()->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("NATIVE-PANEL-FIB"))));
        static const QRegularExpression since(QStringLiteral("Runs native code since \\d\\d:\\d\\d:\\d\\d \\([0-9.]+ s after it was defined\\)\\."));
        QVERIFY2(since.match(panel->detailText()).hasMatch(), qPrintable(panel->detailText()));
    }

    void aDefinitionWhoseNativeVersionFailedSaysWhy()
    {
        agentEvaluates(QStringLiteral("(defun native-panel-stamp () (load-time-value (random 1000000)))"));
        QVERIFY(QTest::qWaitFor([this] { return runs(QStringLiteral("NATIVE-PANEL-STAMP")) == QStringLiteral("interpreted"); }, 60000));
        const QModelIndex row = model()->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("NATIVE-PANEL-STAMP"));
        QVERIFY(model()->data(row.siblingAtColumn(DefinitionsModel::RunsColumn), Qt::ToolTipRole).toString().startsWith(QStringLiteral("Runs interpreted: It uses LOAD-TIME-VALUE")));
        DefinitionsPanel *panel = m_window->definitionsPanel();
        panel->tree()->setCurrentIndex(panel->proxy()->mapFromSource(row));
        QVERIFY2(panel->detailText().contains(QStringLiteral("Runs interpreted: It uses LOAD-TIME-VALUE")), qPrintable(panel->detailText()));
        saveScreenshot(QStringLiteral("native-definitions.png"));
    }

    void aLoadSystemsCompilingFileKOfNShowsInTheRunningJobBar()
    {
        QTemporaryDir project;
        QVERIFY(project.isValid());
        QStringList components;
        for (int i = 1; i <= 6; ++i) {
            QFile file(project.filePath(QStringLiteral("unit%1.lisp").arg(i)));
            QVERIFY(file.open(QIODevice::WriteOnly));
            for (int f = 0; f < 12; ++f)
                file.write(QStringLiteral("(defun native-bar-%1-%2 (x) (loop for i below x sum (* i %2)))\n").arg(i).arg(f).toUtf8());
            components << QStringLiteral("(:file \"unit%1\")").arg(i);
        }
        QFile asd(project.filePath(QStringLiteral("native-bar.asd")));
        QVERIFY(asd.open(QIODevice::WriteOnly));
        asd.write(QStringLiteral("(asdf:defsystem \"native-bar\" :serial t :components (%1))\n").arg(components.join(u' ')).toUtf8());
        asd.close();
        m_live->session.setProjectRoot(project.path());
        RunningJobBar *bar = m_window->console()->runningJobBar();
        QStringList seen;
        bool shot = false;
        QTimer watch;
        connect(&watch, &QTimer::timeout, this, [&] {
            if (bar->isVisible() && (seen.isEmpty() || seen.last() != bar->outputLine()))
                seen << bar->outputLine();
            if (!shot && bar->isVisible() && bar->outputLine().startsWith(QStringLiteral("compiling file 3"))) {
                shot = true;
                saveScreenshot(QStringLiteral("native-progress.png"));
            }
        });
        watch.start(20);
        const int id = m_agent->callTool(QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("native-bar")},
                                                                         {QStringLiteral("force"), true}});
        const QJsonObject response = m_agent->response(id, 180000);
        watch.stop();
        QVERIFY2(!AgentClient::isError(response), qPrintable(AgentClient::resultText(response)));
        static const QRegularExpression compiling(QStringLiteral("^compiling file [2-6] of 6: unit[2-6]\\.lisp$"));
        QVERIFY2(!seen.filter(compiling).isEmpty(), qPrintable(seen.join(QStringLiteral(" | "))));
        m_live->session.setProjectRoot({});
    }

    void withoutGccOnThePathTheWindowAndProjectInfoSaySoOnceAndEverythingStaysInterpreted()
    {
        // As the app makes them: the window before the engine starts.
        EngineClient engine;
        Session session(&engine);
        SessionRooms rooms(&engine, &session);
        DefinitionLedger ledger(&session);
        JobHandles jobs(&session);
        ToolRegistry tools;
        McpServer server(&session, &tools);
        AccessGate access;
        access.install(&server);
        ProjectFiles files;
        tools.add(evaluateLispTool(&session, &jobs));
        tools.add(projectInfoTool(&files, {&rooms.native, &rooms.editors, &rooms.initFile, &rooms.libraries}));
        MainWindow window(&session, &server, &access);
        window.setDefinitionLedger(&ledger);
        window.setNativeCompilation(&rooms.native);
        window.setEditorBridge(&rooms.editors);
        const QByteArray path = qgetenv("PATH");
        QSignalSpy ready(&engine, &EngineClient::ready);
        // Three engines (the first, two resets), each started without gcc on its PATH.
        for (int start = 0; start < 3; ++start) {
            qputenv("PATH", "/nonexistent-lisp-duet-bin");
            if (start == 0)
                engine.start();
            else
                session.reset(Origin::person());
            const bool started = ready.wait(30000);
            qputenv("PATH", path);
            QVERIFY(started);
        }
        const QString why = rooms.native.reason();
        QVERIFY2(why.startsWith(QStringLiteral("The C compiler gcc is not on PATH")), qPrintable(why));
        window.console()->transcript()->flushNow();
        QCOMPARE(window.console()->transcript()->toPlainText().count(QStringLiteral("The C compiler gcc is not on PATH")), 1);
        AgentClient agent(&server, QStringLiteral("claude-code"));
        const QString info = AgentClient::resultText(agent.response(agent.callTool(QStringLiteral("project-info"), {})));
        QVERIFY2(info.contains(QStringLiteral("Native code: off. ") + why), qPrintable(info));
        QVERIFY(!AgentClient::isError(agent.response(agent.evaluate(QStringLiteral("(defun native-bare (x) (1+ x))")))));
        DefinitionsModel *bareModel = window.definitions();
        QVERIFY(QTest::qWaitFor([bareModel] {
            return bareModel->data(bareModel->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("NATIVE-BARE")).siblingAtColumn(DefinitionsModel::RunsColumn)).toString()
                == QStringLiteral("interpreted");
        }, 30000));
        QCOMPARE(bareModel->data(bareModel->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("NATIVE-BARE")).siblingAtColumn(DefinitionsModel::RunsColumn), Qt::ToolTipRole).toString(),
                 QStringLiteral("Runs interpreted: ") + why);
        engine.stop();
    }

    void theSwitchKeepsNewDefinitionsInterpretedAndTheWindowSaysSoOnce()
    {
        NativeCompilation *native = &m_live->rooms.native;
        const QString why = QStringLiteral("Native compilation is off (File \u25b8 Settings\u2026): the session's definitions run interpreted.");
        native->setEnabled(false, why);
        QVERIFY(QTest::qWaitFor([native] { return !native->status().enabled; }, 10000));
        native->setEnabled(false, why); // applied twice (the settings dialog's OK after Apply): said once
        agentEvaluates(QStringLiteral("(defun native-panel-off (x) (1+ x))"));
        QVERIFY(QTest::qWaitFor([this] { return runs(QStringLiteral("NATIVE-PANEL-OFF")) == QStringLiteral("interpreted"); }, 30000));
        const QModelIndex row = model()->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("NATIVE-PANEL-OFF"));
        QCOMPARE(model()->data(row.siblingAtColumn(DefinitionsModel::RunsColumn), Qt::ToolTipRole).toString(), QStringLiteral("Runs interpreted: ") + why);
        QCOMPARE(transcript().count(why), 1);
        native->setEnabled(true);
        QVERIFY(QTest::qWaitFor([native] { return native->isOn(); }, 10000));
        QVERIFY(transcript().contains(QStringLiteral("Native compilation is on: definitions made from now on are compiled to native code")));
        // Issue 42, point 7: what was made while it was off said "Runs interpreted." with no reason.
        agentEvaluates(QStringLiteral("(+ 1 2)")); // the engine's list is asked again after a job
        QVERIFY(QTest::qWaitFor([this] {
            return model()->data(model()->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("NATIVE-PANEL-OFF")).siblingAtColumn(DefinitionsModel::RunsColumn), Qt::ToolTipRole).toString()
                == QStringLiteral("Runs interpreted: It was defined while native compilation was off; define it again to compile it to native code.");
        }, 10000));
    }
};

QTEST_MAIN(TestNativeWindow)
#include "tst_nativewindow.moc"
