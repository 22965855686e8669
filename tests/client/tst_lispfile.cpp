// LispFile on the shapes real libraries' code takes (issue 18): labels that name the
// definition, every form found by the label its outline shows and by its lines, definitions
// inside top-level groups, and names resolved through each file's defpackage forms as Lisp
// resolves them. The snippets are cut from Debian's cl-* sources named beside each.

#include "lispsource/LispFile.h"

#include <QTest>

namespace {
QStringList labels(const LispFile &file)
{
    QStringList result;
    for (const TopLevelForm &form : file.forms())
        result << QString(2 * form.depth, QLatin1Char(' ')) + form.label;
    return result;
}

QString range(const TopLevelForm &form)
{
    return QStringLiteral("%1-%2").arg(form.firstLine).arg(form.lastLine);
}

QStringList placesOf(const QList<SymbolOccurrence> &occurrences)
{
    QStringList places;
    for (const SymbolOccurrence &o : occurrences)
        places << QStringLiteral("%1:%2").arg(o.line).arg(o.column);
    return places;
}

// Every form of the corpus's awkward kinds.
const char *const Awkward = R"lisp((defsystem "alexandria" :version "1.0")
(defsystem :cl-ppcre :depends-on ())
(def-suite :bordeaux-threads)
(defalias path:dirname uiop:pathname-directory-pathname)
(define-crypto-function-ex (:vanished "1.1.0") ("SSLeay" ssl-eay)
  :long)
(define-crypto-function-ex (:since "1.1.0") ("OpenSSL_version_num" openssl-version-num)
  :long)
(defcfun "sqrtf" :float (x :float))
#+(and sbcl (not win32))
(defun note () :sbcl)
#-(and sbcl (not win32)) (defun note () :other)
(declaim (optimize speed))
(declaim (optimize speed))
(eval-when (:compile-toplevel :load-toplevel :execute)
  (defun inner () 1)
  (defmacro with-inner (&body body) `(progn ,@body)))
(progn #+ecl (defvar *on-ecl* t) (defparameter *anywhere* 1))
(macrolet ((frob (name) `(defun ,name () ',name)))
  (frob alpha))
(locally (declare (optimize speed))
  (defun fast () 2))
)lisp";
} // namespace

class TestLispFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void labelsNameTheDefinitionAsWritten()
    {
        const LispFile file(QString::fromLatin1(Awkward));
        QCOMPARE(labels(file), QStringList({
                                   "defsystem \"alexandria\"",
                                   "defsystem :cl-ppcre",
                                   "def-suite :bordeaux-threads",
                                   "defalias path:dirname",
                                   "define-crypto-function-ex ssl-eay",
                                   "define-crypto-function-ex openssl-version-num",
                                   "defcfun \"sqrtf\"",
                                   "#+(and sbcl (not win32)) defun note",
                                   "#-(and sbcl (not win32)) defun note",
                                   "declaim (optimize speed) [1]",
                                   "declaim (optimize speed) [2]",
                                   "eval-when (:compile-toplevel :load-toplevel :execute)",
                                   "  defun inner",
                                   "  defmacro with-inner",
                                   "progn",
                                   "  #+ecl defvar *on-ecl*",
                                   "  defparameter *anywhere*",
                                   "macrolet ((frob (name) `(defun ,name () ',name)))",
                                   "  frob alpha",
                                   "locally (declare (optimize speed))",
                                   "  defun fast",
                               }));
        QCOMPARE(file.forms().at(4).definition.name, QStringLiteral("SSL-EAY"));
    }

    void everyFormIsFoundByItsLabelAndByItsLines()
    {
        const LispFile file(QString::fromLatin1(Awkward));
        for (const TopLevelForm &form : file.forms()) {
            const FormMatches byLabel = file.find(form.label);
            // Every listed label names its form and nothing else.
            QVERIFY2(byLabel.isUnique() && byLabel.forms.first().index == form.index, qPrintable(form.label + QStringLiteral(": ") + byLabel.message()));
            const FormMatches byLines = file.findLines(range(form));
            // A group on one line with its forms is the group.
            if (byLines.isUnique() && byLines.forms.first().index != form.index)
                QCOMPARE(form.parent, byLines.forms.first().index);
            else
                QVERIFY2(byLines.isUnique() && byLines.forms.first().index == form.index, qPrintable(form.label + byLines.message()));
        }
        // A label without its ordinal: every form it would name, to choose from by label.
        const FormMatches alike = file.find(QStringLiteral("declaim (optimize speed)"));
        QCOMPARE(alike.forms.size(), 2);
        QVERIFY2(alike.message().contains(QStringLiteral("declaim (optimize speed) [2] at line")), qPrintable(alike.message()));
        // Typed rather than copied: designators, kinds and package prefixes as Lisp reads them.
        QCOMPARE(file.find(QStringLiteral("defsystem alexandria")).forms.size(), 1);
        QCOMPARE(file.find(QStringLiteral("defsystem \"cl-ppcre\"")).forms.size(), 1);
        QCOMPARE(file.find(QStringLiteral("def-suite bordeaux-threads")).forms.size(), 1);
        QCOMPARE(file.find(QStringLiteral("define-crypto-function-ex bio-nothing")).forms.size(), 0);
        QCOMPARE(file.find(QStringLiteral("function openssl-version-num")).forms.size(), 0); // a definition, not a function
        QCOMPARE(file.find(QStringLiteral("defun inner")).forms.first().firstLine, 16);
        QCOMPARE(file.find(QStringLiteral("#-(and sbcl (not win32)) defun note")).forms.first().firstLine, 12);
        QCOMPARE(file.find(QStringLiteral("defparameter *anywhere*")).forms.first().depth, 1);
    }

