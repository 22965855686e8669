#include "LispFile.h"

#include "DefiningOperators.h"
#include "FormLabels.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <limits>

namespace {

QString lines(const TopLevelForm &form)
{
    return form.firstLine == form.lastLine ? QStringLiteral("line %1").arg(form.firstLine)
                                           : QStringLiteral("lines %1-%2").arg(form.firstLine).arg(form.lastLine);
}

QString range(const TopLevelForm &form)
{
    return form.firstLine == form.lastLine ? QString::number(form.firstLine)
                                           : QStringLiteral("%1-%2").arg(form.firstLine).arg(form.lastLine);
}

QString listed(const QList<TopLevelForm> &forms)
{
    QStringList items;
    for (const TopLevelForm &form : forms)
        items << QStringLiteral("%1 at %2").arg(form.label, lines(form));
    return items.join(QStringLiteral("; "));
}

bool isBlank(QChar c)
{
    return c == QLatin1Char(' ') || c == QLatin1Char('\t');
}

bool isLineBreak(QChar c)
{
    return c == QLatin1Char('\n') || c == QLatin1Char('\r');
}

// The comment that starts exactly at offset, or that ends exactly there; null if none.
const SyntaxComment *commentStartingAt(const QList<SyntaxComment> &comments, int offset)
{
    const auto it = std::lower_bound(comments.begin(), comments.end(), offset,
                                     [](const SyntaxComment &c, int at) { return c.start < at; });
    return it != comments.end() && it->start == offset ? &*it : nullptr;
}
const SyntaxComment *commentEndingAt(const QList<SyntaxComment> &comments, int offset)
{
    const auto it = std::lower_bound(comments.begin(), comments.end(), offset,
                                     [](const SyntaxComment &c, int at) { return c.end < at; });
    return it != comments.end() && it->end == offset ? &*it : nullptr;
}

// Where a form's text starts for the tools: before the block comments that precede it on its
// line when nothing else does (#| note |# (defun f ...)), else at the node.
int spanStart(const SyntaxTree &tree, const SyntaxNode &node)
{
    const QString &text = tree.text();
    int start = node.start();
    int i = start;
    for (;;) {
        while (i > 0 && isBlank(text[i - 1]))
            --i;
        if (i == 0 || isLineBreak(text[i - 1]))
            return start;
        const SyntaxComment *comment = commentEndingAt(tree.comments(), i);
        if (!comment || !comment->block)
            return node.start(); // another form shares the line: the node alone
        start = i = comment->start;
    }
}

// Where it ends: after the comments that follow it on its last line when nothing else does
// ((defgeneric f (x)) ; exported), else at the node's end.
int spanEnd(const SyntaxTree &tree, const SyntaxNode &node)
{
    const QString &text = tree.text();
    int end = node.end();
    int i = end;
    for (;;) {
        while (i < text.size() && isBlank(text[i]))
            ++i;
        if (i == text.size() || isLineBreak(text[i]))
            return end;
        const SyntaxComment *comment = commentStartingAt(tree.comments(), i);
        if (!comment)
            return node.end();
        i = comment->end;
        end = i;
        while (end > comment->start && text[end - 1].isSpace())
            --end; // a ';' comment runs to the '\n': a CRLF's '\r' and trailing blanks are the line's, not the form's
    }
}

// Where a group's forms start among its children: (progn . forms), (eval-when situations .
// forms), (macrolet bindings . forms), (symbol-macrolet bindings . forms), (locally . forms),
// declarations skipped; 0 when the form is no group.
int groupBodyStart(const SyntaxNode &body, const QString &op)
{
    if (!body.is(SyntaxKind::List) || body.isDotted())
        return 0;
    int start = 0;
    if (op == QLatin1String("progn") || op == QLatin1String("locally"))
        start = 1;
    else if (op == QLatin1String("eval-when") || op == QLatin1String("macrolet") || op == QLatin1String("symbol-macrolet"))
        start = 2;
    if (start == 0 || body.childCount() < start)
        return 0;
    while (start < body.childCount() && body.child(start).operatorName() == QLatin1String("declare"))
        ++start;
    return start;
}

// "(SETF FOO)" names the symbol FOO.
QString symbolPart(const QString &name)
{
    if (name.startsWith(QLatin1String("(SETF ")) && name.endsWith(QLatin1Char(')')))
        return name.mid(6, name.size() - 7);
    return name;
}

bool sameText(const QString &a, const QString &b)
{
    return a.compare(b, Qt::CaseInsensitive) == 0;
}

// "#+sbcl #-x86-64" from the conditionals in front of a datum; the datum itself in *datum.
QString conditionsOf(SyntaxNode node, SyntaxNode *datum)
{
    QString condition;
    while (node.is(SyntaxKind::FeatureConditional) && node.datum().isValid()) {
        const SyntaxNode feature = node.feature();
        condition += (condition.isEmpty() ? QString() : QStringLiteral(" ")) + (node.featureIsPositive() ? QStringLiteral("#+") : QStringLiteral("#-"))
            + (feature.isValid() ? feature.plainText() : QString());
        node = node.datum();
    }
    *datum = node;
    return condition;
}

// A name as a designator: a symbol's name, a string's characters.
QString designatorName(const SyntaxNode &node)
{
    if (node.is(SyntaxKind::String))
        return node.stringValue();
    return node.is(SyntaxKind::Symbol) ? node.symbol().name : QString();
}

// How many forms that define nothing may stand between a top-level form and a definition it
// lists (kmrcl: (without-package-locks (without-package-locks (defvar ...))) in an eval-when).
constexpr int MostWrappers = 3;

// A list that defines nothing itself but may hold definitions: (unless ...), (let ...), not
// (quote ...), not a definition (a defmacro's body is its own business).
bool isWrapper(const SyntaxNode &datum)
{
    const QString op = datum.operatorName();
    return datum.is(SyntaxKind::List) && datum.isComplete() && !datum.isDotted() && !op.isEmpty() && op != QLatin1String("quote")
        && op != QLatin1String("function") && !DefinitionForms::read(datum).isValid();
}

bool isDefinition(const SyntaxNode &datum)
{
    if (!datum.is(SyntaxKind::List) || !datum.isComplete())
        return false;
    const DefinedName definition = DefinitionForms::read(datum);
    return definition.isValid() && definition.kind != QLatin1String("package");
}

// Whether a definition is among node's parts, through at most `levels` wrappers.
bool holdsDefinition(const SyntaxNode &wrapper, int levels)
{
    const QList<SyntaxNode> children = wrapper.children();
    for (qsizetype i = 1; i < children.size(); ++i) {
        SyntaxNode datum;
        conditionsOf(children[i], &datum);
        if (isDefinition(datum) || (levels > 1 && isWrapper(datum) && holdsDefinition(datum, levels - 1)))
            return true;
    }
    return false;
}

// (unless (fboundp 'x) (defun x ...)), (let ((cache ...)) (defun f ...)), (without-package-locks
// (defun ...)) in an eval-when: the definitions inside a form that is neither a group nor a
// definition itself are listed too, as the forms of a group are, and so are the forms between
// (at most MostWrappers deep) that lead to one.
QList<SyntaxNode> wrappedDefinitions(const TopLevelForm &form)
{
    QList<SyntaxNode> found;
    if (form.isGroup() || !isWrapper(form.body))
        return found;
    const QList<SyntaxNode> children = form.body.children();
    for (qsizetype i = 1; i < children.size(); ++i) {
        SyntaxNode datum;
        conditionsOf(children[i], &datum);
        if (isDefinition(datum) || (isWrapper(datum) && holdsDefinition(datum, MostWrappers - 1)))
            found.append(children[i]);
    }
    return found;
}

bool isDefiningPackage(const TopLevelForm &form)
{
    return form.operatorName == QLatin1String("defpackage") || form.operatorName == QLatin1String("define-package");
}
} // namespace

