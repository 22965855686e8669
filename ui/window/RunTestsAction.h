#pragma once

#include <QAction>
#include <QStringList>

class ProjectFiles;
class Session;

// Session ▸ Run project tests…: the person runs the project's tests in the shared session, as an
// agent does with run-tests (ASDF's test-op; FiveAM results as one block in the transcript).
// Enabled while a project is open; with several .asd files in the project's folder it asks which
// system, and offers the last one first.
class RunTestsAction : public QAction
{
    Q_OBJECT
public:
    RunTestsAction(Session *session, QObject *parent);

    void setProjectFiles(ProjectFiles *files);
    // The primary systems the .asd files under the project root define (ProjectSystems), in path order.
    QStringList systems() const;
    // Runs the system's tests as the person, with run-tests' time limit; returns the job's id.
    quint64 run(const QString &system);

private:
    void chooseAndRun();

    Session *m_session;
    ProjectFiles *m_files = nullptr;
    QString m_lastSystem;
};
