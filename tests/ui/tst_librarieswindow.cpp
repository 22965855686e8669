// Libraries at once (issue 39) as the person sees it in the real window, against the real
// engine and its real background compiler processes (small libraries of tests/data/libraries,
// an empty ASDF cache of this suite's own): while a library loaded as bytecode compiles, the
// running-job bar says so and how far (k of n files), alone or under a running job's lines,
// and the Libraries dock shows it running as bytecode, then partly native with the file that
// waits for the next engine start and why; Session ▸ Compile the project's libraries natively
// compiles what the project's .asd depends on ahead, without loading it, and a file gcc refuses
// shows why it stays bytecode. With DUET_SCREENSHOT_DIR set (tests/ui/screenshots.sh),
// libraries-compiling.png and libraries-panel.png.

#include "UiTestSupport.h"

#include "console/LispConsole.h"
#include "console/RunningJobBar.h"
#include "libraries/LibrariesPanel.h"
#include "project/ProjectFiles.h"
#include "window/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidget>

#include <csignal>
#include <sys/types.h>

namespace {
const QString LibraryData = QStringLiteral(DUET_SOURCE_DIR "/tests/data/libraries");
} // namespace

class TestLibrariesWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_cache;
    std::unique_ptr<LiveSession> m_live;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<ProjectFiles> m_files;

    LibrariesPanel *panel() const { return m_window->librariesPanel(); }
    RunningJobBar *bar() const { return m_window->console()->runningJobBar(); }
    QString stateOf(const QString &system) const
    {
        const LibraryCompilation::Library *library = m_live->rooms.libraries.find(system);
        return library ? library->stateName() : QString();
    }
    void saveScreenshot(const QString &name)
    {
        QVERIFY2(saveScreenshotIfAsked(m_window.get(), name), qPrintable(name));
    }
    JobPtr run(const JobRequest &request, int ms = 120000)
    {
        const quint64 id = m_live->session.submit(request);
        JobPtr done;
        m_live->session.whenFinished(id, [&done](const JobPtr &job) { done = job; });
        (void)QTest::qWaitFor([&] { return done != nullptr; }, ms);
        return done;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_cache.isValid());
        qputenv("XDG_CACHE_HOME", m_cache.path().toUtf8());
        qputenv("LISP_DUET_SYSTEM_PATHS", LibraryData.toUtf8());
        qputenv("LISP_DUET_LIBRARY_NATIVE", "1");
        m_live = std::make_unique<LiveSession>();
        QVERIFY2(m_live->engine.isReady(), "the engine did not start");
        m_window = m_live->showWindow(QSize(1300, 780), true);
        QVERIFY(m_window);
        m_window->setLibraryCompilation(&m_live->rooms.libraries);
        m_files = std::make_unique<ProjectFiles>();
        m_window->setProjectFiles(m_files.get());
        QVERIFY(QTest::qWaitFor([this] { return m_live->rooms.libraries.isKnown(); }, 30000));
        QVERIFY2(m_live->rooms.libraries.isAvailable(), qPrintable(m_live->rooms.libraries.reason()));
        QVERIFY(panel()->summaryText().startsWith(QStringLiteral("A library's first load runs as bytecode at once")));
    }
    void cleanupTestCase()
    {
        m_window.reset();
        m_files.reset();
        m_live.reset();
        qunsetenv("XDG_CACHE_HOME");
        qunsetenv("LISP_DUET_SYSTEM_PATHS");
        qunsetenv("LISP_DUET_LIBRARY_NATIVE");
    }

    void aFirstLoadShowsInTheBarAndTheLibrariesDockUntilItRunsNative()
    {
        // What the bar and the dock said at each change.
        QStringList barSaid;
        QStringList rowsSaid;
        bool shot = false;
        QTimer watch;
        connect(&watch, &QTimer::timeout, this, [&] {
            const QString line = bar()->isVisible() ? bar()->backgroundLine() : QString();
            if (barSaid.isEmpty() || barSaid.last() != line)
                barSaid << line;
            const QString rows = panel()->rowsText();
            if (rowsSaid.isEmpty() || rowsSaid.last() != rows)
                rowsSaid << rows;
            if (!shot && line.contains(QStringLiteral(" of 4 files"))) {
                shot = true;
                m_window->librariesDock()->raise();
                saveScreenshot(QStringLiteral("libraries-compiling.png"));
            }
        });
        watch.start(20);
        const JobPtr loaded = run(EngineProtocol::systemLoad(QStringLiteral("duet-swaplib"), false, false));
        QVERIFY(loaded && loaded->result.ok());
        QVERIFY(QTest::qWaitFor([this] { return stateOf(QStringLiteral("duet-swaplib")) == QStringLiteral("partial"); }, 240000));
        QTest::qWait(100);
        watch.stop();

        // While it compiled, the bar said so alone (no job ran): the library, k of n files.
        QVERIFY2(!barSaid.filter(QRegularExpression(QStringLiteral("^duet-swaplib (queued|starting|[0-4] of 4 files)$"))).isEmpty(),
                 qPrintable(barSaid.join(QStringLiteral(" | "))));
        QVERIFY(!bar()->isVisible()); // done: the bar is gone
        // The dock: bytecode while it compiled, then partly native with the file that waits.
        QVERIFY2(!rowsSaid.filter(QRegularExpression(QStringLiteral("^duet-swaplib \\| bytecode \\| (queued|starting|[0-4] of 4 files) \\| $"),
                                                     QRegularExpression::MultilineOption)).isEmpty(),
                 qPrintable(rowsSaid.join(QStringLiteral("\n--\n"))));
        const QString rows = panel()->rowsText();
        QVERIFY2(rows.startsWith(QStringLiteral("duet-swaplib | partly native | done | 3 of 4 files run natively; 1 stays bytecode until the next engine start")),
                 qPrintable(rows));
        QVERIFY2(rows.contains(QStringLiteral("\n  counter.lisp | Its top-level form (LET ...) at line 5 would run again: native from the next engine start.")),
                 qPrintable(rows));
        // The reason, cut in its column to the dock's width, is whole under the list.
        QVERIFY2(panel()->detailText().startsWith(QStringLiteral("duet-swaplib runs partly native: 3 of 4 files run natively")),
                 qPrintable(panel()->detailText()));
        QVERIFY2(panel()->detailText().endsWith(QStringLiteral("(counter.lisp: Its top-level form (LET ...) at line 5 would run again: "
                                                               "native from the next engine start).")),
                 qPrintable(panel()->detailText()));
        panel()->tree()->expandAll();
        saveScreenshot(QStringLiteral("libraries-panel.png"));
        if (!qEnvironmentVariableIsEmpty("DUET_SCREENSHOT_DIR")) {
            // The same on a dark palette (the app's dark theme's colours, app/settings/AppTheme).
            const QPalette light = QApplication::palette();
            QPalette dark = light;
            dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
            dark.setColor(QPalette::AlternateBase, QColor(0x2b, 0x2b, 0x2b));
            dark.setColor(QPalette::Button, QColor(0x2b, 0x2b, 0x2b));
            dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
            for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
                dark.setColor(role, QColor(0xdc, 0xdc, 0xdc));
                dark.setColor(QPalette::Disabled, role, QColor(0x7a, 0x7a, 0x7a));
            }
            dark.setColor(QPalette::Link, QColor(0x6c, 0xa8, 0xff));
            QApplication::setPalette(dark);
            saveScreenshot(QStringLiteral("libraries-panel-dark.png"));
            QApplication::setPalette(light);
        }
    }

    void aRunningJobKeepsItsBarAndTellsTheCompileBelow()
    {
        // A library compiling in the background while the person's evaluation runs for 2 s.
        const quint64 load = m_live->session.submit(EngineProtocol::systemLoad(QStringLiteral("duet-badlib"), false, false));
        QVERIFY(QTest::qWaitFor([this] { return m_live->rooms.libraries.find(QStringLiteral("duet-badlib")) != nullptr; }, 60000));
        // A finished job leaves the session's table: ask again each time, it may be gone.
        QVERIFY(QTest::qWaitFor([&] {
            const auto job = m_live->session.job(load);
            return job == nullptr || job->state == Job::State::Done;
        }, 60000));
        // On a quiet machine duet-badlib's compile can end before the job's bar shows (it shows
        // a job once it has run a moment): its compiler process is stopped while the job runs.
        (void)QTest::qWaitFor([this] {
            const LibraryCompilation::Library *badlib = m_live->rooms.libraries.find(QStringLiteral("duet-badlib"));
            return !badlib->isBusy() || badlib->pid > 0;
        }, 60000);
        const LibraryCompilation::Library *badlib = m_live->rooms.libraries.find(QStringLiteral("duet-badlib"));
        if (!badlib->isBusy())
            QSKIP("the background compile was over before the evaluation could start (a fast machine)");
        const qint64 compiler = badlib->pid;
        QVERIFY2(::kill(pid_t(compiler), SIGSTOP) == 0, qPrintable(QStringLiteral("stopping compiler process %1").arg(compiler)));
        const auto resume = qScopeGuard([compiler] { ::kill(pid_t(compiler), SIGCONT); });
        const quint64 id = m_live->session.submit(EngineProtocol::evaluation(QStringLiteral("(sleep 2)")));
        QStringList below;
        bool interruptShown = true; // beside every line the job's bar showed
        QVERIFY(QTest::qWaitFor([&] {
            if (bar()->isVisible() && bar()->jobId() == id && !bar()->showsBackgroundOnly()) {
                below << bar()->backgroundLine();
                interruptShown = interruptShown && bar()->interruptButton()->isVisible();
            }
            return m_live->session.job(id) == nullptr || m_live->session.job(id)->state == Job::State::Done;
        }, 30000));
        QVERIFY2(!below.filter(QRegularExpression(QStringLiteral("^In the background: duet-badlib "))).isEmpty(), qPrintable(below.join(QStringLiteral(" | "))));
        QVERIFY(interruptShown); // the job keeps its Interrupt
        ::kill(pid_t(compiler), SIGCONT);
        QVERIFY(QTest::qWaitFor([this] { return stateOf(QStringLiteral("duet-badlib")) == QStringLiteral("bytecode"); }, 240000));
        const QString rows = panel()->rowsText();
        QVERIFY2(rows.contains(QStringLiteral("duet-badlib | bytecode |  | bad.lisp does not compile natively (")), qPrintable(rows));
    }

    void theSessionMenuCompilesTheProjectsLibrariesAheadWithoutLoadingThem()
    {
        // A project whose .asd depends on a library this engine never loaded.
        QTemporaryDir project;
        QVERIFY(project.isValid());
        QFile asd(project.filePath(QStringLiteral("warm.asd")));
        QVERIFY(asd.open(QIODevice::WriteOnly));
        asd.write("(asdf:defsystem \"warm\" :depends-on (\"duet-warmlib\") :components ())\n");
        asd.close();
        QString error;
        QVERIFY2(m_files->setRoot(project.path(), Origin::person(), &error), qPrintable(error));
        m_live->session.setProjectRoot(project.path());
        QAction *action = m_window->warmUpLibrariesAction();
        QVERIFY(action->isEnabled());
        QStringList barTitles;
        QTimer watch;
        connect(&watch, &QTimer::timeout, this, [&] {
            if (bar()->showsBackgroundOnly() && (barTitles.isEmpty() || barTitles.last() != bar()->headline()))
                barTitles << bar()->headline();
        });
        watch.start(20);
        action->trigger();
        QVERIFY(QTest::qWaitFor([this] { return m_live->rooms.libraries.find(QStringLiteral("duet-warmlib")) != nullptr; }, 60000));
        QVERIFY(QTest::qWaitFor([this] { return stateOf(QStringLiteral("duet-warmlib")) == QStringLiteral("native"); }, 240000));
        watch.stop();
        QVERIFY2(barTitles.contains(QStringLiteral("Compiling the project's libraries natively ahead, at idle priority")),
                 qPrintable(barTitles.join(QStringLiteral(" | "))));
        QVERIFY2(panel()->rowsText().contains(QStringLiteral("duet-warmlib | native when loaded | done (warm-up) | ")), qPrintable(panel()->rowsText()));
        // Nothing of it was loaded into the session; the project's own system was not compiled.
        const JobPtr package = run(EngineProtocol::evaluation(QStringLiteral("(find-package \"DUET-WARMLIB\")")));
        QVERIFY(package && package->result.ok());
        QCOMPARE(package->result.values, QStringList{QStringLiteral("NIL")});
        QVERIFY(m_live->rooms.libraries.find(QStringLiteral("warm")) == nullptr);
        m_live->session.setProjectRoot({});
    }

    void withoutAProjectTheMenuSaysWhatToDo()
    {
        m_files->root().clear();
        QString why;
        QVERIFY(!m_window->warmUpLibraries(&why));
        QVERIFY2(why.startsWith(QStringLiteral("Open a project with .asd files first")), qPrintable(why));
    }
};

QTEST_MAIN(TestLibrariesWindow)
#include "tst_librarieswindow.moc"
