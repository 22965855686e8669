// The hand-off tools of issue 21 through McpServer against the real engine: stage-form's
// results for each of the person's answers (the person's side is a scripted FormStager here
// that runs the form in the real session, as the window's does; tests/app/tst_handoffs drives
// the real window), its refusals without a person, withdrawal on cancellation, what the access
// modes do with it; definition-history and revert-definition, their bad arguments, and the
// digest that tells an agent about the person's revert.

#include "ToolHarness.h"

#include "access/AccessMode.h"
#include "client/EngineProtocol.h"
#include "history/DefinitionLedger.h"
#include "tools/FormStager.h"
#include "tools/HandoffTools.h"
#include "tools/ToolSet.h"

#include <QDir>
#include <QJsonDocument>
#include <QTemporaryDir>

namespace {
// The person, as a test script: keeps what is staged, answers when told to.
class ScriptedStager : public FormStager
{
public:
    explicit ScriptedStager(Session *session) : m_session(session) {}

    QString unavailable;
    QList<StagedForm> staged;
    QList<quint64> withdrawn;

    QString unavailableReason() const override { return unavailable; }
    void stage(const StagedForm &form, Done done) override
    {
        staged.append(form);
        m_done.insert(form.id, std::move(done));
    }
    void withdraw(quint64 id) override
    {
        withdrawn.append(id);
        m_done.remove(id);
    }

    // The person runs `code` (the staged text, or their edit of it) as their own job.
    void run(quint64 id, const QString &code)
    {
        const StagedForm form = *std::find_if(staged.cbegin(), staged.cend(), [id](const StagedForm &f) { return f.id == id; });
        JobRequest request = EngineProtocol::evaluation(code, form.package);
        request.origin = Origin::person();
        request.tool = QStringLiteral("stage-form");
        request.description = QStringLiteral("staged by %1").arg(form.origin.name);
        const bool edited = code != form.code;
        Done done = m_done.take(id);
        const quint64 job = m_session->submit(request);
        m_session->whenFinished(job, [done, code, edited](JobPtr finished) {
            done({edited ? StagingOutcome::Kind::Edited : StagingOutcome::Kind::Ran, code, {}, finished});
        });
    }
    void reject(quint64 id, const QString &reason) { m_done.take(id)({StagingOutcome::Kind::Rejected, {}, reason, {}}); }

private:
    Session *m_session;
    QHash<quint64, Done> m_done;
};
} // namespace

