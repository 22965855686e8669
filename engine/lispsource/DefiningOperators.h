#pragma once

// The one list of Common Lisp's defining operators, and what each one's form looks like: the
// highlighter colours them, the indentation lays them out, DefinitionForms reads what they
// define, and the Replayer replays them. Names are compared case-insensitively with the
// package prefix dropped ("CL:DEFUN" is defun).
//
// The rule for operators not in the list: a name that starts with "define-" defines something
// by convention (define-foo NAME ...), of kind "definition". Other "def..." names are not
// taken for definitions here: (default-x 1) is a call (the indentation still lays out any
// def... form like a definition, as Emacs does).

#include <QList>
#include <QString>
#include <QStringView>

struct DefiningOperator
{
    // How the name is written, right after the operator.
    enum class Name {
        Symbol,        // defvar *x*
        FunctionName,  // defun foo, defun (setf foo)
        SymbolOrList,  // defstruct point, defstruct (point (:conc-name p-))
        Package,       // in-package :foo, defpackage "FOO"
        FirstArgument, // define-foo by convention: a symbol, a string, or a list headed by one
    };
    // What follows the name.
    enum class Then { Nothing, LambdaList, QualifiersThenLambdaList, InitForm };
    // Where a documentation string may stand.
    enum class Doc {
        None,
        Body,       // first thing of the body, when more follows: (defun f (x) "doc" x)
        AfterValue, // (defvar *x* 1 "doc")
        Option,     // an option (:documentation "doc"): defclass, defgeneric, defpackage, ...
        AfterName,  // (defstruct point "doc" x y)
    };

    QString name;    // lower case: "defun"
    QString kind;    // what it defines: "function", "macro", "generic-function", "method",
                     // "variable", "constant", "class", "structure", "condition", "type",
                     // "package-definition", "compiler-macro", "symbol-macro",
                     // "method-combination", "modify-macro", "setf-expander"; "definition"
                     // for define-... by convention; "package" for in-package
    Name nameShape = Name::Symbol;
    Then then = Then::Nothing;
    Doc doc = Doc::None;
    // Arguments laid out like a defun's name and lambda list (indented 4) before the body
    // (indented 2); -1: not a body form.
    int indentedArguments = 1;
    bool isValid() const { return !name.isEmpty(); }
    // in-package defines nothing: it changes the package the next forms are read in.
    bool changesPackage() const { return name == QLatin1String("in-package"); }
    bool definesName() const { return isValid() && !changesPackage(); }
};

namespace DefiningOperators {
const QList<DefiningOperator> &all();
// The entry for an operator name ("defun", "CL:DEFUN"); for define-... names outside the list,
// the convention's entry; otherwise an invalid one.
DefiningOperator find(QStringView operatorName);
// find(name).definesName(): what the highlighter colours as a definition.
bool isDefining(QStringView operatorName);
} // namespace DefiningOperators
