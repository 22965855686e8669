#include "LispFile.h"

#include "DefiningOperators.h"
#include "TextLines.h"

#include <QRegularExpression>

#include <algorithm>

namespace {

using TextLines::shortened;

// Trailing T specializers say nothing: (circle) and (circle t) name one method.
QStringList withoutTrailingT(QStringList specializers)
{
    while (!specializers.isEmpty() && specializers.last() == QLatin1String("t"))
        specializers.removeLast();
    return specializers;
}

QString lines(const TopLevelForm &form)
{
    return form.firstLine == form.lastLine ? QStringLiteral("line %1").arg(form.firstLine)
                                           : QStringLiteral("lines %1-%2").arg(form.firstLine).arg(form.lastLine);
}

QString listed(const QList<TopLevelForm> &forms)
{
    QStringList items;
    for (const TopLevelForm &form : forms)
        items << QStringLiteral("%1 at %2").arg(form.label(), lines(form));
    return items.join(QStringLiteral("; "));
}
} // namespace

// --- TopLevelForm ----------------------------------------------------------------------------

QString TopLevelForm::label() const
{
    const QString prefix = condition.isEmpty() ? QString() : condition + QLatin1Char(' ');
    const QList<SyntaxNode> parts = body.children();
    // The operator as it reads back, without its package: "defun", |define-odd(name|.
    SymbolName head = parts.isEmpty() ? SymbolName() : parts[0].symbol();
    head.package.clear();
    head.marker = SymbolName::Marker::None;
    const QString operatorText = head.printed();
    if (definition.isValid() && parts.size() >= 2) {
        QString label = prefix + operatorText + QLatin1Char(' ') + definition.nameNode.plainText();
        if (definition.kind == QLatin1String("method")) {
            for (const QString &qualifier : definition.qualifiers)
                label += QLatin1Char(' ') + qualifier;
            label += QStringLiteral(" (%1)").arg(withoutTrailingT(definition.specializers).join(QLatin1Char(' ')));
        }
        return label;
    }
    if (!operatorName.isEmpty() && parts.size() >= 2 && (parts[1].is(SyntaxKind::Symbol) || parts[1].is(SyntaxKind::String)))
        return prefix + operatorText + QLatin1Char(' ') + shortened(parts[1].plainText(), 60);
    return prefix + shortened(body.plainText(), 40);
}

// --- FormQuery -------------------------------------------------------------------------------

FormQuery FormQuery::parse(const QString &text)
{
    FormQuery query;
    // "#+ecl defun note": the conditionals written before the operator, as the form has them.
    QString rest = text.trimmed();
    static const QRegularExpression conditional(QStringLiteral(R"(^#[+-](\([^()]*\)|[^\s()]+)\s+)"));
    for (QRegularExpressionMatch m = conditional.match(rest); m.hasMatch(); m = conditional.match(rest)) {
        query.condition += (query.condition.isEmpty() ? QString() : QStringLiteral(" ")) + m.captured(0).trimmed();
        rest = rest.mid(m.capturedLength());
    }
    const SyntaxTree tree = SyntaxTree::read(rest);
    const ReadError error = tree.firstError();
    if (error.isValid()) {
        query.error = error.message;
        return query;
    }
    const QList<SyntaxNode> parts = tree.topLevel();
    if (parts.size() < 2 || !parts[0].is(SyntaxKind::Symbol)) {
        query.error = QStringLiteral("A form is named by its operator and name, e.g. \"defun foo\" or "
                                     "\"defmethod area :around (circle)\"");
        return query;
    }
    query.what = parts[0].symbol().name.toLower();
    const DefiningOperator op = DefiningOperators::find(query.what);
    // The name is read as the operator reads it: a table entry by itself, any define-... as
    // define-x does (its own name may need escapes), a kind ("function") or an operator that
    // defines nothing ("deftest") as a function name.
    const QString reader = !op.isValid() ? QStringLiteral("defun")
        : op.nameShape == DefiningOperator::Name::FirstArgument ? QStringLiteral("define-x")
                                                                : op.name;
    const DefinedName name = DefinitionForms::read(QStringLiteral("(%1 %2)").arg(reader, parts[1].text()));
    if (!name.isValid()) {
        query.error = QStringLiteral("'%1' is not a name a form defines").arg(parts[1].text());
        return query;
    }
    query.name = name.name;
    query.package = name.package;
    for (qsizetype i = 2; i < parts.size(); ++i) {
        const SyntaxNode &part = parts[i];
        if (!part.is(SyntaxKind::List) && part.symbol().name != QLatin1String("NIL")) {
            query.qualifiers << DefinitionForms::qualifierName(part);
            continue;
        }
        // The specializers: "(circle)", "(circle (eql :red))", or the lambda list "((c circle))".
        query.hasSpecializers = true;
        for (const SyntaxNode &element : part.children()) {
            // (c circle), as in a lambda list, gives CIRCLE; (eql :red) is a specializer itself.
            const bool pair = element.is(SyntaxKind::List) && element.childCount() == 2
                && element.child(0).symbol().name != QLatin1String("EQL");
            query.specializers << DefinitionForms::specializerName(pair ? element.child(1) : element);
        }
        if (i + 1 < parts.size()) {
            query.error = QStringLiteral("nothing may follow the specializers");
            return query;
        }
    }
    return query;
}