class TestToolsHandoffs : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ToolHarness> m_h;
    std::unique_ptr<DefinitionLedger> m_ledger;
    std::unique_ptr<FormStaging> m_staging;
    std::unique_ptr<ScriptedStager> m_person;

    // Sends a tools/call without waiting; returns its id.
    int start(const QString &tool, const QJsonObject &arguments)
    {
        const int id = m_h->m_nextId++;
        m_h->send({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), id}, {QStringLiteral("method"), QStringLiteral("tools/call")},
                   {QStringLiteral("params"), QJsonObject{{QStringLiteral("name"), tool}, {QStringLiteral("arguments"), arguments}}}});
        return id;
    }
    QJsonObject result(int id, int ms = 20000)
    {
        QJsonObject found;
        (void)QTest::qWaitFor([&] {
            for (const QJsonObject &m : std::as_const(m_h->m_messages)) {
                if (m.value(QStringLiteral("id")) == QJsonValue(id)) {
                    found = m.value(QStringLiteral("result")).toObject();
                    return true;
                }
            }
            return false;
        }, ms);
        return found;
    }
    bool answered(int id) const
    {
        return std::any_of(m_h->m_messages.cbegin(), m_h->m_messages.cend(),
                           [id](const QJsonObject &m) { return m.value(QStringLiteral("id")) == QJsonValue(id); });
    }
    // Calls stage-form; *form gets the id the person's side received (0 if none came).
    int stage(const QJsonObject &arguments, quint64 *form)
    {
        const qsizetype before = m_person->staged.size();
        const int call = start(QStringLiteral("stage-form"), arguments);
        (void)QTest::qWaitFor([&] { return m_person->staged.size() > before; }, 5000);
        *form = m_person->staged.size() > before ? m_person->staged.last().id : 0;
        return call;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_h = std::make_unique<ToolHarness>();
        QVERIFY(m_h->waitUntilReady());
        m_ledger = std::make_unique<DefinitionLedger>(&m_h->m_session);
        m_staging = std::make_unique<FormStaging>();
        m_person = std::make_unique<ScriptedStager>(&m_h->m_session);
        addHandoffTools(&m_h->m_tools, &m_h->m_session, &m_h->m_jobs, m_ledger.get(), m_staging.get(), &m_h->m_rooms.native);
    }
    void cleanupTestCase()
    {
        m_person.reset();
        m_staging.reset();
        m_ledger.reset();
        m_h.reset();
    }

    void stageFormWithoutAWindowIsRefusedWithTheReason()
    {
        const QJsonObject refused = m_h->call(QStringLiteral("stage-form"), {{QStringLiteral("code"), QStringLiteral("(+ 1 2)")}});
        QVERIFY(ToolHarness::isError(refused));
        QCOMPARE(ToolHarness::text(refused), stageFormUnavailable());
        m_staging->setStager(m_person.get());
        m_person->unavailable = QStringLiteral("The Lisp Duet window is hidden, so nobody sees a staged form.");
        const QJsonObject hidden = m_h->call(QStringLiteral("stage-form"), {{QStringLiteral("code"), QStringLiteral("(+ 1 2)")}});
        QVERIFY(ToolHarness::isError(hidden));
        QCOMPARE(ToolHarness::text(hidden), m_person->unavailable);
        QVERIFY(m_person->staged.isEmpty());
        m_person->unavailable.clear();
    }

    void aFormThePersonRunsReturnsRanWithEvaluateLispsResult()
    {
        RequestTracePtr trace; // what the Tool calls panel shows of the call
        QObject guard;
        connect(&m_h->m_server, &McpServer::requestTraced, &guard, [&trace](const RequestTracePtr &traced) {
            if (traced->tool() == QStringLiteral("stage-form"))
                trace = traced;
        });
        quint64 id = 0;
        const int call = stage({{QStringLiteral("code"), QStringLiteral("(* 6 7)")},
                                {QStringLiteral("description"), QStringLiteral("check the arithmetic")}}, &id);
        QVERIFY(id != 0);
        QVERIFY(trace);
        QCOMPARE(trace->state(), RequestTrace::State::AwaitingPerson);
        const StagedForm &form = m_person->staged.last();
        QCOMPARE(form.code, QStringLiteral("(* 6 7)"));
        QCOMPARE(form.description, QStringLiteral("check the arithmetic"));
        QCOMPARE(form.origin.name, QStringLiteral("tool-test"));
        QTest::qWait(50);
        QVERIFY(!answered(call)); // it waits for the person
        m_person->run(id, form.code);
        const QJsonObject ran = result(call);
        QVERIFY(!ToolHarness::isError(ran));
        QCOMPARE(trace->state(), RequestTrace::State::Done);
        QVERIFY(trace->waitedMs() >= 50); // the person's time, apart from the run
        QCOMPARE(ToolHarness::text(ran), QStringLiteral("ran: the person ran the form as staged.\n\n=> 42"));
        QCOMPARE(ToolHarness::structured(ran).value(QStringLiteral("outcome")).toString(), QStringLiteral("ran"));
        QCOMPARE(ToolHarness::structured(ran).value(QStringLiteral("values")).toArray(), QJsonArray{QStringLiteral("42")});
    }

    void anEditedFormReturnsTheTextThatRanAndItsResult()
    {
        quint64 id = 0;
        const int call = stage({{QStringLiteral("code"), QStringLiteral("(/ 1 0)")}}, &id);
        QVERIFY(id != 0);
        m_person->run(id, QStringLiteral("(/ 1 2)"));
        const QJsonObject edited = result(call);
        QCOMPARE(ToolHarness::text(edited), QStringLiteral("edited: the person changed the form, then ran it:\n(/ 1 2)\n\n=> 1/2"));
        QCOMPARE(ToolHarness::structured(edited).value(QStringLiteral("code")).toString(), QStringLiteral("(/ 1 2)"));
        // An edit that fails is an error result, as evaluate-lisp's would be.
        const int failing = stage({{QStringLiteral("code"), QStringLiteral("(car 1)")}}, &id);
        m_person->run(id, QStringLiteral("(car 2)"));
        const QJsonObject error = result(failing);
        QVERIFY(ToolHarness::isError(error));
        QVERIFY2(ToolHarness::text(error).startsWith(QStringLiteral("edited: the person changed the form, then ran it:\n(car 2)\n\n[ERROR] ")),
                 qPrintable(ToolHarness::text(error)));
    }

    void aRejectedFormReturnsTheReasonOrSaysThereWasNone()
    {
        quint64 id = 0;
        const int call = stage({{QStringLiteral("code"), QStringLiteral("(delete-everything)")}}, &id);
        QVERIFY(id != 0);
        m_person->reject(id, QStringLiteral("not on my data"));
        const QJsonObject rejected = result(call);
        QVERIFY(!ToolHarness::isError(rejected));
        QCOMPARE(ToolHarness::text(rejected), QStringLiteral("rejected: the person rejected the form: \u201cnot on my data\u201d. It did not run."));
        QCOMPARE(ToolHarness::structured(rejected).value(QStringLiteral("reason")).toString(), QStringLiteral("not on my data"));
        const int bare = stage({{QStringLiteral("code"), QStringLiteral("(x)")}}, &id);
        m_person->reject(id, QStringLiteral("  "));
        const QJsonObject noReason = result(bare);
        QCOMPARE(ToolHarness::text(noReason), QStringLiteral("rejected: the person rejected the form without giving a reason. It did not run."));
        QVERIFY(ToolHarness::structured(noReason).value(QStringLiteral("reason")).isNull());
    }

    void aCancelledCallWithdrawsItsForm()
    {
        quint64 id = 0;
        const int call = stage({{QStringLiteral("code"), QStringLiteral("(sleep 1)")}}, &id);
        QVERIFY(id != 0);
        m_h->send({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("method"), QStringLiteral("notifications/cancelled")},
                   {QStringLiteral("params"), QJsonObject{{QStringLiteral("requestId"), call}}}});
        QVERIFY(QTest::qWaitFor([&] { return m_person->withdrawn.contains(id); }, 5000));
    }

    void askModeLetsTheStagingThroughAndReadOnlyRefusesIt()
    {
        using Verdict = AccessDecision::Verdict;
        const Tool *stage = m_h->m_tools.find(QStringLiteral("stage-form"));
        QVERIFY(stage && stage->personDecides());
        QCOMPARE(AccessModes::decide(AccessMode::Ask, stage->isReadOnly(), stage->name(), stage->changesFiles(), stage->personDecides()).verdict,
                 Verdict::Run);
        QCOMPARE(AccessModes::decide(AccessMode::ReadOnly, stage->isReadOnly(), stage->name(), stage->changesFiles(), stage->personDecides()).verdict,
                 Verdict::Refuse);
        const Tool *revert = m_h->m_tools.find(QStringLiteral("revert-definition"));
        QCOMPARE(AccessModes::decide(AccessMode::Ask, revert->isReadOnly(), revert->name(), revert->changesFiles(), revert->personDecides()).verdict,
                 Verdict::AskThePerson);
        QVERIFY(m_h->m_tools.find(QStringLiteral("definition-history"))->isReadOnly());
    }

    void thePersonsRevertIsNamedInTheAgentsDigest()
    {
        JobRequest mine = EngineProtocol::evaluation(QStringLiteral("(defun tally (xs) (reduce #'+ xs))"));
        m_h->m_session.submit(mine);
        m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(defun tally (xs) (apply #'+ xs))")}});
        const auto found = m_ledger->find(QStringLiteral("tally"));
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first()->versions.size(), 2);
        const DefinitionLedger::RevertPlan plan = m_ledger->planRevert(found.first()->key, 1, Origin::person());
        QVERIFY(plan.ok());
        const quint64 job = m_h->m_session.submit(plan.request);
        QVERIFY(QTest::qWaitFor([&] { return !m_h->m_session.job(job); }, 10000));
        const QJsonObject next = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(tally '(1 2 3))")}});
        const QString digest = next.value(QStringLiteral("content")).toArray().at(1).toObject().value(QStringLiteral("text")).toString();
        QVERIFY2(digest.contains(QRegularExpression(QStringLiteral(
                     R"(- the person at \d\d:\d\d:\d\d \(revert COMMON-LISP-USER::TALLY to version 1\): \(defun tally \(xs\) \(reduce #'\+ xs\)\) => TALLY)"))),
                 qPrintable(digest));
        const QJsonArray activity = ToolHarness::structured(next).value(QStringLiteral("session_activity")).toArray();
        QCOMPARE(activity.last().toObject().value(QStringLiteral("description")).toString(),
                 QStringLiteral("revert COMMON-LISP-USER::TALLY to version 1"));
        // The history says who reverted, to which version.
        const QJsonObject history = m_h->call(QStringLiteral("definition-history"), {{QStringLiteral("name"), QStringLiteral("tally")}});
        QVERIFY2(ToolHarness::text(history).contains(QStringLiteral("Version 3 (defun), by You (revert to version 1) at ")), qPrintable(ToolHarness::text(history)));
    }

    void theHistoryRightAfterALoadHasWhatTheLoadDefined()
    {
        // The ledger reads the loaded files and asks the engine about their names after the
        // load's answer has gone out; a history asked at once waits for that.
        QTemporaryDir root;
        QVERIFY(QDir().mkpath(root.filePath(QStringLiteral("quick"))));
        QFile asd(root.filePath(QStringLiteral("quick/quick.asd")));
        QVERIFY(asd.open(QIODevice::WriteOnly));
        asd.write("(asdf:defsystem \"quick\" :components ((:file \"quick\")))\n");
        asd.close();
        QFile source(root.filePath(QStringLiteral("quick/quick.lisp")));
        QVERIFY(source.open(QIODevice::WriteOnly));
        source.write("(defpackage :quick (:use :cl))\n(in-package :quick)\n\n(defgeneric speed-of (x))\n"
                     "(defmethod speed-of ((x integer)) x)\n(defmethod print-object ((x (eql :fast)) stream) stream)\n");
        source.close();
        m_h->m_session.setProjectRoot(root.path());
        const int load = start(QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("quick")}});
        QVERIFY(QTest::qWaitFor([&] { return answered(load); }, 60000));
        const int history = start(QStringLiteral("definition-history"), {{QStringLiteral("name"), QStringLiteral("speed-of (integer)")}});
        const QJsonObject methods = result(history);
        QVERIFY2(ToolHarness::text(methods).startsWith(QStringLiteral("QUICK::SPEED-OF (INTEGER) (method): 1 version; the session has version 1.\n\n"
                                                                      "Version 1 (defmethod), loaded from quick/quick.lisp:5 by tool-test at "))
                     && ToolHarness::text(methods).endsWith(QStringLiteral(":\n(defmethod speed-of ((x integer)) x)")),
                 qPrintable(ToolHarness::text(methods)));
        // A method on a standard generic function is keyed by the function's home package.
        const QJsonObject printing = m_h->call(QStringLiteral("definition-history"), {{QStringLiteral("name"), QStringLiteral("print-object ((eql :fast) t)")}});
        QVERIFY2(ToolHarness::text(printing).startsWith(QStringLiteral("COMMON-LISP::PRINT-OBJECT ((EQL :FAST)) (method): 1 version")),
                 qPrintable(ToolHarness::text(printing)));
    }

    void badArgumentsGiveAnErrorResultNamingTheArgument_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("named");
        QTest::newRow("stage-form without code") << "stage-form" << "{}" << "'code'";
        QTest::newRow("stage-form blank code") << "stage-form" << R"j({"code":"  "})j" << "'code'";
        QTest::newRow("definition-history without name") << "definition-history" << "{}" << "'name'";
        QTest::newRow("definition-history unknown kind") << "definition-history" << R"j({"name":"x","kind":"gizmo"})j" << "'kind'";
        QTest::newRow("revert-definition version zero") << "revert-definition" << R"j({"name":"x","version":0})j" << "'version'";
        QTest::newRow("revert-definition unknown argument") << "revert-definition" << R"j({"name":"x","to":1})j" << "'to'";
    }
    void badArgumentsGiveAnErrorResultNamingTheArgument()
    {
        QFETCH(QString, tool);
        QFETCH(QString, arguments);
        QFETCH(QString, named);
        const QJsonObject result = m_h->call(tool, QJsonDocument::fromJson(arguments.toUtf8()).object());
        QVERIFY(ToolHarness::isError(result));
        QVERIFY2(ToolHarness::text(result).contains(named), qPrintable(ToolHarness::text(result)));
    }
};

QTEST_GUILESS_MAIN(TestToolsHandoffs)
#include "tst_tools_handoffs.moc"