// --- FormQuery -------------------------------------------------------------------------------

FormQuery FormQuery::parse(const QString &text)
{
    FormQuery query;
    const SyntaxTree tree = SyntaxTree::read(text.trimmed());
    const ReadError error = tree.firstError();
    if (error.isValid()) {
        query.error = error.message;
        return query;
    }
    QList<SyntaxNode> parts = tree.topLevel();
    // "#+(and sbcl (not win32)) defun note": the conditionals written before the operator, as
    // the form has them; the reader reads them, nested parentheses and all.
    if (!parts.isEmpty())
        query.condition = conditionsOf(parts[0], &parts[0]);
    if (parts.size() < 2 || !parts[0].is(SyntaxKind::Symbol)) {
        query.error = QStringLiteral("A form is named by its operator and name, e.g. \"defun foo\" or "
                                     "\"defmethod area :around (circle)\"");
        return query;
    }
    query.what = parts[0].symbol().name.toLower();
    const SyntaxNode &part = parts[1];
    query.argumentIsString = part.is(SyntaxKind::String);
    query.argument = part.is(SyntaxKind::Symbol) ? part.symbol() : SymbolName{};
    if (query.argumentIsString)
        query.argument.name = part.stringValue();
    const DefiningOperator op = DefiningOperators::find(query.what);
    // The name is read as the operator reads it: a table entry by itself, any define-... as
    // define-x does (its own name may need escapes), a kind ("function") or an operator that
    // defines nothing ("deftest") as a function name.
    const QString reader = !op.isValid() ? QStringLiteral("defun")
        : op.nameShape == DefiningOperator::Name::FirstArgument ? QStringLiteral("define-x")
                                                                : op.name;
    const DefinedName name = DefinitionForms::read(QStringLiteral("(%1 %2)").arg(reader, part.text()));
    if (name.isValid()) {
        query.name = name.name;
        query.package = name.package;
    } else if (op.definesName() || (!part.is(SyntaxKind::Symbol) && !query.argumentIsString)) {
        query.error = QStringLiteral("'%1' is not a name a form defines").arg(part.text());
        return query;
    }
    for (qsizetype i = 2; i < parts.size(); ++i) {
        const SyntaxNode &next = parts[i];
        if (!next.is(SyntaxKind::List) && next.symbol().name != QLatin1String("NIL")) {
            query.qualifiers << DefinitionForms::qualifierName(next);
            continue;
        }
        // The specializers: "(circle)", "(circle (eql :red))", or the lambda list "((c circle))".
        query.hasSpecializers = true;
        for (const SyntaxNode &element : next.children()) {
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

bool FormQuery::matches(const TopLevelForm &form, const LispPackages &packages) const
{
    if (!isValid())
        return false;
    if (!condition.isEmpty() && !sameText(condition, form.condition))
        return false;
    const DefinedName &d = form.definition;
    if (d.isValid() && !name.isEmpty() && (what == form.operatorName || DefinitionForms::isKind(what, d.kind))) {
        if (d.name != name)
            return false;
        if (!package.isEmpty()) {
            const QString written = d.package.isEmpty() ? form.package : packages.canonical(d.package);
            const SymbolHome wanted = packages.home(package, symbolPart(name));
            if (!packages.home(written, symbolPart(d.name)).mayBe(wanted.package))
                return false;
        }
        if (qualifiers.isEmpty() && !hasSpecializers)
            return true; // "defmethod area": every method of AREA
        // Both sides are printed Lisp text ("(eql :red)" as written): compared without case.
        auto same = [](const QStringList &a, const QStringList &b) {
            return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), sameText);
        };
        if (!same(d.qualifiers, qualifiers))
            return false;
        return !hasSpecializers || same(FormLabels::withoutTrailingT(specializers), FormLabels::withoutTrailingT(d.specializers));
    }
    // (defsystem "x"), (deftest foo), (5am:test foo), (def-suite :x): the operator and the name
    // after it, as a designator ("x", :x, #:x and x name the same thing).
    if (what != form.operatorName || !qualifiers.isEmpty() || hasSpecializers || form.body.childCount() < 2)
        return false;
    const SyntaxNode first = form.body.child(1);
    if (argumentIsString || first.is(SyntaxKind::String))
        return !argument.name.isEmpty() && sameText(argument.name, designatorName(first));
    if (!first.is(SyntaxKind::Symbol) || first.symbol().name != argument.name)
        return false;
    if (argument.marker != SymbolName::Marker::External && argument.marker != SymbolName::Marker::Internal)
        return true;
    return packages.home(first.symbol(), form.package).mayBe(packages.home(argument, form.package).package);
}

// --- FormMatches -----------------------------------------------------------------------------

QString FormMatches::message() const
{
    if (!queryError.isEmpty())
        return QStringLiteral("The form \"%1\" cannot be looked for: %2.").arg(query, queryError);
    if (forms.isEmpty()) {
        if (byLines) {
            QString message = QStringLiteral("No form is exactly at lines %1.").arg(query);
            if (!sameName.isEmpty())
                message += QStringLiteral(" The forms there: %1.").arg(listed(sameName));
            return message;
        }
        QString message = QStringLiteral("No top-level form is \"%1\".").arg(query);
        if (!sameName.isEmpty())
            message += QStringLiteral(" Forms with that name: %1.").arg(listed(sameName));
        return message;
    }
    if (forms.size() == 1)
        return {};
    if (byLines)
        return QStringLiteral("Lines %1 hold %2 forms: %3. Name the one you mean by its label.").arg(query).arg(forms.size()).arg(listed(forms));
    const QString base = FormLabels::withoutOrdinal(forms.first().label);
    const bool sameLabel = std::all_of(forms.begin(), forms.end(), [&](const TopLevelForm &f) { return FormLabels::withoutOrdinal(f.label) == base; });
    if (sameLabel && base != forms.first().label)
        return QStringLiteral("\"%1\" is the label of %2 forms, numbered in the outline: %3. Name the one you mean as listed (\"%4\"), "
                              "or by its lines (lines: \"%5\").")
            .arg(query).arg(forms.size()).arg(listed(forms), forms.first().label, range(forms.first()));
    if (sameLabel)
        return QStringLiteral("\"%1\" is the label of %2 forms: %3. Name the one you mean by its lines (lines: \"%4\").")
            .arg(query).arg(forms.size()).arg(listed(forms), range(forms.first()));
    return QStringLiteral("\"%1\" matches %2 top-level forms: %3. Name one exactly as listed "
                          "(for a method, with its qualifiers and specializers), or by its lines (lines: \"%4\").")
        .arg(query).arg(forms.size()).arg(listed(forms), range(forms.first()));
}

// --- LispFile --------------------------------------------------------------------------------

LispFile::LispFile(const QString &text, const QString &initialPackage)
    : m_tree(SyntaxTree::read(text))
{
    struct Pending
    {
        SyntaxNode node;
        int parent;
        int depth;
    };
    // Document order without recursion: a stack, each group's forms pushed in reverse.
    QList<Pending> pending;
    const QList<SyntaxNode> topLevel = m_tree.forms();
    for (auto it = topLevel.crbegin(); it != topLevel.crend(); ++it)
        pending.append({*it, -1, 0});
    QString package = DefinitionForms::canonicalPackage(initialPackage);
    while (!pending.isEmpty()) {
        const Pending next = pending.takeLast();
        TopLevelForm form;
        form.index = int(m_forms.size());
        form.parent = next.parent;
        form.depth = next.depth;
        form.node = next.node;
        // #+ecl (defun ...) defines what its datum defines, where the feature holds.
        form.condition = conditionsOf(next.node, &form.body);
        form.operatorName = form.body.operatorName();
        form.definition = DefinitionForms::read(form.body);
        form.package = package;
        form.start = spanStart(m_tree, form.node);
        form.end = spanEnd(m_tree, form.node);
        form.firstLine = m_tree.lineAt(form.start);
        form.lastLine = m_tree.lineAt(std::max(form.start, form.end - 1));
        form.groupBody = groupBodyStart(form.body, form.operatorName);
        form.label = FormLabels::make(form);
        if (form.definition.kind == QLatin1String("package"))
            package = form.definition.name; // the forms after it are read in that package
        if (form.isGroup()) {
            const QList<SyntaxNode> children = form.body.children();
            for (qsizetype i = children.size() - 1; i >= form.groupBody; --i)
                pending.append({children[i], form.index, form.depth + 1});
        } else {
            const QList<SyntaxNode> wrapped = wrappedDefinitions(form);
            for (auto it = wrapped.crbegin(); it != wrapped.crend(); ++it)
                pending.append({*it, form.index, form.depth + 1});
        }
        m_forms.append(form);
    }
    FormLabels::makeUnique(m_forms);
}

FormMatches LispFile::find(const QString &text) const
{
    return find(text, ownPackages());
}

FormMatches LispFile::find(const QString &text, const LispPackages &packages) const
{
    FormMatches result;
    result.query = text.simplified();
    // The label an outline shows finds its forms, whatever it holds (spaces in its strings too).
    const QString trimmed = text.trimmed();
    for (const TopLevelForm &form : m_forms) {
        if (form.label == text || form.label == trimmed || form.label.simplified() == result.query)
            result.forms.append(form);
    }
    if (!result.forms.isEmpty())
        return result;
    // A label without the ordinal that tells its forms apart ("eval-when (...)" for
    // "eval-when (...) [2]"): all of them, to choose from.
    for (const TopLevelForm &form : m_forms) {
        const QString base = FormLabels::withoutOrdinal(form.label);
        if (base != form.label && (base == trimmed || base.simplified() == result.query))
            result.forms.append(form);
    }
    if (!result.forms.isEmpty())
        return result;
    const FormQuery query = FormQuery::parse(text);
    if (!query.isValid()) {
        result.queryError = query.error;
        return result;
    }
    for (const TopLevelForm &form : m_forms) {
        if (query.matches(form, packages))
            result.forms.append(form);
        else if (!query.name.isEmpty() && form.definition.isValid() && form.definition.name == query.name)
            result.sameName.append(form);
    }
    if (!result.forms.isEmpty())
        result.sameName.clear();
    return result;
}

FormMatches LispFile::findLines(const QString &text) const
{
    FormMatches result;
    result.byLines = true;
    result.query = text.simplified();
    static const QRegularExpression pattern(QStringLiteral(R"(^\s*(\d{1,9})\s*(?:-\s*(\d{1,9}))?\s*$)"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch()) {
        result.queryError = QStringLiteral("lines must be a range as view-lisp-file shows it, e.g. \"12-18\" (or \"12\" for a form on one line)");
        return result;
    }
    const int first = match.captured(1).toInt();
    const int last = match.captured(2).isEmpty() ? first : match.captured(2).toInt();
    int depth = std::numeric_limits<int>::max();
    for (const TopLevelForm &form : m_forms) {
        if (form.firstLine == first && form.lastLine == last) {
            if (form.depth < depth)
                result.forms.clear(), depth = form.depth;
            if (form.depth == depth)
                result.forms.append(form);
        } else if (form.depth == 0 && form.firstLine <= last && form.lastLine >= first) {
            result.sameName.append(form); // what is there instead
        }
    }
    if (!result.forms.isEmpty())
        result.sameName.clear();
    return result;
}

LispPackages LispFile::ownPackages() const
{
    LispPackages packages;
    packages.addFrom(m_tree);
    return packages;
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
    return occurrences(symbol, ownPackages());
}

QList<SymbolOccurrence> LispFile::symbolUses() const
{
    QList<SymbolOccurrence> result;
    auto add = [&](const TopLevelForm &form, const SyntaxNode &node, const SymbolName &name) {
        result.append(SymbolOccurrence{node, name, form.index, form.package, node.line(), node.column()});
    };
    // The nodes of groups' forms, which are visited as forms of their own.
    QSet<int> nested;
    for (const TopLevelForm &form : m_forms) {
        if (form.parent >= 0)
            nested.insert(form.node.index());
    }
    for (const TopLevelForm &form : m_forms) {
        if (form.definition.kind == QLatin1String("package"))
            continue; // (in-package :x) names a package
        if (isDefiningPackage(form)) {
            // (:export #:name), (:import-from :pkg "NAME"): symbols named by designators, as
            // uninterned names; their package is the one the option names them in.
            for (const PackageDefinition::NamedSymbol &named : PackageDefinition::namedSymbols(form.body)) {
                SymbolName name;
                name.name = named.name;
                name.package = named.package;
                name.marker = SymbolName::Marker::Internal;
                add(form, named.node, name);
            }
            continue;
        }
        const int end = form.node.subtreeEnd();
        SyntaxNode current = form.node;
        while (current.isValid() && current.index() < end) {
            if (current != form.node && nested.contains(current.index())) {
                current = current.following();
                continue;
            }
            if (current.is(SyntaxKind::FeatureConditional) && current.feature().isValid()) {
                current = current.feature().following(); // #+sbcl: a feature, not a symbol of the program
                continue;
            }
            if (current.is(SyntaxKind::Symbol))
                add(form, current, current.symbol());
            current = current.next();
        }
    }
    return result;
}

QList<SymbolOccurrence> LispFile::occurrences(const QString &symbol, const LispPackages &packages) const
{
    QList<SymbolOccurrence> result;
    const SyntaxTree wanted = SyntaxTree::read(symbol);
    const QList<SyntaxNode> parts = wanted.topLevel();
    if (parts.size() != 1 || !parts[0].is(SyntaxKind::Symbol) || !parts[0].isComplete())
        return result;
    const SymbolName target = parts[0].symbol();
    const bool keyword = target.marker == SymbolName::Marker::Keyword;
    const bool qualified = target.marker == SymbolName::Marker::External || target.marker == SymbolName::Marker::Internal;
    const QString home = qualified ? packages.home(target, {}).package : QString();
    for (const SymbolOccurrence &use : symbolUses()) {
        if (use.symbol.name != target.name)
            continue;
        const bool designator = !use.node.is(SyntaxKind::Symbol) || use.node.symbol().name != use.symbol.name
            || use.node.symbol().marker != use.symbol.marker;
        if (designator) {
            // A defpackage's name for a symbol: a use of it, never of the keyword.
            if (keyword || (qualified && !packages.home(packages.canonical(use.symbol.package), use.symbol.name).mayBe(home)))
                continue;
            SymbolOccurrence shown = use;
            shown.symbol = use.node.symbol();
            shown.symbol.name = use.symbol.name;
            result.append(shown);
            continue;
        }
        const bool isKeyword = use.symbol.marker == SymbolName::Marker::Keyword;
        if (isKeyword == keyword && (!qualified || packages.home(use.symbol, use.package).mayBe(home)))
            result.append(use);
    }
    return result;
}
