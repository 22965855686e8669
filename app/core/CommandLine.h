#pragma once

#include "access/AccessMode.h"

#include <QString>
#include <QStringList>

#include <optional>

// What the command line asked for. Parsing never exits the process; main() decides.
struct CommandLine
{
    bool headless = false;
    bool stdio = false;
    bool tray = false; // closing the window keeps the app in the tray
    bool showHelp = false;
    bool showVersion = false;
    QString clientConfig;     // --client-config CLIENT: print that client's configuration and exit
    bool printToken = false;
    bool noAuth = false;      // HTTP without the bearer token (local testing)
    int port = -1;            // -1: the default port
    QString socketName;       // empty: the default local socket name
    QString listenAddress;    // empty: 127.0.0.1
    bool noJournal = false;   // --no-journal: keep no journal of this session
    QString journalFile;      // --journal FILE: load it as the past, append to it
    QString exportJournal;    // --export-journal FILE: write it as a document and exit
    QString exportFormat;     // --format md|html (default md)
    QString exportOutput;     // -o FILE (default stdout)
    QString projectRoot;      // --project DIR: the project's root for this run (not remembered)
    std::optional<AccessMode> accessMode; // --access MODE: agent access for this run (not remembered)
    bool noNative = false;    // --no-native: no native code for the session's definitions this run
    std::optional<int> swankPort; // --swank PORT: Swank for the person's editor (0: any free port)
    bool noInit = false;          // --no-init: load no init file
    QString error;    // a sentence for stderr when the arguments make no sense
    QString helpText;

    static CommandLine parse(const QStringList &arguments);
};
