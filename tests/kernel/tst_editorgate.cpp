// Every evaluation from the person's editor goes through the session (issues 40 and 41): a
// form that is not one of Swank's read-only requests, even a raw (:emacs-rex (cl:loop) ...),
// runs as a job (queued, time limited, interruptible, in the window's and agents' records);
// the inspector's evaluations, C-c E, eval-and-grab-output, interactive-eval-region and
// pprint-eval too; read-only questions are answered at once while a job runs; quit-lisp is
// refused in words and the connection goes on; the kernel's threads are not in SLIME's thread
// list; an editor that disconnects with SLDB open leaves its evaluation in the shared debugger.

#include "../common/EditorHost.h"

#include <QTest>

class TestEditorGate : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EditorHost> m_host;
    std::unique_ptr<SwankClient> m_editor;

    QString ask(const QString &form, const QString &thread = QStringLiteral("t"), int ms = 30000)
    {
        return m_editor->ask(form, thread, ms);
    }
    // The kinds of the editor's requests the host was asked to run, in order.
    QStringList requestKinds() const
    {
        QStringList kinds;
        for (const QJsonObject &event : std::as_const(m_host->events))
            if (event.value(QStringLiteral("event")).toString() == QLatin1String("editor-request"))
                kinds << event.value(QStringLiteral("kind")).toString();
        return kinds;
    }
    QString codeOf(const QString &kind) const
    {
        for (const QJsonObject &event : std::as_const(m_host->events))
            if (event.value(QStringLiteral("kind")).toString() == kind)
                return event.value(QStringLiteral("request")).toObject().value(QStringLiteral("code")).toString();
        return QStringLiteral("<none>");
    }

