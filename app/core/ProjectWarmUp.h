#pragma once

#include <QObject>

class LibraryCompilation;
class ProjectFiles;

// Issue 39's warm-up after a first start: the first time a project is open on this machine
// (its root is not among Preferences' warmed-up projects) and the engine says libraries can
// become native, the libraries its .asd files depend on are compiled natively in the
// background at idle priority, loading nothing, as Lisp Duet's own job. Every mode (window,
// headless); off with the setting (Preferences::libraryWarmUp). Session ▸ Compile the
// project's libraries natively does the same any time, as the person.
class ProjectWarmUp : public QObject
{
    Q_OBJECT
public:
    ProjectWarmUp(LibraryCompilation *libraries, ProjectFiles *files, QObject *parent = nullptr);
    void setEnabled(bool on);

private:
    void consider();

    LibraryCompilation *m_libraries;
    ProjectFiles *m_files;
    bool m_enabled = true;
};
