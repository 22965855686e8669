#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

// The configuration each MCP client needs to reach this Lisp Duet, as text to paste: the
// `claude mcp add` command for Claude Code, the JSON files of Claude Desktop, Cursor and
// VS Code. Pure functions of a Target, so --client-config, the Connect dialog and the tests
// print the same thing.
class ClientConfig
{
public:
    struct Target
    {
        QString url;        // http://127.0.0.1:PORT/mcp
        QByteArray token;   // the bearer token; empty: no Authorization header (--no-auth)
        QString bridgePath; // absolute path of lisp-duet-bridge
        QString socketName; // empty: the default socket, which the bridge finds without --socket
    };

    // The names --client-config accepts, in the order the Connect dialog shows them.
    static QStringList clients();
    static bool isClient(const QString &name);
    static QString title(const QString &client);  // "Claude Code"
    static QString where(const QString &client);  // one sentence: where the text goes
    static QString text(const QString &client, const Target &target);
    // The sentence for a name that is none of clients().
    static QString unknownClientError(const QString &name);

    // The Target of this installation, as the app would serve it: the port from --port or the
    // settings, the token from AccessToken (made on first use), the bridge beside this program.
    // Needs a QCoreApplication. Empty url (and *error set) when the token cannot be made.
    static Target currentTarget(int port, bool auth, const QString &socketName, QString *error = nullptr);
    static QString httpUrl(int port);

    // The first start's welcome for the transcript: how to connect an agent, one line a client.
    static QString welcomeText();

private:
    static QString jsonText(const QString &client, const Target &target);
};
