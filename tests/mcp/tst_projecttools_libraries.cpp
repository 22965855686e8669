// The project tools as a client calls them, on the shapes of real libraries' code that issue 18
// found them failing on (the forms are cut from Debian's cl-* sources named beside them): an
// edit never corrupts a form with a trailing comment, every form is addressed by its label and
// by its lines, definitions inside top-level groups exist, and pkg:name is the symbol wherever
// Lisp reads it.

#include "project/ProjectFiles.h"
#include "tools/ToolSet.h"
#include "ToolHarness.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>

namespace {
// usocket/usocket.lisp:479, cl+ssl/src/ffi.lisp:256, alexandria.asd, cl-ppcre.asd...
const char *const Library = R"lisp((in-package :cl-user)

(defpackage :netlib
  (:use :cl :split-sequence)
  (:export #:host-byte-order :split-words "WIRE-FORMAT"))

(in-package :netlib)

(defgeneric host-byte-order (address)) ; exported
(defgeneric wire-format (object))  ; exported too

(define-crypto-function-ex (:vanished "1.1.0") ("SSLeay" ssl-eay)
  :long)

(define-crypto-function-ex (:since "1.1.0") ("OpenSSL_version_num" openssl-version-num)
  :long)

#+(and sbcl (not win32))
(defun native-order () :sbcl)

(eval-when (:compile-toplevel :load-toplevel :execute)
  (defun split-words (text)
    (split-sequence #\Space text))
  (defmacro with-order ((var) &body body)
    `(let ((,var (host-byte-order nil))) ,@body)))

(declaim (inline split-words))
(declaim (inline split-words))

(defmethod print-object ((order (eql :big)) stream)
  (write-string "big-endian" stream))
)lisp";

const char *const Splitter = R"lisp((defpackage :split-sequence (:use :cl) (:export #:split-sequence))
(in-package :split-sequence)
(defun split-sequence (delimiter sequence) (list delimiter sequence))
)lisp";

const char *const System = R"lisp((defsystem "netlib" :depends-on ("split-sequence") :components ((:file "netlib")))
(defsystem :netlib/tests :depends-on (:netlib))
)lisp";
} // namespace

class TestProjectToolsOnLibraries : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ToolHarness> m_h;
    ProjectFiles m_files;
    QTemporaryDir m_root;

    void write(const QString &relative, const QByteArray &bytes)
    {
        QDir().mkpath(QFileInfo(m_root.filePath(relative)).absolutePath());
        QFile file(m_root.filePath(relative));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QCOMPARE(file.write(bytes), bytes.size());
    }
    QByteArray contents(const QString &relative) const
    {
        QFile file(m_root.filePath(relative));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
    }
    QJsonObject call(const QString &tool, const QJsonObject &arguments) { return m_h->call(tool, arguments); }
    static QString text(const QJsonObject &result) { return ToolHarness::text(result); }
    QJsonObject edit(const QJsonObject &arguments)
    {
        QJsonObject all = arguments;
        all.insert(QStringLiteral("path"), QStringLiteral("netlib.lisp"));
        return call(QStringLiteral("edit-form"), all);
    }
    // view-lisp-file's outline rows: label and lines.
    QList<QJsonObject> outline()
    {
        const QJsonObject view = call(QStringLiteral("view-lisp-file"), {{QStringLiteral("path"), QStringLiteral("netlib.lisp")}});
        QList<QJsonObject> rows;
        for (const QJsonValue &row : ToolHarness::structured(view).value(QStringLiteral("forms")).toArray())
            rows << row.toObject();
        return rows;
    }
    static QString linesOf(const QJsonObject &row)
    {
        const int first = row.value(QStringLiteral("first_line")).toInt();
        const int last = row.value(QStringLiteral("last_line")).toInt();
        return first == last ? QString::number(first) : QStringLiteral("%1-%2").arg(first).arg(last);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        m_h = std::make_unique<ToolHarness>();
        addProjectTools(&m_h->m_tools, &m_h->m_session, &m_h->m_jobs, &m_files, m_h->setup());
        QVERIFY(m_h->waitUntilReady());
        QVERIFY(m_files.setRoot(m_root.path(), Origin::person()));
    }
    void init()
    {
        write(QStringLiteral("netlib.lisp"), Library);
        write(QStringLiteral("split-sequence.lisp"), Splitter);
        write(QStringLiteral("netlib.asd"), System);
        // As a client would after the person's editor saved: it reads the file again.
        QVERIFY(!ToolHarness::isError(call(QStringLiteral("view-lisp-file"), {{QStringLiteral("path"), QStringLiteral("netlib.lisp")}})));
    }
    void cleanupTestCase() { m_h.reset(); }

    // usocket/usocket.lisp:479: the shown text (comment included) put back changes nothing,
    // however often; before, each round doubled "; exported".
    void aFormWithATrailingCommentPutBackAsShownChangesNothing()
    {
        const QJsonObject view = call(QStringLiteral("view-lisp-file"), {{QStringLiteral("path"), QStringLiteral("netlib.lisp")},
                                                                         {QStringLiteral("forms"), QStringLiteral("defgeneric host-byte-order")}});
        QVERIFY2(text(view).contains(QStringLiteral("   9│(defgeneric host-byte-order (address)) ; exported")), qPrintable(text(view)));
        const QString shown = ToolHarness::structured(view).value(QStringLiteral("shown")).toArray().first().toObject()
                                  .value(QStringLiteral("text")).toString();
        QCOMPARE(shown, QStringLiteral("(defgeneric host-byte-order (address)) ; exported"));
        for (int round = 0; round < 3; ++round) {
            const QJsonObject result = edit({{QStringLiteral("form"), QStringLiteral("defgeneric host-byte-order")}, {QStringLiteral("text"), shown}});
            QVERIFY2(text(result).contains(QStringLiteral("already has this text; nothing was written")), qPrintable(text(result)));
        }
        // The line as read-file shows it, by its lines.
        const QJsonObject read = call(QStringLiteral("read-file"), {{QStringLiteral("path"), QStringLiteral("netlib.lisp")},
                                                                    {QStringLiteral("offset"), 10}, {QStringLiteral("limit"), 1}});
        QVERIFY2(text(read).contains(QStringLiteral("(defgeneric wire-format (object))  ; exported too")), qPrintable(text(read)));
        const QJsonObject byLines = edit({{QStringLiteral("lines"), QStringLiteral("10")},
                                          {QStringLiteral("text"), QStringLiteral("(defgeneric wire-format (object))  ; exported too")}});
        QVERIFY2(text(byLines).contains(QStringLiteral("nothing was written")), qPrintable(text(byLines)));
        QCOMPARE(contents(QStringLiteral("netlib.lisp")), QByteArray(Library));
        // A change replaces the comment with the form: the diff touches that one line.
        const QJsonObject changed = edit({{QStringLiteral("form"), QStringLiteral("defgeneric host-byte-order")},
                                          {QStringLiteral("text"), QStringLiteral("(defgeneric host-byte-order (address)) ; still exported")}});
        QVERIFY2(text(changed).contains(QStringLiteral("-(defgeneric host-byte-order (address)) ; exported\n"
                                                       "+(defgeneric host-byte-order (address)) ; still exported")),
                 qPrintable(text(changed)));
        QCOMPARE(ToolHarness::structured(changed).value(QStringLiteral("first_line")).toInt(), 9);
    }

    // Every row of the outline is addressable exactly as listed, and by its lines: labels that
    // several forms would share are numbered (issue 33), so every listed label is one form.
    void everyFormOfTheOutlineIsAddressedByItsLabelAndByItsLines()
    {
        const QList<QJsonObject> rows = outline();
        QStringList labels;
        for (const QJsonObject &row : rows)
            labels << row.value(QStringLiteral("label")).toString();
        for (const char *expected : {"defpackage :netlib", "define-crypto-function-ex ssl-eay", "define-crypto-function-ex openssl-version-num",
                                     "#+(and sbcl (not win32)) defun native-order", "eval-when (:compile-toplevel :load-toplevel :execute)",
                                     "defun split-words", "defmacro with-order", "declaim (inline split-words) [1]", "declaim (inline split-words) [2]",
                                     "defmethod print-object ((eql :big))"})
            QVERIFY2(labels.contains(QString::fromLatin1(expected)), qPrintable(labels.join(QLatin1Char('\n'))));
        auto fresh = [this] {
            write(QStringLiteral("netlib.lisp"), Library);
            QVERIFY(!ToolHarness::isError(call(QStringLiteral("view-lisp-file"), {{QStringLiteral("path"), QStringLiteral("netlib.lisp")}})));
        };
        for (const QJsonObject &row : rows) {
            const QString label = row.value(QStringLiteral("label")).toString();
            fresh();
            const QJsonObject byLabel = edit({{QStringLiteral("form"), label}, {QStringLiteral("text"), QStringLiteral("(placeholder)")}});
            QCOMPARE(labels.count(label), 1);
            QVERIFY2(!ToolHarness::isError(byLabel), qPrintable(label + QStringLiteral(": ") + text(byLabel)));
            fresh();
            const QString lines = linesOf(row);
            const QJsonObject byLines = edit({{QStringLiteral("lines"), lines}, {QStringLiteral("text"), QStringLiteral("(placeholder)")}});
            QVERIFY2(!ToolHarness::isError(byLines), qPrintable(lines + QStringLiteral(": ") + text(byLines)));
            QVERIFY2(text(byLines).contains(QStringLiteral("(placeholder)")), qPrintable(text(byLines)));
        }
        fresh();
    }

    void linesAreRefusedForAFileChangedSinceItWasRead()
    {
        QVERIFY(!ToolHarness::isError(call(QStringLiteral("view-lisp-file"), {{QStringLiteral("path"), QStringLiteral("netlib.lisp")}})));
        const QJsonObject first = edit({{QStringLiteral("lines"), QStringLiteral("9")}, {QStringLiteral("action"), QStringLiteral("insert-after")},
                                        {QStringLiteral("text"), QStringLiteral("(defun new-one () 1)")}});
        QVERIFY2(!ToolHarness::isError(first), qPrintable(text(first)));
        // Its own edit moved the lines below: a second range from the old view is refused.
        const QByteArray afterFirst = contents(QStringLiteral("netlib.lisp"));
        const QJsonObject second = edit({{QStringLiteral("lines"), QStringLiteral("10")}, {QStringLiteral("action"), QStringLiteral("delete")}});
        QVERIFY(ToolHarness::isError(second));
        QVERIFY2(text(second).contains(QStringLiteral("View it with view-lisp-file, then give the lines it shows")), qPrintable(text(second)));
        QCOMPARE(contents(QStringLiteral("netlib.lisp")), afterFirst);
        const QJsonObject bothGiven = edit({{QStringLiteral("lines"), QStringLiteral("10")}, {QStringLiteral("form"), QStringLiteral("defun new-one")},
                                            {QStringLiteral("action"), QStringLiteral("delete")}});
        QVERIFY2(text(bothGiven).contains(QStringLiteral("not both")), qPrintable(text(bothGiven)));
    }

    void anInsertThenADeleteLeaveTheFileAsItWas()
    {
        QVERIFY(!ToolHarness::isError(edit({{QStringLiteral("form"), QStringLiteral("defgeneric wire-format")}, {QStringLiteral("action"), QStringLiteral("insert-after")},
                                            {QStringLiteral("text"), QStringLiteral("(defun between () 0)")}})));
        QVERIFY(!ToolHarness::isError(edit({{QStringLiteral("form"), QStringLiteral("defun between")}, {QStringLiteral("action"), QStringLiteral("delete")}})));
        QVERIFY(!ToolHarness::isError(edit({{QStringLiteral("form"), QStringLiteral("defun split-words")}, {QStringLiteral("action"), QStringLiteral("insert-before")},
                                            {QStringLiteral("text"), QStringLiteral("(defun inside () 0)")}})));
        QVERIFY2(contents(QStringLiteral("netlib.lisp")).contains("(:compile-toplevel :load-toplevel :execute)\n  (defun inside () 0)\n  (defun split-words"),
                 contents(QStringLiteral("netlib.lisp")).constData());
        QVERIFY(!ToolHarness::isError(edit({{QStringLiteral("form"), QStringLiteral("defun inside")}, {QStringLiteral("action"), QStringLiteral("delete")}})));
        QCOMPARE(contents(QStringLiteral("netlib.lisp")), QByteArray(Library));
    }

    void definitionsInsideEvalWhenAreFoundSearchedAndEdited()
    {
        const QJsonObject found = call(QStringLiteral("find-definition"), {{QStringLiteral("symbol"), QStringLiteral("netlib::split-words")}});
        QVERIFY2(text(found).contains(QStringLiteral("netlib.lisp:22-23  defun split-words  [NETLIB]")), qPrintable(text(found)));
        const QJsonObject searched = call(QStringLiteral("search-forms"), {{QStringLiteral("kind"), QStringLiteral("defmacro")}});
        QVERIFY2(text(searched).contains(QStringLiteral("netlib.lisp:24-25  defmacro with-order")), qPrintable(text(searched)));
        const QJsonObject edited = edit({{QStringLiteral("form"), QStringLiteral("defun split-words")},
                                         {QStringLiteral("text"), QStringLiteral("(defun split-words (text)\n    (split-sequence #\\Tab text))")}});
        QVERIFY2(!ToolHarness::isError(edited), qPrintable(text(edited)));
        QVERIFY(contents(QStringLiteral("netlib.lisp")).contains("  (defun split-words (text)\n    (split-sequence #\\Tab text))\n  (defmacro"));
    }

    void aPackageQualifiedNameIsTheSymbolWhereverItIsRead()
    {
        const QJsonObject uses = call(QStringLiteral("find-references"), {{QStringLiteral("symbol"), QStringLiteral("split-sequence:split-sequence")}});
        QStringList where;
        for (const QJsonValue &value : ToolHarness::structured(uses).value(QStringLiteral("references")).toArray())
            where << QStringLiteral("%1:%2").arg(value.toObject().value(QStringLiteral("file")).toString()).arg(value.toObject().value(QStringLiteral("line")).toInt());
        QCOMPARE(where, QStringList({"netlib.lisp:23", "split-sequence.lisp:1", "split-sequence.lisp:3"}));
        const QJsonObject methods = call(QStringLiteral("find-definition"), {{QStringLiteral("symbol"), QStringLiteral("cl:print-object")}});
        QVERIFY2(text(methods).contains(QStringLiteral("netlib.lisp:30-31  defmethod print-object ((eql :big))  [NETLIB]")), qPrintable(text(methods)));
        // The names a defpackage exports are uses, whatever designator names them.
        const QJsonObject exported = call(QStringLiteral("find-references"), {{QStringLiteral("symbol"), QStringLiteral("netlib:split-words")}});
        QVERIFY2(text(exported).contains(QStringLiteral("netlib.lisp:5:30  in defpackage :netlib")), qPrintable(text(exported)));
        const QJsonObject wire = call(QStringLiteral("find-references"), {{QStringLiteral("symbol"), QStringLiteral("netlib:wire-format")}});
        QCOMPARE(ToolHarness::structured(wire).value(QStringLiteral("total")).toInt(), 2);
        // search-forms kind class takes defstruct and define-condition too.
        write(QStringLiteral("types.lisp"), "(defclass a () ())\n(defstruct b)\n(define-condition c (error) ())\n(deftype d () t)\n");
        const QJsonObject classes = call(QStringLiteral("search-forms"), {{QStringLiteral("kind"), QStringLiteral("class")}});
        QCOMPARE(ToolHarness::structured(classes).value(QStringLiteral("total")).toInt(), 3);
        QFile::remove(m_root.filePath(QStringLiteral("types.lisp")));
    }

    // find-references with a relation answers from the session (issue 40): the definitions
    // it evaluated and the source files it loaded, whether the project's files say so or not.
    void whoCallsAnswersFromTheSessionsDefinitionsAndLoadedSources()
    {
        write(QStringLiteral("callers.lisp"), "(defun helper-one (x) (list x))\n\n(defun uses-helper (y)\n  (helper-one y))\n");
        const QJsonObject loaded = call(QStringLiteral("evaluate-lisp"),
                                        {{QStringLiteral("code"), QStringLiteral("(load \"%1\")").arg(m_root.filePath(QStringLiteral("callers.lisp")))}});
        QVERIFY2(!ToolHarness::isError(loaded), qPrintable(text(loaded)));
        QVERIFY(!ToolHarness::isError(call(QStringLiteral("evaluate-lisp"),
                                           {{QStringLiteral("code"), QStringLiteral("(defun at-the-repl () (helper-one 2))")}})));
        const QJsonObject callers = call(QStringLiteral("find-references"), {{QStringLiteral("symbol"), QStringLiteral("helper-one")},
                                                                              {QStringLiteral("relation"), QStringLiteral("calls")}});
        QVERIFY2(text(callers).startsWith(QLatin1String("2 definitions calling HELPER-ONE (the session's definitions and the "))
                     && text(callers).contains(QLatin1String("(DEFUN USES-HELPER)  callers.lisp:3"))
                     && text(callers).contains(QLatin1String("(DEFUN AT-THE-REPL)  defined in the session")),
                 qPrintable(text(callers)));
        const QJsonArray related = ToolHarness::structured(callers).value(QStringLiteral("related")).toArray();
        QCOMPARE(related.size(), 2);
        QCOMPARE(ToolHarness::structured(callers).value(QStringLiteral("total")).toInt(), 2);
        const QJsonObject called = call(QStringLiteral("find-references"), {{QStringLiteral("symbol"), QStringLiteral("uses-helper")},
                                                                             {QStringLiteral("relation"), QStringLiteral("calls-who")}});
        QVERIFY2(text(called).contains(QLatin1String("HELPER-ONE (DEFUN HELPER-ONE)  callers.lisp:1")), qPrintable(text(called)));
        const QJsonObject unknown = call(QStringLiteral("find-references"), {{QStringLiteral("symbol"), QStringLiteral("nowhere-to-be-found")},
                                                                              {QStringLiteral("relation"), QStringLiteral("calls")}});
        QVERIFY(ToolHarness::isError(unknown));
        QVERIFY2(text(unknown).contains(QLatin1String("Give the symbol with its package")), qPrintable(text(unknown)));
        QFile::remove(m_root.filePath(QStringLiteral("callers.lisp")));
    }

    // A package the files use but do not declare is what the session says it is; the session's
    // features pick the defpackage's #+/#- options (ECL's GRAY here, never SB-GRAY).
    void packagesTheProjectDoesNotDeclareAreTheSessions()
    {
        write(QStringLiteral("streamy.lisp"), "(defpackage :streamy (:use :cl #+ecl :gray #+sbcl :sb-gray))\n(in-package :streamy)\n"
                                              "(defmethod stream-read-char ((s my-stream)) (my-local-thing))\n");
        const QJsonObject method = call(QStringLiteral("find-references"), {{QStringLiteral("symbol"), QStringLiteral("gray:stream-read-char")}});
        QCOMPARE(ToolHarness::structured(method).value(QStringLiteral("total")).toInt(), 1);
        // GRAY does not export MY-LOCAL-THING: it is STREAMY's own (text alone could not tell).
        const QJsonObject local = call(QStringLiteral("find-references"), {{QStringLiteral("symbol"), QStringLiteral("gray:my-local-thing")}});
        QCOMPARE(ToolHarness::structured(local).value(QStringLiteral("total")).toInt(), 0);
        const QJsonObject own = call(QStringLiteral("find-references"), {{QStringLiteral("symbol"), QStringLiteral("streamy::my-local-thing")}});
        QCOMPARE(ToolHarness::structured(own).value(QStringLiteral("total")).toInt(), 1);
        const QJsonObject searched = call(QStringLiteral("search-forms"), {{QStringLiteral("contains"), QStringLiteral("gray:stream-read-char")}});
        QVERIFY2(text(searched).contains(QStringLiteral("streamy.lisp:3-3  defmethod stream-read-char (my-stream)")), qPrintable(text(searched)));
        QFile::remove(m_root.filePath(QStringLiteral("streamy.lisp")));
    }

    // Clients often begin with a question right after initialize: it waits for the engine.
    void introspectionAsTheFirstCallWaitsForTheEngine()
    {
        const QList<QPair<QString, QJsonObject>> calls{
            {QStringLiteral("describe-symbol"), {{QStringLiteral("symbol"), QStringLiteral("mapcar")}}},
            {QStringLiteral("apropos"), {{QStringLiteral("text"), QStringLiteral("mapc")}}},
            {QStringLiteral("complete-symbol"), {{QStringLiteral("prefix"), QStringLiteral("mapc")}}},
            {QStringLiteral("documentation"), {{QStringLiteral("symbol"), QStringLiteral("mapcar")}}},
            {QStringLiteral("list-definitions"), {}}};
        for (const auto &[tool, arguments] : calls) {
            ToolHarness fresh; // its engine is starting
            QVERIFY(!fresh.m_engine.isReady());
            const QJsonObject result = fresh.call(tool, arguments);
            QVERIFY2(!ToolHarness::text(result).contains(QStringLiteral("not running")), qPrintable(tool + QStringLiteral(": ") + ToolHarness::text(result)));
            QVERIFY2(!ToolHarness::isError(result), qPrintable(tool + QStringLiteral(": ") + ToolHarness::text(result)));
        }
    }

    void projectInfoReadsTheSystemsOfTheAsdFile()
    {
        const QString info = text(call(QStringLiteral("project-info"), {}));
        QVERIFY2(info.contains(QStringLiteral("netlib.asd: defines \"netlib\", \"netlib/tests\"")), qPrintable(info));
    }
};

QTEST_GUILESS_MAIN(TestProjectToolsOnLibraries)
#include "tst_projecttools_libraries.moc"
