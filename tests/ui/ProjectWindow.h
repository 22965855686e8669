#pragma once

// Shared by the window's project suites (tst_projectchanges, tst_projecttestruns,
// tst_projectdefinitions): the real engine, MCP server and agent access, the project tools,
// real ProjectFiles on a folder `shapes` in a QTemporaryDir, and the real window (offscreen)
// with that project open.

#include "UiTestSupport.h"

#include "project/ProjectFiles.h"
#include "tools/ToolSet.h"
#include "console/LispConsole.h"
#include "console/TranscriptView.h"
#include "window/MainWindow.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextBlock>

inline QByteArray bytesOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<cannot read>");
}

inline bool copyTree(const QString &from, const QString &to)
{
    QDirIterator it(from, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString source = it.next();
        const QString target = to + QLatin1Char('/') + QDir(from).relativeFilePath(source);
        if (!QDir().mkpath(QFileInfo(target).path()) || !QFile::copy(source, target))
            return false;
    }
    return true;
}

class ProjectWindow
{
public:
    // For initTestCase: false (with the reason in *error) when something could not start.
    bool open(QString *error)
    {
        QStandardPaths::setTestModeEnabled(true);
        if (!m_dir.isValid() || !QDir(m_dir.path()).mkpath(QStringLiteral("shapes/src"))) {
            *error = QStringLiteral("no temporary folder");
            return false;
        }
        m_live = std::make_unique<LiveSession>();
        if (!m_live->engine.isReady()) {
            *error = QStringLiteral("the engine did not start");
            return false;
        }
        m_files = std::make_unique<ProjectFiles>();
        if (!m_files->setRoot(m_dir.filePath(QStringLiteral("shapes")), Origin::person(), error))
            return false;
        addProjectTools(&m_live->tools, &m_live->session, &m_live->jobs, m_files.get(), {&m_live->rooms.native, &m_live->rooms.editors, &m_live->rooms.initFile});
        m_window = std::make_unique<MainWindow>(&m_live->session, &m_live->server, &m_live->access);
        m_live->furnish(m_window.get());
        m_window->setDefinitionLedger(&m_live->ledger);
        m_live->access.install(m_files.get());
        m_window->setProjectFiles(m_files.get());
        m_window->resize(1100, 760);
        m_window->show();
        return QTest::qWaitForWindowExposed(m_window.get());
    }
    // For cleanupTestCase: the window goes before what it shows.
    void close()
    {
        m_window.reset();
        m_files.reset();
        m_live.reset();
    }

    LiveSession *live() const { return m_live.get(); }
    ProjectFiles *files() const { return m_files.get(); }
    MainWindow *window() const { return m_window.get(); }
    QString folder(const QString &name) const { return m_dir.filePath(name); }

    TranscriptView *view() const { return m_window->console()->transcript(); }
    QString transcript() const
    {
        view()->flushNow();
        return view()->toPlainText();
    }
    QTextBlock blockStartingWith(const QString &prefix) const
    {
        view()->flushNow();
        for (QTextBlock block = view()->document()->lastBlock(); block.isValid(); block = block.previous()) {
            if (block.text().startsWith(prefix))
                return block;
        }
        return {};
    }
    // With DUET_SCREENSHOT_DIR set (tests/ui/screenshots.sh), the window as a PNG there.
    bool saveScreenshot(const QString &name) const
    {
        return saveScreenshotIfAsked(m_window.get(), name, [this] { view()->flushNow(); });
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<LiveSession> m_live;
    std::unique_ptr<ProjectFiles> m_files;
    std::unique_ptr<MainWindow> m_window;
};
