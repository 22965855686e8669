// The person's real editor (issue 31): Debian's Emacs and SLIME 2.27, in batch mode
// (slime-session.el), against Swank inside lisp-duet-engine, with EditorHost as the host
// (the Session that queues what the editor asks for). SLIME connects with the person's secret
// and is refused without it; what it evaluates, compiles (C-c C-c, C-c C-k) and types at
// its REPL runs as jobs of the session, an agent's definition is there for it, its error is
// in the shared debugger while SLDB shows it, and the compilation policy stays.
// Skipped where Emacs or SLIME is not installed.

#include "../common/EditorHost.h"
#include "../common/TestFiles.h"

#include <QDir>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

class TestSlime : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EditorHost> m_host;
    QString m_emacs;

    // Emacs running slime-session.el with HOME `home`; its "DUET STEP text" lines by step.
    struct EmacsRun
    {
        QProcess process;
        QString output;
        QString step(const QString &name) const
        {
            const QString marker = QStringLiteral("DUET %1 ").arg(name);
            for (const QString &line : output.split(QLatin1Char('\n')))
                if (line.startsWith(marker))
                    return line.mid(marker.size());
            return QStringLiteral("<missing>");
        }
        bool has(const QString &name) const { return output.contains(QStringLiteral("DUET %1 ").arg(name)); }
    };

    void startEmacs(EmacsRun &run, const QString &home, bool expectRefused,
                    const QString &script = QStringLiteral(DUET_SOURCE_DIR "/tests/editor/slime-session.el"))
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("HOME"), home);
        environment.insert(QStringLiteral("SWANK_PORT"), QString::number(m_host->port));
        environment.insert(QStringLiteral("DUET_SIGNALS"), home);
        if (expectRefused)
            environment.insert(QStringLiteral("DUET_EXPECT_REFUSED"), QStringLiteral("1"));
        environment.insert(QStringLiteral("DUET_LISP_DUET_EL"), QStringLiteral(DUET_SOURCE_DIR "/resources/emacs/lisp-duet.el"));
        run.process.setProcessEnvironment(environment);
        run.process.setProcessChannelMode(QProcess::MergedChannels);
        QObject::connect(&run.process, &QProcess::readyRead, &run.process,
                         [&run] { run.output += QString::fromUtf8(run.process.readAll()); });
        // --batch reads no init file, only Debian's site start, which finds the slime package.
        run.process.start(m_emacs, {QStringLiteral("--batch"), QStringLiteral("-l"), script});
    }

    bool waitStep(EmacsRun &run, const QString &name, int ms = 60000)
    {
        const bool seen = QTest::qWaitFor([&] { return run.has(name) || run.process.state() == QProcess::NotRunning; }, ms);
        if (!run.has(name))
            qWarning().noquote() << "Emacs said:\n" << run.output;
        return seen && run.has(name);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_emacs = QStandardPaths::findExecutable(QStringLiteral("emacs"));
        if (m_emacs.isEmpty() || !QFile::exists(QStringLiteral("/usr/share/emacs/site-lisp/elpa/slime-2.27/slime-autoloads.el")))
            QSKIP("Debian's emacs-nox and slime are not installed");
    }

    void init()
    {
        DUET_START_EDITOR_HOST(m_host);
    }
    void cleanup() { m_host.reset(); }

    void slimeWorksInTheSharedSession()
    {
        const QString policy = QStringLiteral("(progn (require :cmp) (list c::*safety* c::*speed* c::*debug* c::*space*))");
        const QStringList policyBefore = m_host->lisp.result(policy).values;
        JobRequest agent;
        agent.code = QStringLiteral("(defun agent-fn (x) (list :agent x))");
        agent.origin = Origin::agent(QStringLiteral("claude-code"), QStringLiteral("claude-code"));
        QVERIFY(m_host->lisp.run(agent)->result.ok());

        EmacsRun emacs;
        startEmacs(emacs, m_host->folder.path(), false);
        QVERIFY(waitStep(emacs, QStringLiteral("SLDB-OPEN")));
        QCOMPARE(emacs.step(QStringLiteral("CONNECTED")), QStringLiteral("*slime-repl ECL*"));
        QCOMPARE(emacs.step(QStringLiteral("EVAL")), QStringLiteral("=> 3 (2 bits, #x3, #o3, #b11)"));
        QCOMPARE(emacs.step(QStringLiteral("AGENT")), QStringLiteral("=> (:AGENT 2)"));
        QCOMPARE(emacs.step(QStringLiteral("COMPILED")), QStringLiteral("t"));
        QCOMPARE(emacs.step(QStringLiteral("CALL")), QStringLiteral("=> (15 T)"));
        QCOMPARE(emacs.step(QStringLiteral("FILE")), QStringLiteral("=> :FILE"));
        QCOMPARE(emacs.step(QStringLiteral("REPL")), QStringLiteral("t"));
        QVERIFY2(emacs.step(QStringLiteral("SLDB-OPEN")).contains(QLatin1String("from the editor")),
                 qPrintable(emacs.step(QStringLiteral("SLDB-OPEN"))));

        // An agent sees the editor's error in the shared debugger (list-debuggers).
        const QList<DebuggerPtr> open = m_host->lisp.session.debugger()->openDebuggers();
        QCOMPARE(open.size(), 1);
        const JobPtr parked = m_host->lisp.session.job(open.first()->jobId);
        QVERIFY(parked);
        QCOMPARE(parked->request.origin.name, QStringLiteral("the person, in Emacs"));
        QCOMPARE(parked->result.error.message, QStringLiteral("from the editor"));
        QVERIFY(TestFiles::write(m_host->folder.filePath(QStringLiteral("agent-looked")), "yes"));

        QVERIFY(waitStep(emacs, QStringLiteral("DONE")));
        QCOMPARE(emacs.step(QStringLiteral("SLDB-CLOSED")), QStringLiteral("t"));
        QCOMPARE(emacs.step(QStringLiteral("AFTER")), QStringLiteral("=> 42 (6 bits, #x2A, #o52, #b101010)"));
        QVERIFY2(!emacs.has(QStringLiteral("ELISP-ERROR")), qPrintable(emacs.output));
        QVERIFY(QTest::qWaitFor([&] { return emacs.process.state() == QProcess::NotRunning; }, 10000));

        // What SLIME did, the session did, as the editor's jobs: the ledger's facts among them.
        QStringList kinds;
        bool compiledRecorded = false;
        for (const JobPtr &job : std::as_const(m_host->lisp.done)) {
            if (job->request.origin.name != QLatin1String("the person, in Emacs"))
                continue;
            kinds.append(job->request.tool);
            for (const QJsonValue &entry : job->result.reply.value(QStringLiteral("defined")).toArray())
                compiledRecorded |= entry.toObject().value(QStringLiteral("name")).toString() == QLatin1String("EMACS-COMPILED");
        }
        for (const QString &kind : {QStringLiteral("interactive-eval"), QStringLiteral("compile-string"),
                                    QStringLiteral("compile-file"), QStringLiteral("load-file"), QStringLiteral("listener-eval")})
            QVERIFY2(kinds.contains(kind), qPrintable(kinds.join(QLatin1Char(' '))));
        QVERIFY(compiledRecorded);
        QCOMPARE(m_host->lisp.result(policy).values, policyBefore);
    }

    void theDebuggerXrefAndQuitInEmacs()
    {
        const QString folder = m_host->folder.path();
        const auto present = [&](const QString &name) { return QFile::exists(QDir(folder).filePath(name)); };
        const auto say = [&](const QString &name) { return TestFiles::write(QDir(folder).filePath(name), "yes"); };
        EmacsRun emacs;
        startEmacs(emacs, folder, false, QStringLiteral(DUET_SOURCE_DIR "/tests/editor/slime-debugger.el"));
        // The SLDB's evaluation is held (a long queue), then interrupted in Emacs.
        QVERIFY2(QTest::qWaitFor([&] { return present(QStringLiteral("hold")) || emacs.has(QStringLiteral("DONE")); }, 180000), qPrintable(emacs.output));
        m_host->queueRequests = false;
        QVERIFY(say(QStringLiteral("holding")));
        QVERIFY2(QTest::qWaitFor([&] { return !m_host->held.isEmpty(); }, 30000), qPrintable(emacs.output));
        QVERIFY(say(QStringLiteral("held")));
        QVERIFY(waitStep(emacs, QStringLiteral("SLDB-AFTER-INTERRUPT")));
        m_host->queueRequests = true;
        // The shared debugger holds the same error, with AREA's frame and its locals.
        const QList<DebuggerPtr> open = m_host->lisp.session.debugger()->openDebuggers();
        QCOMPARE(open.size(), 1);
        bool areaWithLocals = false;
        for (const DebuggerFrame &frame : open.first()->frames)
            areaWithLocals |= frame.text == QLatin1String("(AREA 4)") && frame.localsAvailable;
        QVERIFY(areaWithLocals);
        QVERIFY(say(QStringLiteral("agent-looked")));
        // An agent's evaluation parks; Emacs opens it and answers.
        QVERIFY(QTest::qWaitFor([&] { return present(QStringLiteral("want-agent")) || emacs.has(QStringLiteral("DONE")); }, 120000));
        const quint64 agentJob = m_host->lisp.debugEval(QStringLiteral("(progn (cerror \"Go on with 42.\" \"the agent is stuck\") 42)"),
                                                        Origin::agent(QStringLiteral("claude-code"), QStringLiteral("claude-code")));
        QVERIFY(m_host->lisp.waitParked(agentJob));
        QVERIFY(say(QStringLiteral("agent-parked")));
        QVERIFY(waitStep(emacs, QStringLiteral("DONE"), 180000));
        QVERIFY2(!emacs.has(QStringLiteral("ELISP-ERROR")), qPrintable(emacs.output));
        QCOMPARE(emacs.step(QStringLiteral("CONNECTED")), QStringLiteral("t"));
        QCOMPARE(emacs.step(QStringLiteral("SLDB")), QStringLiteral("t"));
        QVERIFY2(emacs.step(QStringLiteral("LOCALS")).contains(QLatin1String("SIDE = 4"))
                     && emacs.step(QStringLiteral("LOCALS")).contains(QLatin1String("SQUARED = 16")),
                 qPrintable(emacs.step(QStringLiteral("LOCALS"))));
        QCOMPARE(emacs.step(QStringLiteral("SOURCE")), QStringLiteral("shapes.lisp:3"));
        QCOMPARE(emacs.step(QStringLiteral("SLDB-AFTER-INTERRUPT")), QStringLiteral("t"));
        QVERIFY2(emacs.step(QStringLiteral("XREF")).contains(QLatin1String("(DEFUN DESCRIBE-AREA)")), qPrintable(emacs.step(QStringLiteral("XREF"))));
        QCOMPARE(emacs.step(QStringLiteral("NATIVE-BEFORE-TRACE")), QStringLiteral("t"));
        QCOMPARE(emacs.step(QStringLiteral("TRACE")), QStringLiteral("DUET-SQUARED is now traced."));
        QVERIFY2(emacs.step(QStringLiteral("TRACED-OUTPUT")).contains(QLatin1String("DUET-SQUARED")), qPrintable(emacs.output));
        QCOMPARE(emacs.step(QStringLiteral("UNTRACE")), QStringLiteral("DUET-SQUARED is now untraced."));
        QCOMPARE(emacs.step(QStringLiteral("UNTRACED-OUTPUT")), QStringLiteral("=> \"\""));
        QCOMPARE(emacs.step(QStringLiteral("NATIVE-AFTER-UNTRACE")), QStringLiteral("t"));
        QCOMPARE(emacs.step(QStringLiteral("INSPECTOR-EVAL")), QStringLiteral("3"));
        QVERIFY2(emacs.step(QStringLiteral("AGENT-SLDB")).contains(QLatin1String("the agent is stuck")), qPrintable(emacs.output));
        QCOMPARE(emacs.step(QStringLiteral("AGENT-SLDB-CLOSED")), QStringLiteral("t"));
        QVERIFY2(emacs.step(QStringLiteral("QUIT")).contains(QLatin1String("Lisp Duet keeps this Lisp running")), qPrintable(emacs.output));
        QCOMPARE(emacs.step(QStringLiteral("AFTER-QUIT")), QStringLiteral("t => 42 (6 bits, #x2A, #o52, #b101010)"));
        QCOMPARE(m_host->lisp.waitFor(agentJob)->result.values, QStringList{QStringLiteral("42")});
        // The inspector's evaluate was a job of the person's editor, as the digest reports it.
        bool inspectorEval = false;
        for (const JobPtr &job : std::as_const(m_host->lisp.done))
            inspectorEval |= job->request.tool == QLatin1String("inspector-eval") && job->request.code == QLatin1String("(length *)")
                             && job->request.origin.name == QLatin1String("the person, in Emacs");
        QVERIFY(inspectorEval);
        QVERIFY(QTest::qWaitFor([&] { return emacs.process.state() == QProcess::NotRunning; }, 10000));
    }

    void slimeWithoutTheSecretIsRefused()
    {
        QTemporaryDir elsewhere; // a HOME without .slime-secret
        EmacsRun emacs;
        startEmacs(emacs, elsewhere.path(), true);
        QVERIFY(waitStep(emacs, QStringLiteral("DONE")));
        QCOMPARE(emacs.step(QStringLiteral("CLOSED")), QStringLiteral("t"));
        QVERIFY(!m_host->waitEvent(QStringLiteral("editor-refused")).isEmpty());
        QVERIFY(m_host->waitEvent(QStringLiteral("editor-connected"), {}, 500).isEmpty());
    }
};

QTEST_MAIN(TestSlime)
#include "tst_slime.moc"
