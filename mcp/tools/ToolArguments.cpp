#include "ToolArguments.h"

#include <QStringList>
#include <cmath>

namespace {
QString typeName(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return QStringLiteral("a boolean");
    case QJsonValue::Double: return QStringLiteral("a number");
    case QJsonValue::String: return QStringLiteral("a string");
    case QJsonValue::Array: return QStringLiteral("an array");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("nothing");
}
} // namespace

void ToolArguments::fail(const QString &message)
{
    if (m_error.isEmpty())
        m_error = message;
}

QString ToolArguments::requiredString(const QString &name, const QString &what)
{
    const QJsonValue value = m_arguments.value(name);
    if (value.isUndefined() || value.isNull()) {
        fail(QStringLiteral("Invalid arguments: '%1' is required: %2 as a string.").arg(name, what));
        return {};
    }
    if (!value.isString()) {
        fail(QStringLiteral("Invalid arguments: '%1' must be a string (%2), but it is %3.").arg(name, what, typeName(value)));
        return {};
    }
    return value.toString();
}

std::optional<QString> ToolArguments::optionalString(const QString &name)
{
    const QJsonValue value = m_arguments.value(name);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (!value.isString()) {
        fail(QStringLiteral("Invalid arguments: '%1' must be a string, but it is %2.").arg(name, typeName(value)));
        return std::nullopt;
    }
    return value.toString();
}

std::optional<double> ToolArguments::optionalNumber(const QString &name, double minimum, double maximum)
{
    const QJsonValue value = m_arguments.value(name);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (!value.isDouble() || !std::isfinite(value.toDouble()) || value.toDouble() < minimum || value.toDouble() > maximum) {
        fail(QStringLiteral("Invalid arguments: '%1' must be a number from %2 to %3, but it is %4.")
                 .arg(name).arg(minimum).arg(maximum)
                 .arg(value.isDouble() ? QString::number(value.toDouble()) : typeName(value)));
        return std::nullopt;
    }
    return value.toDouble();
}

std::optional<int> ToolArguments::optionalInteger(const QString &name, int minimum, int maximum)
{
    const QJsonValue value = m_arguments.value(name);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    const double d = value.toDouble();
    if (!value.isDouble() || d != std::floor(d) || d < minimum || d > maximum) {
        fail(QStringLiteral("Invalid arguments: '%1' must be a whole number from %2 to %3, but it is %4.")
                 .arg(name).arg(minimum).arg(maximum)
                 .arg(value.isDouble() ? QString::number(d) : typeName(value)));
        return std::nullopt;
    }
    return int(d);
}

std::optional<bool> ToolArguments::optionalBool(const QString &name)
{
    const QJsonValue value = m_arguments.value(name);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (!value.isBool()) {
        fail(QStringLiteral("Invalid arguments: '%1' must be true or false, but it is %2.").arg(name, typeName(value)));
        return std::nullopt;
    }
    return value.toBool();
}

void ToolArguments::rejectUnknown(const QStringList &known)
{
    for (auto it = m_arguments.begin(); it != m_arguments.end(); ++it) {
        if (!known.contains(it.key())) {
            fail(QStringLiteral("Invalid arguments: unknown argument '%1'; this tool takes: %2.").arg(it.key(), known.join(QStringLiteral(", "))));
            return;
        }
    }
}
