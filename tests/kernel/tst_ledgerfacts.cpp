// What the kernel tells the host's ledger of definitions (issue 21), against the real engine:
// each job's reply names what its top-level defining forms defined (resolved as the reader
// interned them, methods with qualifiers and specializers, where the replaced definition was
// loaded from) and the source files it loaded; a system loaded from the project root is the
// session's own (its packages are listed by "definitions"); resolve-names answers for names
// read in a file.

#include "../common/EngineHarness.h"
#include "../common/TestFiles.h"

#include "client/EngineProtocol.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

namespace {
using Defined = EngineProtocol::LedgerFacts::Defined;
} // namespace

class TestLedgerFacts : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_root;
    std::unique_ptr<EngineHarness> m_lisp;

    QJsonObject ask(const EngineProtocol::Query &query, int ms = 30000) { return m_lisp->ask(query, ms); }

    EngineProtocol::LedgerFacts facts(const QString &code, const QString &package = {})
    {
        const JobPtr job = m_lisp->eval(code, package);
        return EngineProtocol::LedgerFacts(job ? job->result.reply : QJsonObject());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QVERIFY(TestFiles::copyTree(QStringLiteral(DUET_SOURCE_DIR "/tests/data/shapes"), m_root.filePath(QStringLiteral("shapes"))));
        m_lisp = std::make_unique<EngineHarness>();
        QVERIFY2(m_lisp->waitReady(), "the engine did not start");
        m_lisp->session.setProjectRoot(m_root.path());
    }
    void cleanupTestCase() { m_lisp.reset(); }

    void eachDefiningFormOfAnEvaluationIsNamedWithWhereItWasRead()
    {
        const QString code = QStringLiteral("; a comment first\n(defun ledger-one (x) x)\n(+ 1 2)\n  (defvar *ledger-two* 2)\n"
                                            "(defun (setf ledger-one) (v x) (list v x))");
        const EngineProtocol::LedgerFacts reply = facts(code);
        const QList<Defined> defined = reply.defined();
        QCOMPARE(defined.size(), 3);
        QCOMPARE(defined[0].operatorName(), QStringLiteral("defun"));
        QCOMPARE(defined[0].kind(), QStringLiteral("function"));
        QCOMPARE(defined[0].package(), QStringLiteral("COMMON-LISP-USER"));
        QCOMPARE(defined[0].name(), QStringLiteral("LEDGER-ONE"));
        QCOMPARE(defined[0].readPackage(), QStringLiteral("COMMON-LISP-USER"));
        // The range covers the form (and the blanks and comment the reader skipped before it).
        QVERIFY(code.mid(defined[0].start(), defined[0].end() - defined[0].start()).trimmed().endsWith(QStringLiteral("(defun ledger-one (x) x)")));
        QCOMPARE(defined[1].kind(), QStringLiteral("variable"));
        QCOMPARE(defined[1].name(), QStringLiteral("*LEDGER-TWO*"));
        QCOMPARE(code.mid(defined[1].start(), defined[1].end() - defined[1].start()).trimmed(), QStringLiteral("(defvar *ledger-two* 2)"));
        QCOMPARE(defined[2].name(), QStringLiteral("(SETF LEDGER-ONE)"));
        QVERIFY(reply.loadedFiles().isEmpty());
        // Code that defines nothing adds nothing to the reply.
        const JobPtr plain = m_lisp->eval(QStringLiteral("(+ 1 2)"));
        QVERIFY(!plain->result.reply.contains(QStringLiteral("defined")));
        QVERIFY(!plain->result.reply.contains(QStringLiteral("loaded_files")));
    }

    void methodsCarryQualifiersAndSpecializers()
    {
        const EngineProtocol::LedgerFacts reply = facts(QStringLiteral(
            "(defgeneric ledger-area (shape &optional unit))\n"
            "(defmethod ledger-area ((s integer) &optional unit) (list s unit))\n"
            "(defmethod ledger-area :around ((s string) &optional unit) (call-next-method))\n"
            "(defmethod ledger-area ((s (eql :red)) &optional u) u)\n"
            "(defmethod ledger-area (s &optional u) u)"));
        const QList<Defined> defined = reply.defined();
        QCOMPARE(defined.size(), 5);
        QCOMPARE(defined[0].kind(), QStringLiteral("generic-function"));
        QCOMPARE(defined[1].kind(), QStringLiteral("method"));
        QCOMPARE(defined[1].specializers(), QStringList{QStringLiteral("INTEGER")});
        QVERIFY(defined[1].qualifiers().isEmpty());
        QCOMPARE(defined[2].qualifiers(), QStringList{QStringLiteral(":AROUND")});
        QCOMPARE(defined[2].specializers(), QStringList{QStringLiteral("STRING")});
        QCOMPARE(defined[3].specializers(), QStringList{QStringLiteral("(EQL :RED)")});
        QVERIFY(defined[4].specializers().isEmpty()); // (s) is (s t): trailing Ts are left out
    }

    void aNameIsReportedInItsHomePackage()
    {
        QVERIFY(m_lisp->result(QStringLiteral("(defpackage :ledger-geo (:use :cl) (:export #:span))")).ok());
        QVERIFY(m_lisp->result(QStringLiteral("(defpackage :ledger-app (:use :cl :ledger-geo))")).ok());
        const EngineProtocol::LedgerFacts reply = facts(QStringLiteral("(in-package :ledger-app) (defun span (x) x)"));
        QCOMPARE(reply.defined().size(), 1);
        QCOMPARE(reply.defined()[0].package(), QStringLiteral("LEDGER-GEO"));
        QCOMPARE(reply.defined()[0].readPackage(), QStringLiteral("LEDGER-APP"));
        QVERIFY(m_lisp->result(QStringLiteral("(in-package :cl-user)")).ok());
    }

    void aFunctionLoadedFromAFileSaysWhereWhenRedefined()
    {
        QVERIFY(TestFiles::write(m_root.filePath(QStringLiteral("lib/greet.lisp")), ";; greetings\n\n(defun ledger-greet (n)\n  (list :hello n))\n"));
        const EngineProtocol::LedgerFacts loaded = facts(QStringLiteral("(load \"lib/greet.lisp\")"));
        QCOMPARE(loaded.loadedFiles(), QStringList{m_root.filePath(QStringLiteral("lib/greet.lisp"))});
        QVERIFY(loaded.defined().isEmpty()); // the file's forms are the host's to read
        const EngineProtocol::LedgerFacts redefined = facts(QStringLiteral("(defun ledger-greet (n) (list :hi n))"));
        QCOMPARE(redefined.defined().size(), 1);
        QCOMPARE(redefined.defined()[0].replacedFile(), m_root.filePath(QStringLiteral("lib/greet.lisp")));
        QCOMPARE(redefined.defined()[0].replacedLine(), 3);
        // Redefined again: what it replaced came from the session, not a file.
        QVERIFY(facts(QStringLiteral("(defun ledger-greet (n) n)")).defined()[0].replacedFile().isEmpty());
    }

    void aSystemLoadedFromTheProjectRootIsTheSessionsOwn()
    {
        const JobPtr job = m_lisp->run(EngineProtocol::systemLoad(QStringLiteral("shapes"), false, false), 120000);
        QVERIFY(job);
        QVERIFY2(job->result.ok(), qPrintable(job->result.error.message));
        const QStringList files = EngineProtocol::LedgerFacts(job->result.reply).loadedFiles();
        QCOMPARE(files, (QStringList{m_root.filePath(QStringLiteral("shapes/src/package.lisp")),
                                     m_root.filePath(QStringLiteral("shapes/src/shapes.lisp"))}));
        // The definitions listing shows SHAPES, though load-system made the package.
        const EngineProtocol::DefinitionsReply listing(ask(EngineProtocol::definitions()));
        QStringList packages;
        for (const QJsonValue &v : listing.definitions())
            packages << EngineProtocol::DefinitionsReply::Entry(v).package();
        QVERIFY2(packages.contains(QStringLiteral("SHAPES")), qPrintable(packages.join(u' ')));
        QVERIFY(!packages.contains(QStringLiteral("ASDF/INTERFACE")));
        // Loaded again with force: the files are reported again.
        const JobPtr again = m_lisp->run(EngineProtocol::systemLoad(QStringLiteral("shapes"), true, false), 120000);
        QCOMPARE(EngineProtocol::LedgerFacts(again->result.reply).loadedFiles().size(), 2);
    }

    void resolveNamesGivesHomePackagesAndWhetherConditionsHold()
    {
        const EngineProtocol::ResolveNamesReply reply(ask(EngineProtocol::resolveNames(
            {{QStringLiteral("LEDGER-APP"), QStringLiteral("SPAN")},
             {QStringLiteral("COMMON-LISP-USER"), QStringLiteral("PRINT-OBJECT")},
             {QStringLiteral("COMMON-LISP-USER"), QStringLiteral("(SETF LEDGER-ONE)")},
             {QStringLiteral("COMMON-LISP-USER"), QStringLiteral("NO-SUCH-SYMBOL-HERE")},
             {QStringLiteral("NO-SUCH-PACKAGE"), QStringLiteral("X")}},
            {QStringLiteral("#+ecl"), QStringLiteral("#-ecl"), QStringLiteral("#+(or sbcl ecl)"), QStringLiteral("#+sbcl #-x86-64"),
             QStringLiteral("#+(")})));
        QVERIFY(reply.ok());
        const auto names = reply.names();
        QCOMPARE(names.size(), 5);
        QCOMPARE(names[0].package, QStringLiteral("LEDGER-GEO"));
        QVERIFY(names[0].found);
        QCOMPARE(names[1].package, QStringLiteral("COMMON-LISP"));
        QCOMPARE(names[2].package, QStringLiteral("COMMON-LISP-USER"));
        QCOMPARE(names[2].name, QStringLiteral("(SETF LEDGER-ONE)"));
        QVERIFY(names[2].found);
        QVERIFY(!names[3].found);
        QVERIFY(!names[4].found);
        QCOMPARE(reply.conditions(), (QList<bool>{true, false, true, false, false}));
    }
};

QTEST_GUILESS_MAIN(TestLedgerFacts)
#include "tst_ledgerfacts.moc"
