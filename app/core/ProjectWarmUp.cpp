#include "ProjectWarmUp.h"

#include "native/LibraryCompilation.h"
#include "Preferences.h"
#include "project/ProjectFiles.h"

ProjectWarmUp::ProjectWarmUp(LibraryCompilation *libraries, ProjectFiles *files, QObject *parent)
    : QObject(parent), m_libraries(libraries), m_files(files)
{
    // The engine's word on libraries comes after each start; the root may come before or after.
    connect(libraries, &LibraryCompilation::availabilityChanged, this, &ProjectWarmUp::consider);
    connect(files, &ProjectFiles::rootChanged, this, &ProjectWarmUp::consider);
}

void ProjectWarmUp::setEnabled(bool on)
{
    m_enabled = on;
    consider();
}

void ProjectWarmUp::consider()
{
    if (!m_enabled || !m_libraries->isAvailable() || !m_files->root().isSet())
        return;
    const QStringList systems = LibraryCompilation::projectSystems(m_files->root());
    if (systems.isEmpty() || !Preferences::markWarmedUp(m_files->root().path()))
        return;
    m_libraries->warmUp({}, systems, Origin::system(QStringLiteral("warm-up")));
}
