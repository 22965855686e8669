// What the person's editor evaluates runs as a job of the session (issue 31): Swank inside the
// engine, this test as the host (EditorHost: a Session that queues each editor request) and a
// SwankClient as the editor. Its jobs are the session's (the ledger's facts, the shared
// debugger); the editor still gets Swank's own answers (echo-area text, REPL results, SLDB).

#include "../common/EditorHost.h"

#include <QTest>

class TestEditorJobs : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EditorHost> m_host;
    std::unique_ptr<SwankClient> m_editor;

    static bool hasDefined(const JobPtr &job, const QString &name)
    {
        const QJsonArray defined = job->result.reply.value(QStringLiteral("defined")).toArray();
        for (const QJsonValue &entry : defined)
            if (entry.toObject().value(QStringLiteral("name")).toString() == name)
                return true;
        return false;
    }

    // The editor's request, answered: its text; fails the test if it never came.
    QString evaluate(const QString &form, int ms = 30000)
    {
        return m_editor->ask(form, QStringLiteral("t"), ms);
    }

    // The value of a variable as the engine's service thread describes it (while the worker
    // runs a job): "T", or empty when it is unbound.
    QString engineSays(const QString &variable)
    {
        QJsonObject reply;
        bool answered = false;
        m_host->lisp.session.query(EngineProtocol::description(variable), [&](const QJsonObject &json) {
            reply = json;
            answered = true;
        });
        (void)QTest::qWaitFor([&] { return answered; }, 5000);
        return EngineProtocol::DescribeReply(reply).value().toString();
    }

