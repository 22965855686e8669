// lisp-duet: the app. Without flags it opens the window; with --headless --stdio it is a plain
// MCP server on stdin/stdout.

#include "access/AccessGate.h"
#include "AccessToken.h"
#include "AppServices.h"
#include "ClientConfigCommand.h"
#include "CommandLine.h"
#include "EditorReport.h"
#include "Endpoints.h"
#include "FirstRun.h"
#include "HeadlessSignals.h"
#include "JournalCommand.h"
#include "Preferences.h"
#include "native/NativeCompilation.h"
#include "project/ProjectFiles.h"
#include "server/McpServer.h"
#include "session/Session.h"
#include "transports/StdioTransport.h"
#include "UserEnvironment.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QTimer>

#include <cstdio>
#include <optional>

#include "window/MainWindow.h"
#include "WindowSetup.h"

#include <QApplication>
#include <QSettings>

namespace {
// --project DIR for the modes without a window (the window's WindowSetup also reopens the
// remembered project). False, said on stderr, when DIR cannot be the root.
AppOptions appOptions(const CommandLine &options)
{
    return {!options.noJournal, options.journalFile, options.accessMode, options.noNative, options.swankPort, options.noInit};
}

bool openCommandLineProject(AppServices &services, const CommandLine &options)
{
    QString error;
    if (options.projectRoot.isEmpty() || services.projectFiles()->setRoot(options.projectRoot, Origin::person(), &error))
        return true;
    std::fprintf(stderr, "lisp-duet: --project: %s\n", qPrintable(error));
    return false;
}

// Without a window, the person reads on stderr, once, that native code is off or unavailable.
void sayNativeNotices(AppServices &services)
{
    QObject::connect(services.native(), &NativeCompilation::notice, &services,
                     [](const QString &sentence) { std::fprintf(stderr, "lisp-duet: %s\n", qPrintable(sentence)); });
}

// Without a window, nothing else shows the person which access agents have: say it when it is
// not the default.
void sayAccessMode(const AppServices &services)
{
    const AccessMode mode = services.access()->mode();
    if (mode == AccessMode::Allow)
        return;
    std::fprintf(stderr, "lisp-duet: agent access: %s. %s%s\n", qPrintable(AccessModes::name(mode)), qPrintable(AccessModes::description(mode)),
                 mode == AccessMode::Ask ? " Without a window, agents' clients ask you (MCP elicitation)." : "");
}

int runStdio(int argc, char **argv, const CommandLine &options)
{
    QCoreApplication app(argc, argv);
    AppServices services(appOptions(options));
    if (!openCommandLineProject(services, options))
        return 2;
    sayAccessMode(services);
    sayNativeNotices(services);
    const EditorReport editorReport(services.editors(), services.initFile());
    StdioTransport transport(services.server());
    // At end of input, calls already made still get their answers (a client may pipe its
    // requests and close stdin); then the app stops. Time limits bound the wait.
    bool inputEnded = false;
    auto quitWhenIdle = [&app, &transport, &inputEnded] {
        if (inputEnded && (!transport.peer() || !transport.peer()->hasRequestsInFlight()))
            QTimer::singleShot(0, &app, &QCoreApplication::quit);
    };
    // Only then does each answer need the check (queued: a posted event per answer, a
    // wake-up of the event loop that the answers before the end need not pay for).
    QObject::connect(&transport, &StdioTransport::finished, &app, [&inputEnded, quitWhenIdle, &services, &app] {
        inputEnded = true;
        QObject::connect(services.server(), &McpServer::responseSent, &app, quitWhenIdle, Qt::QueuedConnection);
        quitWhenIdle();
    });
    services.start();
    transport.start();
    return app.exec();
}

// Where the HTTP and socket endpoints listen, from the command line and the settings; the
// warnings go to stderr in every mode. Empty when --listen is not an address.
std::optional<Endpoints::Options> endpointOptionsFrom(const CommandLine &options)
{
    Endpoints::Options endpointOptions;
    endpointOptions.port = quint16(options.port > 0 ? options.port : Preferences::load().port);
    endpointOptions.socketName = options.socketName;
    endpointOptions.auth = !options.noAuth;
    if (!options.listenAddress.isEmpty()) {
        if (!endpointOptions.address.setAddress(options.listenAddress)) {
            std::fprintf(stderr, "lisp-duet: --listen needs an IP address, not '%s'\n", qPrintable(options.listenAddress));
            return std::nullopt;
        }
        if (!endpointOptions.address.isLoopback())
            std::fprintf(stderr, "lisp-duet: warning: serving HTTP on %s: other machines can reach it\n", qPrintable(options.listenAddress));
    }
    if (options.noAuth)
        std::fprintf(stderr, "lisp-duet: warning: --no-auth: any local program may use the HTTP endpoint without a token\n");
    return endpointOptions;
}

// --headless without --stdio: HTTP and the local socket until SIGTERM or SIGINT.
int runHeadless(int argc, char **argv, const CommandLine &options)
{
    QCoreApplication app(argc, argv);
    FirstRun::ensureConfig();
    HeadlessSignals signals_;
    QObject::connect(&signals_, &HeadlessSignals::stopRequested, &app, &QCoreApplication::quit);
    AppServices services(appOptions(options));
    if (!openCommandLineProject(services, options))
        return 2;
    sayNativeNotices(services);
    const std::optional<Endpoints::Options> endpointOptions = endpointOptionsFrom(options);
    if (!endpointOptions)
        return 2;
    Endpoints endpoints(services.server(), *endpointOptions);
    endpoints.start();
    for (const QString &error : endpoints.errors())
        std::fprintf(stderr, "lisp-duet: %s\n", qPrintable(error));
    // One endpoint is enough to serve (a bridge that launched this app needs only the socket,
    // even when another program holds the HTTP port); none is a failure.
    if (endpoints.httpUrl().isEmpty() && endpoints.socketPath().isEmpty())
        return 1;
    services.start();
    if (!endpoints.httpUrl().isEmpty())
        std::fprintf(stderr, "lisp-duet: MCP over HTTP at %s%s\n", qPrintable(endpoints.httpUrl()),
                     options.noAuth ? "" : " (bearer token: lisp-duet --print-token)");
    if (!endpoints.socketPath().isEmpty())
        std::fprintf(stderr, "lisp-duet: MCP over the local socket %s (lisp-duet-bridge)\n", qPrintable(endpoints.socketPath()));
    sayAccessMode(services);
    const EditorReport editorReport(services.editors(), services.initFile());
    return app.exec();
}

int runWindow(int argc, char **argv, const CommandLine &options)
{
    QApplication app(argc, argv);
    QApplication::setDesktopFileName(QStringLiteral("lisp-duet"));
    const bool firstRun = FirstRun::ensureConfig();
    AppServices services(appOptions(options));
    const EditorReport editorReport(services.editors(), services.initFile());
    MainWindow window(services.session(), services.server(), services.access());
    QSettings settings;
    window.setKeepInTray(options.tray || settings.value(QStringLiteral("window/keepInTray"), false).toBool());
    // The same endpoints as --headless, so agents reach the session the person watches.
    const std::optional<Endpoints::Options> endpointOptions = endpointOptionsFrom(options);
    if (!endpointOptions)
        return 2;
    Endpoints endpoints(services.server(), *endpointOptions);
    const bool listening = endpoints.start();
    QStringList addresses;
    if (!endpoints.httpUrl().isEmpty())
        addresses << endpoints.httpUrl();
    if (!endpoints.socketPath().isEmpty())
        addresses << endpoints.socketPath();
    if (!listening) {
        for (const QString &error : endpoints.errors())
            std::fprintf(stderr, "lisp-duet: %s\n", qPrintable(error));
    }
    window.setEndpoints(addresses, listening ? QString() : endpoints.errors().join(QStringLiteral("; ")));
    // Connect and Settings in the menus, the settings applied, and the welcome on a first start.
    ClientConfig::Target target = ClientConfig::currentTarget(endpointOptions->port, false, options.socketName);
    target.token = endpoints.token();
    if (!endpoints.httpUrl().isEmpty())
        target.url = endpoints.httpUrl();
    WindowSetup setup(&window, &services, target, options.tray);
    const QString projectError = setup.openStartProject(options.projectRoot);
    if (!projectError.isEmpty()) {
        std::fprintf(stderr, "lisp-duet: --project: %s\n", qPrintable(projectError));
        return 2;
    }
    if (firstRun)
        setup.showWelcome();
    services.start();
    window.show();
    if (options.tray && window.trayIcon())
        app.setQuitOnLastWindowClosed(false);
    return app.exec();
}
} // namespace

