#include "QueryReplies.h"

namespace EngineProtocol {

QJsonArray CompletionReply::completions() const { return array("completions"); }
int CompletionReply::total() const { return int(number("total")); }

QString ArglistReply::name() const { return text("name"); }
QString ArglistReply::kind() const { return text("kind"); }
QString ArglistReply::lambdaList() const { return text("lambda_list"); }

bool LookupReply::found() const { return flag("found"); }
QString LookupReply::message() const { return text("message"); }

bool DefinitionsReply::hasDefinitions() const { return m_json.contains(QStringLiteral("definitions")); }
QJsonValue DefinitionsReply::package() const { return field("package"); }
QJsonArray DefinitionsReply::definitions() const { return array("definitions"); }

QString DefinitionsReply::Entry::name() const { return json.value(QStringLiteral("name")).toString(); }
QString DefinitionsReply::Entry::package() const { return json.value(QStringLiteral("package")).toString(); }
QString DefinitionsReply::Entry::symbol() const { return json.value(QStringLiteral("symbol")).toString(); }
QJsonValue DefinitionsReply::Entry::documentation() const { return json.value(QStringLiteral("documentation")); }
QString DefinitionsReply::Entry::kind() const { return json.value(QStringLiteral("kind")).toString(); }
QJsonValue DefinitionsReply::Entry::lambdaList() const { return json.value(QStringLiteral("lambda_list")); }
QJsonValue DefinitionsReply::Entry::value() const { return json.value(QStringLiteral("value")); }
QJsonValue DefinitionsReply::Entry::file() const { return json.value(QStringLiteral("file")); }
int DefinitionsReply::Entry::line() const { return json.value(QStringLiteral("line")).toInt(); }
QString DefinitionsReply::Entry::execution() const { return json.value(QStringLiteral("execution")).toString(); }
qint64 DefinitionsReply::Entry::nativeSinceMs() const { return qint64(json.value(QStringLiteral("native_since_ms")).toDouble()); }
QString DefinitionsReply::Entry::nativeReason() const { return json.value(QStringLiteral("native_reason")).toString(); }

QSet<QString> PackagesReply::features() const
{
    QSet<QString> features;
    for (const QJsonValue &v : array("features"))
        features.insert(v.toString());
    return features;
}

QStringList PackagesReply::unknownCharacterNames() const
{
    return toStringList(array("unknown_characters"));
}

QList<PackageDefinition> PackagesReply::packages() const
{
    QList<PackageDefinition> packages;
    for (const QJsonValue &v : array("packages")) {
        const QJsonObject o = v.toObject();
        PackageDefinition package;
        package.name = o.value(QStringLiteral("name")).toString();
        for (const QJsonValue &n : o.value(QStringLiteral("nicknames")).toArray())
            package.nicknames << n.toString();
        for (const QJsonValue &u : o.value(QStringLiteral("uses")).toArray())
            package.uses << u.toString();
        for (const QJsonValue &e : o.value(QStringLiteral("externals")).toArray())
            package.exports.insert(e.toString());
        const QJsonObject homes = o.value(QStringLiteral("homes")).toObject();
        for (auto it = homes.begin(); it != homes.end(); ++it)
            package.imports.insert(it.key(), it.value().toString());
        packages << package;
    }
    return packages;
}

QList<ResolveNamesReply::Name> ResolveNamesReply::names() const
{
    QList<Name> names;
    for (const QJsonValue &v : array("names")) {
        const QJsonObject o = v.toObject();
        names.append({o.value(QStringLiteral("package")).toString(), o.value(QStringLiteral("name")).toString(),
                      o.value(QStringLiteral("found")).toBool()});
    }
    return names;
}

QList<bool> ResolveNamesReply::conditions() const
{
    QList<bool> holds;
    for (const QJsonValue &v : array("conditions"))
        holds.append(v.toBool());
    return holds;
}

QString DescribeReply::name() const { return text("name"); }
QJsonValue DescribeReply::package() const { return field("package"); }
QJsonArray DescribeReply::kinds() const { return array("kinds"); }
QJsonValue DescribeReply::lambdaList() const { return field("lambda_list"); }
QJsonValue DescribeReply::functionDocumentation() const { return field("function_documentation"); }
QJsonValue DescribeReply::variableDocumentation() const { return field("variable_documentation"); }
QJsonValue DescribeReply::typeDocumentation() const { return field("type_documentation"); }
QJsonValue DescribeReply::value() const { return field("value"); }
QJsonValue DescribeReply::valueResultId() const { return field("value_result_id"); }
QJsonArray DescribeReply::locations() const { return array("locations"); }

QString DescribeReply::Location::kind() const { return json.value(QStringLiteral("kind")).toString(); }
QString DescribeReply::Location::where() const { return json.value(QStringLiteral("where")).toString(); }
QString DescribeReply::Location::form() const { return json.value(QStringLiteral("form")).toString(); }
QString DescribeReply::Location::file() const { return json.value(QStringLiteral("file")).toString(); }

QString DocumentationReply::name() const { return text("name"); }
QJsonValue DocumentationReply::package() const { return field("package"); }
bool DocumentationReply::isStandard() const { return flag("standard"); }
QStringList DocumentationReply::kinds() const { return toStringList(field("kinds")); }
QJsonValue DocumentationReply::lambdaList() const { return field("lambda_list"); }
QJsonObject DocumentationReply::documentation() const { return field("documentation").toObject(); }

int AproposReply::total() const { return int(number("total")); }
QJsonArray AproposReply::matches() const { return array("matches"); }

QString AproposReply::Match::name() const { return json.value(QStringLiteral("name")).toString(); }
QJsonValue AproposReply::Match::package() const { return json.value(QStringLiteral("package")); }
QStringList AproposReply::Match::kinds() const { return toStringList(json.value(QStringLiteral("kinds"))); }

QJsonValue InspectReply::resultId() const { return field("result_id"); }
QJsonValue InspectReply::kind() const { return field("kind"); }
QJsonValue InspectReply::type() const { return field("type"); }
QJsonValue InspectReply::summary() const { return field("summary"); }
int InspectReply::offset() const { return int(number("offset")); }
int InspectReply::total() const { return int(number("total")); }
QJsonArray InspectReply::elements() const { return array("elements"); }

QJsonObject InspectReply::attributes() const
{
    static const QStringList common{QStringLiteral("id"), QStringLiteral("status"), QStringLiteral("found"), QStringLiteral("result_id"),
                                    QStringLiteral("kind"), QStringLiteral("type"), QStringLiteral("summary"), QStringLiteral("offset"),
                                    QStringLiteral("total"), QStringLiteral("elements")};
    QJsonObject attributes;
    for (auto it = m_json.begin(); it != m_json.end(); ++it) {
        if (!common.contains(it.key()))
            attributes.insert(it.key(), it.value());
    }
    return attributes;
}

QString InspectReply::Element::key() const { return json.value(QStringLiteral("key")).toString(); }
QString InspectReply::Element::value() const { return json.value(QStringLiteral("value")).toString(); }
QString InspectReply::Element::resultId() const { return json.value(QStringLiteral("result_id")).toString(); }
bool InspectReply::Element::isCycle() const { return json.value(QStringLiteral("cycle")).toBool(); }

int LimitsReply::printLength() const { return int(number("print_length")); }
int LimitsReply::printLevel() const { return int(number("print_level")); }
int LimitsReply::maxOutputChars() const { return int(number("max_output_chars")); }
double LimitsReply::heapLimitBytes() const { return number("heap_limit_bytes"); }

} // namespace EngineProtocol
