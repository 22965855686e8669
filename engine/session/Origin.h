#pragma once

#include <QMetaType>
#include <QString>

// Who asked for an evaluation: the person at the window, an MCP client (by its
// clientInfo name), or Lisp Duet itself (replay, start-up).
struct Origin
{
    enum class Kind { Person, Agent, System };

    Kind kind = Kind::Person;
    QString name;      // shown to people: "You", "claude-code", "replay"
    QString clientKey; // distinguishes two connections of clients with the same name

    static Origin person() { return {Kind::Person, QStringLiteral("You"), QStringLiteral("person")}; }
    static Origin agent(const QString &name, const QString &key) { return {Kind::Agent, name, key}; }
    static Origin system(const QString &name) { return {Kind::System, name, QStringLiteral("system:") + name}; }

    bool isPerson() const { return kind == Kind::Person; }
    bool isAgent() const { return kind == Kind::Agent; }
    QString kindName() const
    {
        switch (kind) {
        case Kind::Person: return QStringLiteral("person");
        case Kind::Agent: return QStringLiteral("agent");
        case Kind::System: return QStringLiteral("system");
        }
        return {};
    }
};
Q_DECLARE_METATYPE(Origin)
