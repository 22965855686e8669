#include "LispPackages.h"

#include "DefinitionForms.h"

#include <algorithm>

namespace {
const QString CommonLisp = QStringLiteral("COMMON-LISP");
const QString CommonLispUser = QStringLiteral("COMMON-LISP-USER");
const QString Keyword = QStringLiteral("KEYWORD");

// #+sbcl x reads as x somewhere: without features every branch is read; with them, a branch
// whose feature does not hold is nothing (an invalid node).
SyntaxNode withoutConditionals(SyntaxNode node, const QSet<QString> *features = nullptr)
{
    while (node.is(SyntaxKind::FeatureConditional) && node.datum().isValid()) {
        if (features && PackageDefinition::featureHolds(node.feature(), *features) != node.featureIsPositive())
            return {};
        node = node.datum();
    }
    return node;
}

bool isPackageForm(const SyntaxNode &form)
{
    const QString op = form.operatorName();
    return (op == QLatin1String("defpackage") || op == QLatin1String("define-package")) && form.childCount() >= 2
        && !form.isDotted();
}

// A symbol's or a string's characters as a designator names them; empty for anything else.
QString designated(const SyntaxNode &node)
{
    if (node.is(SyntaxKind::String))
        return node.stringValue();
    if (node.is(SyntaxKind::Symbol) && node.isComplete())
        return node.symbol().name;
    return {};
}

// Each (:option values...) of a defpackage form, values with their conditionals dropped.
template<typename Visit>
void forEachOption(const SyntaxNode &form, const QSet<QString> *features, Visit visit)
{
    const QList<SyntaxNode> parts = form.children();
    for (qsizetype i = 2; i < parts.size(); ++i) {
        const SyntaxNode option = withoutConditionals(parts[i], features);
        if (!option.is(SyntaxKind::List) || option.childCount() == 0 || !option.child(0).is(SyntaxKind::Symbol))
            continue;
        QList<SyntaxNode> values;
        for (const SyntaxNode &value : option.children().mid(1)) {
            if (const SyntaxNode kept = withoutConditionals(value, features); kept.isValid())
                values << kept;
        }
        visit(option.child(0).symbol().name.toLower(), values);
    }
}
} // namespace

// --- PackageDefinition -------------------------------------------------------------------------

bool PackageDefinition::featureHolds(const SyntaxNode &feature, const QSet<QString> &features)
{
    // Feature expressions are short: the loop over their operators nests as deep as they do.
    if (feature.is(SyntaxKind::Symbol))
        return features.contains(feature.symbol().name);
    if (!feature.is(SyntaxKind::List) || feature.childCount() == 0)
        return false;
    const QString op = feature.child(0).symbol().name;
    const QList<SyntaxNode> parts = feature.children().mid(1);
    if (op == QLatin1String("NOT"))
        return parts.size() == 1 && !featureHolds(parts[0], features);
    if (op == QLatin1String("AND"))
        return std::all_of(parts.begin(), parts.end(), [&](const SyntaxNode &p) { return featureHolds(p, features); });
    if (op == QLatin1String("OR"))
        return std::any_of(parts.begin(), parts.end(), [&](const SyntaxNode &p) { return featureHolds(p, features); });
    return false;
}

QList<PackageDefinition::NamedSymbol> PackageDefinition::namedSymbols(const SyntaxNode &given, const QSet<QString> *features)
{
    QList<NamedSymbol> named;
    const SyntaxNode form = withoutConditionals(given);
    if (!isPackageForm(form))
        return named;
    const QString self = DefinitionForms::packageName(form.child(1));
    forEachOption(form, features, [&](const QString &option, const QList<SyntaxNode> &values) {
        const bool fromOther = option == QLatin1String("import-from") || option == QLatin1String("shadowing-import-from");
        if (!fromOther && option != QLatin1String("export") && option != QLatin1String("shadow") && option != QLatin1String("intern"))
            return;
        if (fromOther && values.isEmpty())
            return;
        const QString package = fromOther ? DefinitionForms::packageName(values.first()) : self;
        for (qsizetype i = fromOther ? 1 : 0; i < values.size(); ++i) {
            const QString name = designated(values[i]);
            if (!name.isEmpty())
                named.append(NamedSymbol{values[i], option, name, package});
        }
    });
    return named;
}

PackageDefinition PackageDefinition::read(const SyntaxNode &given, const QSet<QString> *features)
{
    PackageDefinition definition;
    const SyntaxNode form = withoutConditionals(given);
    if (!isPackageForm(form))
        return definition;
    definition.name = DefinitionForms::packageName(form.child(1));
    forEachOption(form, features, [&](const QString &option, const QList<SyntaxNode> &values) {
        QStringList names;
        for (const SyntaxNode &value : values) {
            if (const QString name = designated(value); !name.isEmpty())
                names << name;
        }
        if (option == QLatin1String("nicknames"))
            definition.nicknames << names;
        else if (option == QLatin1String("use") || option == QLatin1String("mix"))
            definition.uses << names;
        else if (option == QLatin1String("reexport"))
            definition.uses << names, definition.reexports << names;
    });
    for (const NamedSymbol &symbol : namedSymbols(form, features)) {
        if (symbol.option == QLatin1String("export"))
            definition.exports.insert(symbol.name);
        else if (symbol.option == QLatin1String("shadow"))
            definition.shadows.insert(symbol.name);
        else if (symbol.option != QLatin1String("intern"))
            definition.imports.insert(symbol.name, symbol.package);
    }
    return definition;
}

