#pragma once

#include "Tool.h"

#include <QJsonArray>
#include <QObject>
#include <memory>
#include <vector>

// The tools the server offers, in the order tools/list shows them.
class ToolRegistry : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    void add(Tool tool);
    Tool *find(const QString &name) const;
    QJsonArray descriptors() const;
    QStringList names() const;

Q_SIGNALS:
    void changed(); // tools/list_changed

private:
    std::vector<std::unique_ptr<Tool>> m_tools;
};
