#pragma once

// Common Lisp text read as the standard reader reads it, into a concrete syntax tree: every
// datum a node with exact offsets, 1-based lines and columns, its reader prefixes as nodes
// of their own, comments kept beside the tree with their positions. Nothing is evaluated and
// no package is consulted: `pkg::x` is a symbol named X written with the prefix PKG, `#.(...)`
// is a node, not a value.
//
// Malformed or truncated text never throws: the tree holds what could be read, nodes the text
// leaves open are marked incomplete, and errors() says what is wrong and where. Reading is one
// pass with an explicit stack (no recursion: 100,000 nested parentheses are just a deep tree),
// and every walk over the tree in this folder is a loop over node indices, never a recursion.
//
// The standard syntax with *read-base* 10 and readtable case :upcase is modelled; '[', ']',
// '{', '}' are constituents unless ReadOptions::brackets asks a linter's question. The tree it
// makes, and what it answers, is SyntaxTree.h.

#include "SyntaxTree.h"

// Whether a text reads as exactly the forms it claims to be (an edit's new text).
struct FormCheck
{
    bool ok = false;
    int count = 0;     // complete top-level forms read
    ReadError error;   // the reader's first error, when there is one
    QString message;   // why not ok, one sentence; empty when ok
};

namespace LispReader {
FormCheck checkForms(const QString &text, int expected);
} // namespace LispReader
