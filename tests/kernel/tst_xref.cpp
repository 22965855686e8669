// Cross-references on ECL (issue 40): who calls, references, binds, sets or specializes on a
// name, read from the session's own definitions and the source files it loaded (a project
// loaded with ASDF, a file LOADed), each file read once and again when it changes; asked by
// the host ("xref", for the agents' find-references) and by the editor (Swank's xref, SLIME's
// C-c C-w c), which ECL's Swank backend leaves unimplemented.

#include "../common/EditorHost.h"
#include "../common/TestFiles.h"

#include <QJsonArray>
#include <QTest>

class TestXref : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EditorHost> m_host;
    QTemporaryDir m_root;

    QJsonObject xref(const QString &kind, const QString &name, const QString &package = QStringLiteral("CL-USER"))
    {
        QJsonObject answer;
        bool answered = false;
        m_host->lisp.session.query({QStringLiteral("xref"), {{QStringLiteral("kind"), kind}, {QStringLiteral("name"), name},
                                                              {QStringLiteral("package"), package}}},
                                   [&](const QJsonObject &reply) {
                                       answer = reply;
                                       answered = true;
                                   });
        (void)QTest::qWaitFor([&] { return answered; }, 30000);
        return answer;
    }
    // "(DEFUN DESCRIBE-SHAPE) shapes.lisp:53" for each reference, in order.
    static QStringList places(const QJsonObject &reply)
    {
        QStringList list;
        for (const QJsonValue &value : reply.value(QStringLiteral("references")).toArray()) {
            const QJsonObject entry = value.toObject();
            const QString where = entry.value(QStringLiteral("where")).toString() == QLatin1String("file")
                                      ? QStringLiteral("%1:%2").arg(QFileInfo(entry.value(QStringLiteral("file")).toString()).fileName())
                                            .arg(entry.value(QStringLiteral("line")).toInt())
                                      : entry.value(QStringLiteral("where")).toString();
            list << QStringLiteral("%1%2 %3").arg(entry.contains(QStringLiteral("name")) ? entry.value(QStringLiteral("name")).toString() + QLatin1Char(' ') : QString(),
                                                   entry.value(QStringLiteral("definition")).toString(), where);
        }
        list.sort();
        return list;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(TestFiles::copyTree(QStringLiteral(DUET_SOURCE_DIR "/tests/data/shapes"), m_root.filePath(QStringLiteral("shapes"))));
        m_host = std::make_unique<EditorHost>();
        QVERIFY2(m_host->lisp.waitReady(), "the engine did not start");
        m_host->lisp.session.setProjectRoot(m_root.path());
        JobRequest load = EngineProtocol::systemLoad(QStringLiteral("shapes"), false, false);
        const JobPtr loaded = m_host->lisp.run(load, 120000);
        QVERIFY2(loaded && loaded->result.ok(), loaded ? qPrintable(loaded->result.error.message) : "no reply");
    }
    void cleanupTestCase() { m_host.reset(); }

    void whoCallsAProjectFunction()
    {
        QCOMPARE(places(xref(QStringLiteral("calls"), QStringLiteral("shapes::area"))),
                 QStringList{QStringLiteral("(DEFUN DESCRIBE-SHAPE) shapes.lisp:53")});
        // A definition the session evaluated calls it too; it is listed as the session's.
        QVERIFY(m_host->lisp.result(QStringLiteral("(defun total-area (shapes) (reduce #'+ (mapcar #'shapes::area shapes)))")).ok());
        QCOMPARE(places(xref(QStringLiteral("calls"), QStringLiteral("shapes::area"))),
                 (QStringList{QStringLiteral("(DEFUN DESCRIBE-SHAPE) shapes.lisp:53"), QStringLiteral("(DEFUN TOTAL-AREA) session")}));
        // Redefined without the call, it is no longer a caller.
        QVERIFY(m_host->lisp.result(QStringLiteral("(defun total-area (shapes) (length shapes))")).ok());
        QCOMPARE(places(xref(QStringLiteral("calls"), QStringLiteral("shapes::area"))),
                 QStringList{QStringLiteral("(DEFUN DESCRIBE-SHAPE) shapes.lisp:53")});
    }

    void whatADefinitionCallsAndWhoSpecializes()
    {
        const QStringList callees = places(xref(QStringLiteral("calls-who"), QStringLiteral("shapes::describe-shape")));
        QVERIFY2(callees.contains(QStringLiteral("SHAPES:AREA (DEFGENERIC AREA) shapes.lisp:29"))
                     && callees.contains(QStringLiteral("SHAPES:PERIMETER (DEFGENERIC PERIMETER) shapes.lisp:42"))
                     && callees.contains(QStringLiteral("FORMAT  unknown")),
                 qPrintable(callees.join(QLatin1Char('\n'))));
        QCOMPARE(places(xref(QStringLiteral("specializes"), QStringLiteral("shapes::circle"))),
                 (QStringList{QStringLiteral("(DEFMETHOD AREA (CIRCLE)) shapes.lisp:32"),
                              QStringLiteral("(DEFMETHOD PERIMETER (CIRCLE)) shapes.lisp:44")}));
        QCOMPARE(places(xref(QStringLiteral("references"), QStringLiteral("shapes::*unit*"))),
                 QStringList{QStringLiteral("(DEFUN DESCRIBE-SHAPE) shapes.lisp:53")});
    }

    void variablesAreBoundSetAndReferenced()
    {
        QVERIFY(m_host->lisp.result(QStringLiteral("(defvar *count* 0)\n(defun bump () (incf *count*))\n"
                                                   "(defun quietly () (let ((*count* 5)) (bump)))\n"
                                                   "(defun reset-count () (setf *count* 0))")).ok());
        QCOMPARE(places(xref(QStringLiteral("sets"), QStringLiteral("*count*"))),
                 (QStringList{QStringLiteral("(DEFUN BUMP) session"), QStringLiteral("(DEFUN RESET-COUNT) session"),
                              QStringLiteral("(DEFVAR *COUNT*) session")}));
        QCOMPARE(places(xref(QStringLiteral("binds"), QStringLiteral("*count*"))), QStringList{QStringLiteral("(DEFUN QUIETLY) session")});
        QCOMPARE(places(xref(QStringLiteral("references"), QStringLiteral("*count*"))), QStringList{QStringLiteral("(DEFUN BUMP) session")});
        QCOMPARE(places(xref(QStringLiteral("macroexpands"), QStringLiteral("incf"))), QStringList{QStringLiteral("(DEFUN BUMP) session")});
        // Quoted data and strings are not code.
        QVERIFY(m_host->lisp.result(QStringLiteral("(defun names-only () (list '(bump) \"(bump)\"))")).ok());
        QCOMPARE(places(xref(QStringLiteral("calls"), QStringLiteral("bump"))), QStringList{QStringLiteral("(DEFUN QUIETLY) session")});
    }

    void aLoadedFileIsReadAgainWhenItChanges()
    {
        const QString file = m_root.filePath(QStringLiteral("helpers.lisp"));
        QVERIFY(TestFiles::write(file, "(defun helper-a () (shapes::make-square 2))\n"));
        QVERIFY(m_host->lisp.result(QStringLiteral("(load \"%1\")").arg(file)).ok());
        QCOMPARE(places(xref(QStringLiteral("calls"), QStringLiteral("shapes::make-square"))),
                 QStringList{QStringLiteral("(DEFUN HELPER-A) helpers.lisp:1")});
        QTest::qWait(1100); // file-write-date counts seconds
        QVERIFY(TestFiles::write(file, ";; moved down\n\n(defun helper-b () (shapes::make-square 3))\n"));
        QCOMPARE(places(xref(QStringLiteral("calls"), QStringLiteral("shapes::make-square"))),
                 QStringList{QStringLiteral("(DEFUN HELPER-B) helpers.lisp:3")});
    }

    void oddFilesAndBadQuestionsAreAnswered()
    {
        // #. is not evaluated again; an unknown package ends that file's reading, not the index.
        const QString odd = m_root.filePath(QStringLiteral("odd.lisp"));
        QVERIFY(TestFiles::write(odd, "(defun odd-one () (shapes::make-circle #.(+ 1 2)))\n"
                                      "(defun odd-two () (shapes::make-square 1))\n"));
        QVERIFY(m_host->lisp.result(QStringLiteral("(ignore-errors (load \"%1\"))").arg(odd)).ok());
        QVERIFY(TestFiles::write(odd, "(defun odd-one () (shapes::make-circle #.(error \"read-eval ran\")))\n"
                                      "(defun odd-two () (no-such-package::thing))\n"));
        QCOMPARE(places(xref(QStringLiteral("calls"), QStringLiteral("shapes::make-circle"))),
                 QStringList{QStringLiteral("(DEFUN ODD-ONE) odd.lisp:1")});
        const QJsonObject badKind = xref(QStringLiteral("callers-of"), QStringLiteral("car"));
        QCOMPARE(badKind.value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
        QVERIFY(badKind.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString().contains(QLatin1String("calls, calls-who")));
        QCOMPARE(xref(QStringLiteral("calls"), QStringLiteral("no-such-symbol-here")).value(QStringLiteral("found")).toBool(true), false);
    }

    void theEditorsXrefIsAnswered()
    {
        QVERIFY(m_host->writeSecret());
        const JobPtr listening = m_host->listen();
        if (listening && listening->result.error.type == QLatin1String("SWANK-UNAVAILABLE"))
            QSKIP("this engine was built without cl-swank");
        QVERIFY(listening && listening->result.ok());
        SwankClient editor;
        QVERIFY(m_host->connect(editor));
        const int id = editor.rex(QStringLiteral("(swank:xref :calls \"area\")"), QStringLiteral("t"), QStringLiteral("SHAPES"));
        const QString reply = editor.waitReturn(id);
        const QString file = QFileInfo(m_root.filePath(QStringLiteral("shapes/src/shapes.lisp"))).canonicalFilePath();
        QVERIFY2(reply.startsWith(QStringLiteral("(:return (:ok ((\"(DEFUN DESCRIBE-SHAPE)\" (:location (:file \"%1\") (:position ").arg(file)),
                 qPrintable(reply));
        const int who = editor.rex(QStringLiteral("(swank:xrefs '(:calls :specializes) \"circle\")"), QStringLiteral("t"), QStringLiteral("SHAPES"));
        QVERIFY2(editor.waitReturn(who).contains(QLatin1String("(:specializes (\"(DEFMETHOD AREA (CIRCLE))\"")), qPrintable(editor.waitReturn(who)));
    }
};

QTEST_MAIN(TestXref)
#include "tst_xref.moc"
