#include "FormLabels.h"

#include <QHash>
#include <QRegularExpression>

namespace {

// A label's argument, cut to at most `limit` characters, ending with "…" when cut.
QString shortened(const QString &text, qsizetype limit)
{
    return text.size() <= limit ? text : text.left(limit - 1) + QChar(0x2026);
}

constexpr qsizetype LabelArgumentChars = 60;
// How many arguments after a keyword name a label shows at most ("deftest :suite name").
constexpr int MostArgumentsAfterAKeyword = 3;

// The arguments after the operator as one line, as far as a label shows them.
QString argumentsText(const QList<SyntaxNode> &parts, qsizetype from, qsizetype to)
{
    QString text;
    for (qsizetype i = from; i < to && text.size() <= LabelArgumentChars; ++i)
        text += (text.isEmpty() ? QString() : QStringLiteral(" ")) + parts[i].plainText();
    return shortened(text, LabelArgumentChars);
}

QString labelOf(const TopLevelForm &form)
{
    const QString prefix = form.condition.isEmpty() ? QString() : form.condition + QLatin1Char(' ');
    const QList<SyntaxNode> parts = form.body.children();
    if (form.operatorName.isEmpty() || parts.isEmpty())
        return prefix + shortened(form.body.plainText(), LabelArgumentChars);
    // The operator as it reads back, without its package: "defun", |define-odd(name|.
    SymbolName head = parts[0].symbol();
    head.package.clear();
    head.marker = SymbolName::Marker::None;
    const QString op = prefix + head.printed();
    const DefinedName &definition = form.definition;
    if (definition.isValid() && definition.nameNode.isValid()) {
        QString label = op + QLatin1Char(' ') + definition.nameNode.plainText();
        if (definition.kind == QLatin1String("method")) {
            for (const QString &qualifier : definition.qualifiers)
                label += QLatin1Char(' ') + qualifier;
            label += QStringLiteral(" (%1)").arg(FormLabels::withoutTrailingT(definition.specializers).join(QLatin1Char(' ')));
        }
        return label;
    }
    if (form.isGroup())
        return form.groupBody > 1 ? op + QLatin1Char(' ') + argumentsText(parts, 1, form.groupBody) : op;
    if (parts.size() == 1)
        return op;
    // (defsystem "x" ...), (def-suite :x), (defalias path:dirname ...), (defcfun ("f" f) ...):
    // the name as written; other forms, their first words.
    const SyntaxNode &first = parts[1];
    if (first.is(SyntaxKind::Symbol) || first.is(SyntaxKind::String)
        || (first.is(SyntaxKind::List) && form.operatorName.startsWith(QLatin1String("def"))))
        return op + QLatin1Char(' ') + shortened(first.plainText(), LabelArgumentChars);
    // The form on one line without "(operator" and its ")".
    QString plain = form.body.plainText();
    const qsizetype afterOperator = plain.indexOf(QLatin1Char(' '));
    plain = afterOperator < 0 ? QString() : plain.mid(afterOperator + 1);
    if (form.body.isComplete() && plain.endsWith(QLatin1Char(')')))
        plain.chop(1);
    return op + QLatin1Char(' ') + shortened(plain, LabelArgumentChars);
}


// The node a label names a form by: a definition's name, else the first argument.
int nameIndex(const TopLevelForm &form)
{
    const QList<SyntaxNode> parts = form.body.children();
    if (form.definition.isValid()) {
        if (form.definition.kind == QLatin1String("method"))
            return -1; // qualifiers and specializers already tell methods apart
        for (qsizetype i = 1; i < parts.size(); ++i) {
            if (parts[i] == form.definition.nameNode)
                return int(i);
        }
        return -1;
    }
    return form.isGroup() || parts.size() < 2 ? -1 : 1;
}

// (deftest :yason "parser.basic" ...), (define-base64-decoder :string :usb8-array): the first
// argument is a keyword, the name is what follows it.
QString withArgumentsAfterAKeyword(const TopLevelForm &form)
{
    const int at = nameIndex(form);
    const QList<SyntaxNode> parts = form.body.children();
    if (at < 0 || !parts[at].is(SyntaxKind::Symbol) || parts[at].symbol().marker != SymbolName::Marker::Keyword)
        return form.label;
    QString label = form.label;
    for (int i = at + 1, shown = 0; i < parts.size() && shown < MostArgumentsAfterAKeyword; ++i, ++shown) {
        label += QLatin1Char(' ') + shortened(parts[i].plainText(), LabelArgumentChars);
        if (!parts[i].is(SyntaxKind::Symbol) || parts[i].symbol().marker != SymbolName::Marker::Keyword)
            break;
    }
    return label;
}

QHash<QString, int> labelCounts(const QList<TopLevelForm> &forms)
{
    QHash<QString, int> counts;
    for (const TopLevelForm &form : forms)
        counts[form.label] += 1;
    return counts;
}
} // namespace

namespace FormLabels {

QString make(const TopLevelForm &form)
{
    return labelOf(form);
}

void makeUnique(QList<TopLevelForm> &forms)
{
    QHash<QString, int> counts = labelCounts(forms);
    if (counts.size() == forms.size())
        return;
    for (TopLevelForm &form : forms) {
        if (counts.value(form.label) > 1)
            form.label = withArgumentsAfterAKeyword(form);
    }
    counts = labelCounts(forms);
    QHash<QString, int> seen;
    for (TopLevelForm &form : forms) {
        if (counts.value(form.label) > 1) {
            const int ordinal = ++seen[form.label];
            form.label += QStringLiteral(" [%1]").arg(ordinal);
        }
    }
}

QString withoutOrdinal(const QString &label)
{
    static const QRegularExpression ordinal(QStringLiteral(R"( \[\d+\]$)"));
    QString base = label;
    return base.remove(ordinal);
}

QStringList withoutTrailingT(QStringList specializers)
{
    while (!specializers.isEmpty() && specializers.last() == QLatin1String("t"))
        specializers.removeLast();
    return specializers;
}

} // namespace FormLabels
