#pragma once

#include "LispReader.h"

#include <QString>
#include <QStringList>

// What a top-level form defines, read from its text alone (no Lisp image) through LispReader
// and the list of DefiningOperators: the host uses it to remember who defined a name, when
// and with which form, which the engine cannot know; a file view names forms with it.
struct DefinedName
{
    QString kind;         // DefiningOperator::kind: "function", "macro", "generic-function",
                          // "method", "variable", "constant", "class", "structure", ...;
                          // "package" for in-package; empty when the form defines nothing
    QString operatorName; // "defun", as DefiningOperators knows it
    QString package;      // as the reader would intern it; empty: the package in force
    QString name;         // as the reader would intern it, e.g. "FACT", "(SETF FOO)", "MixedCase"
    QString lambdaList;   // as written (whitespace made single spaces): functions, macros, ...
    QString initForm;     // as written: variables, constants, symbol macros
    QString documentation;
    // Methods, printed so that they read back (SymbolName::printed): the qualifiers, ":around",
    // "and"; the specializer of each required parameter, "circle", "t", "(eql :red)", without
    // package prefixes.
    QStringList qualifiers;
    QStringList specializers;
    SyntaxNode nameNode;      // where the name is written
    bool isValid() const { return !kind.isEmpty(); }
};

namespace DefinitionForms {
// Reads "(defun name (args) ...)" and its relatives, and "(in-package :foo)" (kind "package"),
// from the first form of text.
DefinedName read(const QString &text);
DefinedName read(const SyntaxNode &form);
// "cl-user" and "common-lisp-user" name one package; the engine reports the real name. Takes
// a designator as text ("cl-user", ":my-app", "#:my-app", "\"MY-APP\"") or a name.
QString canonicalPackage(const QString &designator);
// A method's qualifier as DefinedName::qualifiers lists it: ":around", "and".
QString qualifierName(const SyntaxNode &qualifier);
// A specializer as DefinedName::specializers lists it: "circle", "(eql :red)".
QString specializerName(const SyntaxNode &specializer);
// Whether a kind asked for ("class") covers a form's kind: the same kind, and "class" also the
// classes defstruct and define-condition make.
bool isKind(const QString &asked, const QString &kind);
// A package designator as read: a string's characters or a symbol's name, made canonical;
// empty when the node designates no package.
QString packageName(const SyntaxNode &designator);
} // namespace DefinitionForms
