#pragma once

// The storage behind SyntaxTree and SyntaxNode, shared by the reader that fills it
// (LispReader.cpp) and the accessors that read it (SyntaxTree.cpp). Not for use elsewhere.

#include "LispReader.h"
#include "LispScanner.h"

#include <algorithm>
#include <limits>
#include <vector>


// The tree is a flat array of nodes in document order, linked by indices: building it is a
// loop over the scanner's lexemes with a stack of open lists, destroying it frees one vector,
// and a subtree is an index range. Nothing here recurses, whatever the nesting.

namespace LispReaderDetail {

enum Flag : quint8 {
    Incomplete = 1,   // the text ends inside it
    HasError = 2,     // an error of errors() is about it
    MissingDatum = 4, // a prefix closed (by ')' or a stray ')') before its datum came
    Negative = 8,     // #- rather than #+
    StrayCloser = 16, // an Error node: a ')' with no list open
    SuppressedOnly = 32, // a token only a suppressed #+/#- datum reads (SyntaxNode::readsOnlySuppressed)
    InConditionalDatum = 64, // inside the datum of a #+/#- (not its feature expression)
};

struct NodeData
{
    SyntaxKind kind = SyntaxKind::Error;
    quint8 flags = 0;
    int start = 0;
    int end = 0;
    int parent = -1;
    int firstChild = -1;
    int lastChild = -1;
    int nextSibling = -1;
    int childCount = 0;
    int subtreeEnd = -1;
    int owed = 0; // prefixes being read: datums still to come
};

struct TreeData
{
    QString text;
    std::vector<NodeData> nodes;
    std::vector<int> topLevel;
    std::vector<int> lineStarts{0};
    QList<SyntaxComment> comments;
    QList<ReadError> errors;
    ReadError delimiterError;
    bool complete = true;

    int lineAt(int offset) const
    {
        return int(std::upper_bound(lineStarts.begin(), lineStarts.end(), offset) - lineStarts.begin());
    }
    int columnAt(int offset) const { return offset - lineStarts[size_t(lineAt(offset) - 1)] + 1; }
    QString at(int offset) const
    {
        return QStringLiteral("line %1, column %2").arg(lineAt(offset)).arg(columnAt(offset));
    }
};

// The digits after '#' (#2A, #1=, #36r): where they end, and their value in *value (-1 if none).
inline int dispatchDigits(QStringView token, int *value)
{
    int k = 1;
    qint64 n = 0;
    while (k < token.size() && LispSyntax::isAsciiDigit(token[k])) {
        n = qMin<qint64>(n * 10 + (token[k].unicode() - u'0'), std::numeric_limits<int>::max());
        ++k;
    }
    *value = k > 1 ? int(n) : -1;
    return k;
}

} // namespace LispReaderDetail
