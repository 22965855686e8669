#include "LispSource.h"

#include "DefiningOperators.h"
#include "LispReader.h"
#include "LispScanner.h"

#include <QHash>
#include <QSet>

// The lexical questions (tokens, a matching paren, the symbol before a cursor, blank text) go
// to the LispScanner; the structural ones (paren checks, completeness, top-level forms,
// indentation, the operator around a cursor) to the SyntaxTree that LispReader builds from the
// same lexemes, so the console, the highlighter, check-parens and the file tools agree.

namespace {

using Kind = LispLexeme::Kind;

// --- Helpers on text ------------------------------------------------------------------------

int visualColumn(QStringView text, int pos)
{
    int lineStart = pos;
    while (lineStart > 0 && text[lineStart - 1] != u'\n')
        --lineStart;
    int column = 0;
    for (int i = lineStart; i < pos; ++i)
        column = text[i] == u'\t' ? (column / 8 + 1) * 8 : column + 1;
    return column;
}

QSet<QString> words(const char *spaceSeparated)
{
    const QStringList list = QString::fromLatin1(spaceSeparated).split(u' ', Qt::SkipEmptyParts);
    return QSet<QString>(list.begin(), list.end());
}

// An element of a list that reads as a symbol (the old scanner's rule: not a number, not a
// #-token, not behind a reader prefix; a lone dot counts, as the reader reports it later).
bool isSymbolElement(const SyntaxNode &e)
{
    if (e.text().isEmpty() || e.text().front() == u'#')
        return false;
    return e.is(SyntaxKind::Symbol) || e.is(SyntaxKind::Dot) || e.is(SyntaxKind::Error);
}

// A list the text leaves open, as an editor asks about it.
struct OpenList
{
    SyntaxNode node;
    int open = -1;              // offset of the paren character (the '(' of "#(")
    QList<SyntaxNode> elements; // its complete elements, reader prefixes included
    bool quoted = false;        // '( ... ) or #( ... ): data, not code
};

// The lists still open where reading stopped, outermost first.
QList<OpenList> openLists(const SyntaxTree &tree)
{
    QList<OpenList> lists;
    const QList<SyntaxNode> top = tree.topLevel();
    SyntaxNode node = top.isEmpty() ? SyntaxNode() : top.last();
    while (node.isValid() && !node.isComplete()) {
        if (node.is(SyntaxKind::List) || node.is(SyntaxKind::Vector)) {
            OpenList list;
            list.node = node;
            list.open = node.is(SyntaxKind::Vector) ? node.start() + 1 : node.start();
            list.quoted = node.is(SyntaxKind::Vector) || node.parent().is(SyntaxKind::Quote);
            for (const SyntaxNode &child : node.children()) {
                if (child.isComplete())
                    list.elements.append(child);
            }
            lists.append(list);
        }
        node = node.child(node.childCount() - 1);
    }
    return lists;
}

QString listOperator(const OpenList &list)
{
    if (list.elements.isEmpty() || !isSymbolElement(list.elements[0]))
        return {};
    return LispSyntax::operatorKey(list.elements[0].text());
}

// How many arguments of a body form are "distinguished" (indented 4, like a defun's name and
// lambda list) before the body (indented 2); -1 when name is not a body form.
int distinguishedArguments(const QString &name)
{
    static const QHash<QString, int> table = [] {
        // Following Emacs' common-lisp-indent-function; "loop" is special-cased by the caller, the
        // defining operators are in DefiningOperators.
        const char *const byCount[] = {
            "progn locally tagbody ignore-errors loop",
            "lambda let let* flet labels macrolet symbol-macrolet when unless dolist dotimes block "
            "catch eval-when prog1 unwind-protect handler-case handler-bind restart-case restart-bind "
            "case ecase ccase typecase etypecase ctypecase multiple-value-prog1 print-unreadable-object "
            "pprint-logical-block",
            "prog2 do do* destructuring-bind multiple-value-bind with-slots with-accessors",
        };
        QHash<QString, int> result;
        for (int count = 0; count < 3; ++count) {
            for (const QString &name : QString::fromLatin1(byCount[count]).split(u' '))
                result.insert(name, count);
        }
        return result;
    }();
    const auto found = table.constFind(name);
    if (found != table.constEnd())
        return found.value();
    const DefiningOperator definition = DefiningOperators::find(name); // defun, defvar, define-foo, ...
    if (definition.isValid())
        return definition.indentedArguments;
    if (name.startsWith(u"with-") || name.startsWith(u"do-"))
        return 1;
    if (name.size() > 3 && name.startsWith(u"def"))
        return 1; // defsystem, define-foo: the name, then a body
    return -1;
}

// A list that is a local function of flet/labels/macrolet, or a clause of handler-case or
// restart-case, indents its body like a defun: (flet ((f (x) <body>)) ...).
bool isLocalDefinitionOrClause(const QList<OpenList> &lists)
{
    const qsizetype n = lists.size();
    if (n >= 3) {
        const OpenList &outer = lists[n - 3];
        const QString op = listOperator(outer);
        if ((op == u"flet" || op == u"labels" || op == u"macrolet") && outer.elements.size() == 1)
            return true;
    }
    if (n >= 2) {
        const OpenList &parent = lists[n - 2];
        const QString op = listOperator(parent);
        return (op == u"handler-case" || op == u"restart-case") && parent.elements.size() >= 2;
    }
    return false;
}

bool hasError(const SyntaxTree &tree, QLatin1String kind)
{
    for (const ReadError &e : tree.errors()) {
        if (e.kind == kind)
            return true;
    }
    return false;
}

LispTokenKind atomKind(QStringView token, bool operatorPosition)
{
    if (token.front() == u':')
        return LispTokenKind::Keyword;
    if (token.front() == u'#') {
        int j = 1;
        while (j < token.size() && LispSyntax::isAsciiDigit(token[j]))
            ++j;
        const QChar d = j < token.size() ? token[j].toLower() : QChar();
        const bool literal = d == u'x' || d == u'b' || d == u'o' || d == u'r' || d == u'*';
        return literal ? LispTokenKind::Number : LispTokenKind::Symbol;
    }
    if (LispSyntax::isNumberToken(token))
        return LispTokenKind::Number;
    if (operatorPosition) {
        if (LispSource::isDefiningOperator(token))
            return LispTokenKind::DefiningForm;
        if (LispSource::isSpecialOperator(token))
            return LispTokenKind::SpecialForm;
    }
    return LispTokenKind::Symbol;
}

} // namespace

