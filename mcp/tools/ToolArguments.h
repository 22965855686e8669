#pragma once

#include <QJsonObject>
#include <QString>
#include <optional>

// Reads a tool's arguments and remembers the first problem as a sentence that names the
// argument and says what to send instead; tools return it as an isError result.
class ToolArguments
{
public:
    explicit ToolArguments(const QJsonObject &arguments) : m_arguments(arguments) {}

    QString requiredString(const QString &name, const QString &what);
    std::optional<QString> optionalString(const QString &name);
    std::optional<double> optionalNumber(const QString &name, double minimum, double maximum);
    std::optional<int> optionalInteger(const QString &name, int minimum, int maximum);
    std::optional<bool> optionalBool(const QString &name);
    // Fails for arguments the schema does not know (a misspelt option should not pass silently).
    void rejectUnknown(const QStringList &known);

    bool ok() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }

private:
    void fail(const QString &message);

    QJsonObject m_arguments;
    QString m_error;
};
