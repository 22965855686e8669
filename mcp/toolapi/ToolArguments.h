#pragma once

#include <QJsonObject>
#include <QStringList>

#include <optional>
#include <type_traits>
#include <vector>

// A tool's arguments, each declared once, as a constant of the tool's file:
//
//     const auto Code = Arg::string("code", "Lisp source text to check").required("the Lisp text to check");
//     const auto Limit = Arg::integer("limit", "Most completions to return (default 50)", 1, 1000);
//
// The tool's table ({Code, Limit}) gives its inputSchema and checks every call before the tool
// sees it; the tool then reads the checked values through the same constants
// (arguments.text(Code), arguments.value(Limit, 50)). A problem is a sentence that names the
// argument and says what to send instead.
class ArgumentSpec
{
public:
    enum class Type { String, Number, Integer, Boolean, StringList };

    const QString &name() const { return m_name; }
    Type type() const { return m_type; }
    bool isRequired() const { return !m_requiredAs.isEmpty(); }
    QJsonObject schema() const;

    // What is wrong with the value sent (undefined when absent); empty when nothing is.
    QString problemWith(const QJsonValue &value) const;
    // Checked after every argument's type: a string that is only blanks, when that is refused.
    QString blankProblemWith(const QJsonValue &value) const;

protected:
    ArgumentSpec(Type type, const QString &name, const QString &description, double minimum, double maximum,
                 const QStringList &choices)
        : m_type(type), m_name(name), m_description(description), m_minimum(minimum), m_maximum(maximum), m_choices(choices) {}

    Type m_type;
    QString m_name;
    QString m_description;
    double m_minimum = 0;
    double m_maximum = 0;
    QStringList m_choices;     // strings: the only values allowed ("enum" in the schema)
    QString m_requiredAs;      // non-empty: required, and what to send, e.g. "the Lisp code to evaluate"
    QString m_blankProblem;    // non-empty: a blank string is refused with this sentence
    bool m_acceptsNumbers = false; // strings: a number is taken as its digits
};

// An argument whose checked value is a T: QString, double, int, bool or QStringList.
template <typename T>
class Argument : public ArgumentSpec
{
public:
    // Made by the Arg:: functions below.
    Argument(Type type, const QString &name, const QString &description, double minimum = 0, double maximum = 0,
             const QStringList &choices = {})
        : ArgumentSpec(type, name, description, minimum, maximum, choices) {}

    Argument required(const QString &what) const
    {
        Argument copy = *this;
        copy.m_requiredAs = what;
        return copy;
    }
    // The sentence after the name, e.g. "is empty; give part of a symbol name".
    Argument notBlank(const QString &problem) const
    {
        static_assert(std::is_same_v<T, QString>, "only strings can be blank");
        Argument copy = *this;
        copy.m_blankProblem = problem;
        return copy;
    }
    Argument acceptingNumbers() const
    {
        static_assert(std::is_same_v<T, QString>, "only strings take numbers as their digits");
        Argument copy = *this;
        copy.m_acceptsNumbers = true;
        return copy;
    }
};

namespace Arg {
Argument<QString> string(const QString &name, const QString &description);
Argument<QString> choice(const QString &name, const QString &description, const QStringList &values);
Argument<double> number(const QString &name, const QString &description, double minimum, double maximum);
Argument<int> integer(const QString &name, const QString &description, int minimum, int maximum);
Argument<bool> boolean(const QString &name, const QString &description);
// An array of at most `maximum` strings.
Argument<QStringList> strings(const QString &name, const QString &description, int maximum);
} // namespace Arg

// A tool's table of arguments, in the order they are listed and checked.
class ArgumentTable
{
public:
    ArgumentTable() = default;
    ArgumentTable(std::initializer_list<ArgumentSpec> arguments) : m_arguments(arguments) {}

    QJsonObject inputSchema() const; // closed: an unknown argument is refused
    // The first problem of a call's arguments: an unknown name, then each argument in table
    // order, then blank strings. Empty when there is none.
    QString problemWith(const QJsonObject &arguments) const;

private:
    std::vector<ArgumentSpec> m_arguments;
};

// The arguments of one call, already checked against the tool's table.
class ToolArguments
{
public:
    explicit ToolArguments(const QJsonObject &json) : m_json(json) {}

    // nullopt when the client left it out (or sent null).
    template <typename T>
    std::optional<T> value(const Argument<T> &argument) const
    {
        const QJsonValue v = m_json.value(argument.name());
        if (v.isUndefined() || v.isNull())
            return std::nullopt;
        if constexpr (std::is_same_v<T, QString>)
            return v.isDouble() ? QString::number(v.toDouble(), 'f', 0) : v.toString();
        else if constexpr (std::is_same_v<T, QStringList>)
            return v.toVariant().toStringList();
        else if constexpr (std::is_same_v<T, bool>)
            return v.toBool();
        else
            return T(v.toDouble());
    }
    template <typename T>
    T value(const Argument<T> &argument, const std::type_identity_t<T> &fallback) const
    {
        return value(argument).value_or(fallback);
    }
    // A string argument, empty when left out.
    QString text(const Argument<QString> &argument) const { return value(argument, QString()); }

    const QJsonObject &json() const { return m_json; }

private:
    QJsonObject m_json;
};
