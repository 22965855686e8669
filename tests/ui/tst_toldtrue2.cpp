// Told and shown true, third pass (issue 42), the items left: the Definitions panel says how
// every definition runs and when it came, whatever made it: a method loaded by load-system, a
// macro the person's editor compiled (C-c C-c), the person's init file at the very first
// start. With the real engine, Session, McpServer, Swank and window offscreen.

#include "UiTestSupport.h"

#include "../common/SwankClient.h"
#include "../common/TestFiles.h"

#include "console/ConsoleWidget.h"
#include "console/LispConsole.h"
#include "console/TranscriptView.h"
#include "definitions/DefinitionsModel.h"
#include "definitions/DefinitionsPanel.h"
#include "editor/EditorBridge.h"
#include "editor/SlimeSecret.h"

#include <QDir>
#include <QHeaderView>
#include <QStyle>
#include <QTreeView>
#include <QStandardPaths>
#include <QTemporaryDir>

class TestToldTrue2 : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<LiveSession> m_live;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<AgentClient> m_agent;
    QTemporaryDir m_home;
    QString m_initFile;

    Session &session() { return m_live->session; }
    bool waitReady()
    {
        return QTest::qWaitFor([this] { return session().isEngineReady() && !session().current() && session().queuedCount() == 0; }, 60000);
    }
    static QString allText(const QJsonObject &response)
    {
        QStringList texts;
        for (const QJsonValue &part : response.value("result").toObject().value("content").toArray())
            texts << part.toObject().value("text").toString();
        return texts.join('\n');
    }
    // The row of `name` (a method: "name (specializers)" as the panel shows it), once listed.
    QModelIndex rowOf(const QString &name, int ms = 20000)
    {
        DefinitionsModel *model = m_window->definitions();
        QModelIndex found;
        (void)QTest::qWaitFor([&] {
            for (int p = 0; p < model->rowCount(); ++p) {
                const QModelIndex package = model->index(p, 0);
                for (int r = 0; r < model->rowCount(package); ++r) {
                    const QModelIndex row = model->index(r, 0, package);
                    if (row.data().toString() == name || row.data().toString().startsWith(name + QLatin1Char(' '))) {
                        found = row;
                        return true;
                    }
                }
            }
            return false;
        }, ms);
        return found;
    }
    QString cell(const QModelIndex &row, int column, int role = Qt::DisplayRole) const
    {
        return m_window->definitions()->data(row.siblingAtColumn(column), role).toString();
    }
    QString rows() const
    {
        QStringList all;
        DefinitionsModel *model = m_window->definitions();
        for (int p = 0; p < model->rowCount(); ++p) {
            const QModelIndex package = model->index(p, 0);
            for (int r = 0; r < model->rowCount(package); ++r) {
                QStringList cells;
                for (int c = 0; c < DefinitionsModel::ColumnCount; ++c)
                    cells << model->data(model->index(r, c, package)).toString();
                all << cells.join(QStringLiteral(" | "));
            }
        }
        return all.join(QLatin1Char('\n'));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_home.isValid());
        // As the app starts: the window first, then the engine, whose first job is the init file.
        m_initFile = m_home.filePath(QStringLiteral("init.lisp"));
        QVERIFY(TestFiles::write(m_initFile, "(in-package :cl-user)\n\n(defun init-helper () :ok)\n"));
        m_live = std::make_unique<LiveSession>(true);
        m_live->rooms.initFile.setFiles({m_initFile});
        QString error;
        QVERIFY2(SlimeSecret::create(m_home.filePath(QStringLiteral(".slime-secret")), &error), qPrintable(error));
        m_live->rooms.editors.setSecretFile(m_home.filePath(QStringLiteral(".slime-secret")));
        m_live->rooms.editors.setListening(0);
        m_live->tools.add(loadSystemTool(&m_live->session, &m_live->jobs, &m_live->rooms.libraries));
        m_window = m_live->showWindow(QSize(1400, 860), true);
        QVERIFY(m_window);
        m_live->startEngine();
        QVERIFY2(m_live->engine.isReady(), "the engine did not start");
        m_agent = std::make_unique<AgentClient>(&m_live->server, QStringLiteral("agent-alpha"));
    }

    void cleanupTestCase()
    {
        m_agent.reset();
        m_window.reset();
        m_live.reset();
    }

    // Before: the init file's definitions had no When at the first start, until something
    // else happened.
    void theInitFilesDefinitionsSayWhenAtTheFirstStart()
    {
        QVERIFY(waitReady());
        const QModelIndex row = rowOf(QStringLiteral("init-helper"));
        QVERIFY2(row.isValid(), qPrintable(rows()));
        QTRY_VERIFY2_WITH_TIMEOUT(!cell(row, DefinitionsModel::WhenColumn).isEmpty(), qPrintable(rows()), 5000);
        QCOMPARE(cell(row, DefinitionsModel::ByColumn), QStringLiteral("init.lisp:3"));
        // And the panel shows it whole.
        QTreeView *tree = m_window->definitionsPanel()->tree();
        tree->expandAll();
        QTest::qWait(300);
        const QString when = cell(row, DefinitionsModel::WhenColumn);
        QVERIFY(saveScreenshotIfAsked(m_window.get(), QStringLiteral("init-when.png")));
        const int needs = QFontMetrics(tree->font()).horizontalAdvance(when);
        const int margins = 2 * (tree->style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 1); // the delegate's, around the text
        QTRY_VERIFY2_WITH_TIMEOUT(tree->header()->sectionSize(DefinitionsModel::WhenColumn) - margins >= needs,
                                  qPrintable(QStringLiteral("When %1 px for \"%2\" (%3 px)").arg(tree->header()->sectionSize(DefinitionsModel::WhenColumn)).arg(when).arg(needs)), 3000);
    }

    // Before: the methods load-system loaded had an empty Runs cell, beside its functions that
    // said how they run.
    void aMethodLoadedByLoadSystemSaysHowItRuns()
    {
        const QString dir = m_home.filePath(QStringLiteral("shapes"));
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(TestFiles::write(dir + QStringLiteral("/told-shapes.asd"),
                                 "(asdf:defsystem \"told-shapes\" :components ((:file \"shapes\")))\n"));
        QVERIFY(TestFiles::write(dir + QStringLiteral("/shapes.lisp"),
                                 "(in-package :cl-user)\n\n(defgeneric told-area (shape))\n\n"
                                 "(defmethod told-area ((side integer)) (* side side))\n\n"
                                 "(defmethod told-area ((name string)) (length name))\n\n"
                                 "(defun told-perimeter (side) (* 4 side))\n"));
        m_window->console()->evaluate(QStringLiteral("(require :asdf)"));
        m_window->console()->evaluate(QStringLiteral("(progn (push #p\"%1/\" asdf:*central-registry*) nil)").arg(dir));
        QVERIFY(waitReady());
        const QJsonObject loaded = m_agent->response(m_agent->callTool(QStringLiteral("load-system"), {{"system", "told-shapes"}}), 120000);
        QVERIFY2(!loaded.isEmpty() && !loaded.value("result").toObject().value("isError").toBool(), qPrintable(allText(loaded)));
        QVERIFY(waitReady());
        const QModelIndex function = rowOf(QStringLiteral("told-perimeter"));
        QVERIFY2(function.isValid(), qPrintable(rows()));
        // A system outside the project is a library: with the suites' LISP_DUET_LIBRARY_NATIVE=0
        // it stays bytecode ("interpreted"), else it becomes native. Its methods say the same.
        QTRY_VERIFY2_WITH_TIMEOUT(!cell(function, DefinitionsModel::RunsColumn).isEmpty(), qPrintable(rows()), 5000);
        const QString functionRuns = cell(function, DefinitionsModel::RunsColumn);
        const QString functionWhy = cell(function, DefinitionsModel::RunsColumn, Qt::ToolTipRole);
        QVERIFY2(functionRuns == QStringLiteral("interpreted") || functionRuns == QStringLiteral("native"), qPrintable(functionRuns));
        for (const QString &name : {QStringLiteral("told-area (integer)"), QStringLiteral("told-area (string)")}) {
            const QModelIndex method = rowOf(name);
            QVERIFY2(method.isValid(), qPrintable(name + QLatin1Char('\n') + rows()));
            QTRY_VERIFY2_WITH_TIMEOUT(cell(method, DefinitionsModel::RunsColumn) == functionRuns, qPrintable(rows()), 5000);
            const QString methodWhy = cell(method, DefinitionsModel::RunsColumn, Qt::ToolTipRole);
            QVERIFY2(!methodWhy.isEmpty() && methodWhy.section(QLatin1Char(' '), 0, 1) == functionWhy.section(QLatin1Char(' '), 0, 1),
                     qPrintable(methodWhy + QStringLiteral(" / the function's: ") + functionWhy));
        }
        // One of them evaluated again at the REPL is the session's own: compiled in the background.
        m_window->console()->evaluate(QStringLiteral("(defmethod told-area ((name string)) (* 2 (length name)))"));
        QVERIFY(waitReady());
        const QModelIndex again = rowOf(QStringLiteral("told-area (string)"));
        QTRY_VERIFY2_WITH_TIMEOUT(!cell(again, DefinitionsModel::RunsColumn).isEmpty(), qPrintable(rows()), 10000);
    }

    // Before: a macro compiled by the editor (C-c C-c) gave an internal text as its reason.
    void aMacroTheEditorCompiledSaysHowItRunsInWords()
    {
        (void)QTest::qWaitFor([this] { return m_live->rooms.editors.state() == EditorBridge::State::Listening
                                             || m_live->rooms.editors.state() == EditorBridge::State::Failed; }, 60000);
        if (m_live->rooms.editors.state() != EditorBridge::State::Listening)
            QSKIP("Swank is not listening");
        QFile secretFile(m_home.filePath(QStringLiteral(".slime-secret")));
        QVERIFY(secretFile.open(QIODevice::ReadOnly));
        const QString secret = QString::fromUtf8(secretFile.readLine()).trimmed();
        SwankClient editor;
        QVERIFY(editor.connectWithSecret(quint16(m_live->rooms.editors.port()), secret));
        const QString reply = editor.ask(QStringLiteral(
            "(swank:compile-string-for-emacs \"(defmacro told-twice (form) `(progn ,form ,form))\" \"buffer.lisp\" "
            "'((:position 1) (:line 1 1)) nil nil)"), QStringLiteral("t"), 60000);
        QVERIFY2(reply.startsWith(QLatin1String("(:return (:ok (:compilation-result nil t ")), qPrintable(reply));
        QVERIFY(waitReady());
        const QModelIndex row = rowOf(QStringLiteral("told-twice"));
        QVERIFY2(row.isValid(), qPrintable(rows()));
        QTRY_COMPARE_WITH_TIMEOUT(cell(row, DefinitionsModel::RunsColumn), QStringLiteral("native"), 10000);
        QCOMPARE(cell(row, DefinitionsModel::RunsColumn, Qt::ToolTipRole), QStringLiteral("Runs native code (compiled)."));

        // C-c M-k: the file compiled and not loaded. ECL defined its macro for its own use while
        // it compiled: that runs interpreted until the compiled file is loaded, and says so
        // (before: "It was defined while native compilation was off", which it never was).
        const QString file = m_home.filePath(QStringLiteral("macros.lisp"));
        QVERIFY(TestFiles::write(file, "(defmacro told-thrice (form) `(progn ,form ,form ,form))\n"));
        const QString compiled = editor.ask(QStringLiteral("(swank:compile-file-for-emacs \"%1\" nil)").arg(file), QStringLiteral("t"), 60000);
        QVERIFY2(compiled.contains(QLatin1String("(:compilation-result nil t ")), qPrintable(compiled));
        QVERIFY(waitReady());
        const QModelIndex thrice = rowOf(QStringLiteral("told-thrice"));
        QVERIFY2(thrice.isValid(), qPrintable(rows()));
        QTRY_COMPARE_WITH_TIMEOUT(cell(thrice, DefinitionsModel::RunsColumn), QStringLiteral("interpreted"), 10000);
        QCOMPARE(cell(thrice, DefinitionsModel::RunsColumn, Qt::ToolTipRole),
                 QStringLiteral("Runs interpreted: COMPILE-FILE defined it for its own use while it compiled macros.lisp, and the compiled "
                                "file was not loaded: load it (C-c C-k in the editor, or LOAD of the fasl) to run its native version."));
        const QString fasl = QFileInfo(file).path() + QStringLiteral("/macros.fas");
        QVERIFY2(QFileInfo::exists(fasl), qPrintable(compiled));
        QVERIFY(editor.ask(QStringLiteral("(swank:load-file \"%1\")").arg(fasl), QStringLiteral("t"), 60000).startsWith(QLatin1String("(:return (:ok")));
        QVERIFY(waitReady());
        QTRY_COMPARE_WITH_TIMEOUT(cell(rowOf(QStringLiteral("told-thrice")), DefinitionsModel::RunsColumn), QStringLiteral("native"), 10000);
    }
};

QTEST_MAIN(TestToldTrue2)
#include "tst_toldtrue2.moc"
