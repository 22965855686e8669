// AgentProcess with real child processes (sh): lines and their cap, stderr and its tail, how it
// ended, and its whole process group ended with it, whichever way it goes.

#include "MockAgent.h"
#include "acp/AgentProcess.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

class tst_AgentProcess : public QObject
{
    Q_OBJECT

    static AgentCommand sh(const QString &script)
    {
        AgentCommand command;
        command.name = QStringLiteral("sh");
        command.program = QStringLiteral("/bin/sh");
        command.arguments = {QStringLiteral("-c"), script};
        return command;
    }

    // Process `pid`'s session id, from /proc.
    static qint64 sessionOf(qint64 pid)
    {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            return -1;
        const QByteArray text = stat.readAll();
        return text.mid(text.lastIndexOf(')') + 2).split(' ').value(3).toLongLong();
    }

private Q_SLOTS:
    void readsLinesAndStderr()
    {
        AgentProcess process;
        QSignalSpy lines(&process, &AgentProcess::lineReceived);
        QSignalSpy errors(&process, &AgentProcess::stderrLine);
        QSignalSpy exited(&process, &AgentProcess::exited);
        process.start(sh(QStringLiteral("echo one; echo 'to stderr' >&2; printf 'two\\nthree'")));
        QTRY_COMPARE(exited.size(), 1);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines.at(0).at(0).toByteArray(), QByteArray("one"));
        QCOMPARE(lines.at(2).at(0).toByteArray(), QByteArray("three")); // the unfinished last line too
        QCOMPARE(errors.size(), 1);
        QCOMPARE(exited.at(0).at(0).toInt(), 0);
        QCOMPARE(exited.at(0).at(1).toBool(), false);
        QCOMPARE(process.stderrTail(), QStringList{QStringLiteral("to stderr")});
    }

    void aLineOverTheCapIsDroppedAndTheNextArrives()
    {
        AgentProcess process;
        process.setMaxLineBytes(4096);
        QSignalSpy lines(&process, &AgentProcess::lineReceived);
        QSignalSpy dropped(&process, &AgentProcess::lineDropped);
        QSignalSpy exited(&process, &AgentProcess::exited);
        process.start(sh(QStringLiteral("echo before; head -c 1000000 /dev/zero | tr '\\0' x; echo; echo after")));
        QTRY_COMPARE(exited.size(), 1);
        QCOMPARE(dropped.size(), 1);
        QCOMPARE(process.droppedLines(), 1);
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines.at(1).at(0).toByteArray(), QByteArray("after"));
    }

    void itsEndSaysHowAndItsLastWords()
    {
        AgentProcess process;
        QSignalSpy exited(&process, &AgentProcess::exited);
        process.start(sh(QStringLiteral("for i in $(seq 1 60); do echo line $i >&2; done; echo 'fatal: gave up' >&2; exit 3")));
        QTRY_COMPARE(exited.size(), 1);
        QCOMPARE(exited.at(0).at(0).toInt(), 3);
        const QStringList last = exited.at(0).at(2).toStringList();
        QCOMPARE(last.size(), 10);
        QCOMPARE(last.constLast(), QStringLiteral("fatal: gave up"));
        QCOMPARE(process.stderrTail().size(), AgentProcess::StderrTailLines); // bounded

        AgentProcess crashing;
        QSignalSpy crashed(&crashing, &AgentProcess::exited);
        crashing.start(sh(QStringLiteral("echo dying >&2; kill -SEGV $$")));
        QTRY_COMPARE(crashed.size(), 1);
        QCOMPARE(crashed.at(0).at(1).toBool(), true);
        QCOMPARE(crashed.at(0).at(2).toStringList(), QStringList{QStringLiteral("dying")});
    }

    void aProgramThatIsNotThereSaysSo()
    {
        AgentProcess process;
        QSignalSpy failed(&process, &AgentProcess::failedToStart);
        process.start(AgentCommand::parse(QStringLiteral("no-such-agent-program --acp")));
        QTRY_COMPARE(failed.size(), 1);
        QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("no-such-agent-program was not found on PATH")),
                 qPrintable(failed.at(0).at(0).toString()));
    }

    void itRunsInASessionOfItsOwn()
    {
        AgentProcess process;
        QSignalSpy started(&process, &AgentProcess::started);
        process.start(sh(QStringLiteral("sleep 30")));
        QTRY_COMPARE(started.size(), 1);
        QCOMPARE(sessionOf(process.processGroup()), process.processGroup());
        QTRY_VERIFY(groupMembers(process.processGroup()).contains(process.processGroup()));
    }

    // A child that ignores SIGTERM, as a stuck agent or tool does: SIGKILL after the grace period.
    void stopEndsTheWholeGroup()
    {
        AgentProcess process;
        process.setGraceMs(300);
        QSignalSpy lines(&process, &AgentProcess::lineReceived);
        QSignalSpy exited(&process, &AgentProcess::exited);
        process.start(sh(QStringLiteral("(trap '' TERM; sleep 600) & (sleep 600) & echo ready; wait")));
        QTRY_COMPARE(lines.size(), 1);
        const qint64 group = process.processGroup();
        QTRY_VERIFY(groupMembers(group).size() >= 3); // sh and its two children (and their sleeps)
        process.stop();
        QTRY_COMPARE(exited.size(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(groupMembers(group).isEmpty(), 5000);
    }

    void anAgentThatExitsTakesItsChildrenAlong()
    {
        AgentProcess process;
        process.setGraceMs(300);
        QSignalSpy exited(&process, &AgentProcess::exited);
        process.start(sh(QStringLiteral("(trap '' TERM; sleep 600) & sleep 600 & sleep 0.2; exit 0")));
        QTRY_COMPARE(exited.size(), 1);
        const qint64 group = process.processGroup();
        QTRY_VERIFY_WITH_TIMEOUT(groupMembers(group).isEmpty(), 5000);
    }

    void destroyingItLeavesNothing()
    {
        auto process = std::make_unique<AgentProcess>();
        process->setGraceMs(300);
        QSignalSpy lines(process.get(), &AgentProcess::lineReceived);
        process->start(sh(QStringLiteral("trap '' TERM; (trap '' TERM; sleep 600) & echo ready; wait")));
        QTRY_COMPARE(lines.size(), 1);
        const qint64 group = process->processGroup();
        QVERIFY(!groupMembers(group).isEmpty());
        process.reset(); // returns once the group is killed; the kernel reaps it a moment later
        QTRY_VERIFY_WITH_TIMEOUT(groupMembers(group).isEmpty(), 2000);
    }
};

QTEST_GUILESS_MAIN(tst_AgentProcess)
#include "tst_agentprocess.moc"
