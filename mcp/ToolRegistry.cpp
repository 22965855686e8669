#include "ToolRegistry.h"

void ToolRegistry::add(Tool tool)
{
    m_tools.push_back(std::make_unique<Tool>(std::move(tool)));
    Q_EMIT changed();
}

Tool *ToolRegistry::find(const QString &name) const
{
    for (const auto &tool : m_tools) {
        if (tool->name() == name)
            return tool.get();
    }
    return nullptr;
}

QJsonArray ToolRegistry::descriptors() const
{
    QJsonArray list;
    for (const auto &tool : m_tools)
        list.append(tool->descriptor());
    return list;
}

QStringList ToolRegistry::names() const
{
    QStringList list;
    for (const auto &tool : m_tools)
        list << tool->name();
    return list;
}