// --- LispPackages ------------------------------------------------------------------------------

LispPackages::LispPackages()
{
    PackageDefinition cl;
    cl.name = CommonLisp;
    cl.nicknames = {QStringLiteral("CL")};
    cl.exports = commonLispSymbols();
    add(cl);
    PackageDefinition user;
    user.name = CommonLispUser;
    user.nicknames = {QStringLiteral("CL-USER")};
    user.uses = {CommonLisp};
    add(user);
    PackageDefinition keyword;
    keyword.name = Keyword;
    add(keyword);
}

void LispPackages::add(const PackageDefinition &definition)
{
    if (!definition.isValid())
        return;
    PackageDefinition stored = definition;
    stored.name = canonical(definition.name);
    for (const QString &nickname : definition.nicknames)
        m_nicknames.insert(nickname, stored.name);
    m_packages.insert(stored.name, stored);
}

void LispPackages::addFrom(const SyntaxTree &tree)
{
    // Top-level forms and the forms of top-level groups (progn, eval-when...): a loop over a
    // stack of lists, never a recursion.
    QList<SyntaxNode> pending = tree.forms();
    while (!pending.isEmpty()) {
        const SyntaxNode form = withoutConditionals(pending.takeLast());
        if (isPackageForm(form)) {
            add(PackageDefinition::read(form, m_knowsFeatures ? &m_features : nullptr));
            continue;
        }
        const QString op = form.operatorName();
        if (op == QLatin1String("progn") || op == QLatin1String("eval-when"))
            pending << form.children().mid(op == QLatin1String("progn") ? 1 : 2);
    }
}

QString LispPackages::canonical(const QString &name) const
{
    return m_nicknames.value(name, name);
}

bool LispPackages::exports(const QString &package, const QString &name) const
{
    const auto found = m_packages.constFind(package);
    if (found == m_packages.constEnd())
        return false;
    if (found->exports.contains(name))
        return true;
    for (const QString &reexported : found->reexports) {
        const QString other = canonical(reexported);
        if (other != package && m_packages.value(other).exports.contains(name))
            return true;
    }
    return false;
}

SymbolHome LispPackages::home(const QString &packageName, const QString &name) const
{
    SymbolHome result;
    QString package = canonical(packageName);
    // Each step goes to the package the symbol comes from; a cycle of imports is cut.
    for (int step = 0; step < 32; ++step) {
        result.package = package;
        const auto found = m_packages.constFind(package);
        if (found == m_packages.constEnd()) {
            // Nobody declared it: nearly every package uses COMMON-LISP, so a standard name is
            // probably the standard's symbol, and may be its own.
            if (package != CommonLisp && commonLispSymbols().contains(name))
                return {CommonLisp, {package}};
            return result;
        }
        if (found->shadows.contains(name))
            return result;
        if (const auto imported = found->imports.constFind(name); imported != found->imports.constEnd()) {
            package = canonical(imported.value());
            continue;
        }
        QString from;
        for (const QString &used : found->uses) {
            const QString usedName = canonical(used);
            if (exports(usedName, name)) {
                from = usedName;
                break;
            }
            if (!m_packages.contains(usedName) && !result.alternatives.contains(usedName))
                result.alternatives << usedName; // nobody says what it exports: it may be there
        }
        if (from.isEmpty())
            return result;
        result.alternatives.clear();
        package = from;
    }
    return result;
}

SymbolHome LispPackages::home(const SymbolName &symbol, const QString &packageInForce) const
{
    switch (symbol.marker) {
    case SymbolName::Marker::Keyword:
        return {Keyword, {}};
    case SymbolName::Marker::Uninterned:
        return {};
    case SymbolName::Marker::External:
    case SymbolName::Marker::Internal:
        return home(symbol.package, symbol.name);
    case SymbolName::Marker::None:
        break;
    }
    return home(packageInForce, symbol.name);
}

QStringList LispPackages::unknownPackages() const
{
    QStringList unknown;
    for (const PackageDefinition &definition : m_packages) {
        QStringList named = definition.uses;
        for (const QString &from : definition.imports)
            named << from;
        for (const QString &package : std::as_const(named)) {
            const QString name = canonical(package);
            if (!m_packages.contains(name) && !unknown.contains(name))
                unknown << name;
        }
    }
    unknown.sort();
    return unknown;
}
