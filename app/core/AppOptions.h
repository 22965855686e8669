#pragma once

#include "access/AccessMode.h"

#include <QString>

#include <optional>

// What the command line decides for the services of one run (the rest comes from the saved
// settings): main() makes it from CommandLine and gives it to AppServices.
struct AppOptions
{
    bool journalEnabled = true; // --no-journal turns it off
    QString journalFile;        // --journal FILE: that file's entries are the past, new ones go there
    std::optional<AccessMode> access; // --access MODE: beats the saved mode for this run
    bool noNative = false;      // --no-native: the session's definitions stay interpreted this run
    std::optional<int> swankPort;     // --swank PORT: Swank for the person's editor, whatever the settings say
    bool noInit = false;              // --no-init: no init file, whatever the settings say
};
