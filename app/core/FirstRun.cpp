#include "FirstRun.h"

#include "AccessToken.h"
#include "Preferences.h"

bool FirstRun::ensureConfig(QString *error)
{
    if (Preferences::isStored())
        return false;
    // Whatever is set already (by hand, or in a file an administrator wrote) stays: only the
    // missing settings get their defaults. A saved Read-only must never become Allow.
    Preferences::load().save();
    AccessToken::loadOrCreate(error);
    return true;
}
