#pragma once

#include "ProjectRoot.h"

#include <QList>
#include <QString>
#include <QStringList>

// The ASDF systems of the project, read from its .asd files as text (no Lisp image): the one
// place that reads them, for project-info and the window's Run project tests.
struct AsdFile
{
    QString relative;    // the .asd file, relative to the root
    QStringList systems; // the systems it defines, lower case as ASDF names them: "shapes", "shapes/tests"
    QStringList testSystems; // the systems a defsystem's test-op depends on there: (:in-order-to
                             // ((test-op (test-op "shapes/tests")))), cl+ssl's (load-op :cl+ssl.test)
    QString error;       // why the file cannot be read
};

namespace ProjectSystems {
// The systems a .asd text defines: (defsystem "x" ...), (asdf:defsystem #:x ...), also inside
// a top-level progn or eval-when.
QStringList definedIn(const QString &asdText);
// The systems the test-op of a system of that text depends on (:in-order-to ((test-op ...))).
QStringList testSystemsIn(const QString &asdText);
// Whether a secondary system ("x/tests", "named-readtables/doc") holds tests: a test-op names
// it, or its name after the slash says so ("test", "tests", "x-test").
bool isTestSystem(const AsdFile &file, const QString &system);
// Every .asd file under the root, sorted by path.
QList<AsdFile> scan(const ProjectRoot &root);
// The systems of scan() that are not secondary ("x/tests"), in order, without repeats.
QStringList primarySystems(const QList<AsdFile> &files);
} // namespace ProjectSystems
