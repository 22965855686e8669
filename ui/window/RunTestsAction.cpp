#include "RunTestsAction.h"

#include "client/EngineProtocol.h"
#include "project/ProjectFiles.h"
#include "project/ProjectSystems.h"
#include "session/Session.h"

#include <QDir>
#include <QInputDialog>
#include <QMessageBox>
#include <QWidget>

RunTestsAction::RunTestsAction(Session *session, QObject *parent) : QAction(tr("Run project &tests\u2026"), parent), m_session(session)
{
    setObjectName(QStringLiteral("runTestsAction"));
    setShortcut(QKeySequence(tr("Ctrl+Shift+T")));
    setEnabled(false); // until a project is open
    setToolTip(tr("Open a project first (File \u25b8 Open project\u2026)"));
    connect(this, &QAction::triggered, this, &RunTestsAction::chooseAndRun);
}

void RunTestsAction::setProjectFiles(ProjectFiles *files)
{
    m_files = files;
    auto follow = [this](const QString &root) {
        setEnabled(!root.isEmpty());
        setToolTip(root.isEmpty() ? tr("Open a project first (File \u25b8 Open project\u2026)")
                                  : tr("Run the tests of a system of %1 in the session (ASDF's test-op)").arg(QDir::toNativeSeparators(root)));
    };
    follow(files->root().path());
    connect(files, &ProjectFiles::rootChanged, this, follow);
}

QStringList RunTestsAction::systems() const
{
    if (!m_files || !m_files->root().isSet())
        return {};
    return ProjectSystems::primarySystems(ProjectSystems::scan(m_files->root()));
}

quint64 RunTestsAction::run(const QString &system)
{
    m_lastSystem = system;
    JobRequest request = EngineProtocol::testRun(system);
    request.origin = Origin::person();
    return m_session->submit(request);
}

void RunTestsAction::chooseAndRun()
{
    auto *window = qobject_cast<QWidget *>(parent());
    const QStringList names = systems();
    if (names.isEmpty()) {
        QMessageBox::information(window, tr("Run project tests"),
                                 tr("%1 has no .asd file. ASDF runs the tests of a system that an .asd file in the project's folder defines.")
                                     .arg(QDir::toNativeSeparators(m_files->root().path())));
        return;
    }
    if (names.size() == 1) {
        run(names.first());
        return;
    }
    bool chosen = false;
    const QString system = QInputDialog::getItem(window, tr("Run project tests"), tr("Run the tests of the system:"), names,
                                                 std::max(0, int(names.indexOf(m_lastSystem))), false, &chosen);
    if (chosen && !system.isEmpty())
        run(system);
}
