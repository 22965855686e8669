#pragma once

// How an outline names a form (TopLevelForm::label), so that the name finds it: "defun foo",
// "defmethod area :around (circle)", "defsystem \"x\"", "#+sbcl defun note", "eval-when
// (:compile-toplevel)". A label that several forms of a file would share is made unique: forms
// whose name is a keyword take the arguments after it ("deftest :yason \"parser.basic\"",
// "define-base64-decoder :string :usb8-array"); forms still alike are numbered in document
// order ("eval-when (:compile-toplevel :load-toplevel :execute) [2]", "require :gray-streams
// [1]").

#include "LispFile.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace FormLabels {
// The label of one form, as if it were alone in its file.
QString make(const TopLevelForm &form);
// The labels of a file's forms made unique, as above.
void makeUnique(QList<TopLevelForm> &forms);
// "eval-when (...) [2]" -> "eval-when (...)"; other labels unchanged.
QString withoutOrdinal(const QString &label);
// Trailing T specializers say nothing: (circle) and (circle t) name one method.
QStringList withoutTrailingT(QStringList specializers);
} // namespace FormLabels
