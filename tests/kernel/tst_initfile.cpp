// The person's init file and libraries (issue 31): load-init loads the file the host names as a
// job before any other, and an init file that signals, loops or quits costs the session
// nothing but its own effect; load-system finds systems where Lisp programmers keep them
// (~/common-lisp/, ~/.local/share/common-lisp/source/, Debian's source tree, a project's
// ocicl/ folder) and wherever the init file registers one, offline. HOME is a folder of the
// test's own.

#include "../common/EngineHarness.h"
#include "../common/OtherUser.h"
#include "../common/TestFiles.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

class TestInitFile : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> m_lisp;
    QTemporaryDir m_home;
    QByteArray m_realHome;

    JobPtr runOp(const EngineJob &job, int ms = 60000)
    {
        JobRequest request = job;
        request.origin = Origin::system(QStringLiteral("Lisp Duet"));
        return m_lisp->run(request, ms);
    }

    JobPtr loadInit(const QString &file, int limitMs = 10000)
    {
        return runOp(EngineProtocol::initFileLoad(file, limitMs));
    }

    // The project root as the Session sends it (a question the worker answers in turn).
    bool setProjectRoot(const QString &root)
    {
        bool ok = false, answered = false;
        m_lisp->session.query(EngineProtocol::projectRoot(root), [&](const QJsonObject &reply) {
            ok = EngineProtocol::Reply(reply).ok();
            answered = true;
        });
        return QTest::qWaitFor([&] { return answered; }, 30000) && ok;
    }

    QString writeInit(const QByteArray &source)
    {
        const QString file = m_home.filePath(QStringLiteral("config/lisp-duet/init.lisp"));
        return TestFiles::write(file, source) ? file : QString();
    }

    void verifyLoadSystem(const QString &system)
    {
        const JobPtr loaded = runOp(EngineProtocol::systemLoad(system, false, false), 120000);
        QVERIFY2(loaded && loaded->result.ok(), loaded ? qPrintable(loaded->result.error.message) : "no reply");
    }

