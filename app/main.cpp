// lisp-duet: the app. With --headless --stdio it is a plain MCP server on stdin/stdout.

#include "AppServices.h"
#include "CommandLine.h"
#include "JournalCommand.h"
#include "StdioTransport.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QTimer>

#include <cstdio>

namespace {
int runStdio(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    AppServices services;
    StdioTransport transport(services.server());
    QObject::connect(&transport, &StdioTransport::finished, &app, [&app] {
        // Let responses already queued go out, then stop.
        QTimer::singleShot(0, &app, &QCoreApplication::quit);
    });
    services.start();
    transport.start();
    return app.exec();
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication::setApplicationName(QStringLiteral("lisp-duet"));
    QCoreApplication::setOrganizationName(QStringLiteral("lisp-duet"));
    QCoreApplication::setApplicationVersion(QStringLiteral(LISP_DUET_VERSION));

    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    const CommandLine options = CommandLine::parse(arguments);
    if (!options.error.isEmpty()) {
        std::fprintf(stderr, "lisp-duet: %s\n", qPrintable(options.error));
        return 2;
    }
    if (options.showHelp) {
        std::fputs(qPrintable(options.helpText), stdout);
        return 0;
    }
    if (options.showVersion) {
        std::printf("lisp-duet %s\n", LISP_DUET_VERSION);
        return 0;
    }
    if (!options.exportJournal.isEmpty())
        return exportJournalCommand(options);
    AppServices::setJournalDefaults(options.journalFile, !options.noJournal);
    if (options.headless && options.stdio)
        return runStdio(argc, argv);
    std::fprintf(stderr, "lisp-duet: this build serves MCP with --headless --stdio; see --help.\n");
    return 2;
}
