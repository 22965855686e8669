// Swank inside the engine (issue 31): only the person gets in (127.0.0.1, the secret only they
// can read, checked within 10 s on a thread per client), bad input leaves the session serving,
// and loading Swank changes nothing of the session's own: its compilation policy, its
// definitions, its loaded files, the package its threads see.

#include "../common/EditorHost.h"

#include <QCoreApplication>
#include <QDir>
#include <QSet>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

#include <unistd.h>

class TestEditor : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EditorHost> m_host;

    void listenWithSecret()
    {
        QVERIFY(m_host->writeSecret());
        const JobPtr listening = m_host->listen();
        if (listening && listening->result.error.type == QLatin1String("SWANK-UNAVAILABLE"))
            QSKIP("this engine was built without cl-swank");
        QVERIFY2(listening && listening->result.ok(), listening ? qPrintable(listening->result.error.message) : "no reply");
        QVERIFY(m_host->port > 0);
    }

    // An editor that connected with the secret and was answered.
    void connectEditor(SwankClient &editor)
    {
        QVERIFY(m_host->connect(editor));
        const int id = editor.rex(QStringLiteral("(swank:connection-info)"));
        QVERIFY2(editor.waitReturn(id).startsWith(QLatin1String("(:return (:ok (:pid ")), qPrintable(editor.messages.join(' ')));
    }

    // Whether this engine process listens on TCP `port`: a listening socket in the kernel's
    // table (/proc/net/tcp, state 0A) that is one of the engine's own descriptors. Asks about
    // this engine's listener, not about whoever holds the port: another suite's engine may be
    // given the same port once this one let it go.
    bool engineListensOn(quint16 port) const
    {
        QSet<QString> listeners; // socket inodes listening on the port
        for (const QString &table : {QStringLiteral("/proc/net/tcp"), QStringLiteral("/proc/net/tcp6")}) {
            QFile file(table);
            if (!file.open(QIODevice::ReadOnly))
                continue;
            for (const QByteArray &line : file.readAll().split('\n')) {
                const QStringList fields = QString::fromLatin1(line).simplified().split(u' ');
                if (fields.size() > 9 && fields.at(3) == QLatin1String("0A")
                    && fields.at(1).section(u':', 1, 1).toUInt(nullptr, 16) == port)
                    listeners.insert(fields.at(9));
            }
        }
        const QDir fds(QStringLiteral("/proc/%1/fd").arg(m_host->lisp.engine.pid()));
        for (const QString &fd : fds.entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot)) {
            char target[64] = {};
            const ssize_t length = ::readlink(QFile::encodeName(fds.filePath(fd)).constData(), target, sizeof target - 1);
            const QString what = QString::fromLatin1(target, length > 0 ? int(length) : 0); // "socket:[INODE]"
            if (what.startsWith(QLatin1String("socket:[")) && listeners.contains(what.mid(8).chopped(1)))
                return true;
        }
        return false;
    }

    void verifySessionServes()
    {
        QCOMPARE(m_host->lisp.result(QStringLiteral("(+ 40 2)")).values, QStringList{QStringLiteral("42")});
    }