private Q_SLOTS:
    void init()
    {
        // The engine's HOME (where ~/common-lisp/ is) is this test's folder.
        m_realHome = qgetenv("HOME");
        qputenv("HOME", QFile::encodeName(m_home.path()));
        m_lisp = std::make_unique<EngineHarness>();
        QVERIFY2(m_lisp->waitReady(), "the engine did not start");
    }
    void cleanup()
    {
        m_lisp.reset();
        qputenv("HOME", m_realHome);
    }

    void noInitFileIsNoError()
    {
        const JobPtr job = loadInit(m_home.filePath(QStringLiteral("config/lisp-duet/init.lisp")));
        QVERIFY(job->result.ok());
        QCOMPARE(job->result.reply.value(QStringLiteral("loaded")).toBool(), false);
    }

    void anInitFileDefinesPrintsAndIsRecorded()
    {
        const QString file = writeInit("(defun from-init () :init)\n(format t \"init ran~%\")\n(in-package :keyword)\n");
        const JobPtr job = loadInit(file);
        QVERIFY2(job->result.ok(), qPrintable(job->result.error.message));
        QCOMPARE(job->result.reply.value(QStringLiteral("loaded")).toBool(), true);
        QCOMPARE(job->result.stdoutText, QStringLiteral("init ran\n"));
        QCOMPARE(job->result.reply.value(QStringLiteral("loaded_files")).toArray(), QJsonArray{file});
        // Its IN-PACKAGE stays in the file, as LOAD has it.
        const JobResult after = m_lisp->result(QStringLiteral("(list (from-init) (package-name *package*))"));
        QCOMPARE(after.values, QStringList{QStringLiteral("(:INIT \"COMMON-LISP-USER\")")});
    }

    void anInitFileThatFailsIsReportedAndTheSessionServes()
    {
        JobPtr job = loadInit(writeInit("(defvar *before-error* t)\n(error \"init is broken: ~A\" 42)\n(defvar *after-error* t)\n"));
        QCOMPARE(job->result.status, JobResult::Status::Error);
        QCOMPARE(job->result.error.message, QStringLiteral("init is broken: 42"));
        QCOMPARE(job->result.reply.value(QStringLiteral("loaded")).toBool(), false);
        QCOMPARE(m_lisp->result(QStringLiteral("(list (boundp '*before-error*) (boundp '*after-error*))")).values,
                 QStringList{QStringLiteral("(T NIL)")});
        job = loadInit(writeInit("(ext:quit)\n"));
        QCOMPARE(job->result.error.type, QStringLiteral("LISP-DUET:QUIT-REFUSED"));
        QCOMPARE(m_lisp->result(QStringLiteral("(+ 1 2)")).values, QStringList{QStringLiteral("3")});
    }

    void anInitFileOthersCanChangeIsNotLoaded()
    {
        // Issue 41: it runs as the person; whoever can write it could run code as them.
        const QString file = m_home.filePath(QStringLiteral("writable/init.lisp"));
        QVERIFY(TestFiles::write(file, "(defparameter *unsafe-init-ran* t)\n"));
        QVERIFY(QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther | QFile::WriteOther
                                                | QFile::ReadGroup | QFile::WriteGroup));
        JobPtr job = loadInit(file);
        QCOMPARE(job->result.error.type, QStringLiteral("INIT-FILE-UNSAFE"));
        QVERIFY2(job->result.error.message.contains(QStringLiteral("Not loaded: other users can change %1 (mode 666)").arg(file)), qPrintable(job->result.error.message));
        QCOMPARE(job->result.reply.value(QStringLiteral("loaded")).toBool(), false);
        QCOMPARE(m_lisp->result(QStringLiteral("(boundp '*unsafe-init-ran*)")).values, QStringList{QStringLiteral("NIL")});
        // Writable by the group alone is the same; by the person alone it loads.
        QVERIFY(QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner | QFile::WriteGroup));
        QCOMPARE(loadInit(file)->result.error.type, QStringLiteral("INIT-FILE-UNSAFE"));
        QVERIFY(QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
        QVERIFY(loadInit(file)->result.ok());
        QCOMPARE(m_lisp->result(QStringLiteral("(boundp '*unsafe-init-ran*)")).values, QStringList{QStringLiteral("T")});
    }

    void anInitFileOfAnotherUserIsNotLoaded()
    {
        QString why;
        const std::optional<OtherUser> other = OtherUser::get(&why);
        if (!other)
            QSKIP(qPrintable(why));
        const QString file = m_home.filePath(QStringLiteral("theirs/init.lisp"));
        QVERIFY(TestFiles::write(file, "(defparameter *their-init-ran* t)\n"));
        QVERIFY(::chown(QFile::encodeName(file).constData(), other->uid, other->gid) == 0);
        JobPtr job = loadInit(file);
        QCOMPARE(job->result.error.type, QStringLiteral("INIT-FILE-UNSAFE"));
        QVERIFY2(job->result.error.message.startsWith(QStringLiteral("Not loaded: %1 belongs to another user").arg(file)), qPrintable(job->result.error.message));
        // A link of the person's own to it is judged by the file it leads to.
        const QString link = m_home.filePath(QStringLiteral("eclrc-link"));
        QVERIFY(QFile::link(file, link));
        QCOMPARE(loadInit(link)->result.error.type, QStringLiteral("INIT-FILE-UNSAFE"));
        QCOMPARE(m_lisp->result(QStringLiteral("(boundp '*their-init-ran*)")).values, QStringList{QStringLiteral("NIL")});
    }

    void anInitFileThatLoopsIsStoppedAtItsTimeLimit()
    {
        QElapsedTimer clock;
        clock.start();
        const JobPtr job = loadInit(writeInit("(defvar *looping* t)\n(loop)\n"), 500);
        QCOMPARE(job->result.status, JobResult::Status::Interrupted);
        QCOMPARE(job->result.reply.value(QStringLiteral("timed_out")).toBool(), true);
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(m_lisp->result(QStringLiteral("*looping*")).values, QStringList{QStringLiteral("T")});
    }

    void aSetupFileInTheInitRegistersLibrariesThatStayRegistered()
    {
        // Quicklisp's setup.lisp and its kind: loaded by the init file, they tell ASDF where
        // systems are; a project root set afterwards keeps them.
        const QString tree = m_home.filePath(QStringLiteral("elsewhere/src"));
        QVERIFY(TestFiles::writeOneFileSystem(tree + QStringLiteral("/deep"), QStringLiteral("registered-tree"),
                                              "(defun registered-tree-fn () :tree)\n"));
        QVERIFY(TestFiles::writeOneFileSystem(m_home.filePath(QStringLiteral("central")), QStringLiteral("registered-central"),
                                              "(defun registered-central-fn () :central)\n"));
        const QString setup = m_home.filePath(QStringLiteral("elsewhere/setup.lisp"));
        QVERIFY(TestFiles::write(setup, QStringLiteral(
            "(require :asdf)\n"
            "(asdf:initialize-source-registry '(:source-registry (:tree \"%1/\") :inherit-configuration))\n"
            "(push #p\"%2/registered-central/\" asdf:*central-registry*)\n")
            .arg(tree, m_home.filePath(QStringLiteral("central"))).toUtf8()));
        QVERIFY(loadInit(writeInit(QStringLiteral("(load \"%1\")\n").arg(setup).toUtf8()))->result.ok());
        QTemporaryDir project;
        QVERIFY(setProjectRoot(project.path()));
        verifyLoadSystem(QStringLiteral("registered-tree"));
        verifyLoadSystem(QStringLiteral("registered-central"));
        QCOMPARE(m_lisp->result(QStringLiteral("(list (registered-tree-fn) (registered-central-fn))")).values,
                 QStringList{QStringLiteral("(:TREE :CENTRAL)")});
    }

    void loadSystemFindsTheUsualLibraryFolders()
    {
        QVERIFY(TestFiles::writeOneFileSystem(m_home.filePath(QStringLiteral("common-lisp/mine")), QStringLiteral("in-common-lisp"),
                                              "(defun in-common-lisp-fn () 1)\n"));
        QVERIFY(TestFiles::writeOneFileSystem(m_home.filePath(QStringLiteral(".local/share/common-lisp/source")),
                                              QStringLiteral("in-local-share"), "(defun in-local-share-fn () 2)\n"));
        QTemporaryDir project;
        QVERIFY(TestFiles::writeOneFileSystem(project.filePath(QStringLiteral("ocicl/in-ocicl-1.0")), QStringLiteral("in-ocicl"),
                                              "(defun in-ocicl-fn () 3)\n"));
        QVERIFY(setProjectRoot(project.path()));
        verifyLoadSystem(QStringLiteral("in-common-lisp"));
        verifyLoadSystem(QStringLiteral("in-local-share"));
        verifyLoadSystem(QStringLiteral("in-ocicl"));
        QCOMPARE(m_lisp->result(QStringLiteral("(+ (in-common-lisp-fn) (in-local-share-fn) (in-ocicl-fn))")).values,
                 QStringList{QStringLiteral("6")});
        // Debian's: found where cl-fiveam installed it (not loaded).
        QCOMPARE(m_lisp->result(QStringLiteral("(let ((file (namestring (asdf:system-source-file (asdf:find-system \"fiveam\"))))) "
                                               "(subseq file 0 (length \"/usr/share/common-lisp/source/\")))")).values,
                 QStringList{QStringLiteral("\"/usr/share/common-lisp/source/\"")});
    }
};

QTEST_MAIN(TestInitFile)
#include "tst_initfile.moc"
