#pragma once

// What a text reads as in a Lisp whose *features* are known: which parts a #+/#- skips, and
// the problems the reader alone cannot judge because they depend on that. A datum that a
// feature skips is read with *read-suppress* true, where any token goes: ECL reads
// (defun f () #-ecl . 43) as (DEFUN F NIL 43), the dot being the datum #-ecl skips, and
// #+sbcl #\Foobar-Unknown as nothing; where the feature holds, the same tokens are errors.
// Character names longer than one character are the running Lisp's to judge (ECL knows every
// Unicode name: #\LATIN_SMALL_LETTER_A): the caller asks it about characterNames().

#include "LispReader.h"

#include <QSet>
#include <QString>
#include <QStringList>

namespace FeatureReading {
// False when a #+/#- around node skips it with these features (upper case, no colon), or when
// node is part of a feature expression.
bool isRead(const SyntaxNode &node, const QSet<QString> &features);
// The names of the #\Name characters of the text (as written, without #\) longer than one
// character, each once, in order: what to ask the Lisp about.
QStringList characterNames(const SyntaxTree &tree);
// The first problem with the parts the features read: a token only a skipped datum may hold
// (a lone consing dot, "..."), or a character name among unknownCharacterNames. Invalid when
// there is none.
ReadError firstProblem(const SyntaxTree &tree, const QSet<QString> &features, const QSet<QString> &unknownCharacterNames);
} // namespace FeatureReading
