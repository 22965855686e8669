#include "ToolArguments.h"

#include "schema/JsonSchema.h"

#include <QJsonArray>
#include <QVarLengthArray>

#include <algorithm>
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

QString quoted(const QString &text)
{
    return QLatin1Char('"') + text + QLatin1Char('"');
}

QString invalid(const QString &sentence)
{
    return QStringLiteral("Invalid arguments: ") + sentence;
}
} // namespace

QJsonObject ArgumentSpec::schema() const
{
    switch (m_type) {
    case Type::String:
        return m_choices.isEmpty() ? Schema::string(m_description) : Schema::stringEnum(m_description, m_choices);
    case Type::Number:
        return Schema::number(m_description, m_minimum, m_maximum);
    case Type::Integer:
        return Schema::integer(m_description, int(m_minimum), int(m_maximum));
    case Type::Boolean:
        return Schema::boolean(m_description);
    case Type::StringList: {
        QJsonObject schema = Schema::stringArray(m_description);
        schema.insert(QStringLiteral("maxItems"), int(m_maximum));
        return schema;
    }
    }
    return {};
}

QString ArgumentSpec::problemWith(const QJsonValue &value) const
{
    if (value.isUndefined() || value.isNull()) {
        const QString as = m_type == Type::String ? QStringLiteral("as a string")
                           : m_type == Type::StringList ? QStringLiteral("as an array of strings")
                           : m_type == Type::Boolean ? QStringLiteral("as true or false")
                                                     : QStringLiteral("as a number");
        return isRequired() ? invalid(QStringLiteral("'%1' is required: %2 %3.").arg(m_name, m_requiredAs, as)) : QString();
    }
    switch (m_type) {
    case Type::String:
        if (value.isDouble() && m_acceptsNumbers)
            return {};
        if (!value.isString()) {
            return isRequired()
                ? invalid(QStringLiteral("'%1' must be a string (%2), but it is %3.").arg(m_name, m_requiredAs, typeName(value)))
                : invalid(QStringLiteral("'%1' must be a string, but it is %2.").arg(m_name, typeName(value)));
        }
        if (!m_choices.isEmpty() && !m_choices.contains(value.toString())) {
            QStringList choices;
            for (const QString &choice : m_choices)
                choices << quoted(choice);
            return invalid(QStringLiteral("'%1' must be %2, but it is %3.")
                               .arg(m_name, choices.join(QStringLiteral(" or ")), quoted(value.toString())));
        }
        return {};
    case Type::Number: {
        const double d = value.toDouble();
        if (!value.isDouble() || !std::isfinite(d) || d < m_minimum || d > m_maximum) {
            return invalid(QStringLiteral("'%1' must be a number from %2 to %3, but it is %4.")
                               .arg(m_name).arg(m_minimum).arg(m_maximum)
                               .arg(value.isDouble() ? QString::number(d) : typeName(value)));
        }
        return {};
    }
    case Type::Integer: {
        const double d = value.toDouble();
        if (!value.isDouble() || d != std::floor(d) || d < m_minimum || d > m_maximum) {
            return invalid(QStringLiteral("'%1' must be a whole number from %2 to %3, but it is %4.")
                               .arg(m_name).arg(int(m_minimum)).arg(int(m_maximum))
                               .arg(value.isDouble() ? QString::number(d) : typeName(value)));
        }
        return {};
    }
    case Type::Boolean:
        if (!value.isBool())
            return invalid(QStringLiteral("'%1' must be true or false, but it is %2.").arg(m_name, typeName(value)));
        return {};
    case Type::StringList: {
        const QJsonArray items = value.toArray();
        const bool strings = value.isArray() && std::all_of(items.begin(), items.end(), [](const QJsonValue &v) { return v.isString(); });
        if (!strings || items.size() > int(m_maximum))
            return invalid(QStringLiteral("'%1' must be an array of at most %2 strings, but it is %3.")
                               .arg(m_name).arg(int(m_maximum))
                               .arg(value.isArray() ? (strings ? QStringLiteral("%1 long").arg(items.size()) : QStringLiteral("an array holding something other than strings"))
                                                    : typeName(value)));
        return {};
    }
    }
    return {};
}

QString ArgumentSpec::blankProblemWith(const QJsonValue &value) const
{
    if (m_blankProblem.isEmpty() || !value.isString() || !value.toString().trimmed().isEmpty())
        return {};
    return invalid(QStringLiteral("'%1' %2.").arg(m_name, m_blankProblem));
}

namespace Arg {
Argument<QString> string(const QString &name, const QString &description)
{
    return {ArgumentSpec::Type::String, name, description};
}

Argument<QString> choice(const QString &name, const QString &description, const QStringList &values)
{
    return {ArgumentSpec::Type::String, name, description, 0, 0, values};
}

Argument<double> number(const QString &name, const QString &description, double minimum, double maximum)
{
    return {ArgumentSpec::Type::Number, name, description, minimum, maximum};
}

Argument<int> integer(const QString &name, const QString &description, int minimum, int maximum)
{
    return {ArgumentSpec::Type::Integer, name, description, double(minimum), double(maximum)};
}

Argument<bool> boolean(const QString &name, const QString &description)
{
    return {ArgumentSpec::Type::Boolean, name, description};
}

Argument<QStringList> strings(const QString &name, const QString &description, int maximum)
{
    return {ArgumentSpec::Type::StringList, name, description, 0, double(maximum)};
}
} // namespace Arg

QJsonObject ArgumentTable::inputSchema() const
{
    QJsonObject properties;
    QStringList required;
    for (const ArgumentSpec &argument : m_arguments) {
        properties.insert(argument.name(), argument.schema());
        if (argument.isRequired())
            required << argument.name();
    }
    return Schema::object(properties, required);
}

QString ArgumentTable::problemWith(const QJsonObject &arguments) const
{
    // One pass over what the call gave, each value put beside its declaration: a lookup by name
    // per declared argument (twice: problems, then blanks) cost more than the rest of a call.
    QVarLengthArray<QJsonValue, 16> given;
    given.resize(qsizetype(m_arguments.size()));
    std::fill(given.begin(), given.end(), QJsonValue(QJsonValue::Undefined)); // as value() says of a missing key
    for (auto it = arguments.begin(); it != arguments.end(); ++it) {
        const QString key = it.key();
        const auto declared = std::find_if(m_arguments.begin(), m_arguments.end(),
                                           [&key](const ArgumentSpec &argument) { return argument.name() == key; });
        if (declared == m_arguments.end()) { // a misspelt option must not pass silently
            QStringList names;
            for (const ArgumentSpec &argument : m_arguments)
                names << argument.name();
            return invalid(QStringLiteral("unknown argument '%1'; this tool takes: %2.").arg(key, names.join(QStringLiteral(", "))));
        }
        given[declared - m_arguments.begin()] = it.value();
    }
    for (size_t i = 0; i < m_arguments.size(); ++i) {
        const QString problem = m_arguments[i].problemWith(given[qsizetype(i)]);
        if (!problem.isEmpty())
            return problem;
    }
    for (size_t i = 0; i < m_arguments.size(); ++i) {
        const QString problem = m_arguments[i].blankProblemWith(given[qsizetype(i)]);
        if (!problem.isEmpty())
            return problem;
    }
    return {};
}
