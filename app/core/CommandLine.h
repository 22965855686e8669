#pragma once

#include <QString>
#include <QStringList>

// What the command line asked for. Parsing never exits the process; main() decides.
struct CommandLine
{
    bool headless = false;
    bool stdio = false;
    bool showHelp = false;
    bool showVersion = false;
    QString error;    // a sentence for stderr when the arguments make no sense
    QString helpText;

    static CommandLine parse(const QStringList &arguments);
};