private Q_SLOTS:
    void init()
    {
        m_host = std::make_unique<EditorHost>();
        QVERIFY2(m_host->lisp.waitReady(), "the engine did not start");
    }
    void cleanup() { m_host.reset(); }

    void listeningNeedsASecretOnlyThePersonCanRead()
    {
        JobPtr refused = m_host->listen();
        if (refused && refused->result.error.type == QLatin1String("SWANK-UNAVAILABLE"))
            QSKIP("this engine was built without cl-swank");
        QCOMPARE(refused->result.status, JobResult::Status::Failed);
        QCOMPARE(refused->result.error.type, QStringLiteral("EDITOR-NO-SECRET"));
        QVERIFY2(refused->result.error.message.contains(QLatin1String("(umask 077; head -c 24 /dev/urandom | base64 > ")),
                 qPrintable(refused->result.error.message));
        QVERIFY(m_host->writeSecret(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
        refused = m_host->listen();
        QCOMPARE(refused->result.error.type, QStringLiteral("EDITOR-NO-SECRET"));
        QVERIFY2(refused->result.error.message.contains(QLatin1String("can be read by other users (mode 644)")),
                 qPrintable(refused->result.error.message));
        listenWithSecret();
        const JobPtr again = m_host->listen();
        QCOMPARE(again->result.reply.value(QStringLiteral("already")).toBool(), true);
        QCOMPARE(again->result.reply.value(QStringLiteral("port")).toInt(), int(m_host->port));
        QCOMPARE(again->result.reply.value(QStringLiteral("address")).toString(), QStringLiteral("127.0.0.1"));
        // Listening on the loopback address only: 0100007F in the kernel's table, not 00000000.
        QFile table(QStringLiteral("/proc/net/tcp"));
        QVERIFY(table.open(QIODevice::ReadOnly));
        const QString listening = QStringLiteral(":%1 00000000:0000 0A").arg(m_host->port, 4, 16, QLatin1Char('0')).toUpper();
        QString bound;
        for (const QByteArray &line : table.readAll().split('\n'))
            if (QString::fromLatin1(line.simplified()).contains(listening))
                bound = QString::fromLatin1(line.simplified()).section(QLatin1Char(' '), 1, 1);
        QCOMPARE(bound, QStringLiteral("0100007F:%1").arg(m_host->port, 4, 16, QLatin1Char('0')).toUpper());
        // Closed, nobody gets in: this engine no longer listens on the port (whoever else may
        // be given it afterwards); opened again, on a new port.
        QVERIFY(engineListensOn(m_host->port));
        QVERIFY(m_host->runOp(EngineProtocol::editorClose())->result.reply.value(QStringLiteral("closed")).toBool());
        QVERIFY(QTest::qWaitFor([this] { return !engineListensOn(m_host->port); }, 5000));
        listenWithSecret();
        SwankClient editor;
        connectEditor(editor);
    }

    void clientsWithoutTheSecretAreRefused()
    {
        listenWithSecret();
        SwankClient wrong;
        QVERIFY(wrong.connectWithSecret(m_host->port, QStringLiteral("guess")));
        QVERIFY(wrong.waitClosed());
        // One that starts with a request, as a client without a secret file does.
        SwankClient bare;
        QVERIFY(bare.connectTo(m_host->port));
        bare.rex(QStringLiteral("(swank:interactive-eval \"(defparameter *got-in* t)\")"));
        QVERIFY(bare.waitClosed());
        // A wrong secret of the right length: read, compared, refused as wrong.
        SwankClient sameLength;
        QVERIFY(sameLength.connectWithSecret(m_host->port, QString(m_host->secret.size(), QLatin1Char('x'))));
        QVERIFY(sameLength.waitClosed());
        QVERIFY(bare.messages.isEmpty() && wrong.messages.isEmpty() && sameLength.messages.isEmpty());
        QStringList reasons;
        QStringList peers;
        QVERIFY(QTest::qWaitFor([&] {
            reasons.clear();
            peers.clear();
            for (const QJsonObject &event : std::as_const(m_host->events))
                if (event.value(QStringLiteral("event")).toString() == QLatin1String("editor-refused")) {
                    reasons << event.value(QStringLiteral("reason")).toString();
                    peers << event.value(QStringLiteral("peer")).toString();
                }
            return reasons.size() == 3;
        }, 15000));
        // Each is named by its address, read before its socket was closed.
        for (const QString &peer : std::as_const(peers))
            QVERIFY2(QRegularExpression(QStringLiteral("^127\\.0\\.0\\.1:\\d+$")).match(peer).hasMatch(), qPrintable(peer));
        QCOMPARE(reasons.count(QStringLiteral("It sent a wrong secret (not the first line of ~/.slime-secret).")), 1);
        QCOMPARE(reasons.filter(QStringLiteral("is not the secret: SLIME sends ~/.slime-secret first")).size(), 2);
        QVERIFY(m_host->waitEvent(QStringLiteral("editor-connected"), {}, 500).isEmpty());
        QCOMPARE(m_host->lisp.result(QStringLiteral("(boundp '*got-in*)")).values, QStringList{QStringLiteral("NIL")});
    }

    void aSilentClientDelaysNobodyAndIsDroppedAfterTenSeconds()
    {
        listenWithSecret();
        SwankClient silent;
        QVERIFY(silent.connectTo(m_host->port));
        QElapsedTimer clock;
        clock.start();
        SwankClient editor;
        connectEditor(editor);
        // Served at once, not after the silent one's 10 s (generous: a loaded machine).
        QVERIFY2(clock.elapsed() < 8000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(silent.waitClosed(20000));
        QVERIFY2(clock.elapsed() >= 9000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(!m_host->waitEvent(QStringLiteral("editor-refused"), [](const QJsonObject &e) {
            return e.value(QStringLiteral("reason")).toString().contains(QLatin1String("sent nothing within 10 s"));
        }).isEmpty());
    }

    void badMessagesLeaveTheSessionServing()
    {
        listenWithSecret();
        // Before the secret: a header that is no number, a length it never sends.
        SwankClient garbage;
        QVERIFY(garbage.connectTo(m_host->port));
        garbage.sendRaw("zzzzzz(hello)");
        QVERIFY(garbage.waitClosed());
        SwankClient truncated;
        QVERIFY(truncated.connectTo(m_host->port));
        truncated.sendRaw("ffffff(not that long)");
        truncated.socket.disconnectFromHost();
        // After it: mutations of well-formed requests (seeded, so a failure repeats).
        const QList<QByteArray> seeds = {
            "(:emacs-rex (swank:interactive-eval \"(+ 1 2)\") \"COMMON-LISP-USER\" t 7)",
            "(:emacs-rex (swank:simple-completions \"car\" \"COMMON-LISP-USER\") \"COMMON-LISP-USER\" t 8)",
            "(:emacs-interrupt t)", "(:emacs-return-string 1 2 \"x\")", "(:emacs-pong 1 2)"};
        QRandomGenerator random(31);
        for (int round = 0; round < 6; ++round) {
            SwankClient fuzzed;
            QVERIFY(m_host->connect(fuzzed));
            for (int i = 0; i < 40 && fuzzed.socket.state() == QAbstractSocket::ConnectedState; ++i) {
                QByteArray message = seeds[random.bounded(seeds.size())];
                switch (random.bounded(4)) {
                case 0: message.truncate(random.bounded(message.size())); break;
                case 1: message[random.bounded(message.size())] = char(random.bounded(256)); break;
                case 2: message.insert(random.bounded(message.size()), "(((\"|#<"); break;
                default: break;
                }
                fuzzed.sendRaw(SwankClient::frame(message));
            }
            fuzzed.socket.flush();
            QTest::qWait(100);
        }
        verifySessionServes();
        SwankClient editor;
        connectEditor(editor);
        const int id = editor.rex(QStringLiteral("(swank:interactive-eval \"(* 6 7)\")"));
        QVERIFY(editor.waitReturn(id).startsWith(QLatin1String("(:return (:ok \"=> 42 ")));
    }

    void twoEditorsAtOnceEachGetTheirOwnAnswers()
    {
        listenWithSecret();
        SwankClient first, second;
        connectEditor(first);
        connectEditor(second);
        const int slow = first.rex(QStringLiteral("(swank:interactive-eval \"(progn (sleep 0.3) :first)\")"));
        const int quick = second.rex(QStringLiteral("(swank:interactive-eval \":second\")"));
        QVERIFY(first.waitReturn(slow).startsWith(QLatin1String("(:return (:ok \"=> :FIRST\")")));
        QVERIFY(second.waitReturn(quick).startsWith(QLatin1String("(:return (:ok \"=> :SECOND\")")));
        QList<int> numbers;
        for (const QJsonObject &event : std::as_const(m_host->events))
            if (event.value(QStringLiteral("event")).toString() == QLatin1String("editor-connected")) {
                numbers.append(event.value(QStringLiteral("editor")).toInt());
                // The process at the other end: this test.
                QCOMPARE(event.value(QStringLiteral("pid")).toInteger(), QCoreApplication::applicationPid());
                QCOMPARE(event.value(QStringLiteral("command")).toString(), QStringLiteral("tst_editor"));
            }
        QCOMPARE(numbers, (QList<int>{1, 2}));
        // The host tells them what happens elsewhere: all of them, or one.
        QJsonObject told;
        m_host->lisp.session.query({QStringLiteral("editor-message"), {{QStringLiteral("text"), QStringLiteral("claude-code's evaluation 12 waits in the debugger")}}},
                                   [&](const QJsonObject &reply) { told = reply; });
        QVERIFY(QTest::qWaitFor([&] { return !told.isEmpty(); }, 10000));
        QCOMPARE(told.value(QStringLiteral("sent")).toInt(), 2);
        for (SwankClient *editor : {&first, &second})
            QVERIFY(!editor->waitFor([](const QString &m) {
                return m == QLatin1String("(:background-message \"claude-code's evaluation 12 waits in the debugger\")");
            }).isEmpty());
        first.socket.abort();
        QCOMPARE(m_host->waitEvent(QStringLiteral("editor-disconnected")).value(QStringLiteral("editor")).toInt(), 1);
        const int after = second.rex(QStringLiteral("(swank:interactive-eval \":still\")"));
        QVERIFY(second.waitReturn(after).startsWith(QLatin1String("(:return (:ok \"=> :STILL\")")));
    }

    void swankKeepsThePolicyAndChangesNothingOfTheSessionsOwn()
    {
        const QString policy = QStringLiteral("(progn (require :cmp) (list c::*safety* c::*speed* c::*debug* c::*space*))");
        const QStringList before = m_host->lisp.result(policy).values;
        listenWithSecret();
        SwankClient editor;
        connectEditor(editor);
        // A contrib loaded only when an editor asks for it: Swank's loading, not the session's.
        const int required = editor.rex(QStringLiteral("(swank:swank-require '(swank-hyperdoc))"));
        QVERIFY(editor.waitReturn(required).contains(QLatin1String("SWANK-HYPERDOC")));
        const JobResult next = m_host->lisp.result(policy);
        QCOMPARE(next.values, before);
        QVERIFY2(!next.reply.contains(QStringLiteral("loaded_files")), qPrintable(QJsonDocument(next.reply).toJson()));
        // Swank's symbols are not the session's definitions.
        JobRequest definitions;
        definitions.code = QStringLiteral("(length (apropos-list \"\" \"SWANK\"))");
        const JobPtr swankSymbols = m_host->lisp.run(definitions);
        QVERIFY2(swankSymbols, "no answer within 30 s to (apropos-list \"\" \"SWANK\")");
        QVERIFY2(swankSymbols->result.values.value(0).toInt() > 100, qPrintable(swankSymbols->result.values.join(QLatin1Char(' ')) + swankSymbols->result.error.message));
        bool done = false;
        QJsonObject listed;
        m_host->lisp.session.query({QStringLiteral("definitions"), {{QStringLiteral("pattern"), QStringLiteral("*")}}},
                                   [&](const QJsonObject &reply) { listed = reply; done = true; });
        QVERIFY(QTest::qWaitFor([&] { return done; }, 10000));
        QVERIFY2(!QJsonDocument(listed).toJson().contains("SWANK"), QJsonDocument(listed).toJson().left(500).constData());
        // Threads outside the jobs (Swank's, the person's own) see the session's package.
        const int info = editor.rex(QStringLiteral("(swank:connection-info)"));
        QVERIFY(editor.waitReturn(info).contains(QLatin1String(":package (:name \"COMMON-LISP-USER\"")));
        QCOMPARE(m_host->lisp.result(QStringLiteral("(mp:process-join (mp:process-run-function \"mine\" (lambda () (package-name *package*))))")).values,
                 QStringList{QStringLiteral("\"COMMON-LISP-USER\"")});
    }

    void manyRequestsLeaveNothingBehind()
    {
        // Swank serves each request on a new thread; its ECL backend kept each one's mailbox
        // (and the thread) for ever: 5 kB per request.
        listenWithSecret();
        SwankClient editor;
        connectEditor(editor);
        for (int i = 0; i < 300; ++i) {
            const int id = editor.rex(QStringLiteral("(swank:interactive-eval \"(+ 1 2)\")"));
            QVERIFY(!editor.waitReturn(id).isEmpty());
        }
        const QStringList left = m_host->lisp.result(QStringLiteral("(length swank/ecl::*mailboxes*)")).values;
        QVERIFY2(left.size() == 1 && left.first().toInt() < 20, qPrintable(left.join(' ')));
    }

    void hugeOutputStaysWithinTheJobsBudget()
    {
        listenWithSecret();
        SwankClient editor;
        connectEditor(editor);
        const int id = editor.rex(QStringLiteral("(swank:interactive-eval \"(progn (dotimes (i 30000) (write-line \\\"0123456789\\\")) :printed)\")"));
        QVERIFY(editor.waitReturn(id, 60000).startsWith(QLatin1String("(:return (:ok \"=> :PRINTED\")")));
        const JobPtr job = m_host->finishedJobOf(m_host->requestWith(QStringLiteral("30000")));
        QVERIFY(job && job->result.ok());
        QVERIFY2(job->result.outputDropped > 0, "past the job's budget, output is counted, not kept");
        verifySessionServes();
    }
};

QTEST_MAIN(TestEditor)
#include "tst_editor.moc"
