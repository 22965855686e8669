// Replay: which forms of a journal count as definitions, and a real replay that restores a
// session's definitions in a fresh engine, reporting the forms that fail.

#include "client/EngineClient.h"
#include "history/Journal.h"
#include "history/Replayer.h"
#include "session/Session.h"
#include "SessionHarness.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {
JournalEntry evaluationEntry(const QString &code, JobResult::Status status = JobResult::Status::Ok,
                             const QString &package = QStringLiteral("COMMON-LISP-USER"), const Origin &origin = Origin::person())
{
    Job e;
    e.request.code = code;
    e.request.package = package;
    e.request.origin = origin;
    e.result.status = status;
    return JournalEntry::fromJob(e);
}

QStringList codes(const QList<Replayer::Step> &steps)
{
    QStringList list;
    for (const Replayer::Step &step : steps)
        list << step.code;
    return list;
}
} // namespace

class TestReplayer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void classifiesTopLevelForms_data()
    {
        QTest::addColumn<QString>("form");
        QTest::addColumn<bool>("defining");
        QTest::newRow("defun") << "(defun f (x) x)" << true;
        QTest::newRow("upper case, package prefix") << "(CL:DEFUN f (x) x)" << true;
        QTest::newRow("defmacro") << "(defmacro m () nil)" << true;
        QTest::newRow("defvar") << "(defvar *v* 1)" << true;
        QTest::newRow("defparameter") << "(defparameter *p* 2)" << true;
        QTest::newRow("defconstant") << "(defconstant +c+ 3)" << true;
        QTest::newRow("defclass") << "(defclass point () ((x :initarg :x)))" << true;
        QTest::newRow("defstruct") << "(defstruct pt x y)" << true;
        QTest::newRow("defmethod") << "(defmethod area ((p point)) 0)" << true;
        QTest::newRow("defgeneric") << "(defgeneric area (shape))" << true;
        QTest::newRow("defpackage") << "(defpackage :foo (:use :cl))" << true;
        QTest::newRow("in-package") << "(in-package :foo)" << true;
        QTest::newRow("define-condition") << "(define-condition oops (error) ())" << true;
        QTest::newRow("deftype") << "(deftype small () '(integer 0 9))" << true;
        QTest::newRow("setf") << "(setf *v* 10)" << true;
        QTest::newRow("setq") << "(setq *v* 10)" << true;
        QTest::newRow("require") << "(require :asdf)" << true;
        QTest::newRow("asdf:load-system") << "(asdf:load-system :foo)" << true;
        QTest::newRow("leading whitespace") << "  (\n defun g () 1)" << true;
        QTest::newRow("a call") << "(f 1)" << false;
        QTest::newRow("arithmetic") << "(+ 1 2)" << false;
        QTest::newRow("let around setf is not top-level") << "(let ((x 1)) (setf x 2))" << false;
        QTest::newRow("a symbol") << "*v*" << false;
        QTest::newRow("a quoted defun") << "'(defun f () 1)" << false;
        QTest::newRow("a function called default-x") << "(default-x 1)" << false;
    }

    void classifiesTopLevelForms()
    {
        QFETCH(QString, form);
        QFETCH(bool, defining);
        QCOMPARE(Replayer::isDefiningForm(form), defining);
    }

    void aPlanKeepsOnlySuccessfulDefinitionsInOrder()
    {
        const QList<JournalEntry> entries{
            evaluationEntry(QStringLiteral("(defun a () 1) (a) (defvar *b* 2)")),
            evaluationEntry(QStringLiteral("(defun broken () (/ 1 0)) (broken)"), JobResult::Status::Error),
            JournalEntry::makeEvent(QStringLiteral("engine-restarted"), QStringLiteral("killed")),
            evaluationEntry(QStringLiteral("(setf *b* 3)")),
            evaluationEntry(QStringLiteral("(defun a () 1)"), JobResult::Status::Ok, QStringLiteral("COMMON-LISP-USER"),
                            Origin::system(QStringLiteral("replay"))),
            evaluationEntry(QStringLiteral("(+ 1 2)")),
        };
        int skipped = -1;
        const QList<Replayer::Step> steps = Replayer::plan(entries, &skipped);
        QCOMPARE(codes(steps), (QStringList{QStringLiteral("(defun a () 1)"), QStringLiteral("(defvar *b* 2)"), QStringLiteral("(setf *b* 3)")}));
        QCOMPARE(skipped, 2); // (a) and (+ 1 2)
    }

    void formsAfterAnInPackageRunInThePackageItChose()
    {
        const QList<Replayer::Step> steps = Replayer::plan(
            {evaluationEntry(QStringLiteral("(defpackage :p (:use :cl)) (in-package :p) (defun f () 1)"))});
        QCOMPARE(steps.size(), 3);
        QCOMPARE(steps.at(0).package, QStringLiteral("COMMON-LISP-USER"));
        QCOMPARE(steps.at(1).package, QStringLiteral("COMMON-LISP-USER"));
        QCOMPARE(steps.at(2).package, QString()); // the session's package, which in-package set
    }

    void loadSystemRequestsAreReplayedAsSuch()
    {
        JournalEntry entry = evaluationEntry(QStringLiteral("sockets"));
        entry.job.request = EngineProtocol::systemLoad(QStringLiteral("sockets"), false, false);
        JournalEntry expansion = evaluationEntry(QStringLiteral("car"));
        expansion.job.request = EngineProtocol::macroexpansion(QStringLiteral("(car x)"), false); // a question, not a change
        const QList<Replayer::Step> steps = Replayer::plan({entry, expansion});
        QCOMPARE(steps.size(), 1);
        QCOMPARE(EngineProtocol::operationName(steps.first().kind), QStringLiteral("load-system"));
        QCOMPARE(steps.first().system, QStringLiteral("sockets"));
    }

    void aReplayRestoresDefinitionsAfterAResetAndReportsFailures()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("j.jsonl"));
        EngineClient engine;
        Session session(&engine);
        Journal journal;
        QVERIFY(journal.open(path));
        journal.attach(&session);
        engine.start();
        using SessionHarness::evaluate;
        QVERIFY(evaluate(session, QStringLiteral("(defpackage :rp (:use :cl)) (in-package :rp) (defun sq (x) (* x x)) (defvar *n* 5)"))->result.ok());
        QVERIFY(evaluate(session, QStringLiteral("(setf *n* (sq *n*))"))->result.ok());
        QVERIFY(evaluate(session, QStringLiteral("(sq 3)"))->result.ok());
        // Succeeded once, fails on replay: its package was made by a call, which is not replayed.
        QVERIFY(evaluate(session, QStringLiteral("(make-package :gone :use '(:cl))"))->result.ok());
        QVERIFY(evaluate(session, QStringLiteral("(defun gone::helper () 1)"))->result.ok());

        QSignalSpy status(&session, &Session::engineStatus);
        session.reset(Origin::person());
        QTRY_VERIFY_WITH_TIMEOUT(!status.isEmpty() && status.last().at(0).value<Session::EngineStatus>() == Session::EngineStatus::Ready, 20000);
        const JobPtr lost = evaluate(session, QStringLiteral("(rp::sq 2)"));
        QVERIFY(lost && !lost->result.ok());

        Replayer replayer(&session);
        QSignalSpy progress(&replayer, &Replayer::progress);
        QSignalSpy finished(&replayer, &Replayer::finished);
        QVERIFY(replayer.start(Journal::read(path).entries));
        QVERIFY(!replayer.start({})); // one replay at a time
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        const auto summary = finished.first().first().value<Replayer::Summary>();
        // defpackage, in-package, defun, defvar, setf, defun gone::helper
        QCOMPARE(summary.total, 6);
        QCOMPARE(summary.failed.size(), 1);
        QVERIFY2(summary.failed.first().form.contains(QStringLiteral("gone::helper")), qPrintable(summary.failed.first().form));
        QCOMPARE(summary.replayed, 5);
        QCOMPARE(summary.skipped, 2); // (sq 3) and (make-package ...)
        QCOMPARE(progress.size(), 6);
        QCOMPARE(progress.last().at(0).toInt(), 6);
        QVERIFY2(summary.text().startsWith(QStringLiteral("Replayed 5 definitions (1 failed: ")), qPrintable(summary.text()));

        const JobPtr back = evaluate(session, QStringLiteral("(list (rp::sq 2) rp::*n*)"));
        QVERIFY(back && back->result.ok());
        QCOMPARE(back->result.values, QStringList{QStringLiteral("(4 25)")});
        // The replay's own evaluations are journaled as the replay's, and a second replay of
        // the same journal leaves them out.
        int byReplay = 0;
        for (const JournalEntry &entry : Journal::read(path).entries)
            byReplay += entry.isJob() && entry.job.request.origin.name == QStringLiteral("replay");
        QCOMPARE(byReplay, 6);
        QCOMPARE(Replayer::plan(Journal::read(path).entries).size(), 6);
    }
};

QTEST_GUILESS_MAIN(TestReplayer)
#include "tst_replayer.moc"
