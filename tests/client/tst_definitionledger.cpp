// The ledger of definitions (issue 21) against the real engine: who defined and redefined what,
// each version's text and what it replaced, methods told apart by their specializers,
// definitions loaded from a project file with their file and line, reverts of an evaluated
// version and of a file's version (the form as the file has it now), engine restarts, and the
// journal's record of every version.

#include "../common/EngineHarness.h"
#include "../common/TestFiles.h"

#include "history/DefinitionLedger.h"
#include "client/EngineProtocol.h"
#include "history/Journal.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {
const Origin Claude = Origin::agent(QStringLiteral("claude-code"), QStringLiteral("claude-code#1"));
} // namespace

class TestDefinitionLedger : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_root;
    QTemporaryDir m_library; // a folder ASDF finds libraries in (LISP_DUET_SYSTEM_PATHS)
    std::unique_ptr<EngineHarness> m_lisp;
    std::unique_ptr<DefinitionLedger> m_ledger;

    JobPtr eval(const QString &code, const Origin &origin = Origin::person(), JobPurpose purpose = JobPurpose::Unstated)
    {
        JobRequest request = EngineProtocol::evaluation(code);
        request.origin = origin;
        request.purpose = purpose;
        return settled(m_lisp->run(request));
    }

    JobPtr settled(JobPtr job)
    {
        (void)QTest::qWaitFor([this] { return !m_ledger->isBusy(); }, 20000);
        return job;
    }

    const DefinitionLedger::History *only(const QString &name, const QString &kind = {})
    {
        const auto found = m_ledger->find(name, kind);
        return found.size() == 1 ? found.first() : nullptr;
    }

    QString value(const QString &code)
    {
        const JobResult result = m_lisp->result(code);
        return result.ok() && !result.values.isEmpty() ? result.values.first()
                                                       : QStringLiteral("[%1] %2").arg(result.error.type, result.error.message);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid() && m_library.isValid());
        qputenv("LISP_DUET_SYSTEM_PATHS", m_library.path().toUtf8());
        QVERIFY(TestFiles::copyTree(QStringLiteral(DUET_SOURCE_DIR "/tests/data/shapes"), m_root.filePath(QStringLiteral("shapes"))));
        m_lisp = std::make_unique<EngineHarness>();
        QVERIFY2(m_lisp->waitReady(), "the engine did not start");
        m_ledger = std::make_unique<DefinitionLedger>(&m_lisp->session);
        m_lisp->session.setProjectRoot(m_root.path());
    }
    void cleanupTestCase()
    {
        m_ledger.reset();
        m_lisp.reset();
    }

    void aPersonsDefunRedefinedByAnAgentHasTwoVersions()
    {
        eval(QStringLiteral("(defun greet (name)\n  (format nil \"Hello, ~A\" name))"));
        eval(QStringLiteral("(+ 1 2) ; defines nothing\n(defun greet (name)\n  (format nil \"Hi, ~A!\" name))"), Claude);
        const DefinitionLedger::History *history = only(QStringLiteral("greet"));
        QVERIFY(history);
        QCOMPARE(history->key.text(), QStringLiteral("COMMON-LISP-USER::GREET"));
        QCOMPARE(history->versions.size(), 2);
        const DefinitionVersion &first = history->versions[0];
        const DefinitionVersion &second = history->versions[1];
        QCOMPARE(first.number, 1);
        QCOMPARE(first.by.name, QStringLiteral("You"));
        QCOMPARE(first.via, DefinitionVersion::Via::Evaluation);
        QCOMPARE(first.source, QStringLiteral("(defun greet (name)\n  (format nil \"Hello, ~A\" name))"));
        QCOMPARE(first.kind, QStringLiteral("function"));
        QCOMPARE(second.by.name, QStringLiteral("claude-code"));
        QCOMPARE(second.source, QStringLiteral("(defun greet (name)\n  (format nil \"Hi, ~A!\" name))"));
        QVERIFY(second.at >= first.at);
        QVERIFY(history->live);
        QCOMPARE(DefinitionLedger::diff(first, second),
                 QStringLiteral("--- version 1\n+++ version 2\n@@ -1,2 +1,2 @@\n (defun greet (name)\n"
                                "-  (format nil \"Hello, ~A\" name))\n+  (format nil \"Hi, ~A!\" name))\n"));
        // The same text again is no new version.
        eval(second.source, Claude);
        QCOMPARE(only(QStringLiteral("greet"))->versions.size(), 2);
    }

    void revertingAnEvaluatedVersionEvaluatesItsTextAsThePerson()
    {
        const DefinitionLedger::History *history = only(QStringLiteral("greet"));
        QVERIFY(history);
        const DefinitionLedger::RevertPlan plan = m_ledger->planRevert(history->key, 1, Origin::person());
        QVERIFY2(plan.ok(), qPrintable(plan.error));
        QCOMPARE(plan.request.origin.name, QStringLiteral("You"));
        QCOMPARE(plan.request.code, history->versions[0].source);
        QCOMPARE(plan.request.package, QStringLiteral("COMMON-LISP-USER"));
        QCOMPARE(plan.request.description, QStringLiteral("revert COMMON-LISP-USER::GREET to version 1"));
        QVERIFY2(plan.summary.startsWith(QStringLiteral("Evaluated the text of version 1 (You at ")), qPrintable(plan.summary));
        const quint64 id = m_lisp->session.submit(plan.request);
        QVERIFY(settled(m_lisp->waitFor(id))->result.ok());
        QCOMPARE(value(QStringLiteral("(greet \"Ann\")")), QStringLiteral("\"Hello, Ann\""));
        history = only(QStringLiteral("greet"));
        QCOMPARE(history->versions.size(), 3);
        QCOMPARE(history->latest().via, DefinitionVersion::Via::Revert);
        QCOMPARE(history->latest().restores, 1);
        QCOMPARE(history->latest().byText(), QStringLiteral("You (revert to version 1)"));
        // No such version: a sentence, nothing evaluated.
        QCOMPARE(m_ledger->planRevert(history->key, 9, Origin::person()).error,
                 QStringLiteral("COMMON-LISP-USER::GREET has no version 9; its versions are 1 to 3."));
    }

    void methodsAreToldApartByQualifiersAndSpecializers()
    {
        eval(QStringLiteral("(defgeneric size-of (thing))\n(defmethod size-of ((s string)) (length s))\n"
                            "(defmethod size-of ((l list)) (length l))\n(defmethod size-of :around ((s string)) (1+ (call-next-method)))"));
        eval(QStringLiteral("(defmethod size-of ((s string)) (* 2 (length s)))"), Claude, JobPurpose::FormEdit);
        QCOMPARE(m_ledger->find(QStringLiteral("size-of")).size(), 4);
        QCOMPARE(m_ledger->find(QStringLiteral("size-of"), QStringLiteral("method")).size(), 3);
        QCOMPARE(m_ledger->find(QStringLiteral("size-of"), QStringLiteral("generic-function")).size(), 1);
        const DefinitionLedger::History *string = only(QStringLiteral("size-of (string)"));
        QVERIFY(string);
        QCOMPARE(string->key.text(), QStringLiteral("COMMON-LISP-USER::SIZE-OF (STRING)"));
        QCOMPARE(string->versions.size(), 2);
        QCOMPARE(string->latest().via, DefinitionVersion::Via::EditForm);
        QCOMPARE(string->latest().byText(), QStringLiteral("claude-code (edit-form)"));
        const DefinitionLedger::History *around = only(QStringLiteral("cl-user::size-of :around (string)"));
        QVERIFY(around);
        QCOMPARE(around->versions.size(), 1);
        QVERIFY(only(QStringLiteral("size-of ((l list))"))); // a lambda list names the specializers too
        QVERIFY(m_ledger->find(QStringLiteral("size-of (vector)")).isEmpty());
        QString error;
        QVERIFY(m_ledger->find(QStringLiteral("size-of (("), {}, &error).isEmpty());
        QVERIFY(error.startsWith(QStringLiteral("The name 'size-of ((' does not read")));
        QVERIFY(m_ledger->find(QStringLiteral("size-of"), QStringLiteral("gizmo"), &error).isEmpty());
        QVERIFY(error.startsWith(QStringLiteral("'gizmo' is not a kind of definition")));
    }

    void aSystemLoadedFromTheProjectIsRecordedFormByFormWithFileAndLine()
    {
        const Origin loader = Claude;
        JobRequest request = EngineProtocol::systemLoad(QStringLiteral("shapes"), false, false);
        request.origin = loader;
        QVERIFY(settled(m_lisp->run(request, 120000))->result.ok());
        const QString file = m_root.filePath(QStringLiteral("shapes/src/shapes.lisp"));
        const QString text = TestFiles::read(file);
        auto lineOf = [&text](const QString &start) { return text.left(text.indexOf(start)).count(u'\n') + 1; };

        const DefinitionLedger::History *square = only(QStringLiteral("shapes:area (square)"));
        QVERIFY(square);
        QCOMPARE(square->key.package, QStringLiteral("SHAPES"));
        QCOMPARE(square->versions.size(), 1);
        const DefinitionVersion &loaded = square->versions[0];
        QCOMPARE(loaded.via, DefinitionVersion::Via::File);
        QCOMPARE(loaded.file, file);
        QCOMPARE(loaded.line, lineOf(QStringLiteral("(defmethod area ((shape square))")));
        QCOMPARE(loaded.source, QStringLiteral("(defmethod area ((shape square))\n  (* 2 (side shape)))"));
        QCOMPARE(loaded.readPackage, QStringLiteral("SHAPES"));
        QCOMPARE(loaded.by.name, QStringLiteral("claude-code"));
        QCOMPARE(loaded.byText(m_root.path()),
                 QStringLiteral("loaded from shapes/src/shapes.lisp:%1 by claude-code").arg(loaded.line));
        QCOMPARE(m_ledger->find(QStringLiteral("area"), QStringLiteral("method")).size(), 3);
        QVERIFY(only(QStringLiteral("shapes:*unit*")));
        QVERIFY(only(QStringLiteral("shapes:circle"), QStringLiteral("class")));
        // #+ecl's form counts, #-ecl's does not: one version, the line of the #+ecl form.
        const DefinitionLedger::History *note = only(QStringLiteral("shapes::implementation-note"));
        QVERIFY(note);
        QCOMPARE(note->versions.size(), 1);
        QCOMPARE(note->versions[0].line, lineOf(QStringLiteral("#+ecl")));
        // Loading it again changes nothing: same texts.
        const int versions = m_ledger->versionCount();
        request.force = true;
        QVERIFY(settled(m_lisp->run(request, 120000))->result.ok());
        QCOMPARE(m_ledger->versionCount(), versions);
    }

    void revertingAFilesVersionEvaluatesTheFormAsTheFileHasItNow()
    {
        eval(QStringLiteral("(in-package :shapes)\n(defmethod area ((shape square)) (* (side shape) (side shape)))\n(in-package :cl-user)"), Claude);
        const DefinitionLedger::History *square = only(QStringLiteral("shapes:area (square)"));
        QCOMPARE(square->versions.size(), 2);
        QCOMPARE(square->latest().readPackage, QStringLiteral("SHAPES"));
        QCOMPARE(value(QStringLiteral("(shapes:area (shapes:make-square 3))")), QStringLiteral("9"));
        // The person fixes the file meanwhile: the revert takes the file as it is now.
        const QString file = m_root.filePath(QStringLiteral("shapes/src/shapes.lisp"));
        QString text = TestFiles::read(file);
        text.replace(QStringLiteral("(* 2 (side shape)))"), QStringLiteral("(* 10 (side shape)))"));
        QVERIFY(TestFiles::write(file, text.toUtf8()));
        const DefinitionLedger::RevertPlan plan = m_ledger->planRevert(square->key, 1, Origin::person());
        QVERIFY2(plan.ok(), qPrintable(plan.error));
        QCOMPARE(plan.request.code, QStringLiteral("(defmethod area ((shape square))\n  (* 10 (side shape)))"));
        QCOMPARE(plan.request.package, QStringLiteral("SHAPES"));
        QVERIFY2(plan.summary.startsWith(QStringLiteral("Version 1 came from shapes/src/shapes.lisp:%1: evaluated that form as the file has it now")
                                             .arg(square->versions[0].line)),
                 qPrintable(plan.summary));
        const quint64 id = m_lisp->session.submit(plan.request);
        QVERIFY(settled(m_lisp->waitFor(id))->result.ok());
        QCOMPARE(value(QStringLiteral("(shapes:area (shapes:make-square 3))")), QStringLiteral("30"));
        QCOMPARE(only(QStringLiteral("shapes:area (square)"))->latest().restores, 1);
        // A file that no longer has the form: refused with the reason.
        text.replace(QStringLiteral("(defmethod area ((shape square))"), QStringLiteral("(defmethod area ((shape rhombus))"));
        QVERIFY(TestFiles::write(file, text.toUtf8()));
        QVERIFY(m_ledger->planRevert(square->key, 1, Origin::person()).error.endsWith(QStringLiteral("but that file no longer defines it; nothing was evaluated.")));
    }

    void whatARedefinitionReplacedFromAnUnrecordedFileBecomesVersionOne()
    {
        // A library file (outside the project, in a folder ASDF finds libraries in) is not
        // recorded as it loads; redefining its function shows what the file had.
        const QString file = m_library.filePath(QStringLiteral("lib.lisp"));
        QVERIFY(TestFiles::write(file, QStringLiteral("(defun lib-double (x)\n  (* 2 x))\n").toUtf8()));
        QVERIFY(!m_ledger->isRecordedFile(file));
        eval(QStringLiteral("(load \"%1\")").arg(file));
        QVERIFY(m_ledger->find(QStringLiteral("lib-double")).isEmpty());
        eval(QStringLiteral("(defun lib-double (x) (+ x x))"), Claude);
        const DefinitionLedger::History *history = only(QStringLiteral("lib-double"));
        QVERIFY(history);
        QCOMPARE(history->versions.size(), 2);
        QCOMPARE(history->versions[0].via, DefinitionVersion::Via::File);
        QCOMPARE(history->versions[0].file, file);
        QCOMPARE(history->versions[0].line, 1);
        QCOMPARE(history->versions[0].source, QStringLiteral("(defun lib-double (x)\n  (* 2 x))"));
        QVERIFY(!history->versions[0].at.isValid());
        QCOMPARE(history->versions[0].byText(), QStringLiteral("loaded from %1:1").arg(file));
    }

    void anEngineRestartKeepsTheHistoriesButNotTheirLiveness()
    {
        QVERIFY(only(QStringLiteral("greet"))->live);
        QSignalSpy ready(&m_lisp->engine, &EngineClient::ready);
        m_lisp->session.reset(Origin::person());
        QVERIFY(ready.wait(20000));
        const DefinitionLedger::History *history = only(QStringLiteral("greet"));
        QVERIFY(history);
        QCOMPARE(history->versions.size(), 3);
        QVERIFY(!history->live);
        // A revert puts the version back into the fresh engine.
        const DefinitionLedger::RevertPlan plan = m_ledger->planRevert(history->key, 2, Origin::person());
        QVERIFY(settled(m_lisp->run(plan.request))->result.ok());
        QCOMPARE(value(QStringLiteral("(greet \"Bo\")")), QStringLiteral("\"Hi, Bo!\""));
        QVERIFY(only(QStringLiteral("greet"))->live);
        m_lisp->session.setProjectRoot(m_root.path());
    }

    void everyVersionIsJournaledAndReadsBack()
    {
        QTemporaryDir dir;
        Journal journal;
        QVERIFY(journal.open(dir.filePath(QStringLiteral("j.jsonl"))));
        journal.attach(m_ledger.get());
        eval(QStringLiteral("(defmethod size-of :around ((s string)) (+ 2 (call-next-method)))"), Claude);
        journal.close();
        const JournalContents contents = Journal::read(dir.filePath(QStringLiteral("j.jsonl")));
        QVERIFY(contents.ok());
        QCOMPARE(contents.entries.size(), 1);
        const JournalEntry &entry = contents.entries.first();
        QVERIFY(entry.isDefinition());
        const DefinitionVersion &read = entry.definition;
        const DefinitionVersion &kept = only(QStringLiteral("size-of :around (string)"))->latest();
        QCOMPARE(read.key.id(), kept.key.id());
        QCOMPARE(read.number, 2);
        QCOMPARE(read.source, kept.source);
        QCOMPARE(read.by.name, QStringLiteral("claude-code"));
        QCOMPARE(read.via, DefinitionVersion::Via::Evaluation);
        QCOMPARE(read.kind, QStringLiteral("method"));
        QCOMPARE(read.at.toMSecsSinceEpoch(), kept.at.toMSecsSinceEpoch());
    }
};

QTEST_GUILESS_MAIN(TestDefinitionLedger)
#include "tst_definitionledger.moc"