    void linesNameOneFormOrSayWhatIsThere()
    {
        const LispFile file(QString::fromLatin1(Awkward));
        QVERIFY(file.findLines(QStringLiteral("13")).isUnique());
        QCOMPARE(file.findLines(QStringLiteral("15-17")).forms.first().label, QStringLiteral("eval-when (:compile-toplevel :load-toplevel :execute)"));
        QCOMPARE(file.findLines(QStringLiteral("15-16")).message(),
                 QStringLiteral("No form is exactly at lines 15-16. The forms there: eval-when (:compile-toplevel :load-toplevel :execute) at lines 15-17."));
        QVERIFY(file.findLines(QStringLiteral("twelve")).message().contains(QStringLiteral("e.g. \"12-18\"")));
        const LispFile twoOnALine(QStringLiteral("(a) (b)\n"));
        QCOMPARE(twoOnALine.findLines(QStringLiteral("1")).message(),
                 QStringLiteral("Lines 1 hold 2 forms: a at line 1; b at line 1. Name the one you mean by its label."));
    }

    void definitionsInsideTopLevelGroupsAreReadInTheirPackage()
    {
        // cl-ppcre/packages.lisp-style: the in-package inside eval-when counts for what follows.
        const LispFile file(QStringLiteral("(eval-when (:compile-toplevel :load-toplevel :execute)\n"
                                           "  (defpackage :inner-pkg (:use :cl))\n"
                                           "  (in-package :inner-pkg))\n"
                                           "(progn\n  (defun helper () 1))\n"));
        const TopLevelForm helper = file.find(QStringLiteral("defun helper")).forms.first();
        QCOMPARE(helper.package, QStringLiteral("INNER-PKG"));
        QCOMPARE(helper.definition.kind, QStringLiteral("function"));
        QCOMPARE(file.forms().at(helper.parent).label, QStringLiteral("progn"));
    }

    void aPackageQualifiedNameMeansTheSymbolWhereverItIsRead()
    {
        // split-sequence and a user of it; cl:print-object; trivial-gray-streams' import-and-export.
        LispPackages packages;
        const LispFile library(QStringLiteral("(defpackage :split-sequence (:use :cl) (:export #:split-sequence #:split-sequence-if))\n"
                                              "(in-package :split-sequence)\n"
                                              "(defun split-sequence (delimiter sequence) (list delimiter sequence))\n"));
        const LispFile user(QStringLiteral("(defpackage #:user (:use #:cl #:split-sequence) (:import-from :gray #:stream-read-char))\n"
                                           "(defpackage #:apart (:use #:cl) (:shadow #:split-sequence))\n"
                                           "(in-package #:user)\n"
                                           "(defun words (s) (split-sequence #\\Space s))\n"
                                           "(defmethod print-object ((w words) stream) (print-unreadable-object (w stream)))\n"
                                           "(defmethod stream-read-char ((s my-stream)) nil)\n"
                                           "(in-package #:apart)\n"
                                           "(defun split-sequence () :mine)\n"
                                           "(split-sequence:split-sequence 1 2)\n"));
        packages.addFrom(library.tree());
        packages.addFrom(user.tree());
        QCOMPARE(placesOf(user.occurrences(QStringLiteral("split-sequence:split-sequence"), packages)), QStringList({"4:19", "9:2"}));
        QCOMPARE(placesOf(user.occurrences(QStringLiteral("apart::split-sequence"), packages)), QStringList({"2:42", "8:8"}));
        QCOMPARE(placesOf(library.occurrences(QStringLiteral("split-sequence:split-sequence"), packages)), QStringList({"1:49", "3:8"}));
        QCOMPARE(placesOf(user.occurrences(QStringLiteral("cl:print-object"), packages)), QStringList({"5:12"}));
        QCOMPARE(placesOf(user.occurrences(QStringLiteral("gray:stream-read-char"), packages)), QStringList({"1:69", "6:12"}));
        QCOMPARE(user.find(QStringLiteral("defmethod cl:print-object"), packages).forms.size(), 1);
        QCOMPARE(user.find(QStringLiteral("defun split-sequence:split-sequence"), packages).forms.size(), 0);
        QCOMPARE(user.find(QStringLiteral("defun apart::split-sequence"), packages).forms.size(), 1);
        // A used package nobody declared may hold the name: a use is kept, not lost.
        const LispFile flexi(QStringLiteral("(defpackage :flexi (:use :cl :trivial-gray-streams))\n(in-package :flexi)\n"
                                            "(defmethod stream-read-char ((stream flexi-input-stream)) nil)\n"));
        QCOMPARE(flexi.occurrences(QStringLiteral("trivial-gray-streams:stream-read-char")).size(), 1);
        QCOMPARE(flexi.occurrences(QStringLiteral("flexi::stream-read-char")).size(), 1);
        QCOMPARE(flexi.occurrences(QStringLiteral("cl:stream-read-char")).size(), 0);
    }