bool FormQuery::matches(const TopLevelForm &form) const
{
    if (!isValid())
        return false;
    if (!condition.isEmpty() && condition.compare(form.condition, Qt::CaseInsensitive) != 0)
        return false;
    const DefinedName &d = form.definition;
    if (!d.isValid()) {
        // (deftest foo ...), (5am:test foo ...): the operator and the symbol after it.
        const SyntaxNode first = form.body.child(1);
        return what == form.operatorName && qualifiers.isEmpty() && !hasSpecializers && package.isEmpty()
            && first.is(SyntaxKind::Symbol) && first.symbol().name == name;
    }
    if (d.name != name)
        return false;
    if (what != form.operatorName && what != d.kind)
        return false;
    if (!package.isEmpty() && package != (d.package.isEmpty() ? form.package : d.package))
        return false;
    if (qualifiers.isEmpty() && !hasSpecializers)
        return true; // "defmethod area": every method of AREA
    // Both sides are printed Lisp text ("(eql :red)" as written): compared without case.
    auto same = [](const QStringList &a, const QStringList &b) {
        return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const QString &x, const QString &y) {
                   return x.compare(y, Qt::CaseInsensitive) == 0;
               });
    };
    if (!same(d.qualifiers, qualifiers))
        return false;
    return !hasSpecializers || same(withoutTrailingT(specializers), withoutTrailingT(d.specializers));
}

// --- FormMatches -----------------------------------------------------------------------------

QString FormMatches::message() const
{
    if (!queryError.isEmpty())
        return QStringLiteral("The form \"%1\" cannot be looked for: %2.").arg(query, queryError);
    if (forms.isEmpty()) {
        QString message = QStringLiteral("No top-level form is \"%1\".").arg(query);
        if (!sameName.isEmpty())
            message += QStringLiteral(" Forms with that name: %1.").arg(listed(sameName));
        return message;
    }
    if (forms.size() == 1)
        return {};
    return QStringLiteral("\"%1\" matches %2 top-level forms: %3. Name one exactly as listed "
                          "(for a method, with its qualifiers and specializers).")
        .arg(query).arg(forms.size()).arg(listed(forms));
}

// --- LispFile --------------------------------------------------------------------------------

LispFile::LispFile(const QString &text, const QString &initialPackage)
    : m_tree(SyntaxTree::read(text))
{
    QString package = DefinitionForms::canonicalPackage(initialPackage);
    for (const SyntaxNode &node : m_tree.forms()) {
        TopLevelForm form;
        form.index = int(m_forms.size());
        form.node = node;
        form.body = node;
        // #+ecl (defun ...) defines what its datum defines, where the feature holds.
        while (form.body.is(SyntaxKind::FeatureConditional) && form.body.datum().isValid()) {
            const SyntaxNode feature = form.body.feature();
            form.condition += (form.condition.isEmpty() ? QString() : QStringLiteral(" "))
                + (form.body.featureIsPositive() ? QStringLiteral("#+") : QStringLiteral("#-"))
                + (feature.isValid() ? feature.plainText() : QString());
            form.body = form.body.datum();
        }
        form.operatorName = form.body.operatorName();
        form.definition = DefinitionForms::read(form.body);
        form.package = package;
        form.start = node.start();
        form.end = node.end();
        form.firstLine = node.line();
        form.lastLine = node.lastLine();
        if (form.definition.kind == QLatin1String("package"))
            package = form.definition.name; // the forms after it are read in that package
        m_forms.append(form);
    }
}

FormMatches LispFile::find(const QString &text) const
{
    FormMatches result;
    result.query = text.simplified();
    const FormQuery query = FormQuery::parse(text);
    if (!query.isValid()) {
        result.queryError = query.error;
        return result;
    }
    for (const TopLevelForm &form : m_forms) {
        if (query.matches(form))
            result.forms.append(form);
        else if (form.definition.isValid() && form.definition.name == query.name)
            result.sameName.append(form);
    }
    if (!result.forms.isEmpty())
        result.sameName.clear();
    return result;
}

QList<SyntaxNode> LispFile::symbolsIn(const SyntaxNode &node)
{
    // The subtree is a range of indices in document order; a feature expression is skipped
    // as a range too. A loop, however deep the form.
    QList<SyntaxNode> symbols;
    const int end = node.subtreeEnd();
    SyntaxNode current = node;
    while (current.isValid() && current.index() < end) {
        if (current.is(SyntaxKind::Symbol))
            symbols.append(current);
        if (current.is(SyntaxKind::FeatureConditional) && current.feature().isValid()) {
            current = current.feature().following(); // #+sbcl: a feature, not a symbol of the program
            continue;
        }
        current = current.next();
    }
    return symbols;
}

QList<SymbolOccurrence> LispFile::occurrences(const QString &symbol) const
{
    QList<SymbolOccurrence> result;
    const SyntaxTree wanted = SyntaxTree::read(symbol);
    const QList<SyntaxNode> parts = wanted.topLevel();
    if (parts.size() != 1 || !parts[0].is(SyntaxKind::Symbol) || !parts[0].isComplete())
        return result;
    const SymbolName target = parts[0].symbol();
    const bool keyword = target.marker == SymbolName::Marker::Keyword;
    const QString targetPackage = target.package.isEmpty() ? QString() : DefinitionForms::canonicalPackage(target.package);
    for (const TopLevelForm &form : m_forms) {
        for (const SyntaxNode &node : symbolsIn(form.node)) {
            // Cheap test first: most symbols of a file are not the one looked for.
            if (node.text().size() < target.name.size())
                continue;
            const SymbolName name = node.symbol();
            if (name.name != target.name || (name.marker == SymbolName::Marker::Keyword) != keyword)
                continue;
            if (!targetPackage.isEmpty()) {
                const QString package = name.package.isEmpty() ? form.package : DefinitionForms::canonicalPackage(name.package);
                if (package != targetPackage)
                    continue;
            }
            result.append(SymbolOccurrence{node, name, form.index, form.package, node.line(), node.column()});
        }
    }
    return result;
}
