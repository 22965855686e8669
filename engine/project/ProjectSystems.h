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
    QString error;       // why the file cannot be read
};

namespace ProjectSystems {
// The systems a .asd text defines: (defsystem "x" ...), (asdf:defsystem #:x ...), also inside
// a top-level progn or eval-when.
QStringList definedIn(const QString &asdText);
// Every .asd file under the root, sorted by path.
QList<AsdFile> scan(const ProjectRoot &root);
// The systems of scan() that are not secondary ("x/tests"), in order, without repeats.
QStringList primarySystems(const QList<AsdFile> &files);
} // namespace ProjectSystems