// --- LexState --------------------------------------------------------------------------------

int LexState::toInt() const
{
    // bits 0-1 mode, bit 2 operatorNext, bit 3 featureNext, bits 4-7 feature depth,
    // bits 8-30 comment depth (deeper nesting than that is not worth a bigger state)
    const int features = qBound(0, featureDepth, 15);
    const int depth = qBound(0, commentDepth, (1 << 22) - 1);
    return int(mode) | (operatorNext ? 4 : 0) | (featureNext ? 8 : 0) | (features << 4) | (depth << 8);
}

LexState LexState::fromInt(int value)
{
    LexState state;
    if (value < 0)
        return state;
    state.mode = Mode(value & 3);
    state.operatorNext = value & 4;
    state.featureNext = value & 8;
    state.featureDepth = (value >> 4) & 15;
    state.commentDepth = value >> 8;
    return state;
}

// --- LispSource -----------------------------------------------------------------------------

ParenCheck LispSource::checkParens(const QString &code, Brackets brackets)
{
    ReadOptions options;
    options.brackets = brackets == Brackets::All;
    const ReadError problem = SyntaxTree::read(code, options).delimiterError();
    if (!problem.isValid())
        return {};
    return ParenCheck{false, problem.kind, problem.offset, problem.line, problem.column,
                      problem.expected, problem.found, problem.message};
}

bool LispSource::isComplete(const QString &code)
{
    return SyntaxTree::read(code).isComplete();
}

bool LispSource::isBlank(const QString &code)
{
    LispScanner scanner(code, LexState::Mode::Code, 0, false);
    LispLexeme lx;
    while (scanner.next(lx)) {
        if ((lx.kind != Kind::Comment && lx.kind != Kind::BlockComment) || lx.unterminated)
            return false;
    }
    return true;
}

QList<SourceForm> LispSource::splitTopLevelForms(const QString &code)
{
    QList<SourceForm> forms;
    const SyntaxTree tree = SyntaxTree::read(code);
    for (const SyntaxNode &node : tree.forms()) {
        // A last form the text leaves open (an open list, a prefix without its datum, a string)
        // reaches to the end of the text.
        const int end = node.isComplete() ? node.end() : int(code.size());
        forms.append(SourceForm{node.start(), end, code.mid(node.start(), end - node.start()), node.line(), node.isComplete()});
    }
    return forms;
}

