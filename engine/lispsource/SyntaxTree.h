#pragma once

// The concrete syntax tree of a Lisp text, as LispReader reads it (SyntaxTree::read): every
// datum a node with exact offsets, 1-based lines and columns, its reader prefixes as nodes of
// their own, comments kept beside the tree with their positions, and what the reader found
// wrong (ReadError). A flat array of nodes in document order (SyntaxTreeData.h); SyntaxNode is
// a handle into it, and every walk over it is a loop over node indices, never a recursion.
// The accessors are in SyntaxTree.cpp, the reading in LispReader.cpp.
//
// Offsets are QString indices (UTF-16 code units); columns count code units from 1, as
// LispSource::checkParens does.

#include <QList>
#include <QString>
#include <QStringView>

#include <limits>
#include <memory>

enum class SyntaxKind : quint8 {
    // atoms
    Symbol,         // foo, pkg:x, pkg::x, :kw, #:x, |Mixed Case|, a\ b
    Number,         // 42, -1/2, 1.5d0, #x1F, #b101, #o17, #36rZZ
    String,         // "..."
    Character,      // #\a, #\(, #\Space
    BitVector,      // #*1011
    LabelReference, // #1#
    Dot,            // the consing dot of a dotted list: (a . b)
    Error,          // text the reader rejects: a stray ')', #<...>, a lone '#', "..", #x12G
    // containers
    List,           // ( ... ), and [ ] { } when ReadOptions::brackets is set
    Vector,         // #( ... )
    // prefixes: one datum, the node's only child
    Quote,          // 'x
    Backquote,      // `x
    Unquote,        // ,x
    UnquoteSplicing,// ,@x and ,.x
    Function,       // #'x
    ReadEval,       // #.x
    Pathname,       // #p"..."
    Complex,        // #c(1 2)
    Array,          // #2A((1 2) (3 4))
    Structure,      // #s(point :x 1)
    Label,          // #1=x
    Dispatch,       // #?x: a dispatch macro the standard does not define, assumed to read one datum
    // two children: the feature expression, then the datum it guards
    FeatureConditional, // #+sbcl x, #-(or ecl abcl) x
};

// A symbol's name as the reader makes it: unescaped characters upper-cased, escaped ones
// (\x and |...|) kept, the package prefix split off.
struct SymbolName
{
    enum class Marker { None, External, Internal, Keyword, Uninterned }; // x, p:x, p::x, :x, #:x

    QString package; // as the reader would intern it; empty unless marker is External or Internal
    QString name;
    Marker marker = Marker::None;
    bool escaped = false; // some character of the token was escaped

    // Printed so that it reads back as the same name: lower case where the reader would
    // upcase it, |bars| where it would not ("area", ":around", "geom::|Mixed Case|").
    QString printed() const;
};

// What the reader found wrong. kind is one of
//   "extra-close", "mismatch", "unclosed", "unterminated-string", "unterminated-comment",
//   "unterminated-symbol"  (delimiter problems: what check-parens reports), and
//   "incomplete-token" (the text ends after '\' or '#\' or '#12'), "missing-datum" (a prefix
//   with no form after it), "dot" (a consing dot out of place), "unreadable" (#<...>),
//   "dispatch" (a '#' without a dispatch character), "dots" (a token of dots only),
//   "invalid-number" (#x, #b, #o, #nr or #* with wrong digits), "label" (#= or ## without a
//   number).
struct ReadError
{
    QString kind;
    int offset = -1;        // where: the stray closer, the opener never closed, the token
    int line = 0;           // 1-based
    int column = 0;         // 1-based, in UTF-16 code units
    int relatedOffset = -1; // mismatch: the opening paren; unclosed: the first '(' at a line
                            // start read inside it (usually where a paren went missing)
    QChar expected;         // the closer that would have fitted ('\0' when none applies)
    QChar found;            // the closer found ('\0' when none)
    QString message;        // one sentence for a person, with the line and column
    bool isValid() const { return offset >= 0; }
    bool isDelimiterProblem() const;
};

// A ';' comment (to the end of its line, newline excluded) or a '#|...|#' comment.
struct SyntaxComment
{
    int start = 0;
    int end = 0; // exclusive
    bool block = false;
    bool operator==(const SyntaxComment &other) const = default;
};

struct ReadOptions
{
    bool brackets = false; // '[' ']' '{' '}' delimit lists, as lisp-check-parens linters want
    // Reading stops before the first token that starts at or after this offset; a token that
    // spans it is read whole (an editor's question about the text before a cursor).
    int stopAt = std::numeric_limits<int>::max();
};

namespace LispReaderDetail {
struct NodeData;
struct TreeData;
} // namespace LispReaderDetail

// A handle to one node of a SyntaxTree; it keeps the tree alive. Default-constructed, or as
// the answer to a question without one (child(99), parent() of a top-level form), it is
// invalid and every getter answers with an empty value.
class SyntaxNode
{
public:
    SyntaxNode() = default;
    bool isValid() const { return m_data != nullptr; }
    int index() const { return m_index; } // document order: a node comes before its children

