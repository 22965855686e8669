#include "ClientConfig.h"

#include "AccessToken.h"
#include "transports/HttpTransport.h"
#include "transports/LocalSocketTransport.h"
#include "Preferences.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

static_assert(HttpTransport::DefaultPort == 7878, "Preferences::port's default must match HttpTransport::DefaultPort");

namespace {
const QString ServerName = QStringLiteral("lisp-duet");

// Every client --client-config knows, in the order the Connect dialog shows them: its name, its
// title and where its text goes.
struct Client
{
    QStringView name;
    QStringView title;
    QStringView where;
};
constexpr Client Clients[] = {
    {u"claude-code", u"Claude Code", u"Run this in a terminal (add --scope user before lisp-duet to use it in every project)."},
    {u"claude-desktop", u"Claude Desktop",
     u"Merge this into claude_desktop_config.json (Settings \u25b8 Developer \u25b8 Edit Config), then restart Claude Desktop."},
    {u"cursor", u"Cursor", u"Merge this into ~/.cursor/mcp.json (every project) or .cursor/mcp.json (one project)."},
    {u"vscode", u"VS Code",
     u"Save this as .vscode/mcp.json in your workspace, or merge it into the file of \u201cMCP: Open User Configuration\u201d."},
};

const Client *clientNamed(const QString &name)
{
    for (const Client &client : Clients) {
        if (client.name == name)
            return &client;
    }
    return nullptr;
}

// Quotes for a POSIX shell only when needed, so the common case stays readable.
QString shellQuote(const QString &word)
{
    static const QString safe = QStringLiteral("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-:=+,@");
    bool plain = !word.isEmpty();
    for (QChar c : word)
        plain = plain && safe.contains(c);
    if (plain)
        return word;
    QString quoted = word;
    quoted.replace(QStringLiteral("'"), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QStringList bridgeArguments(const ClientConfig::Target &target)
{
    QStringList args{QStringLiteral("--launch")};
    if (!target.socketName.isEmpty() && target.socketName != LocalSocketTransport::defaultName())
        args << QStringLiteral("--socket") << target.socketName;
    return args;
}

QJsonObject authHeaders(const ClientConfig::Target &target)
{
    if (target.token.isEmpty())
        return {};
    return {{QStringLiteral("Authorization"), QStringLiteral("Bearer ") + QString::fromLatin1(target.token)}};
}
} // namespace

QStringList ClientConfig::clients()
{
    QStringList names;
    for (const Client &client : Clients)
        names << client.name.toString();
    return names;
}

bool ClientConfig::isClient(const QString &name)
{
    return clientNamed(name) != nullptr;
}

QString ClientConfig::title(const QString &client)
{
    const Client *known = clientNamed(client);
    return known ? known->title.toString() : client;
}

QString ClientConfig::where(const QString &client)
{
    const Client *known = clientNamed(client);
    return known ? known->where.toString() : QString();
}

QString ClientConfig::unknownClientError(const QString &name)
{
    return QStringLiteral("--client-config does not know the client '%1'; use one of: %2.").arg(name, clients().join(QStringLiteral(", ")));
}

QString ClientConfig::text(const QString &client, const Target &target)
{
    if (client != QStringLiteral("claude-code"))
        return jsonText(client, target);
    QString http = QStringLiteral("claude mcp add --transport http %1 %2").arg(ServerName, shellQuote(target.url));
    if (!target.token.isEmpty())
        http += QStringLiteral(" --header \"Authorization: Bearer %1\"").arg(QString::fromLatin1(target.token));
    QStringList stdio{QStringLiteral("claude mcp add --transport stdio"), ServerName, QStringLiteral("--"), shellQuote(target.bridgePath)};
    stdio << bridgeArguments(target);
    // The alternative is a comment, so pasting all of it runs only the first command.
    return http + QStringLiteral("\n# or, through the local socket (starts Lisp Duet headless when it is not running):\n# ")
        + stdio.join(QLatin1Char(' ')) + QLatin1Char('\n');
}

QString ClientConfig::jsonText(const QString &client, const Target &target)
{
    QJsonObject server;
    QString section = QStringLiteral("mcpServers");
    if (client == QStringLiteral("claude-desktop")) {
        // Claude Desktop only spawns commands: the bridge carries stdio to the app's socket.
        server.insert(QStringLiteral("command"), target.bridgePath);
        server.insert(QStringLiteral("args"), QJsonArray::fromStringList(bridgeArguments(target)));
    } else if (client == QStringLiteral("cursor") || client == QStringLiteral("vscode")) {
        if (client == QStringLiteral("vscode")) {
            section = QStringLiteral("servers");
            server.insert(QStringLiteral("type"), QStringLiteral("http"));
        }
        server.insert(QStringLiteral("url"), target.url);
        if (!target.token.isEmpty())
            server.insert(QStringLiteral("headers"), authHeaders(target));
    } else {
        return {};
    }
    const QJsonObject root{{section, QJsonObject{{ServerName, server}}}};
    return QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
}

QString ClientConfig::httpUrl(int port)
{
    return QStringLiteral("http://127.0.0.1:%1/mcp").arg(port);
}

ClientConfig::Target ClientConfig::currentTarget(int port, bool auth, const QString &socketName, QString *error)
{
    Target target;
    if (auth) {
        target.token = AccessToken::loadOrCreate(error);
        if (target.token.isEmpty())
            return target;
    }
    target.url = httpUrl(port > 0 ? port : Preferences::load().port);
    const QString dir = QCoreApplication::applicationDirPath();
    const QFileInfo bridge(QDir(dir).filePath(QStringLiteral("lisp-duet-bridge")));
    target.bridgePath = bridge.exists() ? bridge.canonicalFilePath() : bridge.absoluteFilePath();
    target.socketName = socketName;
    return target;
}

QString ClientConfig::welcomeText()
{
    QStringList lines{QStringLiteral("Welcome to Lisp Duet. This window is a live Common Lisp session that AI agents can share with you:"),
                      QStringLiteral("everything an agent evaluates appears here as it runs. To connect an agent, open Agents \u25b8 Connect an agent\u2026"),
                      QStringLiteral("or run in a terminal:")};
    for (const QString &client : clients())
        lines << QStringLiteral("  %1 lisp-duet --client-config %2").arg(title(client) + QLatin1Char(':'), -16).arg(client);
    lines << QStringLiteral("Settings (port, agent access, limits, font, theme) are in File \u25b8 Settings\u2026");
    return lines.join(QLatin1Char('\n'));
}