private Q_SLOTS:
    void init()
    {
        DUET_START_EDITOR_HOST(m_host);
        m_editor = std::make_unique<SwankClient>();
        QVERIFY(m_host->connect(*m_editor));
        QVERIFY(!evaluate(QStringLiteral("(swank:connection-info)")).isEmpty());
    }
    void cleanup()
    {
        m_editor.reset();
        m_host.reset();
    }

    void anEvaluationIsAJobOfTheSessionWithItsOrigin()
    {
        const QString reply = evaluate(QStringLiteral("(swank:interactive-eval \"(defun from-editor (x) (* x 10))\")"));
        QCOMPARE(reply, QStringLiteral("(:return (:ok \"=> FROM-EDITOR\") 2)"));
        const qint64 number = m_host->requestWith(QStringLiteral("from-editor"));
        const QJsonObject request = m_host->waitEvent(QStringLiteral("editor-request"));
        QCOMPARE(request.value(QStringLiteral("kind")).toString(), QStringLiteral("interactive-eval"));
        QCOMPARE(request.value(QStringLiteral("editor")).toInt(), 1);
        const JobPtr job = m_host->finishedJobOf(number);
        QVERIFY(job);
        QCOMPARE(job->request.origin.name, QStringLiteral("the person, in Emacs"));
        QCOMPARE(job->request.code, QStringLiteral("(defun from-editor (x) (* x 10))"));
        QVERIFY(job->result.ok());
        QCOMPARE(job->result.reply.value(QStringLiteral("editor_request")).toInteger(), number);
        QVERIFY2(hasDefined(job, QStringLiteral("FROM-EDITOR")), "the ledger's facts name the editor's definition");
        // The window sees the editor's definition, and the editor the window's.
        QCOMPARE(m_host->lisp.result(QStringLiteral("(from-editor 4)")).values, QStringList{QStringLiteral("40")});
        QVERIFY(m_host->lisp.result(QStringLiteral("(defun from-window () :window)")).ok());
        QCOMPARE(evaluate(QStringLiteral("(swank:interactive-eval \"(from-window)\")")),
                 QStringLiteral("(:return (:ok \"=> :WINDOW\") 3)"));
    }

    void editorJobsTakeTheirTurnInTheQueue()
    {
        // A window's job runs; the editor's waits behind it, then runs.
        JobRequest slow;
        slow.code = QStringLiteral("(progn (sleep 0.5) (defparameter *order* (list :window)))");
        const quint64 window = m_host->lisp.session.submit(slow);
        const int id = m_editor->rex(QStringLiteral("(swank:interactive-eval \"(push :editor *order*)\")"));
        QCOMPARE(m_editor->waitReturn(id), QStringLiteral("(:return (:ok \"=> (:EDITOR :WINDOW)\") %1)").arg(id));
        QVERIFY(m_host->lisp.waitFor(window)->result.ok());
    }

    void compilingAFormCompilesItNativelyAndRecordsIt()
    {
        const QString reply = evaluate(QStringLiteral(
            "(swank:compile-string-for-emacs \"(defun compiled-in-editor (x) (+ x 100))\" \"buffer.lisp\" "
            "'((:position 1) (:line 1 1)) nil nil)"));
        QVERIFY2(reply.startsWith(QLatin1String("(:return (:ok (:compilation-result nil t ")), qPrintable(reply));
        const JobPtr job = m_host->finishedJobOf(m_host->requestWith(QStringLiteral("compiled-in-editor")));
        QVERIFY(job && job->result.ok());
        QVERIFY(hasDefined(job, QStringLiteral("COMPILED-IN-EDITOR")));
        QCOMPARE(m_host->lisp.result(QStringLiteral("(list (compiled-in-editor 1) (compiled-function-p #'compiled-in-editor))")).values,
                 QStringList{QStringLiteral("(101 T)")});
    }

    void theReplPrintsItsValuesAndFollowsInPackage()
    {
        QVERIFY(evaluate(QStringLiteral("(swank-repl:create-repl nil :coding-system \"utf-8-unix\")"))
                    .startsWith(QLatin1String("(:return (:ok (\"COMMON-LISP-USER\" \"CL-USER\"))")));
        const int id = m_editor->rex(QStringLiteral("(swank-repl:listener-eval \"(progn (princ \\\"hello\\\") (values 1 2))\")"),
                                     QStringLiteral(":repl-thread"));
        QCOMPARE(m_editor->waitReturn(id), QStringLiteral("(:return (:ok nil) %1)").arg(id));
        QVERIFY(m_editor->messages.contains(QStringLiteral("(:write-string \"1\n\" :repl-result)")));
        QVERIFY(m_editor->messages.contains(QStringLiteral("(:write-string \"2\n\" :repl-result)")));
        QVERIFY2(!m_editor->waitFor([](const QString &m) { return m.startsWith(QLatin1String("(:write-string \"hello\""));
                                    }).isEmpty(), "the job's output reaches the editor's REPL");
        const JobPtr job = m_host->finishedJobOf(m_host->requestWith(QStringLiteral("hello")));
        QCOMPARE(job->result.values, (QStringList{QStringLiteral("1"), QStringLiteral("2")}));
        QCOMPARE(job->result.stdoutText, QStringLiteral("hello"));
        // An IN-PACKAGE in the REPL moves the REPL (and, as in the window's REPL, the session).
        QVERIFY(m_host->lisp.result(QStringLiteral("(defpackage :editor-place (:use :cl))")).ok());
        const int moved = m_editor->rex(QStringLiteral("(swank-repl:listener-eval \"(in-package :editor-place)\")"),
                                        QStringLiteral(":repl-thread"));
        QVERIFY(!m_editor->waitReturn(moved).isEmpty());
        QVERIFY(m_editor->messages.contains(QStringLiteral("(:new-package \"EDITOR-PLACE\" \"EDITOR-PLACE\")")));
    }

    void anErrorOpensTheEditorsDebuggerOnTheSharedLevel()
    {
        QVERIFY(m_host->lisp.result(QStringLiteral("(defun halve-by-zero (x) (let ((y (* x 2))) (/ y 0)))")).ok());
        const int id = m_editor->rex(QStringLiteral("(swank:interactive-eval \"(halve-by-zero 21)\")"));
        QString thread;
        const QString debug = m_editor->waitDebug(&thread);
        QVERIFY2(debug.contains(QLatin1String("[Condition of type DIVISION-BY-ZERO]")), qPrintable(debug));
        QVERIFY2(debug.contains(QLatin1String("(\"RETRY\" ")) && debug.contains(QLatin1String("(\"ABORT\" ")), qPrintable(debug));
        QVERIFY2(debug.contains(QLatin1String("(1 \"(HALVE-BY-ZERO 21)\")")), qPrintable(debug));
        // The same level is the shared debugger's.
        const JobPtr parked = m_host->lisp.session.job(m_host->jobOf.value(m_host->requestWith(QStringLiteral("halve-by-zero 21"))));
        QVERIFY(m_host->lisp.waitParked(parked->id));
        // Its frames' locals, and an evaluation in a frame (a job of its own).
        const int locals = m_editor->rex(QStringLiteral("(swank:frame-locals-and-catch-tags 1)"), thread);
        QCOMPARE(m_editor->waitReturn(locals),
                 QStringLiteral("(:return (:ok (((:name \"X\" :id 0 :value \"21\") (:name \"Y\" :id 1 :value \"42\")) nil)) %1)").arg(locals));
        const int inspected = m_editor->rex(QStringLiteral("(swank:inspect-current-condition)"), thread);
        QVERIFY2(m_editor->waitReturn(inspected).startsWith(QLatin1String("(:return (:ok (:title \"#<division-by-zero ")),
                 qPrintable(m_editor->waitReturn(inspected)));
        const int variable = m_editor->rex(QStringLiteral("(swank:inspect-frame-var 1 1)"), thread);
        QVERIFY2(m_editor->waitReturn(variable).contains(QLatin1String("(\"Value: 42 = #x0000002A")), // Y, as Swank's inspector shows it
                 qPrintable(m_editor->waitReturn(variable)));
        const int inFrame = m_editor->rex(QStringLiteral("(swank:eval-string-in-frame \"(+ y 1)\" 1 \"COMMON-LISP-USER\")"), thread);
        QCOMPARE(m_editor->waitReturn(inFrame), QStringLiteral("(:return (:ok \"=> 43 (6 bits, #x2B, #o53, #b101011)\") %1)").arg(inFrame));
        QCOMPARE(m_host->waitEvent(QStringLiteral("editor-request"), [](const QJsonObject &e) {
                     return e.value(QStringLiteral("kind")).toString() == QLatin1String("frame-eval");
                 }).value(QStringLiteral("request")).toObject().value(QStringLiteral("op")).toString(),
                 QStringLiteral("debugger-eval"));
        // The editor's q: the host hears its choice and invokes it; SLDB closes.
        m_editor->rex(QStringLiteral("(swank:sldb-abort)"), thread);
        const QJsonObject choice = m_host->waitEvent(QStringLiteral("editor-restart"));
        QCOMPARE(choice.value(QStringLiteral("restart_name")).toString(), QStringLiteral("ABORT"));
        QCOMPARE(choice.value(QStringLiteral("target")).toInteger(), qint64(parked->id));
        QVERIFY(!m_editor->waitFor([](const QString &m) { return m.startsWith(QLatin1String("(:debug-return ")); }).isEmpty());
        QVERIFY2(m_editor->waitReturn(id).startsWith(QStringLiteral("(:return (:abort \"DIVISION-BY-ZERO: ")), qPrintable(m_editor->waitReturn(id)));
        QCOMPARE(m_host->lisp.waitFor(parked->id)->result.status, JobResult::Status::Error);
        QCOMPARE(m_host->lisp.result(QStringLiteral("(+ 1 2)")).values, QStringList{QStringLiteral("3")});
    }

    void aChoiceMadeElsewhereClosesTheEditorsDebugger()
    {
        const int id = m_editor->rex(QStringLiteral("(swank:interactive-eval \"(progn (cerror \\\"Go on.\\\" \\\"stopped\\\") :went-on)\")"));
        QString thread;
        QVERIFY(m_editor->waitDebug(&thread).contains(QLatin1String("(\"CONTINUE\" \"Go on.\")")));
        const JobPtr parked = m_host->lisp.session.job(m_host->jobOf.value(m_host->requestWith(QStringLiteral("cerror"))));
        QVERIFY(m_host->lisp.waitParked(parked->id));
        // The window answers first: the editor's SLDB closes, the evaluation goes on there.
        QVERIFY(m_host->lisp.session.debugger()->invokeRestart(parked->debugger->id, QStringLiteral("CONTINUE"), {}, Origin::person()));
        QVERIFY(!m_editor->waitFor([](const QString &m) { return m.startsWith(QLatin1String("(:debug-return ")); }).isEmpty());
        QCOMPARE(m_editor->waitReturn(id), QStringLiteral("(:return (:ok \"=> :WENT-ON\") %1)").arg(id));
    }

    void theEditorsInterruptStopsItsJobAsTheWindowsDoes()
    {
        const int id = m_editor->rex(QStringLiteral("(swank:interactive-eval \"(progn (close (open \\\"%1\\\" :direction :output)) (loop))\")")
                                         .arg(m_host->folder.filePath(QStringLiteral("began"))));
        const qint64 number = m_host->requestWith(QStringLiteral("(loop)"));
        // Running in the engine, not only sent there (the host's "running"): it made its file.
        QVERIFY(QTest::qWaitFor([&] { return QFile::exists(m_host->folder.filePath(QStringLiteral("began"))); }, 30000));
        m_editor->send(QStringLiteral("(:emacs-interrupt t)"));
        const QJsonObject interrupt = m_host->waitEvent(QStringLiteral("editor-interrupt"));
        QCOMPARE(interrupt.value(QStringLiteral("state")).toString(), QStringLiteral("running"));
        QCOMPARE(interrupt.value(QStringLiteral("editor_request")).toInteger(), number);
        // With the debugger on, the job parks where it was: SLDB offers CONTINUE.
        QString thread;
        const QString debug = m_editor->waitDebug(&thread);
        QVERIFY2(debug.contains(QLatin1String("LISP-DUET:EVALUATION-INTERRUPTED")) && debug.contains(QLatin1String("(\"CONTINUE\" ")),
                 qPrintable(debug));
        m_editor->rex(QStringLiteral("(swank:throw-to-toplevel)"), thread);
        QCOMPARE(m_editor->waitReturn(id), QStringLiteral("(:return (:abort \"Interrupted (in Lisp Duet)\") %1)").arg(id));
        QCOMPARE(m_host->finishedJobOf(number)->result.status, JobResult::Status::Interrupted);
    }

    void anInterruptBeforeItsTurnDropsTheRequest()
    {
        m_host->queueRequests = false; // a long queue: the host holds it
        const int id = m_editor->rex(QStringLiteral("(swank:interactive-eval \"(defparameter *never-ran* t)\")"));
        QVERIFY(QTest::qWaitFor([&] { return !m_host->held.isEmpty(); }, 10000));
        m_editor->send(QStringLiteral("(:emacs-interrupt t)"));
        QCOMPARE(m_host->waitEvent(QStringLiteral("editor-interrupt")).value(QStringLiteral("state")).toString(),
                 QStringLiteral("queued"));
        QVERIFY2(m_editor->waitReturn(id).contains(QLatin1String("Lisp Duet did not run it: It was interrupted before it ran\") ")),
                 qPrintable(m_editor->waitReturn(id)));
        // The host's job for it, had it been sent anyway, runs nothing.
        const quint64 late = m_host->queue(m_host->held.first());
        QCOMPARE(m_host->lisp.waitFor(late)->result.error.type, QStringLiteral("EDITOR-REQUEST-GONE"));
        QCOMPARE(m_host->lisp.result(QStringLiteral("(boundp '*never-ran*)")).values, QStringList{QStringLiteral("NIL")});
    }

    void aDisconnectedEditorsRunningJobEndsAndItsQueuedOnesAreDropped()
    {
        m_host->queueRequests = false;
        m_editor->rex(QStringLiteral("(swank:interactive-eval \"(progn (defparameter *begun* t) (sleep 0.5) (defparameter *finished* :yes))\")"));
        m_editor->rex(QStringLiteral("(swank:interactive-eval \"(defparameter *dropped* t)\")"));
        QVERIFY(QTest::qWaitFor([&] { return m_host->held.size() == 2; }, 10000));
        // Swank serves each request on a thread of its own: they may come in either order.
        const bool sleepFirst = m_host->held.first().value(QStringLiteral("request")).toObject()
                                    .value(QStringLiteral("code")).toString().contains(QLatin1String("sleep"));
        const QJsonObject sleeping = m_host->held.takeAt(sleepFirst ? 0 : 1);
        const quint64 running = m_host->queue(sleeping);
        // Running in the engine, not only sent to it: the host marks a job running when its line
        // is written, and under load the worker may not have begun it when the editor leaves
        // (then the engine drops it with the queued one).
        QVERIFY(QTest::qWaitFor([&] { return engineSays(QStringLiteral("*begun*")) == QStringLiteral("T"); }, 10000));
        m_editor->socket.abort();
        const QJsonObject gone = m_host->waitEvent(QStringLiteral("editor-disconnected"));
        QCOMPARE(gone.value(QStringLiteral("dropped")).toArray(),
                 QJsonArray{m_host->held.first().value(QStringLiteral("editor_request"))});
        QVERIFY(m_host->lisp.waitFor(running)->result.ok());
        QCOMPARE(m_host->lisp.result(QStringLiteral("(list *finished* (boundp '*dropped*))")).values,
                 QStringList{QStringLiteral("(:YES NIL)")});
    }

    void quitFromTheEditorIsRefusedAndTheSessionGoesOn()
    {
        const int id = m_editor->rex(QStringLiteral("(swank:interactive-eval \"(ext:quit)\")"));
        QString thread;
        QVERIFY(m_editor->waitDebug(&thread).contains(QLatin1String("[Condition of type LISP-DUET:QUIT-REFUSED]")));
        m_editor->rex(QStringLiteral("(swank:sldb-abort)"), thread);
        QVERIFY(m_editor->waitReturn(id).startsWith(QStringLiteral("(:return (:abort \"LISP-DUET:QUIT-REFUSED: ")));
        QCOMPARE(evaluate(QStringLiteral("(swank:interactive-eval \"(+ 20 22)\")")).left(26), QStringLiteral("(:return (:ok \"=> 42 (6 bi"));
    }

    void aMacroTheEditorCompiledIsNativeWithNoReason()
    {
        // C-c C-k of a file with a macro: ECL defines it for the compiler while the file
        // compiles; that is not a definition for the background compiler (issue 40: it said
        // "Runs interpreted" with ECL's internal text while list-definitions said native).
        const QString file = m_host->folder.filePath(QStringLiteral("twice.lisp"));
        QFile source(file);
        QVERIFY(source.open(QIODevice::WriteOnly));
        source.write("(defmacro twice (x) `(progn ,x ,x))\n(defun use-twice () (twice (print 1)))\n");
        source.close();
        const QString compiled = evaluate(QStringLiteral("(swank:compile-file-for-emacs \"%1\" t)").arg(file), 120000);
        QVERIFY2(compiled.contains(QLatin1String("(:compilation-result nil t ")), qPrintable(compiled));
        QVERIFY(evaluate(QStringLiteral("(swank:load-file \"%1\")").arg(QString(file).replace(QLatin1String(".lisp"), QLatin1String(".fas")))).startsWith(QLatin1String("(:return (:ok ")));
        bool settled = false;
        m_host->lisp.session.query({QStringLiteral("native-settle"), {{QStringLiteral("timeout_ms"), 30000}}},
                                   [&](const QJsonObject &) { settled = true; });
        QVERIFY(QTest::qWaitFor([&] { return settled; }, 40000));
        QJsonObject listed;
        bool answered = false;
        m_host->lisp.session.query({QStringLiteral("definitions"), {{QStringLiteral("pattern"), QStringLiteral("TWICE")}}},
                                   [&](const QJsonObject &reply) { listed = reply; answered = true; });
        QVERIFY(QTest::qWaitFor([&] { return answered; }, 30000));
        const QJsonObject twice = listed.value(QStringLiteral("definitions")).toArray().first().toObject();
        QCOMPARE(twice.value(QStringLiteral("execution")).toString(), QStringLiteral("native"));
        QVERIFY2(twice.value(QStringLiteral("native_reason")).isNull(), qPrintable(twice.value(QStringLiteral("native_reason")).toString()));
    }

    void loadingAFileRecordsItsSource()
    {
        const QString file = m_host->folder.filePath(QStringLiteral("from-editor.lisp"));
        QFile source(file);
        QVERIFY(source.open(QIODevice::WriteOnly));
        source.write("(defun loaded-by-editor () :loaded)\n");
        source.close();
        const QString reply = evaluate(QStringLiteral("(swank:load-file \"%1\")").arg(file));
        QVERIFY2(reply.startsWith(QLatin1String("(:return (:ok \"#P")) && reply.contains(QLatin1String("from-editor.lisp")),
                 qPrintable(reply)); // what LOAD returned (ECL: the truename), as Swank says it
        const JobPtr job = m_host->finishedJobOf(m_host->requestWith(QStringLiteral("from-editor.lisp")));
        QCOMPARE(job->result.reply.value(QStringLiteral("loaded_files")).toArray(), QJsonArray{file});
        QCOMPARE(m_host->lisp.result(QStringLiteral("(loaded-by-editor)")).values, QStringList{QStringLiteral(":LOADED")});
    }
};

QTEST_MAIN(TestEditorJobs)
#include "tst_editorjobs.moc"