int LispSource::indentationForNewLine(const QString &text)
{
    const SyntaxTree tree = SyntaxTree::read(text);
    const SyntaxNode last = tree.node(tree.nodeCount() - 1);
    const bool unterminatedToken = last.isValid() && !last.isComplete() && last.childCount() == 0
        && !last.is(SyntaxKind::List) && !last.is(SyntaxKind::Vector) && !last.isPrefix();
    if (unterminatedToken && !last.is(SyntaxKind::Character))
        return 0; // spaces would become part of the string or symbol
    if (hasError(tree, QLatin1String("unterminated-comment"))) {
        // Prose in a comment: keep the current line's indentation.
        int k = int(text.lastIndexOf(u'\n')) + 1;
        while (k < text.size() && (text[k] == u' ' || text[k] == u'\t'))
            ++k;
        return visualColumn(text, k);
    }
    const QList<OpenList> lists = openLists(tree);
    if (lists.isEmpty())
        return 0;

    const OpenList &list = lists.last();
    const int paren = visualColumn(text, list.open);
    if (list.elements.isEmpty())
        return paren + 1;
    const SyntaxNode &op = list.elements[0];
    if (list.quoted || !isSymbolElement(op))
        return visualColumn(text, op.start()); // data: line up with the first element

    const qsizetype arguments = list.elements.size() - 1;
    const bool firstArgumentOnOperatorLine =
        arguments >= 1 && !QStringView(text).mid(op.end(), list.elements[1].start() - op.end()).contains(u'\n');
    const QString name = listOperator(list);
    if (name == u"loop") // extended loop clauses line up; a simple loop has a body
        return firstArgumentOnOperatorLine ? visualColumn(text, list.elements[1].start()) : paren + 2;
    int distinguished = distinguishedArguments(name);
    if (distinguished < 0 && isLocalDefinitionOrClause(lists))
        distinguished = 1;
    if (distinguished >= 0)
        return paren + (arguments < distinguished ? 4 : 2);
    if (firstArgumentOnOperatorLine)
        return visualColumn(text, list.elements[1].start());
    return paren + 1;
}

OperatorContext LispSource::enclosingOperator(const QString &code, int cursor)
{
    cursor = qBound(0, cursor, int(code.size()));
    // Reading stops before the first token that starts at the cursor; a token that spans the
    // cursor is read whole, so the operator's full name is known even mid-word.
    ReadOptions options;
    options.stopAt = cursor;
    const QList<OpenList> lists = openLists(SyntaxTree::read(code, options));
    OperatorContext context;
    if (lists.isEmpty())
        return context;
    const OpenList &list = lists.last();
    context.listStart = list.open;
    context.argumentIndex = 0;
    if (list.elements.isEmpty())
        return context;
    const SyntaxNode &op = list.elements[0];
    if (isSymbolElement(op))
        context.operatorName = op.text().toString();
    int index = 0;
    for (const SyntaxNode &e : list.elements) {
        if (e.start() < cursor && cursor <= e.end())
            break; // the cursor is in (or at the end of) this element
        if (e.end() < cursor)
            ++index;
    }
    context.argumentIndex = index;
    return context;
}

SymbolPrefix LispSource::symbolPrefixAt(const QString &code, int cursor)
{
    cursor = qBound(0, cursor, int(code.size()));
    SymbolPrefix result;
    LispScanner scanner(code, LexState::Mode::Code, 0, false);
    LispLexeme lx;
    while (scanner.next(lx) && lx.start < cursor) {
        const bool atEnd = cursor == lx.end;
        bool inside = cursor < lx.end;
        // A line comment and a character name reach up to their last character; a string or a
        // block comment is left once its closer is typed.
        if (lx.kind == Kind::Atom || lx.kind == Kind::Comment || lx.kind == Kind::Character || lx.unterminated)
            inside = inside || atEnd;
        if (!inside)
            continue;
        if (lx.kind != Kind::Atom)
            return result; // no symbol to complete in strings, comments or characters
        int start = lx.start;
        if (code[start] == u'#') {
            if (!QStringView(code).mid(start).startsWith(u"#:") || cursor < start + 2)
                return result; // #x1F, #1#: not symbols
            start += 2;        // #:foo completes like foo
        }
        result.start = start;
        break;
    }
    if (result.start < 0)
        result.start = cursor; // between tokens: an empty prefix
    result.prefix = code.mid(result.start, cursor - result.start);
    const qsizetype colon = result.prefix.indexOf(u':');
    if (colon < 0) {
        result.symbolName = result.prefix;
    } else if (colon == 0) {
        result.keyword = true;
        result.symbolName = result.prefix.mid(1);
    } else {
        result.packageName = result.prefix.left(colon);
        result.internal = result.prefix.mid(colon + 1).startsWith(u':');
        result.symbolName = result.prefix.mid(colon + (result.internal ? 2 : 1));
    }
    return result;
}

