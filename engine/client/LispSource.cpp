#include "LispSource.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <limits>
#include <vector>

// Two layers: a Scanner that cuts text into lexemes the way the Lisp reader does, and a small
// Reader that pairs lists and reader prefixes into datums. Every public function is one of the
// two plus a few lines.

namespace {

enum class Lex { Comment, BlockComment, String, Atom, Character, Open, Close, Prefix };

struct Lexeme
{
    Lex kind = Lex::Atom;
    int start = 0;
    int end = 0;               // exclusive
    int datums = 0;            // Prefix: datums it applies to (#+ and #- take a feature and a form)
    bool unterminated = false; // the text ended inside it
};

bool isWhitespace(QChar c)
{
    // Whitespace[2] of the standard syntax: Tab, Newline, Linefeed, Page, Return, Space.
    return c == u' ' || c == u'\n' || c == u'\t' || c == u'\r' || c == u'\f';
}

bool isAsciiDigit(QChar c) { return c >= u'0' && c <= u'9'; }

class Scanner
{
public:
    Scanner(QStringView text, LexState::Mode mode, int depth, bool brackets)
        : m_text(text), m_mode(mode), m_depth(depth), m_brackets(brackets) {}

    bool next(Lexeme &lexeme);
    LexState::Mode mode() const { return m_mode; }
    int depth() const { return m_depth; }

private:
    Lexeme make(Lex kind, int start, int end) const { return Lexeme{kind, start, end, 0, false}; }
    bool terminates(QChar c) const;
    Lexeme scanString(int start, int from);
    Lexeme scanComment(int start, int from, int depth);
    Lexeme scanAtom(int start, int from, bool insideBars, Lex kind = Lex::Atom);
    Lexeme scanDispatch(int start);

