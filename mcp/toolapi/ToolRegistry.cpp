#include "ToolRegistry.h"

void ToolRegistry::add(Tool tool, Group group)
{
    m_tools.push_back({std::make_unique<Tool>(std::move(tool)), group});
    Q_EMIT changed();
}

const ToolRegistry::Entry *ToolRegistry::entry(const QString &name) const
{
    for (const Entry &entry : m_tools) {
        if (entry.tool->name() == name)
            return &entry;
    }
    return nullptr;
}

Tool *ToolRegistry::find(const QString &name) const
{
    const Entry *found = entry(name);
    return found && isGroupEnabled(found->group) ? found->tool.get() : nullptr;
}

QJsonArray ToolRegistry::descriptors() const
{
    QJsonArray list;
    for (const Entry &entry : m_tools) {
        if (isGroupEnabled(entry.group))
            list.append(entry.tool->descriptor());
    }
    return list;
}

QStringList ToolRegistry::names() const
{
    QStringList list;
    for (const Entry &entry : m_tools) {
        if (isGroupEnabled(entry.group))
            list << entry.tool->name();
    }
    return list;
}

void ToolRegistry::setGroupEnabled(Group group, bool enabled)
{
    if (group == Group::Core || isGroupEnabled(group) == enabled)
        return;
    if (enabled)
        m_switchedOff.removeAll(group);
    else
        m_switchedOff.append(group);
    Q_EMIT changed();
}

bool ToolRegistry::isGroupEnabled(Group group) const
{
    return !m_switchedOff.contains(group);
}

QString ToolRegistry::whyUnavailable(const QString &name) const
{
    const Entry *found = entry(name);
    if (!found || isGroupEnabled(found->group))
        return {};
    return QStringLiteral("%1 is switched off: the person turned off %2 in Lisp Duet's settings.").arg(name, groupName(found->group));
}

QString ToolRegistry::groupName(Group group)
{
    switch (group) {
    case Group::Core: return QStringLiteral("the core tools");
    case Group::Project: return QStringLiteral("the project tools");
    case Group::Debugger: return QStringLiteral("the debugger tools");
    case Group::Handoffs: return QStringLiteral("the hand-off tools");
    }
    return {};
}
