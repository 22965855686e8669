#pragma once

#include <QString>

// What a top-level form defines, read from its text alone (no Lisp image): the host uses it to
// remember who defined a name, when, and with which form, which the engine cannot know.
struct DefinedName
{
    QString kind;       // "function", "macro", "generic-function", "method", "variable",
                        // "constant", "class", "structure"; empty when the form defines nothing
    QString package;    // upper case as the reader would intern it; empty: the current package
    QString name;       // upper case, e.g. "FACT" or "(SETF FOO)"
    QString lambdaList; // as written, for functions, macros and generic functions
    QString initForm;   // as written, for variables and constants
    bool isValid() const { return !kind.isEmpty(); }
};

namespace DefinitionForms {
// Reads "(defun name (args) ...)" and its relatives; also "(in-package :foo)" as kind "package".
DefinedName read(const QString &form);
// "cl-user" and "common-lisp-user" name one package; the engine reports the real name.
QString canonicalPackage(const QString &designator);
} // namespace DefinitionForms