    QStringView m_text;
    int m_pos = 0;
    LexState::Mode m_mode;
    int m_depth;
    bool m_brackets;
};

bool Scanner::terminates(QChar c) const
{
    // Terminating macro characters end a token; '#' is non-terminating (foo#bar is one symbol).
    switch (c.unicode()) {
    case u'"': case u'\'': case u'(': case u')': case u',': case u';': case u'`':
        return true;
    case u'[': case u']': case u'{': case u'}':
        return m_brackets;
    default:
        return isWhitespace(c);
    }
}

bool Scanner::next(Lexeme &lexeme)
{
    const int n = int(m_text.size());
    if (m_mode != LexState::Mode::Code) {
        // The previous line ended inside a token; this line starts by finishing it.
        if (m_pos >= n)
            return false;
        const LexState::Mode mode = m_mode;
        m_mode = LexState::Mode::Code;
        if (mode == LexState::Mode::String)
            lexeme = scanString(m_pos, m_pos);
        else if (mode == LexState::Mode::BlockComment)
            lexeme = scanComment(m_pos, m_pos, m_depth);
        else
            lexeme = scanAtom(m_pos, m_pos, true);
        m_pos = lexeme.end;
        return true;
    }
    while (m_pos < n && isWhitespace(m_text[m_pos]))
        ++m_pos;
    if (m_pos >= n)
        return false;

    const int s = m_pos;
    const QChar c = m_text[s];
    switch (c.unicode()) {
    case u';': {
        const qsizetype eol = m_text.indexOf(u'\n', s);
        lexeme = make(Lex::Comment, s, eol < 0 ? n : int(eol));
        break;
    }
    case u'"':
        lexeme = scanString(s, s + 1);
        break;
    case u'(': case u'[': case u'{':
        lexeme = (c == u'(' || m_brackets) ? make(Lex::Open, s, s + 1) : scanAtom(s, s, false);
        break;
    case u')': case u']': case u'}':
        lexeme = (c == u')' || m_brackets) ? make(Lex::Close, s, s + 1) : scanAtom(s, s, false);
        break;
    case u'\'': case u'`':
        lexeme = make(Lex::Prefix, s, s + 1);
        lexeme.datums = 1;
        break;
    case u',': {
        const bool splice = s + 1 < n && (m_text[s + 1] == u'@' || m_text[s + 1] == u'.');
        lexeme = make(Lex::Prefix, s, splice ? s + 2 : s + 1);
        lexeme.datums = 1;
        break;
    }
    case u'#':
        lexeme = scanDispatch(s);
        break;
    default:
        lexeme = scanAtom(s, s, false);
    }
    m_pos = lexeme.end;
    return true;
}

Lexeme Scanner::scanString(int start, int from)
{
    const int n = int(m_text.size());
    for (int k = from; k < n; ++k) {
        if (m_text[k] == u'\\')
            ++k;
        else if (m_text[k] == u'"')
            return make(Lex::String, start, k + 1);
    }
    Lexeme lexeme = make(Lex::String, start, n);
    lexeme.unterminated = true;
    m_mode = LexState::Mode::String;
    return lexeme;
}

Lexeme Scanner::scanComment(int start, int from, int depth)
{
    const int n = int(m_text.size());
    int k = from;
    while (k < n) {
        const bool hasNext = k + 1 < n;
        if (m_text[k] == u'|' && hasNext && m_text[k + 1] == u'#') {
            k += 2;
            if (--depth == 0)
                return make(Lex::BlockComment, start, k);
        } else if (m_text[k] == u'#' && hasNext && m_text[k + 1] == u'|') {
            k += 2;
            ++depth;
        } else {
            ++k;
        }
    }
    Lexeme lexeme = make(Lex::BlockComment, start, n);
    lexeme.unterminated = true;
    m_mode = LexState::Mode::BlockComment;
    m_depth = depth;
    return lexeme;
}

Lexeme Scanner::scanAtom(int start, int from, bool insideBars, Lex kind)
{
    const int n = int(m_text.size());
    bool bars = insideBars;
    bool danglingEscape = false;
    int k = from;
    while (k < n) {
        const QChar c = m_text[k];
        if (c == u'\\') {            // single escape, inside or outside bars
            danglingEscape = k + 1 >= n;
            k += 2;
        } else if (c == u'|') {      // multiple escape toggles
            bars = !bars;
            ++k;
        } else if (!bars && terminates(c)) {
            break;
        } else {
            ++k;
        }
    }
    Lexeme lexeme = make(kind, start, qMin(k, n));
    lexeme.unterminated = bars || danglingEscape;
    if (bars)
        m_mode = LexState::Mode::EscapedSymbol;
    return lexeme;
}

Lexeme Scanner::scanDispatch(int s)
{
    const int n = int(m_text.size());
    int j = s + 1;
    while (j < n && isAsciiDigit(m_text[j])) // numeric argument: #2A, #1=, #36r
        ++j;
    if (j >= n) {
        Lexeme lexeme = make(Lex::Atom, s, n);
        lexeme.unterminated = true; // the reader still waits for the sub-character
        return lexeme;
    }
    auto prefix = [&](int datums) {
        Lexeme lexeme = make(Lex::Prefix, s, j + 1);
        lexeme.datums = datums;
        return lexeme;
    };
    const QChar d = m_text[j];
    switch (d.toLower().unicode()) {
    case u'\\': {
        // #\x takes any one character, then the constituents after it: #\( #\; #\Space #\U+41.
        if (j + 1 >= n) {
            Lexeme lexeme = make(Lex::Character, s, n);
            lexeme.unterminated = true;
            return lexeme;
        }
        int k = j + 2;
        while (k < n && !terminates(m_text[k]))
            ++k;
        return make(Lex::Character, s, k);
    }
    case u'(':
        return make(Lex::Open, s, j + 1);
    case u'\'':
        return prefix(1);
    case u'|':
        return scanComment(s, j + 1, 1);
    case u'+': case u'-':
        return prefix(2);
    case u':': case u'*': case u'x': case u'b': case u'o': case u'r':
        return scanAtom(s, j + 1, false); // #:sym, #*1011, #x1F, #b101, #o17, #36rZZ
    case u'#':
        return make(Lex::Atom, s, j + 1); // #1# refers to a labelled object
    case u'<':
        return make(Lex::Atom, s, j + 1); // an unreadable object; the reader signals an error
    default:
        if (terminates(d))
            return make(Lex::Atom, s, j); // a lone '#': a reader error, but not a delimiter
        // #' #. #= #p #c #a #s, and user dispatch macros, which we assume read one object.
        return prefix(1);
    }
}

// --- The reader: lists, elements and pending prefixes ------------------------------------

struct Element
{
    int start = 0; // including reader prefixes
    int end = 0;
    Lex kind = Lex::Atom; // of the datum itself; Lex::Open for a list
    bool prefixed = false;
};

struct Frame
{
    int open = -1;      // offset of the paren character
    int openStart = -1; // offset of the opener (the '#' of "#(")
    QChar openChar;
    bool quoted = false; // '( ... ) or #( ... ): data, not code
    QList<Element> elements;
    std::vector<int> owed; // datums still owed to pending prefixes, innermost last
    int pendingStart = -1; // where the element of the pending prefixes starts
    int columnOneOpen = -1; // first '(' at a line start read inside this list
};

struct Problem
{
    QString kind;
    int offset = -1;
    QChar expected;
    QChar found;
    int opener = -1; // for a mismatch: the list the closer should have closed
};

struct Parse
{
    QList<Frame> stack; // stack[0] is the top level
    Problem problem;    // the first extra or mismatched closer
    bool hasUnterminated = false;
    Lexeme unterminated; // a token the text ended in (it is always the last one)
    LexState::Mode endMode = LexState::Mode::Code;
};

QChar closerFor(QChar opener)
{
    return opener == u'[' ? QChar(u']') : opener == u'{' ? QChar(u'}') : QChar(u')');
}

void completeDatum(Frame &frame, int start, int end, Lex kind)
{
    // A datum satisfies the innermost pending prefix; a prefix that has read all its datums is
    // itself a datum for the next one out: '#'f, #+sbcl (foo).
    bool prefixed = false;
    while (!frame.owed.empty()) {
        prefixed = true;
        if (--frame.owed.back() > 0)
            return;
        frame.owed.pop_back();
    }
    frame.elements.append(Element{prefixed ? frame.pendingStart : start, end, kind, prefixed});
}

Parse parse(QStringView text, LispSource::Brackets brackets,
            int stopAt = std::numeric_limits<int>::max())
{
    Parse p;
    p.stack.append(Frame{});
    Scanner scanner(text, LexState::Mode::Code, 0, brackets == LispSource::Brackets::All);
    Lexeme lx;
    Lexeme previous;
    bool hasPrevious = false;
    auto noteProblem = [&p](const QString &kind, int offset, QChar expected, QChar found, int opener) {
        if (p.problem.kind.isEmpty())
            p.problem = Problem{kind, offset, expected, found, opener};
    };
    while (scanner.next(lx)) {
        if (lx.start >= stopAt)
            break;
        if (lx.unterminated) {
            p.hasUnterminated = true;
            p.unterminated = lx;
        }
        switch (lx.kind) {
        case Lex::Comment:
        case Lex::BlockComment:
            continue; // comments do not count as "previous"
        case Lex::Prefix: {
            Frame &frame = p.stack.last();
            if (frame.owed.empty())
                frame.pendingStart = lx.start;
            frame.owed.push_back(lx.datums);
            break;
        }
        case Lex::Open: {
            const bool lineStart = lx.start == 0 || text[lx.start - 1] == u'\n';
            if (lineStart && p.stack.size() > 1 && p.stack[1].columnOneOpen < 0)
                p.stack[1].columnOneOpen = lx.start;
            Frame frame;
            frame.openStart = lx.start;
            frame.open = lx.end - 1;
            frame.openChar = text[frame.open];
            frame.quoted = text[lx.start] == u'#' // a vector
                || (hasPrevious && previous.kind == Lex::Prefix && text[previous.start] == u'\'');
            p.stack.append(frame);
            break;
        }
        case Lex::Close: {
            const QChar closer = text[lx.start];
            if (p.stack.size() == 1) {
                noteProblem(QStringLiteral("extra-close"), lx.start, QChar(), closer, -1);
                break; // ignore the stray closer and read on
            }
            const Frame frame = p.stack.takeLast();
            if (closerFor(frame.openChar) != closer)
                noteProblem(QStringLiteral("mismatch"), lx.start, closerFor(frame.openChar), closer,
                            frame.open);
            completeDatum(p.stack.last(), frame.openStart, lx.end, Lex::Open);
            break;
        }
        default:
            if (!lx.unterminated) // the text ended inside it: not a datum yet
                completeDatum(p.stack.last(), lx.start, lx.end, lx.kind);
        }
        previous = lx;
        hasPrevious = true;
    }
    p.endMode = scanner.mode();
    return p;
}

// --- Helpers on text ------------------------------------------------------------------------

struct LineColumn { int line; int column; };

LineColumn lineColumn(QStringView text, int offset)
{
    const QStringView before = text.left(offset);
    const int line = int(before.count(u'\n')) + 1;
    const int column = offset - int(before.lastIndexOf(u'\n') + 1) + 1;
    return {line, column};
}

QString at(QStringView text, int offset)
{
    const LineColumn lc = lineColumn(text, offset);
    return QStringLiteral("line %1, column %2").arg(lc.line).arg(lc.column);
}

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

bool isNumberToken(QStringView token)
{
    static const QRegularExpression number(QStringLiteral(
        "^[+-]?(?:[0-9]+\\.?|[0-9]+/[0-9]+|[0-9]*\\.[0-9]+(?:[esfdl][+-]?[0-9]+)?"
        "|[0-9]+(?:\\.[0-9]*)?[esfdl][+-]?[0-9]+)$"),
        QRegularExpression::CaseInsensitiveOption);
    return number.match(token).hasMatch();
}

// The operator's name as the tables know it: lower case, package prefix dropped. Keywords are
// never operators of code, so they give an empty name.
QString operatorKey(QStringView name)
{
    if (name.isEmpty() || name.front() == u':')
        return {};
    return name.mid(name.lastIndexOf(u':') + 1).toString().toLower();
}

bool isSymbolElement(QStringView text, const Element &e)
{
    return !e.prefixed && e.kind == Lex::Atom && text[e.start] != u'#'
        && !isNumberToken(text.mid(e.start, e.end - e.start));
}

QString frameOperator(QStringView text, const Frame &frame)
{
    if (frame.elements.isEmpty() || !isSymbolElement(text, frame.elements[0]))
        return {};
    const Element &op = frame.elements[0];
    return operatorKey(text.mid(op.start, op.end - op.start));
}

// How many arguments of a body form are "distinguished" (indented 4, like a defun's name and
// lambda list) before the body (indented 2); -1 when name is not a body form.
int distinguishedArguments(const QString &name)
{
    static const QHash<QString, int> table = [] {
        // Following Emacs' common-lisp-indent-function; "loop" is special-cased by the caller.
        const char *const byCount[] = {
            "progn locally tagbody ignore-errors loop",
            "lambda let let* flet labels macrolet symbol-macrolet when unless dolist dotimes block "
            "catch eval-when prog1 unwind-protect handler-case handler-bind restart-case restart-bind "
            "case ecase ccase typecase etypecase ctypecase multiple-value-prog1 print-unreadable-object "
            "pprint-logical-block defstruct defpackage defvar defparameter defconstant",
            "prog2 do do* defun defmacro defgeneric defmethod defclass deftype define-condition "
            "define-compiler-macro destructuring-bind multiple-value-bind with-slots with-accessors",
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
    if (name.startsWith(u"with-") || name.startsWith(u"do-"))
        return 1;
    if (name.size() > 3 && name.startsWith(u"def"))
        return 1; // defsystem, define-foo: the name, then a body
    return -1;
}

// A list that is a local function of flet/labels/macrolet, or a clause of handler-case or
// restart-case, indents its body like a defun: (flet ((f (x) <body>)) ...).
bool isLocalDefinitionOrClause(QStringView text, const QList<Frame> &stack)
{
    const qsizetype n = stack.size();
    if (n >= 4) { // stack[0] is the top level, never a list
        const Frame &outer = stack[n - 3];
        const QString op = frameOperator(text, outer);
        if ((op == u"flet" || op == u"labels" || op == u"macrolet") && outer.elements.size() == 1)
            return true;
    }
    if (n >= 3) {
        const Frame &parent = stack[n - 2];
        const QString op = frameOperator(text, parent);
        return (op == u"handler-case" || op == u"restart-case") && parent.elements.size() >= 2;
    }
    return false;
}

LispTokenKind atomKind(QStringView token, bool operatorPosition)
{
    if (token.front() == u':')
        return LispTokenKind::Keyword;
    if (token.front() == u'#') {
        int j = 1;
        while (j < token.size() && isAsciiDigit(token[j]))
            ++j;
        const QChar d = j < token.size() ? token[j].toLower() : QChar();
        const bool literal = d == u'x' || d == u'b' || d == u'o' || d == u'r' || d == u'*';
        return literal ? LispTokenKind::Number : LispTokenKind::Symbol;
    }
    if (isNumberToken(token))
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
    const Parse p = parse(code, brackets);
    ParenCheck result;
    auto fail = [&](const QString &kind, int offset, QChar expected, QChar found, const QString &message) {
        const LineColumn lc = lineColumn(code, offset);
        result = ParenCheck{false, kind, offset, lc.line, lc.column, expected, found, message};
        return result;
    };
    const Problem &problem = p.problem;
    if (problem.kind == u"extra-close")
        return fail(problem.kind, problem.offset, {}, problem.found,
                    QStringLiteral("Extra '%1' at %2").arg(problem.found, at(code, problem.offset)));
    if (problem.kind == u"mismatch")
        return fail(problem.kind, problem.offset, problem.expected, problem.found,
                    QStringLiteral("Mismatched '%1' at %2: expected '%3' to close '%4' opened at %5")
                        .arg(problem.found, at(code, problem.offset), problem.expected,
                             code.at(problem.opener), at(code, problem.opener)));
    if (p.hasUnterminated) {
        // Strings, comments and |symbols| swallow the rest of the text: the root cause comes
        // before any unclosed list.
        const int start = p.unterminated.start;
        switch (p.unterminated.kind) {
        case Lex::String:
            return fail(QStringLiteral("unterminated-string"), start, u'"', {},
                        QStringLiteral("Unterminated string starting at %1").arg(at(code, start)));
        case Lex::BlockComment:
            return fail(QStringLiteral("unterminated-comment"), start, {}, {},
                        QStringLiteral("Unterminated block comment '#|' starting at %1").arg(at(code, start)));
        case Lex::Atom:
            if (p.endMode == LexState::Mode::EscapedSymbol)
                return fail(QStringLiteral("unterminated-symbol"), start, u'|', {},
                            QStringLiteral("Unterminated |escaped| symbol starting at %1").arg(at(code, start)));
            break;
        default:
            break; // a dangling #\ or #: not a delimiter problem
        }
    }
    if (p.stack.size() > 1) {
        const Frame &outer = p.stack[1];
        const QString opener = code.mid(outer.openStart, outer.open - outer.openStart + 1);
        QString message = QStringLiteral("Unclosed '%1' opened at %2").arg(opener, at(code, outer.openStart));
        if (outer.columnOneOpen >= 0)
            message += QStringLiteral(" (the form at %1 is read inside it)").arg(at(code, outer.columnOneOpen));
        return fail(QStringLiteral("unclosed"), outer.openStart, closerFor(outer.openChar), {}, message);
    }
    return result;
}

bool LispSource::isComplete(const QString &code)
{
    const Parse p = parse(code, Brackets::Parentheses);
    if (!p.problem.kind.isEmpty())
        return true; // the reader fails at the stray ')': let it say so
    if (p.hasUnterminated)
        return false;
    return p.stack.size() == 1 && p.stack[0].owed.empty();
}

bool LispSource::isBlank(const QString &code)
{
    Scanner scanner(code, LexState::Mode::Code, 0, false);
    Lexeme lx;
    while (scanner.next(lx)) {
        if ((lx.kind != Lex::Comment && lx.kind != Lex::BlockComment) || lx.unterminated)
            return false;
    }
    return true;
}

QList<SourceForm> LispSource::splitTopLevelForms(const QString &code)
{
    const Parse p = parse(code, Brackets::Parentheses);
    QList<SourceForm> forms;
    int line = 1;
    int counted = 0; // newlines are counted up to here
    auto add = [&](int start, int end, bool complete) {
        line += int(QStringView(code).mid(counted, start - counted).count(u'\n'));
        counted = start;
        forms.append(SourceForm{start, end, code.mid(start, end - start), line, complete});
    };
    for (const Element &e : p.stack[0].elements)
        add(e.start, e.end, true);

    // A last form the text leaves open (an open list, a prefix without its datum, a string).
    const Frame &top = p.stack[0];
    int openStart = -1;
    if (!top.owed.empty())
        openStart = top.pendingStart;
    else if (p.stack.size() > 1)
        openStart = p.stack[1].openStart;
    else if (p.hasUnterminated && p.unterminated.kind != Lex::BlockComment)
        openStart = p.unterminated.start;
    if (openStart >= 0)
        add(openStart, int(code.size()), false);
    return forms;
}

int LispSource::indentationForNewLine(const QString &text)
{
    const Parse p = parse(text, Brackets::Parentheses);
    if (p.hasUnterminated) {
        if (p.unterminated.kind == Lex::String || p.unterminated.kind == Lex::Atom)
            return 0; // spaces would become part of the string or symbol
        if (p.unterminated.kind == Lex::BlockComment) {
            // Prose in a comment: keep the current line's indentation.
            int k = int(text.lastIndexOf(u'\n')) + 1;
            while (k < text.size() && (text[k] == u' ' || text[k] == u'\t'))
                ++k;
            return visualColumn(text, k);
        }
    }
    if (p.stack.size() == 1)
        return 0;

    const Frame &frame = p.stack.last();
    const int paren = visualColumn(text, frame.open);
    if (frame.elements.isEmpty())
        return paren + 1;
    const Element &op = frame.elements[0];
    if (frame.quoted || !isSymbolElement(text, op))
        return visualColumn(text, op.start); // data: line up with the first element

    const qsizetype arguments = frame.elements.size() - 1;
    const bool firstArgumentOnOperatorLine =
        arguments >= 1 && !QStringView(text).mid(op.end, frame.elements[1].start - op.end).contains(u'\n');
    const QString name = frameOperator(text, frame);
    if (name == u"loop") // extended loop clauses line up; a simple loop has a body
        return firstArgumentOnOperatorLine ? visualColumn(text, frame.elements[1].start) : paren + 2;
    int distinguished = distinguishedArguments(name);
    if (distinguished < 0 && isLocalDefinitionOrClause(text, p.stack))
        distinguished = 1;
    if (distinguished >= 0)
        return paren + (arguments < distinguished ? 4 : 2);
    if (firstArgumentOnOperatorLine)
        return visualColumn(text, frame.elements[1].start);
    return paren + 1;
}

OperatorContext LispSource::enclosingOperator(const QString &code, int cursor)
{
    cursor = qBound(0, cursor, int(code.size()));
    // Reading stops before the first token that starts at the cursor; a token that spans the
    // cursor is read whole, so the operator's full name is known even mid-word.
    const Parse p = parse(code, Brackets::Parentheses, cursor);
    OperatorContext context;
    if (p.stack.size() == 1)
        return context;
    const Frame &frame = p.stack.last();
    context.listStart = frame.open;
    context.argumentIndex = 0;
    if (frame.elements.isEmpty())
        return context;
    const Element &op = frame.elements[0];
    if (isSymbolElement(code, op))
        context.operatorName = code.mid(op.start, op.end - op.start);
    int index = 0;
    for (const Element &e : frame.elements) {
        if (e.start < cursor && cursor <= e.end)
            break; // the cursor is in (or at the end of) this element
        if (e.end < cursor)
            ++index;
    }
    context.argumentIndex = index;
    return context;
}

SymbolPrefix LispSource::symbolPrefixAt(const QString &code, int cursor)
{
    cursor = qBound(0, cursor, int(code.size()));
    SymbolPrefix result;
    Scanner scanner(code, LexState::Mode::Code, 0, false);
    Lexeme lx;
    while (scanner.next(lx) && lx.start < cursor) {
        const bool atEnd = cursor == lx.end;
        bool inside = cursor < lx.end;
        // A line comment and a character name reach up to their last character; a string or a
        // block comment is left once its closer is typed.
        if (lx.kind == Lex::Atom || lx.kind == Lex::Comment || lx.kind == Lex::Character || lx.unterminated)
            inside = inside || atEnd;
        if (!inside)
            continue;
        if (lx.kind != Lex::Atom)
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
    QList<Lexeme> parens;
    qsizetype at = -1;
    Scanner scanner(code, LexState::Mode::Code, 0, false);
    Lexeme lx;
    while (scanner.next(lx)) {
        if (lx.kind != Lex::Open && lx.kind != Lex::Close)
            continue;
        if (lx.start <= position && position < lx.end)
            at = parens.size();
        parens.append(lx);
    }
    if (at < 0)
        return -1;
    const int step = parens[at].kind == Lex::Open ? 1 : -1;
    int depth = 0;
    for (qsizetype i = at; i >= 0 && i < parens.size(); i += step) {
        depth += parens[i].kind == Lex::Open ? 1 : -1;
        if (depth == 0)
            return parens[i].end - 1; // the paren itself, not the '#' of "#("
    }
    return -1;
}

QList<LispToken> LispSource::tokens(const QString &line, LexState in, LexState *out)
{
    QList<LispToken> result;
    Scanner scanner(line, in.mode, in.commentDepth, false);
    bool operatorNext = in.operatorNext;
    bool featureNext = in.featureNext;
    int featureDepth = in.featureDepth;
    Lexeme lx;
    while (scanner.next(lx)) {
        const QStringView text = QStringView(line).mid(lx.start, lx.end - lx.start);
        LispTokenKind kind = LispTokenKind::Symbol;
        switch (lx.kind) {
        case Lex::Comment:
        case Lex::BlockComment:
            result.append(LispToken{LispTokenKind::Comment, lx.start, lx.end - lx.start});
            continue; // comments change neither operatorNext nor featureNext
        case Lex::String: kind = LispTokenKind::String; break;
        case Lex::Character: kind = LispTokenKind::Character; break;
        case Lex::Open:
        case Lex::Close: kind = LispTokenKind::Paren; break;
        case Lex::Prefix:
            kind = text == u"#'" ? LispTokenKind::FunctionQuote : LispTokenKind::ReaderMacro;
            break;
        case Lex::Atom:
            // A feature expression is not code: #+sbcl, #-(or ecl abcl).
            kind = featureNext || featureDepth > 0 ? LispTokenKind::ReaderMacro : atomKind(text, operatorNext);
            break;
        }
        result.append(LispToken{kind, lx.start, lx.end - lx.start});
        if (lx.kind == Lex::Open && (featureNext || featureDepth > 0))
            ++featureDepth;
        else if (lx.kind == Lex::Close && featureDepth > 0)
            --featureDepth;
        featureNext = lx.kind == Lex::Prefix && lx.datums == 2;
        operatorNext = lx.kind == Lex::Open && text.size() == 1 && featureDepth == 0;
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
    static const QSet<QString> names = words(
        "defun defmacro defvar defparameter defclass defgeneric defmethod defstruct "
        "defpackage defconstant deftype defsetf");
    const QString key = operatorKey(name);
    return names.contains(key) || key.startsWith(u"define-");
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
    const QString key = operatorKey(name);
    return names.contains(key) || key.startsWith(u"with-");
}