private Q_SLOTS:
    void init()
    {
        DUET_START_EDITOR_HOST(m_host);
        m_editor = std::make_unique<SwankClient>();
        QVERIFY(m_host->connect(*m_editor));
        QVERIFY(!ask(QStringLiteral("(swank:connection-info)")).isEmpty());
    }
    void cleanup()
    {
        m_editor.reset();
        m_host.reset();
    }

    void anyOtherFormIsAJobOfTheSession()
    {
        QCOMPARE(ask(QStringLiteral("(cl:+ 1 2)")), QStringLiteral("(:return (:ok 3) 2)"));
        QCOMPARE(requestKinds(), QStringList{QStringLiteral("slime-eval")});
        QCOMPARE(codeOf(QStringLiteral("slime-eval")), QStringLiteral("(+ 1 2)"));
        const JobPtr job = m_host->finishedJobOf(m_host->requestWith(QStringLiteral("(+ 1 2)")));
        QVERIFY(job && job->result.ok());
        QCOMPARE(job->request.origin.name, QStringLiteral("the person, in Emacs"));
        // A Swank request whose arguments are not literal is code too: it runs in the job.
        QCOMPARE(ask(QStringLiteral("(swank:interactive-eval (cl:format nil \"(* ~D 7)\" 6))")),
                 QStringLiteral("(:return (:ok \"=> 42 (6 bits, #x2A, #o52, #b101010)\") 3)"));
        QVERIFY(requestKinds().contains(QStringLiteral("slime-eval")));
    }

    void aRawLoopIsTimeLimitedAndInterruptible()
    {
        const int id = m_editor->rex(QStringLiteral("(cl:progn (cl:close (cl:open \"%1\" :direction :output)) (cl:loop))")
                                         .arg(m_host->folder.filePath(QStringLiteral("began"))));
        const qint64 number = m_host->requestWith(QStringLiteral("(loop)"));
        QVERIFY(codeOf(QStringLiteral("slime-eval")).startsWith(QLatin1String("(progn (close (open ")));
        // Running in the engine, not only sent there (the host's "running"): it made its file.
        QVERIFY(QTest::qWaitFor([&] { return QFile::exists(m_host->folder.filePath(QStringLiteral("began"))); }, 30000));
        // The window's Interrupt (or the job's time limit) stops it: it is an ordinary job,
        // with the debugger on as for all the person's work, so it parks as a break.
        QVERIFY(m_host->lisp.session.cancel(m_host->jobOf.value(number), QStringLiteral("stopped in the window"), Origin::person()));
        QString thread;
        QVERIFY(m_editor->waitDebug(&thread).contains(QLatin1String("LISP-DUET:EVALUATION-INTERRUPTED")));
        m_editor->rex(QStringLiteral("(swank:throw-to-toplevel)"), thread);
        QCOMPARE(m_editor->waitReturn(id), QStringLiteral("(:return (:abort \"Interrupted (in Lisp Duet)\") %1)").arg(id));
        QCOMPARE(m_host->finishedJobOf(number)->result.status, JobResult::Status::Interrupted);
    }

    void evaluationsOutsideTheBuffersAreJobsToo()
    {
        QCOMPARE(ask(QStringLiteral("(swank:eval-and-grab-output \"(progn (princ :out) (+ 1 1))\")")),
                 QStringLiteral("(:return (:ok (\"OUT\" \"2\")) 2)"));
        QCOMPARE(ask(QStringLiteral("(swank:interactive-eval-region \"(defvar *region* 5) (* *region* 2)\")")),
                 QStringLiteral("(:return (:ok \"=> 10 (4 bits, #xA, #o12, #b1010)\") 3)"));
        QCOMPARE(ask(QStringLiteral("(swank:pprint-eval \"(list 1 2)\")")), QStringLiteral("(:return (:ok \"\n(1 2)\n\") 4)"));
        // C-c I, then the inspector's e: both evaluate the person's text.
        QVERIFY(ask(QStringLiteral("(swank:init-inspector \"(list :a :b)\")")).contains(QLatin1String("(:value \":A\" ")));
        QCOMPARE(ask(QStringLiteral("(swank:inspector-eval \"(length *)\")")), QStringLiteral("(:return (:ok \"2\") 6)"));
        // C-c E: the value to edit, then the new value set.
        QVERIFY(m_host->lisp.result(QStringLiteral("(defparameter *edited* (list 1 2))")).ok());
        QCOMPARE(ask(QStringLiteral("(swank:value-for-editing \"*edited*\")")), QStringLiteral("(:return (:ok \"(1 2)\") 7)"));
        QCOMPARE(ask(QStringLiteral("(swank:commit-edited-value \"*edited*\" \"(3 4)\")")), QStringLiteral("(:return (:ok t) 8)"));
        QCOMPARE(m_host->lisp.result(QStringLiteral("*edited*")).values, QStringList{QStringLiteral("(3 4)")});
        QCOMPARE(requestKinds(), (QStringList{QStringLiteral("eval-and-grab-output"), QStringLiteral("interactive-eval"),
                                              QStringLiteral("pprint-eval"), QStringLiteral("inspect"), QStringLiteral("inspector-eval"),
                                              QStringLiteral("edit-value"), QStringLiteral("edit-value")}));
        QCOMPARE(codeOf(QStringLiteral("inspector-eval")), QStringLiteral("(length *)"));
        // Each is a job of the person's editor, in the session's records.
        const JobPtr inspected = m_host->finishedJobOf(m_host->requestWith(QStringLiteral("(length *)")));
        QVERIFY(inspected && inspected->result.ok());
        QCOMPARE(inspected->request.tool, QStringLiteral("inspector-eval"));
    }

    void readOnlyQuestionsAreAnsweredWhileAJobRuns()
    {
        JobRequest slow;
        slow.code = QStringLiteral("(sleep 4)");
        const quint64 running = m_host->lisp.session.submit(slow);
        // The job leaves the session's table when it ends: a descheduled test may not find it.
        QVERIFY(QTest::qWaitFor([&] {
            const JobPtr job = m_host->lisp.session.job(running);
            return job && job->state == Job::State::Running;
        }, 10000));
        QElapsedTimer clock;
        clock.start();
        QVERIFY(ask(QStringLiteral("(swank:completions \"mapc\" \"COMMON-LISP-USER\")")).contains(QLatin1String("\"mapcar\"")));
        QVERIFY(ask(QStringLiteral("(swank:operator-arglist \"mapcar\" \"COMMON-LISP-USER\")")).contains(QLatin1String("FUNCTION")));
        QVERIFY(ask(QStringLiteral("(swank:describe-symbol \"car\")")).startsWith(QLatin1String("(:return (:ok ")));
        QVERIFY(ask(QStringLiteral("(swank:xref :calls \"car\")")).startsWith(QLatin1String("(:return (:ok ")));
        // What SLIME sends by itself as the person types: never a job.
        QVERIFY(ask(QStringLiteral("(swank:buffer-first-change \"/tmp/x.lisp\")")).startsWith(QLatin1String("(:return (:ok ")));
        QVERIFY(ask(QStringLiteral("(swank:autodoc '(\"mapcar\" \"\" swank::%cursor-marker%) :print-right-margin 80)"))
                    .contains(QLatin1String("mapcar")));
        QVERIFY(ask(QStringLiteral("(swank:fuzzy-completions \"mapc\" \"COMMON-LISP-USER\" :limit 300 :time-limit-in-msec 1500)"))
                    .startsWith(QLatin1String("(:return (:ok ")));
        QVERIFY(ask(QStringLiteral("(swank:find-definitions-for-emacs \"mapcar\")")).startsWith(QLatin1String("(:return (:ok ")));
        QVERIFY2(clock.elapsed() < 3000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(!m_host->lisp.done.contains(running));
        QVERIFY(requestKinds().isEmpty());
    }

    void quitIsRefusedInWordsAndTheConnectionGoesOn()
    {
        const QString refused = ask(QStringLiteral("(swank:quit-lisp)"));
        QVERIFY2(refused.startsWith(QLatin1String("(:return (:abort \"Lisp Duet keeps this Lisp running: it is shared with Lisp Duet's window and the agents.")),
                 qPrintable(refused));
        QVERIFY(!refused.contains(QLatin1String("..")));
        QVERIFY(ask(QStringLiteral("(swank:quit-lisp)")).startsWith(QLatin1String("(:return (:abort \"Lisp Duet keeps")));
        QCOMPARE(ask(QStringLiteral("(swank:interactive-eval \"(+ 20 22)\")")), QStringLiteral("(:return (:ok \"=> 42 (6 bits, #x2A, #o52, #b101010)\") 4)"));
        QCOMPARE(m_host->lisp.result(QStringLiteral("(+ 1 2)")).values, QStringList{QStringLiteral("3")});
    }

    void theKernelsThreadsAreNotInSlimesThreadList()
    {
        const QString threads = ask(QStringLiteral("(swank:list-threads)"));
        QVERIFY2(threads.contains(QLatin1String("\"control-thread\"")), qPrintable(threads));
        QVERIFY2(!threads.contains(QLatin1String("lisp-duet")) && !threads.contains(QLatin1String("TOP-LEVEL")), qPrintable(threads));
        // Killing every thread the list offers but the connection's own leaves the session serving.
        const QStringList rows = threads.split(QLatin1String(") ("));
        for (int i = rows.size() - 1; i >= 1; --i)
            if (!rows[i].contains(QLatin1String("thread\"")) && !rows[i].contains(QLatin1String("Swank")))
                ask(QStringLiteral("(swank:kill-nth-thread %1)").arg(i - 1));
        QCOMPARE(m_host->lisp.result(QStringLiteral("(+ 1 2)")).values, QStringList{QStringLiteral("3")});
        QVERIFY(m_host->lisp.session.debugger());
    }

    void anEditorThatLeavesWithSldbOpenLeavesItsDebuggerToTheOthers()
    {
        m_editor->rex(QStringLiteral("(swank:interactive-eval \"(error \\\"left open\\\")\")"));
        QString thread;
        m_editor->waitDebug(&thread);
        const JobPtr parked = m_host->lisp.session.job(m_host->jobOf.value(m_host->requestWith(QStringLiteral("left open"))));
        const DebuggerPtr debugger = m_host->lisp.waitParked(parked->id);
        QVERIFY(debugger);
        m_editor->socket.abort();
        QVERIFY(!m_host->waitEvent(QStringLiteral("editor-disconnected")).isEmpty());
        // Still parked, for the window and the agents; answered there, the job ends.
        QVERIFY(debugger->isOpen());
        QVERIFY(m_host->lisp.session.debugger()->invokeRestart(debugger->id, QStringLiteral("ABORT"), {}, Origin::person()));
        QCOMPARE(m_host->lisp.waitFor(parked->id)->result.status, JobResult::Status::Error);
        // A new connection works; inspecting a frame of the closed debugger says so.
        SwankClient again;
        QVERIFY(m_host->connect(again));
        const int id = again.rex(QStringLiteral("(swank:interactive-eval \"(+ 2 3)\")"));
        QCOMPARE(again.waitReturn(id), QStringLiteral("(:return (:ok \"=> 5 (3 bits, #x5, #o5, #b101)\") %1)").arg(id));
        const int late = again.rex(QStringLiteral("(swank:inspect-frame-var 0 0)"), thread);
        QVERIFY(!again.waitFor([&](const QString &m) {
            return m.startsWith(QLatin1String("(:invalid-rpc ")) || m.endsWith(QStringLiteral(" %1)").arg(late));
        }).isEmpty());
        QCOMPARE(m_host->lisp.result(QStringLiteral("(+ 1 2)")).values, QStringList{QStringLiteral("3")});
    }
};

QTEST_MAIN(TestEditorGate)
#include "tst_editorgate.moc"
