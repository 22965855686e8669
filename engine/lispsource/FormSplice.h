#pragma once

#include "LispFile.h"

#include <QString>

// One top-level form of a file's text replaced, deleted, or given a neighbour, with everything
// else kept byte for byte. The form is its TopLevelForm::start..end: exactly the text the tools
// show for it (a comment after it on its last line included), so that replacing a form with
// the text it was shown with changes nothing. The new text takes the form's line endings (the
// file's for a one-line form). At the top level an inserted form is separated from its
// neighbour by one blank line; inside a group (progn, eval-when...) it goes on a line of its own
// with its neighbour's indentation, every line of it moved right by that much (the new text is
// indented as at the top level). A deleted form takes its lines with it, and at the top level a
// blank line beside them when only one side has one (inside a group, only when both sides have
// one), so that an insert and a delete leave the file as it was; of blank lines on both sides,
// an empty one goes rather than one holding blanks (the file's own bytes). A group's last form
// deleted leaves the group's closing parentheses after the code before it, or on the form's
// line when a comment comes between (never inside the comment).
struct FormSplice
{
    enum class Action { Replace, InsertBefore, InsertAfter, Delete };

    QString text;      // the whole new text of the file
    int firstLine = 0; // the new form's lines in it (1-based; 0 after a delete)
    int lastLine = 0;

    static FormSplice apply(const LispFile &file, const TopLevelForm &form, Action action, const QString &newText);
    // "\r\n" when the text's first line ends so, else "\n".
    static QString lineEnding(const QString &text);
};
