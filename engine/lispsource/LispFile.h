#pragma once

// A Lisp file's text as a person's project sees it: its top-level forms with what each defines
// and the package in force where it is read; a form found by the label an outline shows, by
// kind and name the way an agent names it ("defmethod area :around (circle)"), or by its lines;
// the symbols a form uses, for "find references", resolved the way Lisp resolves them. All of
// it read by LispReader, so that strings, comments, character literals, #+/#- conditionals and
// backquote never fool it. Plain values; no files are opened here.
//
// Top-level forms are those of CLHS 3.2.3.1: the forms of the file, and the forms inside a
// top-level progn, eval-when, macrolet, symbol-macrolet or locally (a group), so that
// (eval-when (...) (defun f ...)) defines F as plainly as (defun f ...) does. The definitions
// directly inside any other such form that is no definition itself are listed as its forms
// too, one level down: (unless (fboundp 'x) (defun x ...)), (let (...) (defun f ...)).

#include "DefinitionForms.h"
#include "LispPackages.h"
#include "LispReader.h"

#include <QList>
#include <QString>
#include <QStringList>

struct TopLevelForm
{
    int index = -1;         // among LispFile::forms(), in document order
    int parent = -1;        // the group (or the form around a definition) it is read in, among
                            // forms(); -1 for a form of the file
    int depth = 0;          // 0 for a form of the file, 1 inside one group, ...
    SyntaxNode node;        // the form, its reader prefixes included; node.isComplete() is false
                            // for a last form the text leaves open
    SyntaxNode body;        // node without the #+/#- conditionals in front of it
    QString condition;      // those conditionals as written, "#+ecl" or "#+sbcl #-x86-64"; empty
                            // when the form is read everywhere
    QString operatorName;   // "defun", "deftest", "progn"; empty unless a list headed by a symbol
    DefinedName definition; // what it defines; invalid for forms that define nothing
    QString package;        // the package in force where it is read (in-package forms before it)
    // The form's text as the tools show it and edits replace it: the node, and the comments on
    // its first and last lines that nothing else shares ("(f) ; exported" is one form). Offsets,
    // end exclusive; lines 1-based.
    int start = 0;
    int end = 0;
    int firstLine = 0;
    int lastLine = 0;
    // How an outline names it, and the name that finds it, unique in its file (FormLabels):
    // "defun foo", "defmethod area :around (circle)", "defsystem \"alexandria\"", "#+(and sbcl
    // (not win32)) defun note", "eval-when (:compile-toplevel :execute)", "deftest :yason
    // \"parser.basic\"", "require :gray-streams [2]".
    QString label;
    int groupBody = 0; // a group: the index among body's children where its forms start; else 0
    bool isGroup() const { return groupBody > 0; }
};

// "defmethod area :around (circle)": an operator (or a definition kind such as "function"),
// a name, and for methods the qualifiers and specializers, read as Lisp text.
struct FormQuery
{
    QString condition;       // "#+ecl": only forms under exactly these conditionals; empty: any
    QString what;            // "defmethod", or a kind ("method"); lower case
    QString package;         // when the name is written with one; as the reader interns it
    QString name;            // as the reader interns it: "AREA", "(SETF FOO)"
    SymbolName argument;     // the name part as written, for forms that define nothing:
    bool argumentIsString = false; // "defsystem :x", "defsystem \"x\"", "defalias path:dirname"
    QStringList qualifiers;   // as DefinedName's: ":around"; only compared when qualifiers or
    QStringList specializers; // specializers are given
    bool hasSpecializers = false; // a specializer list was given ("()" included)
    QString error;                // why the query does not read
    bool isValid() const { return error.isEmpty(); }

    static FormQuery parse(const QString &text);
    // packages resolves names written with a package ("defmethod cl:print-object"); without it
    // only the file's own defpackage forms and COMMON-LISP are known.
    bool matches(const TopLevelForm &form, const LispPackages &packages) const;
};

struct FormMatches
{
    QString query;
    QList<TopLevelForm> forms;
    QList<TopLevelForm> sameName; // when nothing matched: forms with the name but another kind
                                  // or other specializers, to say what there is instead
    QString queryError;
    bool byLines = false;         // the query was a line range
    bool isUnique() const { return queryError.isEmpty() && forms.size() == 1; }
    // Why the query does not pick exactly one form, naming the lines and how to be precise;
    // empty when isUnique().
    QString message() const;
};

struct SymbolOccurrence
{
    SyntaxNode node;     // the Symbol node (a String node for "NAME" in a defpackage's :export)
    SymbolName symbol;
    int formIndex = -1;  // the innermost top-level form around it, among LispFile::forms()
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
    // Every top-level form in document order, groups' forms right after their group.
    const QList<TopLevelForm> &forms() const { return m_forms; }
    // The forms that match; see FormMatches::isUnique() and message(). A query equal to a
    // label finds the forms with that label; otherwise it is read as a FormQuery.
    FormMatches find(const QString &query) const;
    FormMatches find(const QString &query, const LispPackages &packages) const;
    // The form whose lines are exactly `range` ("447-460", or "12" for one line), the outermost
    // one when a group and its only form share their lines.
    FormMatches findLines(const QString &range) const;
    // Where a symbol is used: "area", "geom:area", ":red". A name without a package matches
    // every symbol with that name (the package in force at each is given, for the caller to
    // judge); one with a package matches the symbols that are that symbol, as `packages` (by
    // default the file's own defpackage forms and COMMON-LISP) resolves them: written with a
    // prefix, read where a package that has it is in force, inherited through :use, imported.
    // A keyword matches keywords only. Strings, comments, character literals, #+/#- feature
    // expressions and package names hold no symbols; the names a defpackage exports, shadows
    // or imports (#:name, :name, "NAME") are uses of those symbols.
    QList<SymbolOccurrence> occurrences(const QString &symbol) const;
    QList<SymbolOccurrence> occurrences(const QString &symbol, const LispPackages &packages) const;
    // Every use of a symbol that occurrences() looks at, in order: symbols outside feature
    // expressions and in-package forms, and the names a defpackage's options give (for those,
    // symbol is the name with the package the option names it in, marker Internal).
    QList<SymbolOccurrence> symbolUses() const;
    // This file's defpackage forms, with COMMON-LISP's.
    LispPackages ownPackages() const;
    // Every symbol inside node, in order, feature expressions left out.
    static QList<SyntaxNode> symbolsIn(const SyntaxNode &node);

private:
    SyntaxTree m_tree;
    QList<TopLevelForm> m_forms;
};
