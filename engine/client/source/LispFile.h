#pragma once

// A Lisp file's text as a person's project sees it: its top-level forms with what each defines
// and the package in force where it is read; a form found by kind and name the way an agent
// names it ("defmethod area :around (circle)"); the symbols a form uses, for "find
// references". All of it read by LispReader, so that strings, comments, character literals,
// #+/#- conditionals and backquote never fool it. Plain values; no files are opened here.

#include "DefinitionForms.h"
#include "LispReader.h"

#include <QList>
#include <QString>
#include <QStringList>

struct TopLevelForm
{
    int index = -1;         // among LispFile::forms()
    SyntaxNode node;        // the form, its reader prefixes included; node.isComplete() is false
                            // for a last form the text leaves open
    SyntaxNode body;        // node without the #+/#- conditionals in front of it
    QString condition;      // those conditionals as written, "#+ecl" or "#+sbcl #-x86-64"; empty
                            // when the form is read everywhere
    QString operatorName;   // "defun", "deftest", "progn"; empty unless a list headed by a symbol
    DefinedName definition; // what it defines; invalid for forms that define nothing
    QString package;        // the package in force where it is read (in-package forms before it)
    int start = 0;          // offsets of the form's text, end exclusive
    int end = 0;
    int firstLine = 0;      // 1-based
    int lastLine = 0;
    // How an agent names it: "defun foo", "defmethod area :around (circle)", "defparameter *x*",
    // "in-package :app", "#+ecl defun note"; for other forms their first words, "(format t ...".
    QString label() const;
};

// "defmethod area :around (circle)": an operator (or a definition kind such as "function"),
// a name, and for methods the qualifiers and specializers, read as Lisp text.
struct FormQuery
{
    QString condition;       // "#+ecl": only forms under exactly these conditionals; empty: any
    QString what;            // "defmethod", or a kind ("method"); lower case
    QString package;         // when the name is written with one; canonical
    QString name;            // as the reader interns it: "AREA", "(SETF FOO)"
    QStringList qualifiers;   // as DefinedName's: ":around"; only compared when qualifiers or
    QStringList specializers; // specializers are given
    bool hasSpecializers = false; // a specializer list was given ("()" included)
    QString error;                // why the query does not read
    bool isValid() const { return error.isEmpty(); }

    static FormQuery parse(const QString &text);
    bool matches(const TopLevelForm &form) const;
};

struct FormMatches
{
    QString query;
    QList<TopLevelForm> forms;
    QList<TopLevelForm> sameName; // when nothing matched: forms with the name but another kind
                                  // or other specializers, to say what there is instead
    QString queryError;
    bool isUnique() const { return queryError.isEmpty() && forms.size() == 1; }
    // Why the query does not pick exactly one form, naming the lines and how to be precise;
    // empty when isUnique().
    QString message() const;
};

struct SymbolOccurrence
{
    SyntaxNode node;     // the Symbol node
    SymbolName symbol;
    int formIndex = -1;  // the enclosing top-level form, among LispFile::forms()
    QString package;     // the package in force there
    int line = 0;
    int column = 0;
};

class LispFile
{
public:
    explicit LispFile(const QString &text, const QString &initialPackage = QStringLiteral("COMMON-LISP-USER"));

    const SyntaxTree &tree() const { return m_tree; }
    const QString &text() const { return m_tree.text(); }
    // Every top-level form in order (SyntaxTree::forms()).
    const QList<TopLevelForm> &forms() const { return m_forms; }
    // The forms that match; see FormMatches::isUnique() and message().
    FormMatches find(const QString &query) const;
    // Where a symbol is used: "area", "geom:area", ":red". A name without a package matches
    // every symbol with that name (the package in force at each is given, for the caller to
    // judge); one with a package matches symbols written with it or read where it is in force.
    // A keyword matches keywords only. Strings, comments, character literals and #+/#- feature
    // expressions hold no symbols; #:name (as in defpackage's :export) counts as a use of name.
    QList<SymbolOccurrence> occurrences(const QString &symbol) const;
    // Every symbol inside node, in order, feature expressions left out.
    static QList<SyntaxNode> symbolsIn(const SyntaxNode &node);

private:
    SyntaxTree m_tree;
    QList<TopLevelForm> m_forms;
};
