// FormSplice, the byte-exact edit behind edit-form, on its own: what a form is (its text with
// the comment that ends its line), replacing a form with the text it was shown with changes
// nothing, inserts and deletes undo each other, forms inside groups keep their indentation and
// the group's closing parentheses, and line endings follow the file.

#include "lispsource/FormSplice.h"

#include <QTest>

namespace {
const TopLevelForm &formLabelled(const LispFile &file, const QString &label)
{
    for (const TopLevelForm &form : file.forms()) {
        if (form.label == label)
            return form;
    }
    qFatal("no form labelled %s", qPrintable(label));
}

QString applied(const QString &text, const QString &label, FormSplice::Action action, const QString &newText = {})
{
    const LispFile file(text);
    return FormSplice::apply(file, formLabelled(file, label), action, newText).text;
}

QString shown(const LispFile &file, const TopLevelForm &form)
{
    return file.text().mid(form.start, form.end - form.start);
}

const char *const Sample = "(in-package :cl-user)\n"
                           "\n"
                           ";; the host's byte order\n"
                           "(defgeneric host-byte-order (address)) ; exported\n"
                           "(defun adjacent () 1)\n"
                           "\n"
                           "#| a note |# (defun noted () 2)\n"
                           "\n"
                           "(eval-when (:compile-toplevel :load-toplevel :execute)\n"
                           "  (defun inner (x)\n"
                           "    x)\n"
                           "  (defun last-inner () 3))\n"
                           "(a) (b) (c)\n"
                           "(defun final () 4)";
} // namespace

