#include "CommandLine.h"

#include <QCommandLineParser>

CommandLine CommandLine::parse(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Lisp Duet: one live Common Lisp session shared by a person and AI agents over MCP."));
    const QCommandLineOption helpOption({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help and exit."));
    const QCommandLineOption versionOption({QStringLiteral("v"), QStringLiteral("version")}, QStringLiteral("Show the version and exit."));
    const QCommandLineOption headlessOption(QStringLiteral("headless"), QStringLiteral("Run without a window."));
    const QCommandLineOption stdioOption(QStringLiteral("stdio"),
                                         QStringLiteral("Serve MCP on stdin/stdout (one JSON-RPC message per line); exits at end of input."));
    parser.addOptions({helpOption, versionOption, headlessOption, stdioOption});

    CommandLine result;
    result.helpText = parser.helpText();
    if (!parser.parse(arguments)) {
        result.error = parser.errorText() + QStringLiteral("\nTry 'lisp-duet --help'.");
        return result;
    }
    result.showHelp = parser.isSet(helpOption);
    result.showVersion = parser.isSet(versionOption);
    result.headless = parser.isSet(headlessOption);
    result.stdio = parser.isSet(stdioOption);
    if (!parser.positionalArguments().isEmpty())
        result.error = QStringLiteral("Unexpected argument '%1'.\nTry 'lisp-duet --help'.").arg(parser.positionalArguments().first());
    else if (result.stdio && !result.headless)
        result.error = QStringLiteral("--stdio serves MCP on this terminal's stdin/stdout; use it with --headless.");
    return result;
}
