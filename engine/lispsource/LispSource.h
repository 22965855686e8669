#pragma once

// Common Lisp source text as plain data: the questions an editor and a linter ask of it
// (balanced? complete? where does this form end? how far to indent? which tokens?). The
// lexical ones are answered by LispScanner, the structural ones by LispReader's SyntaxTree, so
// the console, the highlighter, the MCP check-parens tool and the file tools agree. No
// widgets, no Lisp image: everything here is a pure function of the text.
//
// Offsets are QString indices (UTF-16 code units). Lines and columns in ParenCheck are 1-based
// and count code units, as an editor's status bar does; indentation columns are visual (a tab
// advances to the next multiple of 8).
//
// The reader modelled is the standard one with *read-base* 10. '[', ']', '{' and '}' are
// constituent characters in standard syntax, so only checkParens (a linter) treats them as
// brackets, and only when asked to; everything else follows the reader.

#include <QChar>
#include <QList>
#include <QString>
#include <QStringView>

// What the scanner carries from the end of one line to the start of the next, so a highlighter
// can work line by line. Fits in the int of QSyntaxHighlighter::setCurrentBlockState().
struct LexState
{
    enum class Mode { Code, String, BlockComment, EscapedSymbol };

    Mode mode = Mode::Code;
    int commentDepth = 0;      // nesting of #| |# while mode == BlockComment
    bool operatorNext = false; // the last token was '(': the next symbol is an operator
    bool featureNext = false;  // the last token was #+ or #-: the next datum is a feature
    int featureDepth = 0;      // lists open inside a feature expression: #+(or sbcl

    int toInt() const;                 // always >= 0 (QSyntaxHighlighter uses -1 for "none")
    static LexState fromInt(int value); // -1 (or any negative value) gives the initial state
    bool operator==(const LexState &other) const = default;
};

enum class LispTokenKind {
    Comment,       // ; to end of line, and #| ... |# (nested)
    String,        // "..." with \ escapes
    Number,        // 42, -1/2, 1.5d0, #x1F, #b101, #36rZZ, #*1011
    Keyword,       // :foo, ::foo
    Character,     // #\a, #\(, #\Space
    FunctionQuote, // #'
    ReaderMacro,   // ' ` , ,@ #. #+ #- (and the feature after them) #p #c #1= ...
    DefiningForm,  // defun, defmacro, defvar, ..., define-* right after '('
    SpecialForm,   // let, if, lambda, when, ... right after '('
    Paren,         // ( ) #(
    Symbol,        // everything else, including |escaped symbols| and #:uninterned
};

struct LispToken
{
    LispTokenKind kind = LispTokenKind::Symbol;
    int start = 0;
    int length = 0;
    bool operator==(const LispToken &other) const = default;
};

// The first delimiter problem found in a text; ok == true when there is none.
struct ParenCheck
{
    bool ok = true;
    // "extra-close", "mismatch", "unclosed", "unterminated-string", "unterminated-comment",
    // or "unterminated-symbol" (a |multiple escape| that never closes).
    QString kind;
    int offset = -1; // where the problem is: the stray closer, or the opener never closed
    int line = 0;
    int column = 0;
    QChar expected;  // the closer that would have fitted ('\0' when none applies)
    QChar found;     // the closer found ('\0' when none)
    QString message; // one sentence for a person, e.g. "Extra ')' at line 2, column 14"
};

// One top-level datum of a text, reader prefixes (' #+feature #.) included.
struct SourceForm
{
    int start = 0;
    int end = 0; // exclusive
    QString text;
    int line = 1; // 1-based line of start
    bool complete = true; // false only for a last form the text leaves open
};

// The innermost list around a cursor, for an arglist hint.
struct OperatorContext
{
    QString operatorName; // as written, e.g. "format" or "alexandria:when-let"
    int argumentIndex = -1; // 0 = on the operator itself, 1 = first argument, ...
    int listStart = -1;     // offset of the list's '('
    bool isValid() const { return !operatorName.isEmpty(); }
};

// The partial symbol before a cursor, for completion.
struct SymbolPrefix
{
    int start = -1;      // where a completion would replace text, up to the cursor
    QString prefix;      // the text from start to the cursor, e.g. "cl-user::fo"
    QString packageName; // "cl-user"; empty for an unqualified symbol or a keyword
    QString symbolName;  // "fo"
    bool internal = false; // written with ::
    bool keyword = false;  // :kw
    bool isValid() const { return start >= 0; } // false inside strings, comments, characters
};

class LispSource
{
public:
    enum class Brackets {
        Parentheses, // only ( ) are delimiters, as for the standard reader
        All,         // also [ ] and { }, as lisp-check-parens linters do
    };

    // The first delimiter problem in code. Strings, comments, character literals (#\( )
    // and |escaped symbols| are skipped. For an unclosed list the outermost open one is
    // reported (the first problem in reading order); the message also names a later form that
    // starts in column 1 while that list is still open, which is usually where it went wrong.
    static ParenCheck checkParens(const QString &code, Brackets brackets = Brackets::All);

    // True when code holds zero or more complete top-level forms and nothing left open: no
    // open list, string, block comment, or reader prefix (' #' #+x) still waiting for its
    // datum. Input the reader would reject at once (an extra ')') counts as complete, so the
    // console sends it and the reader reports the error.
    static bool isComplete(const QString &code);
    // True when code holds no forms at all: only whitespace and comments.
    static bool isBlank(const QString &code);

    static QList<SourceForm> splitTopLevelForms(const QString &code);

    // Columns of indentation for a line started after textBeforeCursor, Emacs lisp-mode style:
    // 0 at top level; in a body form (defun, let, when, with-*, def*, ... and the local
    // functions of flet/labels, the clauses of handler-case) 2 past the paren, or 4 while
    // still at its distinguished arguments (the name and lambda list of a defun); in a call,
    // under the first argument when it is on the operator's line, else 1 past the paren; in
    // data (a quoted list, a vector, a list not headed by a symbol), under the first element.
    // Inside a string or |symbol| 0, since spaces would become part of it; inside a block
    // comment, the current line's indentation.
    static int indentationForNewLine(const QString &textBeforeCursor);

    static OperatorContext enclosingOperator(const QString &code, int cursor);
    static SymbolPrefix symbolPrefixAt(const QString &code, int cursor);

    // For the paren (or the '#' of "#(") at position: the offset of the matching paren, or -1
    // when position is not on a paren (parens in strings, comments, #\( do not count) or the
    // paren has no partner.
    static int matchingParen(const QString &code, int position);

    // Tokens of one line, starting in state in; the state at the end of the line goes to *out.
    // Whitespace produces no tokens.
    static QList<LispToken> tokens(const QString &line, LexState in = {}, LexState *out = nullptr);

    // Operator classification used by the highlighter (names are compared case-insensitively,
    // after any package prefix). Defining operators are DefiningOperators' list.
    static bool isDefiningOperator(QStringView name);
    static bool isSpecialOperator(QStringView name);
};