int main(int argc, char **argv)
{
    // A client may start us with no environment at all; settings and journals still belong in
    // this user's home, never in "/".
    UserEnvironment::ensureHome();
    // Qt's GUI looks up the runtime directory while it starts and warns when the variable is
    // unset (MCP clients and containers often start us so): give it the one the socket uses.
    UserEnvironment::ensureRuntimeDirectory();
    // Each fact is printed once, by main; the categories' info lines are for debugging
    // (QT_LOGGING_RULES="duet.*=true").
    if (qEnvironmentVariableIsEmpty("QT_LOGGING_RULES"))
        QLoggingCategory::setFilterRules(QStringLiteral("duet.*.info=false"));
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
    if (options.printToken) {
        QString error;
        const QByteArray token = AccessToken::loadOrCreate(&error);
        if (token.isEmpty()) {
            std::fprintf(stderr, "lisp-duet: %s\n", qPrintable(error));
            return 1;
        }
        std::printf("%s\n", token.constData());
        return 0;
    }
    if (!options.clientConfig.isEmpty())
        return clientConfigCommand(argc, argv, options);
    if (!options.exportJournal.isEmpty())
        return exportJournalCommand(options);
    if (options.headless && options.stdio)
        return runStdio(argc, argv, options);
    if (options.headless)
        return runHeadless(argc, argv, options);
    return runWindow(argc, argv, options);
}