    void aDefpackageNamesItsSymbolsByEveryDesignator()
    {
        const LispFile file(QStringLiteral("(defpackage :shop (:use :cl) (:export #:total :count-items \"REPORT\"))\n"
                                           "(in-package :shop)\n(defun total () 0)\n"));
        QCOMPARE(placesOf(file.occurrences(QStringLiteral("shop:total"))), QStringList({"1:39", "3:8"}));
        QCOMPARE(placesOf(file.occurrences(QStringLiteral("count-items"))), QStringList({"1:47"}));
        QCOMPARE(placesOf(file.occurrences(QStringLiteral("shop:report"))), QStringList({"1:60"}));
        QVERIFY(file.occurrences(QStringLiteral(":count-items")).isEmpty()); // a designator, not the keyword
        QVERIFY(file.occurrences(QStringLiteral("cl")).isEmpty());           // (:use :cl) names a package
        QVERIFY(file.occurrences(QStringLiteral("shop")).isEmpty());
    }

    // Issue 33: definers whose first argument is a keyword are told apart by what follows it;
    // forms still alike by their place among them.
    void everyLabelNamesOneForm()
    {
        const LispFile file(QStringLiteral("(deftest :yason \"parser.basic\" (x))\n(deftest :yason \"parser.other\" (y))\n"
                                           "(define-base64-decoder :string :usb8-array)\n(define-base64-decoder :string :string)\n"
                                           "(require :gray-streams)\n(require :gray-streams)\n(defsystem :x)\n(deftest lone 1 1)\n"));
        QStringList labels;
        for (const TopLevelForm &form : file.forms())
            labels << form.label;
        QCOMPARE(labels, (QStringList{"deftest :yason \"parser.basic\"", "deftest :yason \"parser.other\"",
                                      "define-base64-decoder :string :usb8-array", "define-base64-decoder :string :string",
                                      "require :gray-streams [1]", "require :gray-streams [2]", "defsystem :x", "deftest lone"}));
        for (const TopLevelForm &form : file.forms())
            QVERIFY2(file.find(form.label).isUnique() && file.find(form.label).forms.first().index == form.index, qPrintable(form.label));
        QCOMPARE(file.find(QStringLiteral("deftest :yason")).forms.size(), 2);
    }

    // Issue 33: definitions inside a form that defines nothing, at the top level or in a group.
    void definitionsInsideOtherFormsAreListedOneLevelDown()
    {
        const LispFile file(QStringLiteral("(eval-when (:execute)\n  (unless (fboundp 'f)\n    (defun f () 1)))\n"
                                           "(let ((cache nil))\n  (defun g () cache)\n  (list 'not-a-definition))\n"
                                           "(eval-when (:execute)\n  (without-package-locks\n    (without-package-locks\n      (defvar *v* 1))))\n"
                                           "(defmacro m () `(defun h () 2))\n'(defun quoted ())\n"));
        QStringList labels;
        for (const TopLevelForm &form : file.forms())
            labels << QString(form.depth * 2, QLatin1Char(' ')) + form.label;
        QCOMPARE(labels, (QStringList{"eval-when (:execute) [1]", "  unless (fboundp 'f) (defun f () 1)", "    defun f", "let ((cache nil)) (defun g () cache) (list 'not-a-definition)", "  defun g",
                                      "eval-when (:execute) [2]", "  without-package-locks (without-package-locks (defvar *v* 1))",
                                      "    without-package-locks (defvar *v* 1)", "      defvar *v*", "defmacro m", "'(defun quoted ())"}));
        QCOMPARE(file.find(QStringLiteral("defun f")).forms.first().firstLine, 3);
        QCOMPARE(file.find(QStringLiteral("defvar *v*")).forms.first().depth, 3);
    }

    void tokensThatOnlySomeLispsReadDoNotMakeTheTextUnreadable()
    {
        // trivial-gray-streams/package.lisp:54: "..." where no listed Lisp holds.
        const QString text = QStringLiteral("(:import-from\n #+sbcl :sb-gray\n #-(or sbcl ecl) ...\n #:stream-read-char)");
        QVERIFY2(LispReader::checkForms(text, 1).ok, qPrintable(LispReader::checkForms(text, 1).message));
        QVERIFY(!LispReader::checkForms(QStringLiteral("(a ... b)"), 1).ok);
        QVERIFY(!LispReader::checkForms(QStringLiteral("#+sbcl #<thing>"), 1).ok); // ECL refuses #< even there
    }
};

QTEST_APPLESS_MAIN(TestLispFile)
#include "tst_lispfile.moc"
