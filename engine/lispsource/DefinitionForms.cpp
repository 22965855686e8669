#include "DefinitionForms.h"

#include "DefiningOperators.h"

namespace {
using Op = DefiningOperator;

QString nickname(const QString &name)
{
    if (name == QLatin1String("CL-USER"))
        return QStringLiteral("COMMON-LISP-USER");
    if (name == QLatin1String("CL"))
        return QStringLiteral("COMMON-LISP");
    return name;
}

QString written(const SyntaxNode &node)
{
    return node.plainText();
}

bool isSymbolNamed(const SyntaxNode &node, QLatin1String name)
{
    return node.is(SyntaxKind::Symbol) && node.symbol().name == name;
}

// A symbol's name, and its package when it is written with one.
void readSymbol(const SyntaxNode &node, DefinedName &result)
{
    const SymbolName symbol = node.symbol();
    result.name = symbol.name;
    if (symbol.marker == SymbolName::Marker::External || symbol.marker == SymbolName::Marker::Internal)
        result.package = nickname(symbol.package);
    else if (symbol.marker == SymbolName::Marker::Keyword)
        result.package = QStringLiteral("KEYWORD");
}

// Fills name and package from the node after the operator; false when it names nothing.
bool readName(const DefiningOperator &op, SyntaxNode node, DefinedName &result)
{
    if (!node.isComplete())
        return false;
    result.nameNode = node;
    switch (op.nameShape) {
    case Op::Name::Package:
        result.name = DefinitionForms::packageName(node);
        return !result.name.isEmpty();
    case Op::Name::FirstArgument:
        if (node.is(SyntaxKind::String)) {
            result.name = node.stringValue();
            return !result.name.isEmpty();
        }
        if (node.is(SyntaxKind::List)) {
            // ("SSL_new" ssl-new), (lisp-name "c_name" :option x): the Lisp name is the first
            // symbol that is no keyword; failing one, the first string.
            SyntaxNode string;
            for (const SyntaxNode &element : node.children()) {
                if (element.is(SyntaxKind::Symbol) && element.symbol().marker != SymbolName::Marker::Keyword) {
                    result.nameNode = element;
                    readSymbol(element, result);
                    return !result.name.isEmpty();
                }
                if (element.is(SyntaxKind::String) && !string.isValid())
                    string = element;
            }
            if (!string.isValid())
                return false;
            result.nameNode = string;
            result.name = string.stringValue();
            return !result.name.isEmpty();
        }
        break;
    case Op::Name::SymbolOrList:
        if (node.is(SyntaxKind::List))
            node = result.nameNode = node.child(0); // (defstruct (point (:include base)) ...)
        break;
    case Op::Name::FunctionName:
        if (node.is(SyntaxKind::List)) {
            // (setf foo)
            if (node.childCount() != 2 || !isSymbolNamed(node.child(0), QLatin1String("SETF"))
                || !node.child(1).is(SyntaxKind::Symbol))
                return false;
            readSymbol(node.child(1), result);
            result.name = QStringLiteral("(SETF %1)").arg(result.name);
            return true;
        }
        break;
    case Op::Name::Symbol:
        break;
    }
    if (!node.is(SyntaxKind::Symbol))
        return false;
    readSymbol(node, result);
    return !result.name.isEmpty();
}

// (), nil, (:since "1.1.0"): a list that is empty or starts with a keyword holds options, not a name.
bool isOptionList(const SyntaxNode &node)
{
    if (isSymbolNamed(node, QLatin1String("NIL")) && node.symbol().marker == SymbolName::Marker::None)
        return true;
    return node.is(SyntaxKind::List) && (node.childCount() == 0 || node.child(0).symbol().marker == SymbolName::Marker::Keyword);
}

bool isLambdaList(const SyntaxNode &node)
{
    return node.is(SyntaxKind::List) || isSymbolNamed(node, QLatin1String("NIL"));
}

// The specializer of each required parameter: (c circle) -> circle, x -> t, (k (eql :red)) -> (eql :red).
QStringList specializers(const SyntaxNode &lambdaList)
{
    QStringList result;
    for (const SyntaxNode &parameter : lambdaList.children()) {
        if ((parameter.is(SyntaxKind::Symbol) && parameter.symbol().name.startsWith(u'&')) || parameter.is(SyntaxKind::Dot))
            break; // &optional, &rest, &key, ..., or the rest of (a . rest)
        if (parameter.is(SyntaxKind::List) && parameter.childCount() >= 2 && !parameter.isDotted())
            result << DefinitionForms::specializerName(parameter.child(1));
        else
            result << QStringLiteral("t");
    }
    return result;
}

// A body's documentation: the first string that is not the whole body, among declarations.
QString bodyDocumentation(const QList<SyntaxNode> &forms, qsizetype from)
{
    for (qsizetype i = from; i < forms.size(); ++i) {
        const SyntaxNode &form = forms[i];
        if (form.operatorName() == QLatin1String("declare"))
            continue;
        if (form.is(SyntaxKind::String) && i + 1 < forms.size())
            return form.stringValue();
        break;
    }
    return {};
}

QString optionDocumentation(const QList<SyntaxNode> &forms, qsizetype from)
{
    for (qsizetype i = from; i < forms.size(); ++i) {
        const SyntaxNode &option = forms[i];
        if (option.is(SyntaxKind::List) && option.childCount() >= 2 && option.child(0).symbol().marker == SymbolName::Marker::Keyword
            && option.child(0).symbol().name == QLatin1String("DOCUMENTATION") && option.child(1).is(SyntaxKind::String))
            return option.child(1).stringValue();
    }
    return {};
}
} // namespace

