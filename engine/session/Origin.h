#pragma once

#include <QMetaType>
#include <QString>

// Who asked for an evaluation: the person at the window, the person in their own editor (a
// Swank connection: "the person, in Emacs"), an MCP client (by its clientInfo name), or Lisp
// Duet itself (replay, start-up).
struct Origin
{
    enum class Kind { Person, Agent, System, Editor };

    Kind kind = Kind::Person;
    QString name;      // shown to people: "You", "claude-code", "replay"
    QString clientKey; // distinguishes two connections of clients with the same name

    static Origin person() { return {Kind::Person, QStringLiteral("You"), QStringLiteral("person")}; }
    static Origin agent(const QString &name, const QString &key) { return {Kind::Agent, name, key}; }
    static Origin system(const QString &name) { return {Kind::System, name, QStringLiteral("system:") + name}; }
    // `key` tells two editors' connections apart ("editor:2").
    static Origin editor(const QString &name, const QString &key) { return {Kind::Editor, name, key}; }

    bool isPerson() const { return kind == Kind::Person; }
    bool isAgent() const { return kind == Kind::Agent; }
    bool isEditor() const { return kind == Kind::Editor; }
    // "the person's", "claude-code's", "the person's (in Emacs)" (an editor's name is "the
    // person, in Emacs").
    QString possessive() const
    {
        if (kind == Kind::Person)
            return QStringLiteral("the person's");
        const QString person = QStringLiteral("the person, ");
        if (kind == Kind::Editor && name.startsWith(person))
            return QStringLiteral("the person's (%1)").arg(name.mid(person.size()));
        return name + QStringLiteral("'s");
    }
    QString kindName() const
    {
        switch (kind) {
        case Kind::Person: return QStringLiteral("person");
        case Kind::Agent: return QStringLiteral("agent");
        case Kind::System: return QStringLiteral("system");
        case Kind::Editor: return QStringLiteral("editor");
        }
        return {};
    }
};
Q_DECLARE_METATYPE(Origin)