    SyntaxKind kind() const;
    bool is(SyntaxKind kind) const { return isValid() && this->kind() == kind; }
    bool isPrefix() const; // Quote ... Dispatch, and FeatureConditional
    int start() const;     // reader prefixes are nodes of their own, so 'x starts at the quote
    int end() const;       // exclusive; a node the text leaves open ends where the text ends
    int line() const;      // of start()
    int column() const;
    int lastLine() const;  // of the node's last character
    QStringView text() const;
    // The text as one line, for labels and lambda lists: comments dropped, each run of
    // whitespace and comments between tokens made one space; tokens (strings included) kept.
    QString plainText() const;
    // False for a list the text never closes, a prefix still waiting for its datum, and a token
    // the text ends in (a string, a |symbol|); the nodes around such a node are incomplete too.
    bool isComplete() const;
    // An error of errors() is about this node (a mismatched closer, a misplaced dot, a prefix
    // without its datum, an Error node...).
    bool hasError() const;
    // A token whose reading depends on the features (see FeatureReading): one read only because
    // it is inside a #+/#- datum, where a feature that does not hold makes the reader take any
    // token ("..." or a lone consing dot), an error wherever the datum is read; or a consing dot
    // in a list with #+/#- elements, well placed or not depending on which of them are read.
    bool readsOnlySuppressed() const;

    int childCount() const;
    SyntaxNode child(int i) const;
    QList<SyntaxNode> children() const;
    SyntaxNode parent() const; // invalid for a top-level form
    SyntaxNode nextSibling() const;
    // One past the index of this node's last descendant: the subtree is the index range
    // [index(), subtreeEnd()), so walking it is a loop (SyntaxTree::node(i)), never a recursion.
    int subtreeEnd() const;
    SyntaxNode next() const;      // the node at index() + 1: the first child, or what follows
    SyntaxNode following() const; // the first node after this subtree (at subtreeEnd())

    bool isDotted() const;        // a List with a consing dot
    SyntaxNode datum() const;     // prefixes: the datum read after the prefix
    SyntaxNode feature() const;   // FeatureConditional: the feature expression
    bool featureIsPositive() const; // #+ rather than #-
    int dispatchArgument() const; // the digits of #2A, #1=, #1#, #36r; -1 when there are none
    SymbolName symbol() const;    // Symbol nodes; an empty name otherwise
    QString stringValue() const;  // String nodes: the characters between the quotes, unescaped
    // The operator of a list headed by a symbol, as the tables of this folder know it: lower
    // case, package prefix dropped ("CL:DEFUN" -> "defun"); empty for anything else.
    QString operatorName() const;

    bool operator==(const SyntaxNode &other) const { return m_data == other.m_data && m_index == other.m_index; }

private:
    friend class SyntaxTree;
    SyntaxNode(std::shared_ptr<const LispReaderDetail::TreeData> data, int index)
        : m_data(std::move(data)), m_index(index) {}
    const LispReaderDetail::NodeData &data() const;

    std::shared_ptr<const LispReaderDetail::TreeData> m_data;
    int m_index = -1;
};

class SyntaxTree
{
public:
    SyntaxTree(); // the tree of an empty text
    static SyntaxTree read(const QString &text, const ReadOptions &options = {});

    const QString &text() const;
    // The top-level nodes in order: forms, and Error nodes such as a stray ')'.
    QList<SyntaxNode> topLevel() const;
    // The top-level forms: topLevel() without the stray closers and the prefixes a stray closer
    // left without their datum (neither reads as a form). A last form the text leaves open is
    // included (isComplete() false); an Error atom such as #<...> is a form that fails to read.
    QList<SyntaxNode> forms() const;
    int nodeCount() const;
    SyntaxNode node(int index) const; // document order
    // The innermost node whose text contains offset (start <= offset < end); invalid between
    // top-level forms, in comments and in whitespace at top level.
    SyntaxNode nodeAt(int offset) const;

    const QList<SyntaxComment> &comments() const; // in order
    // The comments directly above node: adjacent comment lines (or block comments) that end
    // on the line before it or on its own line, with no blank line and no other form between.
    QList<SyntaxComment> leadingComments(const SyntaxNode &node) const;

    const QList<ReadError> &errors() const; // in order of offset
    // What check-parens reports: the first extra or mismatched closer; else a string, block
    // comment or |symbol| the text ends in; else the outermost list never closed.
    ReadError delimiterError() const;
    // The delimiter problem if there is one, else the first other error.
    ReadError firstError() const;
    // The text holds only complete forms and nothing left open: no open list, string, block
    // comment or |symbol|, no prefix waiting for its datum. A stray or mismatched closer makes
    // the text complete (the reader would fail at once, so a console sends it).
    bool isComplete() const;

    int lineAt(int offset) const;   // 1-based
    int columnAt(int offset) const; // 1-based
    int lineCount() const;

private:
    explicit SyntaxTree(std::shared_ptr<const LispReaderDetail::TreeData> data) : m_data(std::move(data)) {}
    std::shared_ptr<const LispReaderDetail::TreeData> m_data;
};
