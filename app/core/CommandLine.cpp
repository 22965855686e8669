#include "CommandLine.h"

#include <QCommandLineParser>

#include <optional>

namespace {
// The option's value as a port from `lowest` to 65535; none, with the sentence that says what
// the option `needs`, for anything else.
std::optional<int> portOf(const QCommandLineParser &parser, const QCommandLineOption &option, int lowest, const QString &needs,
                          QString *error)
{
    bool ok = false;
    const int port = parser.value(option).toInt(&ok);
    if (ok && port >= lowest && port <= 65535)
        return port;
    *error = QStringLiteral("%1, not '%2'.").arg(needs, parser.value(option));
    return std::nullopt;
}
} // namespace

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
    const QCommandLineOption portOption(QStringLiteral("port"),
                                        QStringLiteral("Serve MCP over HTTP on this port (default 7878)."), QStringLiteral("N"));
    const QCommandLineOption socketOption(QStringLiteral("socket"),
                                          QStringLiteral("Name of the local socket for lisp-duet-bridge (default lisp-duet, in the runtime directory)."),
                                          QStringLiteral("NAME"));
    const QCommandLineOption noAuthOption(QStringLiteral("no-auth"),
                                          QStringLiteral("Do not require the bearer token over HTTP (for local testing only)."));
    const QCommandLineOption printTokenOption(QStringLiteral("print-token"),
                                              QStringLiteral("Print the HTTP bearer token (creating it on first use) and exit."));
    const QCommandLineOption listenOption(QStringLiteral("listen"),
                                          QStringLiteral("Serve HTTP on this address instead of 127.0.0.1 (reachable by others: use with care)."),
                                          QStringLiteral("ADDRESS"));
    const QCommandLineOption trayOption(QStringLiteral("tray"),
                                        QStringLiteral("Keep running in the system tray when the window is closed."));
    const QCommandLineOption projectOption(QStringLiteral("project"),
                                           QStringLiteral("The folder of your Lisp project: agents' file tools work inside it "
                                                          "(for this run; the window remembers File > Open project... instead)."),
                                           QStringLiteral("DIR"));
    const QCommandLineOption accessOption(QStringLiteral("access"),
                                          QStringLiteral("Agent access for this run: allow, ask, read-only or paused (beats the "
                                                         "saved setting, which stays). Without a window, Ask asks you through the "
                                                         "agent's client (MCP elicitation)."),
                                          QStringLiteral("MODE"));
    parser.addOptions({helpOption, versionOption, headlessOption, stdioOption, portOption, socketOption, noAuthOption,
                       printTokenOption, listenOption, trayOption, projectOption, accessOption});
    const QCommandLineOption noNativeOption(QStringLiteral("no-native"),
                                            QStringLiteral("Do not compile the session's definitions to native code in the background "
                                                           "this run: they run interpreted (beats the saved setting, which stays)."));
    parser.addOption(noNativeOption);

    const QCommandLineOption swankOption(QStringLiteral("swank"),
                                         QStringLiteral("Let your editor join the session: Swank (SLIME, slimv) on 127.0.0.1:PORT "
                                                        "(0: any free port), for clients that send ~/.slime-secret."),
                                         QStringLiteral("PORT"));
    const QCommandLineOption noInitOption(QStringLiteral("no-init"),
                                          QStringLiteral("Do not load your init file (~/.config/lisp-duet/init.lisp, and ~/.eclrc when the settings say)."));
    parser.addOptions({swankOption, noInitOption});

    const QCommandLineOption journalOption(QStringLiteral("journal"),
                                           QStringLiteral("Open this journal: show its entries as the past transcript and append to it."),
                                           QStringLiteral("FILE"));
    const QCommandLineOption noJournalOption(QStringLiteral("no-journal"), QStringLiteral("Keep no journal of this session."));
    const QCommandLineOption exportOption(QStringLiteral("export-journal"),
                                          QStringLiteral("Write the journal FILE as a Markdown or HTML document and exit."), QStringLiteral("FILE"));
    const QCommandLineOption formatOption(QStringLiteral("format"), QStringLiteral("Format for --export-journal: md (default) or html."),
                                          QStringLiteral("md|html"));
    const QCommandLineOption outputOption({QStringLiteral("o"), QStringLiteral("output")},
                                          QStringLiteral("Where --export-journal writes (default: standard output)."), QStringLiteral("OUT"));
    parser.addOptions({journalOption, noJournalOption, exportOption, formatOption, outputOption});

    const QCommandLineOption clientConfigOption(QStringLiteral("client-config"),
                                                QStringLiteral("Print how to connect CLIENT to this Lisp Duet and exit: claude-code, claude-desktop, cursor or vscode."),
                                                QStringLiteral("CLIENT"));
    parser.addOption(clientConfigOption);
    CommandLine result;
    // Parsed before any QCoreApplication exists, so Qt cannot know the program name.
    result.helpText = parser.helpText().replace(QStringLiteral("<executable_name>"), QStringLiteral("lisp-duet"));
    if (!parser.parse(arguments)) {
        result.error = parser.errorText() + QStringLiteral("\nTry 'lisp-duet --help'.");
        return result;
    }
    result.showHelp = parser.isSet(helpOption);
    result.showVersion = parser.isSet(versionOption);
    result.headless = parser.isSet(headlessOption);
    result.stdio = parser.isSet(stdioOption);
    result.clientConfig = parser.value(clientConfigOption);
    result.tray = parser.isSet(trayOption);
    result.noAuth = parser.isSet(noAuthOption);
    result.printToken = parser.isSet(printTokenOption);
    result.socketName = parser.value(socketOption);
    result.listenAddress = parser.value(listenOption);
    if (parser.isSet(portOption)) {
        const std::optional<int> port = portOf(parser, portOption, 1, QStringLiteral("--port needs a number from 1 to 65535"), &result.error);
        if (!port)
            return result;
        result.port = *port;
    }
    if (parser.isSet(socketOption) && result.socketName.isEmpty()) {
        result.error = QStringLiteral("--socket needs a name.");
        return result;
    }
    if (parser.isSet(swankOption)) {
        const std::optional<int> port =
            portOf(parser, swankOption, 0, QStringLiteral("--swank needs a port from 0 (any free one) to 65535"), &result.error);
        if (!port)
            return result;
        result.swankPort = *port;
    }
    result.noInit = parser.isSet(noInitOption);
    result.projectRoot = parser.value(projectOption);
    if (parser.isSet(projectOption) && result.projectRoot.isEmpty()) {
        result.error = QStringLiteral("--project needs the folder of your project.");
        return result;
    }
    if (parser.isSet(accessOption)) {
        result.accessMode = AccessModes::parseSettingsKey(parser.value(accessOption));
        if (!result.accessMode) {
            result.error = QStringLiteral("--access must be %1, not '%2'.").arg(AccessModes::settingsKeys(), parser.value(accessOption));
            return result;
        }
    }
    result.noNative = parser.isSet(noNativeOption);
    result.journalFile = parser.value(journalOption);
    result.noJournal = parser.isSet(noJournalOption);
    result.exportJournal = parser.value(exportOption);
    result.exportFormat = parser.isSet(formatOption) ? parser.value(formatOption).toLower() : QStringLiteral("md");
    result.exportOutput = parser.value(outputOption);
    if (result.noJournal && !result.journalFile.isEmpty()) {
        result.error = QStringLiteral("--journal and --no-journal contradict each other; use one.");
        return result;
    }
    if (result.exportFormat != QStringLiteral("md") && result.exportFormat != QStringLiteral("markdown")
        && result.exportFormat != QStringLiteral("html")) {
        result.error = QStringLiteral("--format must be md or html, not '%1'.").arg(parser.value(formatOption));
        return result;
    }
    if ((parser.isSet(formatOption) || parser.isSet(outputOption)) && result.exportJournal.isEmpty()) {
        result.error = QStringLiteral("--format and -o go with --export-journal FILE.");
        return result;
    }
    if (!parser.positionalArguments().isEmpty())
        result.error = QStringLiteral("Unexpected argument '%1'.\nTry 'lisp-duet --help'.").arg(parser.positionalArguments().first());
    else if (result.stdio && !result.headless)
        result.error = QStringLiteral("--stdio serves MCP on this terminal's stdin/stdout; use it with --headless.");
    return result;
}