int LispSource::matchingParen(const QString &code, int position)
{
    if (position < 0 || position >= code.size())
        return -1;
    QList<LispLexeme> parens;
    qsizetype at = -1;
    LispScanner scanner(code, LexState::Mode::Code, 0, false);
    LispLexeme lx;
    while (scanner.next(lx)) {
        if (lx.kind != Kind::Open && lx.kind != Kind::Close)
            continue;
        if (lx.start <= position && position < lx.end)
            at = parens.size();
        parens.append(lx);
    }
    if (at < 0)
        return -1;
    const int step = parens[at].kind == Kind::Open ? 1 : -1;
    int depth = 0;
    for (qsizetype i = at; i >= 0 && i < parens.size(); i += step) {
        depth += parens[i].kind == Kind::Open ? 1 : -1;
        if (depth == 0)
            return parens[i].end - 1; // the paren itself, not the '#' of "#("
    }
    return -1;
}

QList<LispToken> LispSource::tokens(const QString &line, LexState in, LexState *out)
{
    QList<LispToken> result;
    LispScanner scanner(line, in.mode, in.commentDepth, false);
    bool operatorNext = in.operatorNext;
    bool featureNext = in.featureNext;
    int featureDepth = in.featureDepth;
    LispLexeme lx;
    while (scanner.next(lx)) {
        const QStringView text = QStringView(line).mid(lx.start, lx.end - lx.start);
        LispTokenKind kind = LispTokenKind::Symbol;
        switch (lx.kind) {
        case Kind::Comment:
        case Kind::BlockComment:
            result.append(LispToken{LispTokenKind::Comment, lx.start, lx.end - lx.start});
            continue; // comments change neither operatorNext nor featureNext
        case Kind::String: kind = LispTokenKind::String; break;
        case Kind::Character: kind = LispTokenKind::Character; break;
        case Kind::Open:
        case Kind::Close: kind = LispTokenKind::Paren; break;
        case Kind::Prefix:
            kind = text == u"#'" ? LispTokenKind::FunctionQuote : LispTokenKind::ReaderMacro;
            break;
        case Kind::Atom:
            // A feature expression is not code: #+sbcl, #-(or ecl abcl).
            kind = featureNext || featureDepth > 0 ? LispTokenKind::ReaderMacro : atomKind(text, operatorNext);
            break;
        }
        result.append(LispToken{kind, lx.start, lx.end - lx.start});
        if (lx.kind == Kind::Open && (featureNext || featureDepth > 0))
            ++featureDepth;
        else if (lx.kind == Kind::Close && featureDepth > 0)
            --featureDepth;
        featureNext = lx.kind == Kind::Prefix && lx.datums == 2;
        operatorNext = lx.kind == Kind::Open && text.size() == 1 && featureDepth == 0;
    }
    if (out) {
        out->mode = scanner.mode();
        out->commentDepth = scanner.mode() == LexState::Mode::BlockComment ? scanner.depth() : 0;
        out->operatorNext = operatorNext;
        out->featureNext = featureNext;
        out->featureDepth = featureDepth;
    }
    return result;
}

bool LispSource::isDefiningOperator(QStringView name)
{
    return DefiningOperators::isDefining(name);
}

bool LispSource::isSpecialOperator(QStringView name)
{
    // The special operators of CLHS 3.1.2.1.2.1, and the standard macros that read like them.
    static const QSet<QString> names = words(
        "block catch eval-when flet function go if labels let let* load-time-value locally "
        "macrolet multiple-value-call multiple-value-prog1 progn progv quote return-from "
        "setq symbol-macrolet tagbody the throw unwind-protect lambda when unless cond case "
        "ccase ecase typecase ctypecase etypecase and or loop do do* dolist dotimes "
        "handler-case handler-bind restart-case restart-bind ignore-errors "
        "destructuring-bind multiple-value-bind multiple-value-setq prog1 prog2 return setf "
        "psetf psetq declare declaim in-package assert check-type");
    const QString key = LispSyntax::operatorKey(name);
    return names.contains(key) || key.startsWith(u"with-");
}
