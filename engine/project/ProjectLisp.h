#pragma once

#include "lispsource/LispFile.h"
#include "lispsource/LispPackages.h"
#include "ProjectTree.h"

#include <vector>

// Every Lisp file of the project read as Lisp, with the packages their defpackage forms declare:
// what find-definition, find-references and search-forms search, names resolved across files
// (a package defined in package.lisp is the one src/*.lisp is read in).
struct ProjectLisp
{
    ProjectTree::Sources sources; // the files, and those that could not be read
    std::vector<LispFile> files;  // one per sources.files, same order
    LispPackages packages;        // COMMON-LISP's and every file's defpackage forms

    // features: the running Lisp's *features*, when known (see LispPackages::setFeatures).
    static ProjectLisp read(const ProjectRoot &root, const QSet<QString> *features = nullptr);
    // .asd files are read in ASDF-USER, as ASDF loads them; the rest in CL-USER.
    static QString initialPackage(const QString &path);
};