QString DefinitionForms::canonicalPackage(const QString &designator)
{
    QString name = designator;
    if (name.startsWith(QLatin1String("#:")))
        name.remove(0, 2);
    else if (name.startsWith(u':'))
        name.remove(0, 1);
    if (name.size() >= 2 && name.startsWith(u'"') && name.endsWith(u'"'))
        return nickname(name.mid(1, name.size() - 2)); // strings name packages exactly
    if (name.size() >= 2 && name.startsWith(u'|') && name.endsWith(u'|'))
        return nickname(name.mid(1, name.size() - 2));
    return nickname(name.toUpper());
}

QString DefinitionForms::qualifierName(const SyntaxNode &qualifier)
{
    if (qualifier.is(SyntaxKind::Symbol))
        return qualifier.symbol().printed();
    return qualifier.plainText(); // as written: #+sbcl :around is one datum
}

QString DefinitionForms::specializerName(const SyntaxNode &specializer)
{
    if (specializer.is(SyntaxKind::Symbol)) {
        SymbolName symbol = specializer.symbol();
        symbol.package.clear();
        symbol.marker = SymbolName::Marker::None;
        return symbol.printed();
    }
    if (specializer.is(SyntaxKind::List) && specializer.childCount() == 2 && isSymbolNamed(specializer.child(0), QLatin1String("EQL")))
        return QStringLiteral("(eql %1)").arg(specializer.child(1).plainText());
    return specializer.plainText();
}

bool DefinitionForms::isKind(const QString &asked, const QString &kind)
{
    if (asked == kind)
        return true;
    return asked == QLatin1String("class") && (kind == QLatin1String("structure") || kind == QLatin1String("condition"));
}

QString DefinitionForms::packageName(const SyntaxNode &designator)
{
    if (designator.is(SyntaxKind::String))
        return nickname(designator.stringValue());
    if (designator.is(SyntaxKind::Symbol) && designator.isComplete())
        return nickname(designator.symbol().name);
    return {};
}

DefinedName DefinitionForms::read(const QString &text)
{
    const SyntaxTree tree = SyntaxTree::read(text);
    const QList<SyntaxNode> forms = tree.topLevel();
    return forms.isEmpty() ? DefinedName() : read(forms.first());
}

DefinedName DefinitionForms::read(const SyntaxNode &form)
{
    DefinedName result;
    const DefiningOperator op = DefiningOperators::find(form.operatorName());
    if (!op.isValid() || form.isDotted())
        return result; // (defun f . body) is no definition the macro would accept
    const QList<SyntaxNode> parts = form.children();
    qsizetype next = 1; // the name, then the first part after the name (and lambda list)
    // (define-x (:since "1.1") name ...), (define-x () name ...): options before the name.
    if (op.nameShape == Op::Name::FirstArgument && parts.size() > 2 && isOptionList(parts[1]))
        next = 2;
    if (parts.size() <= next || !readName(op, parts[next], result))
        return {};
    ++next;
    result.kind = op.kind;
    result.operatorName = op.name;

    switch (op.then) {
    case Op::Then::Nothing:
        break;
    case Op::Then::LambdaList:
        if (next < parts.size() && isLambdaList(parts[next]))
            result.lambdaList = written(parts[next++]);
        break;
    case Op::Then::QualifiersThenLambdaList:
        while (next < parts.size() && !isLambdaList(parts[next]))
            result.qualifiers << DefinitionForms::qualifierName(parts[next++]);
        if (next < parts.size()) {
            result.specializers = specializers(parts[next]);
            result.lambdaList = written(parts[next++]);
        }
        break;
    case Op::Then::InitForm:
        if (next < parts.size())
            result.initForm = written(parts[next++]);
        break;
    }
    switch (op.doc) {
    case Op::Doc::None:
        break;
    case Op::Doc::Body:
        result.documentation = bodyDocumentation(parts, next);
        break;
    case Op::Doc::AfterValue:
    case Op::Doc::AfterName:
        if (next < parts.size() && parts[next].is(SyntaxKind::String))
            result.documentation = parts[next].stringValue();
        break;
    case Op::Doc::Option:
        result.documentation = optionDocumentation(parts, next);
        break;
    }
    return result;
}