class TestFormSplice : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aFormIsItsTextWithTheCommentsThatShareOnlyItsLines()
    {
        const LispFile file(QString::fromLatin1(Sample));
        QCOMPARE(shown(file, formLabelled(file, QStringLiteral("defgeneric host-byte-order"))),
                 QStringLiteral("(defgeneric host-byte-order (address)) ; exported"));
        QCOMPARE(shown(file, formLabelled(file, QStringLiteral("defun noted"))), QStringLiteral("#| a note |# (defun noted () 2)"));
        QCOMPARE(shown(file, formLabelled(file, QStringLiteral("defun last-inner"))), QStringLiteral("(defun last-inner () 3)"));
        QCOMPARE(shown(file, formLabelled(file, QStringLiteral("b"))), QStringLiteral("(b)"));
        const TopLevelForm &inner = formLabelled(file, QStringLiteral("defun inner"));
        QCOMPARE(inner.firstLine, 10);
        QCOMPARE(inner.lastLine, 11);
        QCOMPARE(inner.depth, 1);
        QCOMPARE(file.forms().at(inner.parent).label, QStringLiteral("eval-when (:compile-toplevel :load-toplevel :execute)"));
    }

    void replacingEveryFormWithTheTextItIsShownWithChangesNothing_data()
    {
        QTest::addColumn<QString>("text");
        const QString sample = QString::fromLatin1(Sample);
        QTest::newRow("LF") << sample;
        QTest::newRow("CRLF") << QString(sample).replace(QStringLiteral("\n"), QStringLiteral("\r\n"));
        QTest::newRow("a CRLF form in an LF file") << sample + QStringLiteral("\n(defun windows ()\r\n  5)\n");
    }
    void replacingEveryFormWithTheTextItIsShownWithChangesNothing()
    {
        QFETCH(QString, text);
        const LispFile file(text);
        for (const TopLevelForm &form : file.forms()) {
            // As edit-form gets it back from a client: with its line endings made LF.
            const QString given = shown(file, form).replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
            QCOMPARE(FormSplice::apply(file, form, FormSplice::Action::Replace, given).text, text);
            // And with the lines read-file shows (the indentation of its first line included).
            const int lineStart = form.start == 0 ? 0 : int(text.lastIndexOf(QLatin1Char('\n'), form.start - 1)) + 1;
            if (text.mid(lineStart, form.start - lineStart).trimmed().isEmpty())
                QCOMPARE(FormSplice::apply(file, form, FormSplice::Action::Replace, text.mid(lineStart, form.end - lineStart)).text, text);
        }
    }

    void aReplacementTouchesOnlyTheFormsLines()
    {
        const QString before = QString::fromLatin1(Sample);
        const QString after = applied(before, QStringLiteral("defgeneric host-byte-order"), FormSplice::Action::Replace,
                                      QStringLiteral("(defgeneric host-byte-order (address)) ; exported"));
        QCOMPARE(after, before); // the comment is not doubled
        const QString changed = applied(before, QStringLiteral("defgeneric host-byte-order"), FormSplice::Action::Replace,
                                        QStringLiteral("(defgeneric host-byte-order (address))"));
        QCOMPARE(changed, QString(before).replace(QStringLiteral("(defgeneric host-byte-order (address)) ; exported"),
                                                  QStringLiteral("(defgeneric host-byte-order (address))")));
    }

    void anInsertThenADeleteLeaveTheFileAsItWas_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("label");
        QTest::addColumn<int>("action");
        const QString sample = QString::fromLatin1(Sample);
        const QStringList labels{QStringLiteral("in-package :cl-user"), QStringLiteral("defgeneric host-byte-order"),
                                 QStringLiteral("defun adjacent"), QStringLiteral("defun noted"), QStringLiteral("defun inner"),
                                 QStringLiteral("defun last-inner"), QStringLiteral("defun final")};
        for (const QString &label : labels) {
            for (const auto action : {FormSplice::Action::InsertBefore, FormSplice::Action::InsertAfter}) {
                const QByteArray name = (label + (action == FormSplice::Action::InsertBefore ? QStringLiteral(" before") : QStringLiteral(" after"))).toUtf8();
                QTest::newRow(name.constData()) << sample << label << int(action);
                QTest::newRow((name + " (CRLF, final newline)").constData())
                    << QString(sample).replace(QStringLiteral("\n"), QStringLiteral("\r\n")) + QStringLiteral("\r\n") << label << int(action);
            }
        }
    }
    void anInsertThenADeleteLeaveTheFileAsItWas()
    {
        QFETCH(QString, text);
        QFETCH(QString, label);
        QFETCH(int, action);
        const QString inserted = applied(text, label, FormSplice::Action(action), QStringLiteral("(defun added ()\n  :new)"));
        QVERIFY(inserted != text);
        QVERIFY2(inserted.contains(text.contains(QStringLiteral("\r\n")) ? QStringLiteral("(defun added ()\r\n") : QStringLiteral("(defun added ()\n")),
                 qPrintable(inserted));
        QCOMPARE(applied(inserted, QStringLiteral("defun added"), FormSplice::Action::Delete), text);
    }

    // Issue 33: inside a group every line of the new form is indented as the group's forms are,
    // and deleting it again leaves the blank line and the comment beside it.
    void aFormInsertedInsideAGroupIsIndentedLineByLineAndTakenBackExactly_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("label");
        QTest::addColumn<int>("action");
        const QString commented = QStringLiteral("(eval-when (:execute)\n  (defun a () 1)\n\n  ;; about b\n  (defun b () 2))\n");
        QTest::newRow("before a commented form after a blank line") << commented << QStringLiteral("defun b") << int(FormSplice::Action::InsertBefore);
        QTest::newRow("after the form before a blank line") << commented << QStringLiteral("defun a") << int(FormSplice::Action::InsertAfter);
        // issue 42, point 12: the new form landed at column 0, where the comment starts
        QTest::newRow("before a form whose comment is at column 0")
            << QStringLiteral("(eval-when (:execute)\n  (defun a () 1)\n;;; about b\n  (defun b () 2))\n") << QStringLiteral("defun b")
            << int(FormSplice::Action::InsertBefore);
        QTest::newRow("wrapped definition") << QStringLiteral("(unless (fboundp 'x)\n  (defun x ()\n    1))\n") << QStringLiteral("defun x")
                                            << int(FormSplice::Action::InsertBefore);
    }
    void aFormInsertedInsideAGroupIsIndentedLineByLineAndTakenBackExactly()
    {
        QFETCH(QString, text);
        QFETCH(QString, label);
        QFETCH(int, action);
        const QString inserted = applied(text, label, FormSplice::Action(action), QStringLiteral("(defun new ()\n  :new)"));
        QVERIFY2(inserted.contains(QStringLiteral("  (defun new ()\n    :new)")), qPrintable(inserted));
        QCOMPARE(applied(inserted, QStringLiteral("defun new"), FormSplice::Action::Delete), text);
    }

    // Issue 42, point 12: a line of only blanks next to the edited form became empty after an
    // insert and a delete; bytes the edit does not own stay as they were.
    void aLineOfOnlyBlanksBesideTheEditStaysAsItWas_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("label");
        QTest::addColumn<int>("action");
        const QString top = QStringLiteral("(defun a () 1)\n   \n(defun b () 2)\n\t\n(defun c () 3)\n");
        const QString group = QStringLiteral("(progn\n  (defun a () 1)\n  \n  (defun b () 2))\n");
        for (const auto action : {FormSplice::Action::InsertBefore, FormSplice::Action::InsertAfter}) {
            const QByteArray how = action == FormSplice::Action::InsertBefore ? "before" : "after";
            for (const QString &label : {QStringLiteral("defun a"), QStringLiteral("defun b"), QStringLiteral("defun c")}) {
                QTest::newRow(("top level, " + how + " " + label.toUtf8()).constData()) << top << label << int(action);
                QTest::newRow(("top level CRLF, " + how + " " + label.toUtf8()).constData())
                    << QString(top).replace(QStringLiteral("\n"), QStringLiteral("\r\n")) << label << int(action);
            }
            for (const QString &label : {QStringLiteral("defun a"), QStringLiteral("defun b")})
                QTest::newRow(("in a group, " + how + " " + label.toUtf8()).constData()) << group << label << int(action);
        }
    }
    void aLineOfOnlyBlanksBesideTheEditStaysAsItWas()
    {
        QFETCH(QString, text);
        QFETCH(QString, label);
        QFETCH(int, action);
        const QString inserted = applied(text, label, FormSplice::Action(action), QStringLiteral("(defun added ()\n  :new)"));
        QVERIFY2(inserted.contains(QStringLiteral("\n   \r\n")) || inserted.contains(QStringLiteral("\n   \n")) || !text.contains(QStringLiteral("\n   \n")),
                 qPrintable(inserted));
        QCOMPARE(applied(inserted, QStringLiteral("defun added"), FormSplice::Action::Delete), text);
    }

    void formsInsideAGroupKeepItsIndentationAndItsClosingParentheses()
    {
        const QString text = QStringLiteral("(eval-when (:execute)\n  (defun a () 1)\n  (defun b () 2))\n");
        QCOMPARE(applied(text, QStringLiteral("defun b"), FormSplice::Action::InsertAfter, QStringLiteral("(defun c () 3)")),
                 QStringLiteral("(eval-when (:execute)\n  (defun a () 1)\n  (defun b () 2)\n  (defun c () 3))\n"));
        QCOMPARE(applied(text, QStringLiteral("defun a"), FormSplice::Action::InsertBefore, QStringLiteral("(defun z () 0)")),
                 QStringLiteral("(eval-when (:execute)\n  (defun z () 0)\n  (defun a () 1)\n  (defun b () 2))\n"));
        QCOMPARE(applied(text, QStringLiteral("defun b"), FormSplice::Action::Delete),
                 QStringLiteral("(eval-when (:execute)\n  (defun a () 1))\n"));
        QCOMPARE(applied(text, QStringLiteral("defun a"), FormSplice::Action::Delete), QStringLiteral("(eval-when (:execute)\n  (defun b () 2))\n"));
        QCOMPARE(applied(QStringLiteral("(progn (defun a () 1)\n       (defun b () 2))"), QStringLiteral("defun a"), FormSplice::Action::Delete),
                 QStringLiteral("(progn\n       (defun b () 2))"));
    }

    // A group's last form deleted: its closing parentheses never go into a comment (the file
    // stayed open: "  ;; c)"), nor onto a line of their own after a blank line.
    void deletingAGroupsLastFormKeepsItsParenthesesOutOfComments_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("after its own line") << QStringLiteral("(progn\n  (a)\n  (x))\n") << QStringLiteral("(progn\n  (a))\n");
        QTest::newRow("after a comment line") << QStringLiteral("(progn\n  (a)\n  ;; c\n  (x))\n") << QStringLiteral("(progn\n  (a)\n  ;; c\n  )\n");
        QTest::newRow("after a form's comment") << QStringLiteral("(progn\n  (a) ; note\n  (x))\n") << QStringLiteral("(progn\n  (a) ; note\n  )\n");
        QTest::newRow("after a blank line") << QStringLiteral("(progn\n  (a)\n\n  (x))\n") << QStringLiteral("(progn\n  (a))\n");
        QTest::newRow("alone in its group") << QStringLiteral("(progn\n  (x))\n") << QStringLiteral("(progn)\n");
        QTest::newRow("alone, after the head's comment") << QStringLiteral("(progn ; why\n  (x))\n") << QStringLiteral("(progn ; why\n  )\n");
        QTest::newRow("CRLF") << QStringLiteral("(progn\r\n  (a)\r\n\r\n  (x))\r\n") << QStringLiteral("(progn\r\n  (a))\r\n");
    }
    void deletingAGroupsLastFormKeepsItsParenthesesOutOfComments()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const QString deleted = applied(text, QStringLiteral("x"), FormSplice::Action::Delete);
        QCOMPARE(deleted, expected);
        QVERIFY(SyntaxTree::read(deleted).errors().isEmpty());
    }

    void aFormThatSharesItsLineGoesAloneWithItsBlanks()
    {
        const QString text = QString::fromLatin1(Sample);
        QVERIFY(applied(text, QStringLiteral("b"), FormSplice::Action::Delete).contains(QStringLiteral("\n(a) (c)\n")));
        QVERIFY(applied(text, QStringLiteral("a"), FormSplice::Action::Delete).contains(QStringLiteral("\n(b) (c)\n")));
    }

    void deletingAFormBetweenBlankLinesKeepsOne()
    {
        QCOMPARE(applied(QStringLiteral("(a)\n\n(x)\n\n(b)\n"), QStringLiteral("x"), FormSplice::Action::Delete), QStringLiteral("(a)\n\n(b)\n"));
        QCOMPARE(applied(QStringLiteral("(x)\n\n(b)\n"), QStringLiteral("x"), FormSplice::Action::Delete), QStringLiteral("(b)\n"));
        QCOMPARE(applied(QStringLiteral("(a)\n(x)\n(b)\n"), QStringLiteral("x"), FormSplice::Action::Delete), QStringLiteral("(a)\n(b)\n"));
    }

    void theNewTextTakesTheFilesLineEndingsAndItsLinesAreReported()
    {
        const QString text = QStringLiteral("(defun a ()\r\n  1)\r\n");
        const LispFile file(text);
        const FormSplice splice = FormSplice::apply(file, file.forms().first(), FormSplice::Action::InsertAfter, QStringLiteral("(defun b ()\n  2)\n"));
        QCOMPARE(splice.text, QStringLiteral("(defun a ()\r\n  1)\r\n\r\n(defun b ()\r\n  2)\r\n"));
        QCOMPARE(splice.firstLine, 4);
        QCOMPARE(splice.lastLine, 5);
    }
};

QTEST_APPLESS_MAIN(TestFormSplice)
#include "tst_formsplice.moc"
