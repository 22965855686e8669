#include "FirstRun.h"

#include "AccessToken.h"
#include "Preferences.h"

bool FirstRun::ensureConfig(QString *error)
{
    if (Preferences::isStored())
        return false;
    Preferences().save();
    AccessToken::loadOrCreate(error);
    return true;
}
