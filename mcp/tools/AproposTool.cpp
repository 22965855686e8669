#include "Tools.h"

#include "client/EngineProtocol.h"
#include "schema/JsonSchema.h"
#include "ToolKit.h"

namespace {
using EngineProtocol::AproposReply;

const auto Text = Arg::string(QStringLiteral("text"), QStringLiteral("Text the names contain (case-insensitive)"))
                      .required(QStringLiteral("the text symbol names must contain"))
                      .notBlank(QStringLiteral("is empty; give part of a symbol name"));
const auto Package = Arg::string(QStringLiteral("package"), QStringLiteral("Only symbols accessible in this package"));
const auto Limit = Arg::integer(QStringLiteral("limit"), QStringLiteral("Most matches (default 100)"), 1, 2000);

QJsonObject outputProperties()
{
    using namespace Schema;
    return {{QStringLiteral("matches"), objectArray(QStringLiteral("Matching symbols, shortest names first"),
                                                    {{QStringLiteral("name"), string(QStringLiteral("The symbol, printed relative to the session package"))},
                                                     {QStringLiteral("package"), nullableString(QStringLiteral("Home package"))},
                                                     {QStringLiteral("kinds"), stringArray(QStringLiteral("What it names; empty for none"))}},
                                                    {QStringLiteral("name"), QStringLiteral("kinds")})},
            {QStringLiteral("total"), integer(QStringLiteral("Matches in all, before the limit"), 0, 2147483647)}};
}

ToolResult found(const AproposReply &reply, const QString &text)
{
    if (!reply.found())
        return ToolResult::error(QStringLiteral("[ERROR] PACKAGE-ERROR\n%1").arg(reply.message()));
    const QJsonArray matches = reply.matches();
    QStringList lines;
    for (const QJsonValue &value : matches) {
        const AproposReply::Match match(value);
        const QStringList kinds = match.kinds();
        QString name = match.name();
        if (!name.contains(QLatin1Char(':')) && match.package().isString())
            name += QStringLiteral(" [%1]").arg(match.package().toString());
        lines << (kinds.isEmpty() ? name : QStringLiteral("%1 (%2)").arg(name, kinds.join(QStringLiteral(", "))));
    }
    QString body = lines.isEmpty() ? QStringLiteral("No symbols contain \"%1\".").arg(text) : lines.join(QLatin1Char('\n'));
    if (reply.total() > matches.size())
        body += QStringLiteral("\n(%1 of %2 matches shown; raise limit or narrow the text)").arg(matches.size()).arg(reply.total());
    return ToolResult{body, {{QStringLiteral("matches"), matches}, {QStringLiteral("total"), reply.total()}}, false};
}
} // namespace

Tool aproposTool(Session *session)
{
    ToolSpec spec{
        .name = QStringLiteral("apropos"),
        .title = QStringLiteral("Apropos"),
        .description = QStringLiteral(
            "Symbols whose names contain a text, in every package or one, with what each names. Runs no user code."),
        .arguments = {Text, Package, Limit},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("matches"), QStringLiteral("total")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [session](const ToolCallPtr &call, const ToolArguments &arguments) {
        const QString text = arguments.text(Text);
        ToolKit::ask(session, call, EngineProtocol::apropos(text.trimmed(), arguments.text(Package), arguments.value(Limit, 100)),
                     [text](const QJsonObject &reply) { return found(AproposReply(reply), text); });
    });
}
