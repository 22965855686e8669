#pragma once

#include "LispFile.h"

#include <QString>

// One top-level form of a file's text replaced, deleted, or given a neighbour, with everything
// else kept byte for byte. The new text takes the file's line endings; an inserted form is
// separated from its neighbour by one blank line, and a deleted form takes its own line (and
// one of the blank lines around it) with it.
struct FormSplice
{
    enum class Action { Replace, InsertBefore, InsertAfter, Delete };

    QString text;      // the whole new text of the file
    int firstLine = 0; // the new form's lines in it (1-based; 0 after a delete)
    int lastLine = 0;

    static FormSplice apply(const LispFile &file, const TopLevelForm &form, Action action, const QString &newText);
    // "\r\n" when the file's first line ends so, else "\n".
    static QString lineEnding(const QString &text);
};
