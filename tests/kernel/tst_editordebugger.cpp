// The person's editor in the shared debugger (issue 40): frames for the code the editor
// compiled (C-c C-c, C-c C-k at (debug 3), the session's policy untouched) and for a form
// typed at the REPL; SLDB's v (source) and i (inspect in a frame); a request interrupted while
// it waits inside SLDB ends alone; an agent's parked evaluation opened and answered from the
// editor, first answer winning. EditorHost is the host, a SwankClient the editor.

#include "../common/EditorHost.h"
#include "../common/TestFiles.h"

#include <QTest>

class TestEditorDebugger : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EditorHost> m_host;
    std::unique_ptr<SwankClient> m_editor;

    QString ask(const QString &form, const QString &thread = QStringLiteral("t"), int ms = 30000)
    {
        return m_editor->ask(form, thread, ms);
    }
    static QString answer(const QString &reply) // "(:return (:ok X) 7)" -> "X"
    {
        const qsizetype start = reply.indexOf(QLatin1String("(:ok "));
        return start < 0 ? reply : reply.mid(start + 5, reply.lastIndexOf(QLatin1Char(')'), reply.lastIndexOf(QLatin1Char(' '))) - start - 5);
    }
    QString policy()
    {
        return m_host->lisp.result(QStringLiteral("(progn (require :cmp) (list c::*safety* c::*speed* c::*debug* c::*space*))")).values.value(0);
    }
    QString compileDefun(const QString &code)
    {
        QString escaped = code;
        escaped.replace(QLatin1Char('"'), QLatin1String("\\\""));
        return ask(QStringLiteral("(swank:compile-string-for-emacs \"%1\" \"shapes.lisp\" '((:position 1) (:line 1 1)) nil nil)").arg(escaped), QStringLiteral("t"), 60000);
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

    void codeCompiledByTheEditorKeepsItsFramesAndLocals()
    {
        const QString before = policy();
        QVERIFY2(compileDefun(QStringLiteral("(defun square-it (x) (let ((y (* x x))) (+ y (car x))))")).contains(QLatin1String("(:compilation-result nil t ")),
                 qPrintable(m_editor->messages.join(QLatin1Char('\n'))));
        QCOMPARE(m_host->lisp.result(QStringLiteral("(compiled-function-p #'square-it)")).values, QStringList{QStringLiteral("T")});
        const int id = m_editor->rex(QStringLiteral("(swank:interactive-eval \"(square-it 3)\")"));
        QString thread;
        const QString debug = m_editor->waitDebug(&thread);
        QVERIFY2(debug.contains(QLatin1String("(1 \"(SQUARE-IT 3)\")")), qPrintable(debug));
        QCOMPARE(answer(ask(QStringLiteral("(swank:frame-locals-and-catch-tags 1)"), thread)),
                 QStringLiteral("(((:name \"X\" :id 0 :value \"3\") (:name \"Y\" :id 1 :value \"9\")) nil)"));
        // The shared debugger has the same frame with its locals (an agent's debugger-frame).
        const JobPtr parked = m_host->lisp.session.job(m_host->jobOf.value(m_host->requestWith(QStringLiteral("(square-it 3)"))));
        const DebuggerPtr shared = m_host->lisp.waitParked(parked->id);
        QVERIFY(shared);
        QCOMPARE(shared->frames.value(1).text, QStringLiteral("(SQUARE-IT 3)"));
        QVERIFY(shared->frames.value(1).localsAvailable);
        // v: C-c C-c's code is in its buffer (Swank's backend maps the compiled file back).
        QCOMPARE(answer(ask(QStringLiteral("(swank:frame-source-location 1)"), thread)),
                 QStringLiteral("(:location (:buffer \"shapes.lisp\") (:offset 0 0) (:align t))"));
        ask(QStringLiteral("(swank:sldb-abort)"), thread);
        QVERIFY(!m_editor->waitReturn(id).isEmpty());
        // The session's own policy is as it was: the editor's (debug 3) was bound, not proclaimed.
        QCOMPARE(policy(), before);
    }

    void aFileCompiledByTheEditorShowsItsFileAndPosition()
    {
        const QString file = m_host->folder.filePath(QStringLiteral("shapes.lisp"));
        QVERIFY(TestFiles::write(file, ";;; shapes\n\n(defun area (side) (let ((squared (* side side))) (/ squared (- side side))))\n"));
        // C-c C-k: compiled, then SLIME loads the fasl it names.
        const QString compiled = ask(QStringLiteral("(swank:compile-file-for-emacs \"%1\" t)").arg(file), QStringLiteral("t"), 120000);
        const QRegularExpressionMatch fasl = QRegularExpression(QStringLiteral("\"([^\"]+\\.fas)\"")).match(compiled);
        QVERIFY2(compiled.contains(QLatin1String("(:compilation-result nil t ")) && fasl.hasMatch(), qPrintable(compiled));
        QVERIFY(ask(QStringLiteral("(swank:load-file \"%1\")").arg(fasl.captured(1))).startsWith(QLatin1String("(:return (:ok ")));
        m_editor->rex(QStringLiteral("(swank:interactive-eval \"(area 4)\")"));
        QString thread;
        const QString debug = m_editor->waitDebug(&thread);
        QVERIFY2(debug.contains(QLatin1String("(AREA 4)")), qPrintable(debug));
        const int frame = debug.contains(QLatin1String("(0 \"(AREA 4)\")")) ? 0 : 1;
        QCOMPARE(answer(ask(QStringLiteral("(swank:frame-locals-and-catch-tags %1)").arg(frame), thread)),
                 QStringLiteral("(((:name \"SIDE\" :id 0 :value \"4\") (:name \"SQUARED\" :id 1 :value \"16\")) nil)"));
        // v: the file, at the defun (Swank's positions count from 1).
        QCOMPARE(answer(ask(QStringLiteral("(swank:frame-source-location %1)").arg(frame), thread)),
                 QStringLiteral("(:location (:file \"%1\") (:position 12) (:align t))").arg(file));
        ask(QStringLiteral("(swank:sldb-abort)"), thread);
    }

    void thePersonsOwnDebugLevelWins()
    {
        QVERIFY(m_host->lisp.result(QStringLiteral("(declaim (optimize (debug 0)))")).ok());
        QVERIFY(compileDefun(QStringLiteral("(defun fast-square (x) (let ((y (* x x))) (+ y (car x))))")).contains(QLatin1String(" t ")));
        m_editor->rex(QStringLiteral("(swank:interactive-eval \"(fast-square 3)\")"));
        QString thread;
        const QString debug = m_editor->waitDebug(&thread);
        QVERIFY2(!debug.contains(QLatin1String("(FAST-SQUARE 3)")), qPrintable(debug)); // native, no frame: as proclaimed
        ask(QStringLiteral("(swank:sldb-abort)"), thread);
    }

    void aFormTypedAtTheReplShowsItsOwnFrame()
    {
        m_editor->rex(QStringLiteral("(swank:interactive-eval \"(let ((n 31347740)) (error \\\"too big: ~A\\\" n))\")"));
        QString thread;
        const QString debug = m_editor->waitDebug(&thread);
        QVERIFY2(debug.contains(QLatin1String("(0 \"(LET ((N 31347740)) (ERROR \\\"too big: ~A\\\" N))\")")), qPrintable(debug));
        QCOMPARE(answer(ask(QStringLiteral("(swank:frame-locals-and-catch-tags 0)"), thread)),
                 QStringLiteral("(((:name \"N\" :id 0 :value \"31347740\")) nil)"));
        QCOMPARE(answer(ask(QStringLiteral("(swank:frame-source-location 0)"), thread)),
                 QStringLiteral("(:location (:source-form \"(LET ((N 31347740)) (ERROR \\\"too big: ~A\\\" N))\") (:position 1) nil)"));
        // A function the session defined by evaluation: v shows its definition's text.
        QVERIFY(m_host->lisp.result(QStringLiteral("(defun fails-here (z) (error \"no ~A\" z))")).ok());
        ask(QStringLiteral("(swank:sldb-abort)"), thread);
        m_editor->rex(QStringLiteral("(swank:interactive-eval \"(fails-here 2)\")"));
        const QString second = m_editor->waitDebug(&thread);
        QVERIFY2(second.contains(QLatin1String("(0 \"(FAILS-HERE 2)\")")), qPrintable(second));
        QVERIFY2(answer(ask(QStringLiteral("(swank:frame-source-location 0)"), thread)).startsWith(QLatin1String("(:location (:source-form \"(DEFUN FAILS-HERE (Z)")),
                 qPrintable(m_editor->messages.last()));
        ask(QStringLiteral("(swank:sldb-abort)"), thread);
    }

    void inspectingInAFrameIsAJobAndFillsTheInspector()
    {
        m_editor->rex(QStringLiteral("(swank:interactive-eval \"(let ((pair (cons 1 2))) (error \\\"stop ~A\\\" pair))\")"));
        QString thread;
        m_editor->waitDebug(&thread);
        const QString inspected = ask(QStringLiteral("(swank:inspect-in-frame \"pair\" 0)"), thread);
        QVERIFY2(inspected.startsWith(QLatin1String("(:return (:ok (:title ")) && inspected.contains(QLatin1String("(:value \"1\" ")),
                 qPrintable(inspected));
        QCOMPARE(m_host->waitEvent(QStringLiteral("editor-request"), [](const QJsonObject &e) {
                     return e.value(QStringLiteral("kind")).toString() == QLatin1String("frame-eval");
                 }).value(QStringLiteral("request")).toObject().value(QStringLiteral("code")).toString(),
                 QStringLiteral("pair"));
        // What SLDB cannot do here is said, not an empty answer (Emacs failed on NIL).
        QVERIFY2(ask(QStringLiteral("(swank:sldb-disassemble 0)"), thread).startsWith(QLatin1String("(:return (:abort \"sldb-disassemble is not available")),
                 qPrintable(m_editor->messages.last()));
        ask(QStringLiteral("(swank:sldb-abort)"), thread);
    }

    void anInterruptedRequestInsideSldbEndsAloneAndTheSldbStaysOpen()
    {
        const int parkedId = m_editor->rex(QStringLiteral("(swank:interactive-eval \"(let ((n 5)) (error \\\"parked ~A\\\" n))\")"));
        QString thread;
        m_editor->waitDebug(&thread);
        // An evaluation in a frame waits its turn behind a long job (an agent's, nested in the level).
        m_host->queueRequests = false;
        const int waiting = m_editor->rex(QStringLiteral("(swank:eval-string-in-frame \"(* n 2)\" 0 \"COMMON-LISP-USER\")"), thread);
        QVERIFY(QTest::qWaitFor([&] { return !m_host->held.isEmpty(); }, 10000));
        // C-c C-c (SLIME's interrupt) in the SLDB: it names that thread, whose innermost request waits.
        m_editor->send(QStringLiteral("(:emacs-interrupt %1)").arg(thread));
        QCOMPARE(m_host->waitEvent(QStringLiteral("editor-interrupt")).value(QStringLiteral("state")).toString(), QStringLiteral("queued"));
        QVERIFY2(m_editor->waitReturn(waiting).startsWith(QLatin1String("(:return (:abort \"Lisp Duet did not run it: ")),
                 qPrintable(m_editor->waitReturn(waiting)));
        // The parked request is still parked, its SLDB still open and serving.
        QTest::qWait(300);
        for (const QString &message : std::as_const(m_editor->messages))
            QVERIFY2(!message.startsWith(QLatin1String("(:debug-return ")) && !message.endsWith(QStringLiteral(" %1)").arg(parkedId)),
                     qPrintable(message));
        m_host->queueRequests = true;
        QCOMPARE(answer(ask(QStringLiteral("(swank:eval-string-in-frame \"(* n 3)\" 0 \"COMMON-LISP-USER\")"), thread)),
                 QStringLiteral("\"=> 15 (4 bits, #xF, #o17, #b1111)\""));
        ask(QStringLiteral("(swank:sldb-abort)"), thread);
        QVERIFY(m_editor->waitReturn(parkedId).startsWith(QLatin1String("(:return (:abort \"SIMPLE-ERROR: parked 5")));
        // An interrupt for a request that already ended, twice: nothing happens, the next one works.
        m_editor->send(QStringLiteral("(:emacs-interrupt t)"));
        m_editor->send(QStringLiteral("(:emacs-interrupt t)"));
        QCOMPARE(answer(ask(QStringLiteral("(swank:interactive-eval \"(+ 1 2)\")"))), QStringLiteral("\"=> 3 (2 bits, #x3, #o3, #b11)\""));
    }

    void theEditorsOwnChoiceIsNotAnnouncedAsSomeoneElses()
    {
        m_editor->rex(QStringLiteral("(swank:interactive-eval \"(error \\\"mine\\\")\")"));
        QString thread;
        m_editor->waitDebug(&thread);
        m_editor->rex(QStringLiteral("(swank:sldb-abort)"), thread);
        QVERIFY(!m_editor->waitFor([](const QString &m) { return m.startsWith(QLatin1String("(:debug-return ")); }).isEmpty());
        QTest::qWait(300);
        for (const QString &message : std::as_const(m_editor->messages))
            QVERIFY2(!message.contains(QLatin1String("chose ABORT")), qPrintable(message));
    }

    void anAgentsDebuggerIsAnsweredFromTheEditor()
    {
        const Origin agent = Origin::agent(QStringLiteral("claude-code"), QStringLiteral("claude-code"));
        const quint64 job = m_host->lisp.debugEval(QStringLiteral("(let ((x 7)) (cerror \"Use 35.\" \"agent stuck on ~A\" x) (+ x 35))"), agent);
        QVERIFY(m_host->lisp.waitParked(job));
        const QString listed = answer(ask(QStringLiteral("(lisp-duet.kernel::editor-debuggers)")));
        QVERIFY2(listed.contains(QStringLiteral("(:job %1 :level 1 ").arg(job)) && listed.contains(QLatin1String("SIMPLE-ERROR: agent stuck on 7"))
                     && listed.contains(QLatin1String(":restarts (\"CONTINUE\" \"RETRY\" \"ABORT\")")),
                 qPrintable(listed));
        const int opened = m_editor->rex(QStringLiteral("(lisp-duet.kernel::editor-open-debugger %1)").arg(job));
        QString thread;
        const QString debug = m_editor->waitDebug(&thread);
        QVERIFY2(debug.contains(QLatin1String("agent stuck on 7")) && debug.contains(QLatin1String("(\"CONTINUE\" \"Use 35.\")")), qPrintable(debug));
        QCOMPARE(answer(ask(QStringLiteral("(swank:frame-locals-and-catch-tags 0)"), thread)),
                 QStringLiteral("(((:name \"X\" :id 0 :value \"7\")) nil)"));
        // The person answers from Emacs: the host invokes it, the agent's evaluation goes on.
        m_editor->rex(QStringLiteral("(swank:invoke-nth-restart-for-emacs 1 0)"), thread);
        QCOMPARE(m_host->waitEvent(QStringLiteral("editor-restart")).value(QStringLiteral("target")).toInteger(), qint64(job));
        const JobPtr done = m_host->lisp.waitFor(job);
        QVERIFY(done);
        QCOMPARE(done->result.values, QStringList{QStringLiteral("42")});
        QVERIFY(!m_editor->waitFor([](const QString &m) { return m.startsWith(QLatin1String("(:debug-return ")); }).isEmpty());
        QCOMPARE(m_editor->waitReturn(opened), QStringLiteral("(:return (:ok nil) %1)").arg(opened));
    }

    void theFirstAnswerWinsWhenTheAgentAnswersFirst()
    {
        const Origin agent = Origin::agent(QStringLiteral("claude-code"), QStringLiteral("claude-code"));
        const quint64 job = m_host->lisp.debugEval(QStringLiteral("(error \"agent's own\")"), agent);
        const DebuggerPtr parked = m_host->lisp.waitParked(job);
        QVERIFY(parked);
        const int opened = m_editor->rex(QStringLiteral("(lisp-duet.kernel::editor-open-debugger %1)").arg(job));
        QString thread;
        QVERIFY(m_editor->waitDebug(&thread).contains(QLatin1String("agent's own")));
        QVERIFY(m_host->lisp.session.debugger()->invokeRestart(parked->id, QStringLiteral("ABORT"), {}, agent));
        QVERIFY(!m_editor->waitFor([](const QString &m) { return m.startsWith(QLatin1String("(:debug-return ")); }).isEmpty());
        QVERIFY(!m_editor->waitFor([](const QString &m) { return m.contains(QLatin1String("Lisp Duet: claude-code chose ABORT.")); }).isEmpty());
        QCOMPARE(m_editor->waitReturn(opened), QStringLiteral("(:return (:ok nil) %1)").arg(opened));
        // Too late now: opening it again says so.
        QVERIFY2(ask(QStringLiteral("(lisp-duet.kernel::editor-open-debugger %1)").arg(job)).contains(QLatin1String("is no longer parked")),
                 qPrintable(m_editor->messages.last()));
    }
};

QTEST_MAIN(TestEditorDebugger)
#include "tst_editordebugger.moc"
