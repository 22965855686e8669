#pragma once

#include "Tool.h"

#include <QJsonArray>
#include <QObject>
#include <memory>
#include <vector>

// The tools the server offers, in the order tools/list shows them. Every tool belongs to a
// group; the core is always offered, the other groups can be switched off by the person (File ▸
// Settings…, the tools/* settings), which takes a group's tools out of tools/list (clients are
// told with tools/list_changed) and refuses its calls with a sentence that says why.
class ToolRegistry : public QObject
{
    Q_OBJECT
public:
    enum class Group { Core, Project, Debugger, Handoffs };

    using QObject::QObject;

    void add(Tool tool, Group group = Group::Core);
    // The tool if it is offered now; null for an unknown tool and for one switched off.
    Tool *find(const QString &name) const;
    QJsonArray descriptors() const;
    QStringList names() const; // of the tools offered now

    // The core cannot be switched off.
    void setGroupEnabled(Group group, bool enabled);
    bool isGroupEnabled(Group group) const;
    // For a tool that exists but is switched off: the sentence a caller reads; empty otherwise.
    QString whyUnavailable(const QString &name) const;
    static QString groupName(Group group); // "the project tools"

Q_SIGNALS:
    void changed(); // tools/list_changed

private:
    struct Entry
    {
        std::unique_ptr<Tool> tool;
        Group group;
    };
    const Entry *entry(const QString &name) const;

    std::vector<Entry> m_tools;
    QList<Group> m_switchedOff;
};
