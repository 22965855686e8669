#include "FeatureReading.h"

#include "LispPackages.h"

namespace {
QString characterName(const SyntaxNode &node)
{
    // "#\Space": the name after "#\" (a dispatch argument, "#2\x", is not standard syntax).
    const QString text = node.text().toString();
    return text.startsWith(QLatin1String("#\\")) ? text.mid(2) : QString();
}

bool isLongName(const QString &name)
{
    return name.size() > 2 || (name.size() == 2 && !name[0].isHighSurrogate());
}

// "#-ECL", "#+(or sbcl ccl)": the conditional that decides whether node is read, as written.
QString deciding(SyntaxNode node, const QSet<QString> &features)
{
    for (SyntaxNode child = node, parent = node.parent(); parent.isValid(); child = parent, parent = parent.parent()) {
        if (parent.is(SyntaxKind::FeatureConditional) && parent.datum() == child
            && PackageDefinition::featureHolds(parent.feature(), features) == parent.featureIsPositive())
            return (parent.featureIsPositive() ? QStringLiteral("#+") : QStringLiteral("#-")) + parent.feature().plainText();
    }
    return {};
}

// An element of a list is there when the #+/#- in front of it (if any) let it be read.
bool isElementRead(SyntaxNode element, const QSet<QString> &features)
{
    while (element.is(SyntaxKind::FeatureConditional)) {
        if (PackageDefinition::featureHolds(element.feature(), features) != element.featureIsPositive())
            return false;
        element = element.datum();
    }
    return true;
}

// (a . b) with the features: one element or more before the dot, exactly one after it.
bool isDotWellPlaced(const SyntaxNode &dot, const QSet<QString> &features)
{
    int before = 0, after = 0;
    bool seen = false;
    for (const SyntaxNode &element : dot.parent().children()) {
        if (element == dot) {
            seen = true;
            continue;
        }
        if (element.is(SyntaxKind::Dot) || !isElementRead(element, features))
            continue;
        (seen ? after : before) += 1;
    }
    return before >= 1 && after == 1;
}

ReadError problem(const SyntaxNode &node, const QString &kind, const QString &message)
{
    ReadError error;
    error.kind = kind;
    error.offset = node.start();
    error.line = node.line();
    error.column = node.column();
    error.message = message;
    return error;
}
} // namespace

namespace FeatureReading {

bool isRead(const SyntaxNode &node, const QSet<QString> &features)
{
    for (SyntaxNode child = node, parent = node.parent(); parent.isValid(); child = parent, parent = parent.parent()) {
        if (!parent.is(SyntaxKind::FeatureConditional))
            continue;
        if (parent.datum() != child)
            return false; // the feature expression itself
        if (PackageDefinition::featureHolds(parent.feature(), features) != parent.featureIsPositive())
            return false;
    }
    return true;
}

QStringList characterNames(const SyntaxTree &tree)
{
    QStringList names;
    for (int i = 0; i < tree.nodeCount(); ++i) {
        const SyntaxNode node = tree.node(i);
        if (!node.is(SyntaxKind::Character) || !node.isComplete())
            continue;
        const QString name = characterName(node);
        if (isLongName(name) && !names.contains(name))
            names << name;
    }
    return names;
}

ReadError firstProblem(const SyntaxTree &tree, const QSet<QString> &features, const QSet<QString> &unknownCharacterNames)
{
    for (int i = 0; i < tree.nodeCount(); ++i) {
        const SyntaxNode node = tree.node(i);
        const bool suppressedToken = node.readsOnlySuppressed();
        const bool character = node.is(SyntaxKind::Character) && unknownCharacterNames.contains(characterName(node));
        if ((!suppressedToken && !character) || !isRead(node, features))
            continue;
        if (suppressedToken && node.is(SyntaxKind::Dot) && node.parent().is(SyntaxKind::List)) {
            if (isDotWellPlaced(node, features))
                continue;
            return problem(node, QStringLiteral("dot"),
                           QStringLiteral("A consing dot at line %1, column %2 must stand between a list's elements and its last element "
                                          "(with the session's *features*, as its #+/#- read)")
                               .arg(node.line())
                               .arg(node.column()));
        }
        const QString where = QStringLiteral("line %1, column %2").arg(node.line()).arg(node.column());
        const QString conditional = deciding(node, features);
        const QString because = conditional.isEmpty()
            ? QString()
            : QStringLiteral(" (the %1 before it does not skip it: the session's *features* let it be read)").arg(conditional);
        if (character)
            return problem(node, QStringLiteral("character-name"),
                           QStringLiteral("'%1' at %2 names no character ECL knows%3").arg(node.text().toString(), where, because));
        if (node.is(SyntaxKind::Dot))
            return problem(node, QStringLiteral("dot"),
                           QStringLiteral("A consing dot at %1 stands outside a list%2").arg(where, because));
        return problem(node, QStringLiteral("suppressed-token"),
                       QStringLiteral("'%1' at %2 cannot be read%3").arg(node.text().toString(), where, because));
    }
    return {};
}

} // namespace FeatureReading
