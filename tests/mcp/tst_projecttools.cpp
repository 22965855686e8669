// The project file tools (issue 11) through McpServer, with a real ProjectFiles over real files
// in a QTemporaryDir and a real engine: confinement, strict text, line windows of a big file,
// byte-exact form edits, stale reads, queued edits, evaluate after edit, and references read
// as Lisp.

#include "project/ProjectFiles.h"
#include "tools/ToolSet.h"
#include "ToolHarness.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>

namespace {
// Strings with parens, a block comment holding a fake defun, #+sbcl, character literals,
// backquote, a trailing comment: everything a naive text tool gets wrong.
const char *const Awkward = R"lisp(;;;; awkward.lisp -- forms that fool naive tools
(in-package :cl-user)

(defparameter *parens* "a string with ) and ( parens; (defun area ())")

#| a block comment with (defun area () 1)
   and an unbalanced ( |#

;; area of a square
(defun area (r)
  (* r r))

#+sbcl
(defun only-on-sbcl () :sbcl)

(defun chars () (list #\( #\) #\; #\"))

(defmacro with-thing ((var) &body body)
  `(let ((,var 1)) ,@body))

(defun tail () "last")  ; trailing comment
)lisp";
const char *const OldArea = "(defun area (r)\n  (* r r))";
} // namespace

class TestProjectTools : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ToolHarness> m_h;
    ProjectFiles m_files;
    QTemporaryDir m_root;
    QTemporaryDir m_outside;
    QTemporaryDir m_systems; // a copy of tests/data/shapes, where ASDF finds it

    QString path(const QString &relative) const { return m_root.filePath(relative); }
    void write(const QString &relative, const QByteArray &bytes)
    {
        QDir().mkpath(QFileInfo(path(relative)).absolutePath());
        QFile file(path(relative));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QCOMPARE(file.write(bytes), bytes.size());
    }
    QByteArray contents(const QString &relative) const
    {
        QFile file(path(relative));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
    }
    QJsonObject call(const QString &tool, const QJsonObject &arguments) { return m_h->call(tool, arguments); }
    QJsonObject edit(const QString &file, const QString &form, const QString &action, const QString &text = {})
    {
        QJsonObject arguments{{QStringLiteral("path"), file}, {QStringLiteral("form"), form}, {QStringLiteral("action"), action}};
        if (!text.isNull())
            arguments.insert(QStringLiteral("text"), text);
        return call(QStringLiteral("edit-form"), arguments);
    }
    static QString text(const QJsonObject &result) { return ToolHarness::text(result); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QVERIFY(m_outside.isValid());
        QVERIFY(m_systems.isValid());
        const QString shapes = QStringLiteral(DUET_SOURCE_DIR "/tests/data/shapes");
        for (const QString &file : {QStringLiteral("shapes.asd"), QStringLiteral("src/package.lisp"), QStringLiteral("src/shapes.lisp"),
                                    QStringLiteral("tests/shapes-tests.lisp")}) {
            QDir().mkpath(QFileInfo(m_systems.filePath(QStringLiteral("shapes/") + file)).absolutePath());
            QVERIFY(QFile::copy(shapes + QLatin1Char('/') + file, m_systems.filePath(QStringLiteral("shapes/") + file)));
        }
        qputenv("LISP_DUET_SYSTEM_PATHS", m_systems.path().toUtf8());
        m_h = std::make_unique<ToolHarness>();
        addProjectTools(&m_h->m_tools, &m_h->m_session, &m_h->m_jobs, &m_files, m_h->setup());
        QVERIFY(m_h->waitUntilReady());
    }
    void cleanupTestCase() { m_h.reset(); }

    void theToolsAreListedWithSchemasAndTheFileChangersSaySo()
    {
        const QJsonArray tools = m_h->request(QStringLiteral("tools/list"), {}).value(QStringLiteral("result")).toObject()
                                     .value(QStringLiteral("tools")).toArray();
        QStringList names;
        for (const QJsonValue &value : tools) {
            const QJsonObject tool = value.toObject();
            const QString name = tool.value(QStringLiteral("name")).toString();
            names << name;
            QVERIFY2(tool.value(QStringLiteral("description")).toString().size() > 40, qPrintable(name));
            const QJsonObject properties = tool.value(QStringLiteral("inputSchema")).toObject().value(QStringLiteral("properties")).toObject();
            for (auto it = properties.begin(); it != properties.end(); ++it)
                QVERIFY2(!it.value().toObject().value(QStringLiteral("description")).toString().isEmpty(), qPrintable(name + QStringLiteral(".") + it.key()));
            const Tool *registered = m_h->m_tools.find(name);
            QVERIFY(registered);
            const bool changesFiles = name == QLatin1String("write-file") || name == QLatin1String("edit-form");
            QCOMPARE(registered->changesFiles(), changesFiles);
            if (changesFiles)
                QVERIFY2(properties.contains(QStringLiteral("description")), qPrintable(name));
        }
        for (const char *expected : {"project-info", "set-project-root", "list-files", "read-file", "write-file", "view-lisp-file",
                                     "edit-form", "find-definition", "find-references", "search-forms"}) {
            QVERIFY2(names.contains(QString::fromLatin1(expected)), expected);
            const bool readOnly = QByteArray(expected) != "set-project-root" && QByteArray(expected) != "write-file" && QByteArray(expected) != "edit-form";
            QCOMPARE(m_h->m_tools.find(QString::fromLatin1(expected))->isReadOnly(), readOnly);
        }
    }

    void badArgumentsAreNamed_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QByteArray>("arguments");
        QTest::addColumn<QString>("named");
        QTest::newRow("read-file without path") << "read-file" << QByteArray("{}") << "'path'";
        QTest::newRow("read-file offset 0") << "read-file" << QByteArray(R"j({"path":"a","offset":0})j") << "'offset'";
        QTest::newRow("edit-form unknown action") << "edit-form" << QByteArray(R"j({"path":"a","form":"defun f","action":"rename","text":"(f)"})j") << "'action'";
        QTest::newRow("edit-form without form") << "edit-form" << QByteArray(R"j({"path":"a","text":"(f)"})j") << "'form'";
        QTest::newRow("write-file without content") << "write-file" << QByteArray(R"j({"path":"a"})j") << "'content'";
        QTest::newRow("find-references blank symbol") << "find-references" << QByteArray(R"j({"symbol":"  "})j") << "'symbol'";
        QTest::newRow("list-files limit 0") << "list-files" << QByteArray(R"j({"limit":0})j") << "'limit'";
        QTest::newRow("set-project-root unknown argument") << "set-project-root" << QByteArray(R"j({"path":"/tmp","force":true})j") << "'force'";
    }
    void badArgumentsAreNamed()
    {
        QFETCH(QString, tool);
        QFETCH(QByteArray, arguments);
        QFETCH(QString, named);
        const QJsonObject result = call(tool, QJsonDocument::fromJson(arguments).object());
        QVERIFY(ToolHarness::isError(result));
        QVERIFY2(text(result).contains(named), qPrintable(text(result)));
    }

    void withoutARootEveryFileToolSaysHowToSetOne()
    {
        for (const char *tool : {"read-file", "list-files", "view-lisp-file", "find-references", "search-forms", "write-file"}) {
            QJsonObject arguments{{QStringLiteral("path"), QStringLiteral("a.lisp")}};
            if (QByteArray(tool) == "write-file")
                arguments.insert(QStringLiteral("content"), QStringLiteral("x"));
            if (QByteArray(tool) == "find-references")
                arguments = {{QStringLiteral("symbol"), QStringLiteral("x")}};
            if (QByteArray(tool) == "list-files" || QByteArray(tool) == "search-forms")
                arguments = {};
            const QJsonObject result = call(QString::fromLatin1(tool), arguments);
            QVERIFY2(ToolHarness::isError(result), tool);
            QVERIFY2(text(result).contains(QStringLiteral("set-project-root")), qPrintable(text(result)));
        }
        QVERIFY(text(call(QStringLiteral("project-info"), {})).startsWith(QStringLiteral("No project root is set")));
    }

    void setProjectRootRefusesWhatIsNoFolderAndSetsOne()
    {
        const QJsonObject missing = call(QStringLiteral("set-project-root"), {{QStringLiteral("path"), m_outside.filePath(QStringLiteral("nope"))}});
        QVERIFY(ToolHarness::isError(missing));
        QVERIFY2(text(missing).contains(QStringLiteral("cannot be the project root")), qPrintable(text(missing)));
        QVERIFY(!m_files.root().isSet());
        const QJsonObject relative = call(QStringLiteral("set-project-root"), {{QStringLiteral("path"), QStringLiteral("src")}});
        QVERIFY(text(relative).contains(QStringLiteral("absolute")));
        const QJsonObject set = call(QStringLiteral("set-project-root"), {{QStringLiteral("path"), m_root.path()}});
        QVERIFY2(!ToolHarness::isError(set), qPrintable(text(set)));
        QCOMPARE(m_files.root().path(), QFileInfo(m_root.path()).canonicalFilePath());
        QVERIFY(text(call(QStringLiteral("set-project-root"), {{QStringLiteral("path"), m_root.path()}})).contains(QStringLiteral("already")));
    }

    void projectInfoNamesTheSystemsOfEachAsdFile()
    {
        write(QStringLiteral("demo.asd"), "(asdf:defsystem #:demo :components ((:file \"demo\")))\n"
                                          "(defsystem \"demo/tests\" :depends-on (\"demo\"))\n");
        const QJsonObject info = call(QStringLiteral("project-info"), {});
        QVERIFY2(text(info).contains(QStringLiteral("demo.asd: defines \"demo\", \"demo/tests\"")), qPrintable(text(info)));
        QVERIFY(text(info).contains(QStringLiteral("(asdf:load-system \"demo\")")));
        const QJsonArray asd = ToolHarness::structured(info).value(QStringLiteral("asd_files")).toArray();
        QCOMPARE(asd.size(), 1);
        QCOMPARE(asd.first().toObject().value(QStringLiteral("systems")).toArray().size(), 2);
    }

    void hostilePathsAreRefused_data()
    {
        QTest::addColumn<QString>("given");
        QTest::newRow("climbs out") << QStringLiteral("../outside.lisp");
        QTest::newRow("absolute elsewhere") << m_outside.filePath(QStringLiteral("outside.lisp"));
        QTest::newRow("link out") << QStringLiteral("link-out.lisp");
        QTest::newRow("device") << QStringLiteral("/dev/zero");
        QTest::newRow("newline in name") << QStringLiteral("bad\nname.lisp");
        QTest::newRow("into .git") << QStringLiteral(".git/config");
    }
    void hostilePathsAreRefused()
    {
        QFETCH(QString, given);
        QFile outside(m_outside.filePath(QStringLiteral("outside.lisp")));
        QVERIFY(outside.open(QIODevice::WriteOnly | QIODevice::Truncate));
        outside.write("(secret)\n");
        outside.close();
        QFile::link(outside.fileName(), path(QStringLiteral("link-out.lisp")));
        QDir().mkpath(path(QStringLiteral(".git")));
        const QJsonObject write = call(QStringLiteral("write-file"), {{QStringLiteral("path"), given}, {QStringLiteral("content"), QStringLiteral("(pwned)\n")}});
        QVERIFY2(ToolHarness::isError(write), qPrintable(text(write)));
        QVERIFY(!text(write).isEmpty());
        QCOMPARE(QFileInfo(outside.fileName()).size(), 9);
        QVERIFY(!QFileInfo::exists(path(QStringLiteral(".git/config"))));
        if (given == QLatin1String(".git/config"))
            return; // reading the repository's files is allowed; writing is not
        const QJsonObject read = call(QStringLiteral("read-file"), {{QStringLiteral("path"), given}});
        QVERIFY2(ToolHarness::isError(read), qPrintable(text(read)));
        QVERIFY(!text(read).contains(QStringLiteral("(secret)")));
    }

    void binaryAndInvalidUtf8AreRefused()
    {
        write(QStringLiteral("blob.bin"), QByteArray("abc\0def", 7));
        write(QStringLiteral("latin1.lisp"), "(defun caf\xe9 () 1)\n");
        const QJsonObject binary = call(QStringLiteral("read-file"), {{QStringLiteral("path"), QStringLiteral("blob.bin")}});
        QVERIFY(ToolHarness::isError(binary));
        QVERIFY2(text(binary).contains(QStringLiteral("binary")), qPrintable(text(binary)));
        const QJsonObject latin1 = call(QStringLiteral("view-lisp-file"), {{QStringLiteral("path"), QStringLiteral("latin1.lisp")}});
        QVERIFY(ToolHarness::isError(latin1));
        QVERIFY2(text(latin1).contains(QStringLiteral("UTF-8")), qPrintable(text(latin1)));
        const QJsonObject overwrite = call(QStringLiteral("write-file"), {{QStringLiteral("path"), QStringLiteral("blob.bin")}, {QStringLiteral("content"), QStringLiteral("text")}});
        QVERIFY(ToolHarness::isError(overwrite));
        QCOMPARE(contents(QStringLiteral("blob.bin")), QByteArray("abc\0def", 7));
    }

    void aHundredMegabyteFileIsReadByLineWindow()
    {
        QByteArray head;
        for (int i = 1; i <= 5000; ++i)
            head += "line " + QByteArray::number(i) + " of the text part, padded to be longer than the binary probe\n";
        write(QStringLiteral("huge.log"), head);
        QFile file(path(QStringLiteral("huge.log")));
        QVERIFY(file.resize(100 * 1024 * 1024)); // sparse: the rest is one long line of NULs
        const QJsonObject read = call(QStringLiteral("read-file"), {{QStringLiteral("path"), QStringLiteral("huge.log")},
                                                                    {QStringLiteral("offset"), 4000}, {QStringLiteral("limit"), 3}});
        QVERIFY2(!ToolHarness::isError(read), qPrintable(text(read)));
        QVERIFY2(text(read).contains(QStringLiteral("4000│line 4000 of")), qPrintable(text(read)));
        QVERIFY(text(read).contains(QStringLiteral("4002│line 4002 of")));
        QVERIFY(!text(read).contains(QStringLiteral("4003│")));
        QCOMPARE(ToolHarness::structured(read).value(QStringLiteral("last_line")).toInt(), 4002);
        QVERIFY(text(read).contains(QStringLiteral("more lines: read-file with offset 4003")));
        QFile::remove(path(QStringLiteral("huge.log")));
    }

    void writeFileCreatesAndReplacesWithADiff()
    {
        const QJsonObject created = call(QStringLiteral("write-file"), {{QStringLiteral("path"), QStringLiteral("src/new.lisp")},
                                                                        {QStringLiteral("content"), QStringLiteral("(defun one () 1)\n")},
                                                                        {QStringLiteral("description"), QStringLiteral("a start")}});
        QVERIFY2(!ToolHarness::isError(created), qPrintable(text(created)));
        QCOMPARE(contents(QStringLiteral("src/new.lisp")), QByteArray("(defun one () 1)\n"));
        QVERIFY(ToolHarness::structured(created).value(QStringLiteral("created")).toBool());
        const QJsonObject replaced = call(QStringLiteral("write-file"), {{QStringLiteral("path"), QStringLiteral("src/new.lisp")},
                                                                         {QStringLiteral("content"), QStringLiteral("(defun one () 2)\n")}});
        QVERIFY2(text(replaced).contains(QStringLiteral("-(defun one () 1)\n+(defun one () 2)")), qPrintable(text(replaced)));
        QCOMPARE(m_files.history().last().description, QString());
        QCOMPARE(m_files.history().at(m_files.history().size() - 2).description, QStringLiteral("a start"));
    }

    void listFilesSkipsBuildOutputAndMatchesGlobs()
    {
        write(QStringLiteral("build/out.lisp"), "(x)\n");
        write(QStringLiteral("src/deep/er/a.lisp"), "(a)\n");
        write(QStringLiteral("src/a.fasl"), "fasl\n");
        const QJsonObject all = call(QStringLiteral("list-files"), {});
        QVERIFY(text(all).contains(QStringLiteral("src/deep/er/a.lisp")));
        QVERIFY(!text(all).contains(QStringLiteral("build/out.lisp")));
        QVERIFY(!text(all).contains(QStringLiteral("a.fasl")));
        QVERIFY(!text(all).contains(QStringLiteral(".git")));
        const QJsonObject lisp = call(QStringLiteral("list-files"), {{QStringLiteral("glob"), QStringLiteral("src/**/*.lisp")}});
        const QJsonArray files = ToolHarness::structured(lisp).value(QStringLiteral("files")).toArray();
        QStringList names;
        for (const QJsonValue &file : files)
            names << file.toObject().value(QStringLiteral("path")).toString();
        QCOMPARE(names, (QStringList{QStringLiteral("src/deep/er/a.lisp"), QStringLiteral("src/new.lisp")}));
        const QJsonObject limited = call(QStringLiteral("list-files"), {{QStringLiteral("glob"), QStringLiteral("*.lisp")}, {QStringLiteral("limit"), 1}});
        QVERIFY2(text(limited).contains(QStringLiteral("more (raise limit")), qPrintable(text(limited)));
    }

    void viewLispFileOutlinesAndShowsFormsInFull()
    {
        write(QStringLiteral("awkward.lisp"), Awkward);
        const QJsonObject view = call(QStringLiteral("view-lisp-file"), {{QStringLiteral("path"), QStringLiteral("awkward.lisp")},
                                                                         {QStringLiteral("forms"), QStringLiteral("defun area, defun nothing-here")}});
        const QString shown = text(view);
        QVERIFY2(shown.contains(QRegularExpression(QStringLiteral("\\n10-11 +defun area\\n"))), qPrintable(shown));
        QVERIFY(shown.contains(QStringLiteral("defparameter *parens*")));
        QVERIFY(shown.contains(QStringLiteral("  10│(defun area (r)\n  11│  (* r r))")));
        QVERIFY(shown.contains(QStringLiteral("No top-level form is \"defun nothing-here\"")));
        int areas = 0; // the block comment's and the string's are no forms
        for (const QJsonValue &form : ToolHarness::structured(view).value(QStringLiteral("forms")).toArray())
            areas += form.toObject().value(QStringLiteral("label")).toString() == QLatin1String("defun area") ? 1 : 0;
        QCOMPARE(areas, 1);
        const QJsonObject broken = call(QStringLiteral("write-file"), {{QStringLiteral("path"), QStringLiteral("broken.lisp")},
                                                                       {QStringLiteral("content"), QStringLiteral("(defun ok () 1)\n(defun broken (\n")}});
        QVERIFY(!ToolHarness::isError(broken));
        const QString outline = text(call(QStringLiteral("view-lisp-file"), {{QStringLiteral("path"), QStringLiteral("broken.lisp")}}));
        QVERIFY2(outline.contains(QStringLiteral("defun ok")), qPrintable(outline));
        QVERIFY(outline.contains(QStringLiteral("line 2")));
    }

    void editFormKeepsEverythingOutsideTheFormByteForByte_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QString>("form");
        QTest::addColumn<QString>("newText");
        QTest::addColumn<QString>("before"); // in Awkward
        QTest::addColumn<QString>("after");
        QTest::addColumn<bool>("crlf");
        const QString newArea = QStringLiteral("(defun area (r)\n  \"The area of a circle.\"\n  (* pi r r))");
        for (const bool crlf : {false, true}) {
            const QByteArray suffix = crlf ? " (CRLF)" : "";
            QTest::newRow("replace" + suffix) << QStringLiteral("replace") << QStringLiteral("defun area") << newArea
                                              << QString::fromLatin1(OldArea) << newArea << crlf;
            QTest::newRow("insert-before goes above the comment" + suffix)
                << QStringLiteral("insert-before") << QStringLiteral("defun area") << QStringLiteral("  (defvar *unit* 1)  \n")
                << QStringLiteral(";; area of a square") << QStringLiteral("(defvar *unit* 1)\n\n;; area of a square") << crlf;
            QTest::newRow("insert-after a form of character literals" + suffix)
                << QStringLiteral("insert-after") << QStringLiteral("defun chars") << QStringLiteral("(defun two () 2)")
                << QStringLiteral("(defun chars () (list #\\( #\\) #\\; #\\\"))")
                << QStringLiteral("(defun chars () (list #\\( #\\) #\\; #\\\"))\n\n(defun two () 2)") << crlf;
            QTest::newRow("insert-after keeps a trailing comment" + suffix)
                << QStringLiteral("insert-after") << QStringLiteral("defun tail") << QStringLiteral("(defun three () 3)")
                << QStringLiteral("(defun tail () \"last\")  ; trailing comment\n")
                << QStringLiteral("(defun tail () \"last\")  ; trailing comment\n\n(defun three () 3)\n") << crlf;
            QTest::newRow("replace a backquoted macro" + suffix)
                << QStringLiteral("replace") << QStringLiteral("defmacro with-thing")
                << QStringLiteral("(defmacro with-thing ((var) &body body)\n  `(let ((,var 2)) ,@body))")
                << QStringLiteral("`(let ((,var 1)) ,@body))") << QStringLiteral("`(let ((,var 2)) ,@body))") << crlf;
            QTest::newRow("delete takes its line and one blank line" + suffix)
                << QStringLiteral("delete") << QStringLiteral("defun chars") << QString()
                << QStringLiteral("(defun chars () (list #\\( #\\) #\\; #\\\"))\n\n") << QString() << crlf;
        }
    }
    void editFormKeepsEverythingOutsideTheFormByteForByte()
    {
        QFETCH(QString, action);
        QFETCH(QString, form);
        QFETCH(QString, newText);
        QFETCH(QString, before);
        QFETCH(QString, after);
        QFETCH(bool, crlf);
        auto endings = [crlf](QString text) { return crlf ? text.replace(QStringLiteral("\n"), QStringLiteral("\r\n")) : text; };
        const QString original = endings(QString::fromUtf8(Awkward));
        QCOMPARE(original.count(endings(before)), 1);
        QString expected = original;
        expected.replace(endings(before), endings(after));
        write(QStringLiteral("awkward.lisp"), original.toUtf8()); // as the person's editor would
        QVERIFY(!ToolHarness::isError(call(QStringLiteral("read-file"), {{QStringLiteral("path"), QStringLiteral("awkward.lisp")}})));
        const QJsonObject result = edit(QStringLiteral("awkward.lisp"), form, action, newText);
        QVERIFY2(!ToolHarness::isError(result), qPrintable(text(result)));
        QCOMPARE(QString::fromUtf8(contents(QStringLiteral("awkward.lisp"))), expected);
        QVERIFY(text(result).contains(QStringLiteral("--- a/awkward.lisp")));
        const QJsonObject structured = ToolHarness::structured(result);
        if (action != QLatin1String("delete")) {
            const QStringList lines = expected.split(QLatin1Char('\n'));
            const int first = structured.value(QStringLiteral("first_line")).toInt();
            const int last = structured.value(QStringLiteral("last_line")).toInt();
            QVERIFY2(first > 0 && last >= first, qPrintable(text(result)));
            const QString firstOfNew = newText.trimmed().split(QLatin1Char('\n')).first();
            QCOMPARE(QString(lines.at(first - 1)).remove(QLatin1Char('\r')), firstOfNew);
            QCOMPARE(last - first, int(newText.trimmed().count(QLatin1Char('\n'))));
        }
    }

    // Issue 33: the new text is read as the session's ECL reads it where #+/#- decide.
    void editFormReadsNewTextAsTheSessionsEclDoes()
    {
        write(QStringLiteral("reads.lisp"), "(defun f () 1)\n");
        const QJsonObject skipped = edit(QStringLiteral("reads.lisp"), QStringLiteral("defun f"), QStringLiteral("replace"), QStringLiteral("(defun f () #-ecl . 43)"));
        QVERIFY2(!ToolHarness::isError(skipped), qPrintable(text(skipped)));
        QCOMPARE(contents(QStringLiteral("reads.lisp")), QByteArray("(defun f () #-ecl . 43)\n"));
        const QByteArray before = contents(QStringLiteral("reads.lisp"));
        const QJsonObject dot = edit(QStringLiteral("reads.lisp"), QStringLiteral("defun f"), QStringLiteral("replace"), QStringLiteral("(defun f () #+ecl . 43)"));
        QVERIFY(ToolHarness::isError(dot));
        QVERIFY2(text(dot).contains(QStringLiteral("consing dot")), qPrintable(text(dot)));
        const QJsonObject character = edit(QStringLiteral("reads.lisp"), QStringLiteral("defun f"), QStringLiteral("replace"),
                                           QStringLiteral("(defun f () #+ecl #\\Foobar-Unknown)"));
        QVERIFY(ToolHarness::isError(character));
        QVERIFY2(text(character).contains(QStringLiteral("'#\\Foobar-Unknown' at line 1, column 19 names no character ECL knows")), qPrintable(text(character)));
        const QJsonObject unicode = edit(QStringLiteral("reads.lisp"), QStringLiteral("defun f"), QStringLiteral("replace"),
                                         QStringLiteral("(defun f () #+ecl #\\LATIN_SMALL_LETTER_A #-ecl #\\Foobar-Unknown)"));
        QVERIFY2(!ToolHarness::isError(unicode), qPrintable(text(unicode)));
        QVERIFY(contents(QStringLiteral("reads.lisp")) != before);
    }

    void editFormNamesTheLinesWhenTheFormIsMissingOrAmbiguous()
    {
        write(QStringLiteral("dup.lisp"), "(defun dup () 1)\n\n(defun dup () 2)\n\n(defmethod area ((c circle)) 1)\n");
        const QByteArray before = contents(QStringLiteral("dup.lisp"));
        const QJsonObject twice = edit(QStringLiteral("dup.lisp"), QStringLiteral("defun dup"), QStringLiteral("replace"), QStringLiteral("(defun dup () 3)"));
        QVERIFY(ToolHarness::isError(twice));
        QVERIFY2(text(twice).contains(QStringLiteral("\"defun dup\" is the label of 2 forms, numbered in the outline: defun dup [1] at line 1; "
                                                     "defun dup [2] at line 3. Name the one you mean as listed (\"defun dup [1]\"), or by its lines "
                                                     "(lines: \"1\").")),
                 qPrintable(text(twice)));
        // As listed, each is one form.
        const QJsonObject second = edit(QStringLiteral("dup.lisp"), QStringLiteral("defun dup [2]"), QStringLiteral("replace"), QStringLiteral("(defun dup () 2)"));
        QVERIFY2(!ToolHarness::isError(second) && text(second).contains(QStringLiteral("nothing was written")), qPrintable(text(second)));
        QVERIFY2(text(twice).contains(QStringLiteral("1")) && text(twice).contains(QStringLiteral("3")), qPrintable(text(twice)));
        const QJsonObject missing = edit(QStringLiteral("dup.lisp"), QStringLiteral("defmethod area (square)"), QStringLiteral("delete"));
        QVERIFY(ToolHarness::isError(missing));
        QVERIFY2(text(missing).contains(QStringLiteral("defmethod area (circle)")), qPrintable(text(missing)));
        QCOMPARE(contents(QStringLiteral("dup.lisp")), before);
    }

    void newTextThatDoesNotReadWritesNothing()
    {
        write(QStringLiteral("awkward.lisp"), Awkward);
        for (const QString &bad : {QStringLiteral("(defun area (r) (* r r)"), QStringLiteral("(defun area (r) \"open string)"),
                                   QStringLiteral("; only a comment"), QStringLiteral("(defun area (r) r))")}) {
            const QJsonObject result = edit(QStringLiteral("awkward.lisp"), QStringLiteral("defun area"), QStringLiteral("replace"), bad);
            QVERIFY2(ToolHarness::isError(result), qPrintable(bad));
            QVERIFY2(text(result).contains(QStringLiteral("Nothing was written")), qPrintable(text(result)));
            QCOMPARE(contents(QStringLiteral("awkward.lisp")), QByteArray(Awkward));
        }
        const QJsonObject noText = edit(QStringLiteral("awkward.lisp"), QStringLiteral("defun area"), QStringLiteral("insert-after"));
        QVERIFY(ToolHarness::isError(noText));
        QVERIFY(text(noText).contains(QStringLiteral("'text' is required")));
    }

    void aFileChangedSinceItWasReadIsNotEdited()
    {
        write(QStringLiteral("stale.lisp"), "(defun f () 1)\n");
        QVERIFY(!ToolHarness::isError(call(QStringLiteral("read-file"), {{QStringLiteral("path"), QStringLiteral("stale.lisp")}})));
        write(QStringLiteral("stale.lisp"), "(defun f () 1)\n(defun g () 2)\n"); // the person's editor saves
        const QJsonObject result = edit(QStringLiteral("stale.lisp"), QStringLiteral("defun f"), QStringLiteral("replace"), QStringLiteral("(defun f () 10)"));
        QVERIFY(ToolHarness::isError(result));
        QVERIFY2(text(result).contains(QStringLiteral("changed on disk since you last read it")), qPrintable(text(result)));
        QCOMPARE(contents(QStringLiteral("stale.lisp")), QByteArray("(defun f () 1)\n(defun g () 2)\n"));
        QVERIFY(!ToolHarness::isError(call(QStringLiteral("view-lisp-file"), {{QStringLiteral("path"), QStringLiteral("stale.lisp")}})));
        const QJsonObject again = edit(QStringLiteral("stale.lisp"), QStringLiteral("defun f"), QStringLiteral("replace"), QStringLiteral("(defun f () 10)"));
        QVERIFY2(!ToolHarness::isError(again), qPrintable(text(again)));
    }

    void aChangeThePersonRefusesIsNotWritten()
    {
        write(QStringLiteral("gated.lisp"), "(defun gated () 1)\n");
        QString shownDiff;
        m_files.setChangeGate([&shownDiff](const FileChange &proposed, std::function<void(const QString &)> decide) {
            shownDiff = proposed.diff.text;
            decide(QStringLiteral("The person declined this change."));
        });
        const QJsonObject result = edit(QStringLiteral("gated.lisp"), QStringLiteral("defun gated"), QStringLiteral("replace"), QStringLiteral("(defun gated () 2)"));
        m_files.setChangeGate({});
        QVERIFY(ToolHarness::isError(result));
        QCOMPARE(text(result), QStringLiteral("The person declined this change."));
        QVERIFY2(shownDiff.contains(QStringLiteral("+(defun gated () 2)")), qPrintable(shownDiff));
        QCOMPARE(contents(QStringLiteral("gated.lisp")), QByteArray("(defun gated () 1)\n"));
    }

    void readOnlyRootsAreReadButNeverWritten()
    {
        QFile source(m_outside.filePath(QStringLiteral("library.lisp")));
        QVERIFY(source.open(QIODevice::WriteOnly));
        source.write("(defun library-function () :lib)\n");
        source.close();
        m_files.root().setReadOnlyRoots({m_outside.path()});
        const QJsonObject read = call(QStringLiteral("read-file"), {{QStringLiteral("path"), source.fileName()}});
        const QJsonObject written = call(QStringLiteral("edit-form"), {{QStringLiteral("path"), source.fileName()},
                                                                       {QStringLiteral("form"), QStringLiteral("defun library-function")},
                                                                       {QStringLiteral("text"), QStringLiteral("(defun library-function () :mine)")}});
        m_files.root().setReadOnlyRoots({});
        QVERIFY2(!ToolHarness::isError(read), qPrintable(text(read)));
        QVERIFY(text(read).contains(QStringLiteral("1│(defun library-function () :lib)")));
        QVERIFY(ToolHarness::structured(read).value(QStringLiteral("read_only")).toBool());
        QVERIFY(ToolHarness::isError(written));
        QCOMPARE(QFileInfo(source.fileName()).size(), 33);
    }

    void twoEditsSentAtOnceAreBothAppliedInOrder()
    {
        write(QStringLiteral("queue.lisp"), "(defun a () 1)\n");
        auto send = [this](int id, const QString &after, const QString &newText) {
            m_h->send({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), id}, {QStringLiteral("method"), QStringLiteral("tools/call")},
                       {QStringLiteral("params"), QJsonObject{{QStringLiteral("name"), QStringLiteral("edit-form")},
                                                              {QStringLiteral("arguments"), QJsonObject{{QStringLiteral("path"), QStringLiteral("queue.lisp")},
                                                                                                        {QStringLiteral("form"), after},
                                                                                                        {QStringLiteral("action"), QStringLiteral("insert-after")},
                                                                                                        {QStringLiteral("text"), newText}}}}}});
        };
        send(9001, QStringLiteral("defun a"), QStringLiteral("(defun b () 2)"));
        send(9002, QStringLiteral("defun b"), QStringLiteral("(defun c () 3)")); // needs the first edit
        auto answered = [this](int id) {
            for (const QJsonObject &m : std::as_const(m_h->m_messages))
                if (m.value(QStringLiteral("id")) == QJsonValue(id))
                    return m.value(QStringLiteral("result")).toObject();
            return QJsonObject();
        };
        QVERIFY(QTest::qWaitFor([&] { return !answered(9001).isEmpty() && !answered(9002).isEmpty(); }, 10000));
        QVERIFY2(!ToolHarness::isError(answered(9001)), qPrintable(text(answered(9001))));
        QVERIFY2(!ToolHarness::isError(answered(9002)), qPrintable(text(answered(9002))));
        QCOMPARE(contents(QStringLiteral("queue.lisp")), QByteArray("(defun a () 1)\n\n(defun b () 2)\n\n(defun c () 3)\n"));
    }

    void evaluateMakesTheEditedFunctionCallable()
    {
        write(QStringLiteral("live.lisp"), "(in-package :cl-user)\n\n(defun live-area (r)\n  (* r r))\n");
        const QJsonObject result = call(QStringLiteral("edit-form"), {{QStringLiteral("path"), QStringLiteral("live.lisp")},
                                                                      {QStringLiteral("form"), QStringLiteral("defun live-area")},
                                                                      {QStringLiteral("text"), QStringLiteral("(defun live-area (r)\n  (* 4 r r))")},
                                                                      {QStringLiteral("evaluate"), true}});
        QVERIFY2(!ToolHarness::isError(result), qPrintable(text(result)));
        QVERIFY2(text(result).contains(QStringLiteral("Evaluated in COMMON-LISP-USER")), qPrintable(text(result)));
        QCOMPARE(ToolHarness::structured(result).value(QStringLiteral("evaluated")).toString(), QStringLiteral("LIVE-AREA"));
        const QJsonObject called = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(live-area 3)")}});
        QVERIFY2(text(called).contains(QStringLiteral("=> 36")), qPrintable(text(called)));
    }

    void findReferencesIgnoresStringsAndComments()
    {
        write(QStringLiteral("awkward.lisp"), Awkward);
        write(QStringLiteral("src/uses.lisp"), "(defun use-area () (area 2)) ; area again\n(defun no-use () \"area\")\n");
        const QJsonObject result = call(QStringLiteral("find-references"), {{QStringLiteral("symbol"), QStringLiteral("area")}});
        QVERIFY2(!ToolHarness::isError(result), qPrintable(text(result)));
        const QJsonArray references = ToolHarness::structured(result).value(QStringLiteral("references")).toArray();
        QStringList where;
        for (const QJsonValue &reference : references) {
            const QJsonObject r = reference.toObject();
            where << QStringLiteral("%1:%2:%3 %4").arg(r.value(QStringLiteral("file")).toString()).arg(r.value(QStringLiteral("line")).toInt())
                         .arg(r.value(QStringLiteral("column")).toInt()).arg(r.value(QStringLiteral("form")).toString());
        }
        QCOMPARE(where, (QStringList{QStringLiteral("awkward.lisp:10:8 defun area"), QStringLiteral("dup.lisp:5:12 defmethod area (circle)"),
                                  QStringLiteral("src/uses.lisp:1:21 defun use-area")}));
    }

    void findDefinitionAndSearchFormsReadTheProject()
    {
        write(QStringLiteral("awkward.lisp"), Awkward);
        const QJsonObject found = call(QStringLiteral("find-definition"), {{QStringLiteral("symbol"), QStringLiteral("area")}});
        QVERIFY2(!ToolHarness::isError(found), qPrintable(text(found)));
        const QJsonArray definitions = ToolHarness::structured(found).value(QStringLiteral("definitions")).toArray();
        QCOMPARE(definitions.size(), 2); // awkward.lisp's defun and dup.lisp's defmethod
        QVERIFY2(text(found).contains(QStringLiteral("awkward.lisp:10-11  defun area")), qPrintable(text(found)));
        QVERIFY(text(found).contains(QStringLiteral("In the session") ) || text(found).contains(QStringLiteral("The session defines nothing")));
        const QJsonObject search = call(QStringLiteral("search-forms"), {{QStringLiteral("kind"), QStringLiteral("defun")},
                                                                         {QStringLiteral("contains"), QStringLiteral("r")}});
        QVERIFY2(text(search).contains(QStringLiteral("awkward.lisp:10-11  defun area")), qPrintable(text(search)));
        QVERIFY(!text(search).contains(QStringLiteral("defun chars")));
        const QJsonObject byName = call(QStringLiteral("search-forms"), {{QStringLiteral("name"), QStringLiteral("with-*")}});
        QVERIFY2(text(byName).contains(QStringLiteral("awkward.lisp:18-19  defmacro with-thing")), qPrintable(text(byName)));
        QCOMPARE(ToolHarness::structured(byName).value(QStringLiteral("total")).toInt(), 1);
    }

    // Last: it moves the root to the shapes project.
    void theShapesProjectIsEditedAndEvaluatedInItsPackage()
    {
        const QString root = m_systems.filePath(QStringLiteral("shapes"));
        QVERIFY(!ToolHarness::isError(call(QStringLiteral("set-project-root"), {{QStringLiteral("path"), root}})));
        const QString info = text(call(QStringLiteral("project-info"), {}));
        QVERIFY2(info.contains(QStringLiteral("shapes.asd: defines \"shapes\", \"shapes/tests\"")), qPrintable(info));
        const QJsonObject loaded = call(QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("shapes")}});
        QVERIFY2(!ToolHarness::isError(loaded), qPrintable(text(loaded)));
        const QString outline = text(call(QStringLiteral("view-lisp-file"), {{QStringLiteral("path"), QStringLiteral("src/shapes.lisp")}}));
        QVERIFY2(outline.contains(QStringLiteral("[package SHAPES]")), qPrintable(outline));
        QVERIFY(outline.contains(QStringLiteral("defmethod area (circle)")));
        const QJsonObject edited = call(QStringLiteral("edit-form"), {{QStringLiteral("path"), QStringLiteral("src/shapes.lisp")},
                                                                      {QStringLiteral("form"), QStringLiteral("defmethod area (circle)")},
                                                                      {QStringLiteral("text"), QStringLiteral("(defmethod area ((shape circle))\n  (* 2 (radius shape)))")},
                                                                      {QStringLiteral("evaluate"), true},
                                                                      {QStringLiteral("description"), QStringLiteral("a wrong area, to see it live")}});
        QVERIFY2(!ToolHarness::isError(edited), qPrintable(text(edited)));
        QVERIFY2(text(edited).contains(QStringLiteral("Evaluated in SHAPES")), qPrintable(text(edited)));
        QVERIFY(text(edited).contains(QStringLiteral("+  (* 2 (radius shape)))")));
        QCOMPARE(m_files.history().last().description, QStringLiteral("a wrong area, to see it live"));
        const QJsonObject called = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(shapes:area (shapes:make-circle 5))")}});
        QVERIFY2(text(called).contains(QStringLiteral("=> 10")), qPrintable(text(called)));
        const QJsonObject found = call(QStringLiteral("find-definition"), {{QStringLiteral("symbol"), QStringLiteral("area")},
                                                                           {QStringLiteral("package"), QStringLiteral("shapes")}});
        QCOMPARE(ToolHarness::structured(found).value(QStringLiteral("definitions")).toArray().size(), 4); // defgeneric and 3 methods
        QVERIFY2(text(found).contains(QStringLiteral("src/shapes.lisp:29-30  defgeneric area  [SHAPES]")), qPrintable(text(found)));
        QVERIFY2(text(found).contains(QStringLiteral("In the session:")), qPrintable(text(found)));
    }
};

QTEST_GUILESS_MAIN(TestProjectTools)
#include "tst_projecttools.moc"
