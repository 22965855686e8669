#include "UserEnvironment.h"

#include "RuntimeDirectory.h"

#include <QByteArray>
#include <QString>
#include <QtGlobal>

#include <pwd.h>
#include <unistd.h>

namespace UserEnvironment {

void ensureHome()
{
    if (!qEnvironmentVariableIsEmpty("HOME"))
        return;
    if (const passwd *entry = getpwuid(getuid()); entry && entry->pw_dir && *entry->pw_dir)
        qputenv("HOME", QByteArray(entry->pw_dir));
}

void ensureRuntimeDirectory()
{
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
        return;
    const QString directory = RuntimeDirectory().primary();
    if (!directory.isEmpty())
        qputenv("XDG_RUNTIME_DIR", directory.toLocal8Bit());
}

} // namespace UserEnvironment
