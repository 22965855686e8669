#include "ClientConfigCommand.h"

#include "ClientConfig.h"
#include "CommandLine.h"

#include <QCoreApplication>

#include <cstdio>

int clientConfigCommand(int argc, char **argv, const CommandLine &options)
{
    if (!ClientConfig::isClient(options.clientConfig)) {
        std::fprintf(stderr, "lisp-duet: %s\n", qPrintable(ClientConfig::unknownClientError(options.clientConfig)));
        return 2;
    }
    QCoreApplication app(argc, argv); // for the path of the bridge beside this program
    QString error;
    const ClientConfig::Target target = ClientConfig::currentTarget(options.port, !options.noAuth, options.socketName, &error);
    if (target.url.isEmpty()) {
        std::fprintf(stderr, "lisp-duet: %s\n", qPrintable(error));
        return 1;
    }
    std::fputs(ClientConfig::text(options.clientConfig, target).toUtf8().constData(), stdout);
    std::fprintf(stderr, "# %s: %s\n", qPrintable(ClientConfig::title(options.clientConfig)),
                 qPrintable(ClientConfig::where(options.clientConfig)));
    return 0;
}
