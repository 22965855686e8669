// Where the app and the bridge meet (issue 12): the same directories, in the same order, whatever
// the environment says, and never a directory that another user could have prepared.

#include "RuntimeDirectory.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

class TestRuntimeDirectory : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_root;

    QString makeDirectory(const QString &relative, mode_t mode)
    {
        const QString path = m_root.filePath(relative);
        QDir().mkpath(path);
        chmod(QFile::encodeName(path).constData(), mode);
        return path;
    }
    RuntimeDirectory::Roots roots(const QString &xdg = QString())
    {
        RuntimeDirectory::Roots r;
        r.runUser = m_root.filePath(QStringLiteral("run/user"));
        r.xdgRuntimeDir = xdg;
        r.tmp = m_root.filePath(QStringLiteral("tmp"));
        r.uid = getuid();
        QDir().mkpath(r.tmp);
        return r;
    }
    QString uid() const { return QString::number(getuid()); }

private Q_SLOTS:
    void init()
    {
        QDir(m_root.path()).removeRecursively();
        QDir().mkpath(m_root.path());
    }

    void theUsersRunDirectoryComesFirstWhateverXdgSays()
    {
        const QString runUser = makeDirectory(QStringLiteral("run/user/") + uid(), 0700);
        const QString xdg = makeDirectory(QStringLiteral("xdg"), 0700);
        const QStringList found = RuntimeDirectory(roots(xdg)).candidates();
        QCOMPARE(found.size(), 3);
        QCOMPARE(found.at(0), runUser);
        QCOMPARE(found.at(1), xdg);
        QCOMPARE(found.at(2), m_root.filePath(QStringLiteral("tmp/lisp-duet-") + uid()));
    }

    void withoutRunDirectoryXdgIsFirstAndTheFallbackIsCreatedPrivate()
    {
        const QString xdg = makeDirectory(QStringLiteral("xdg"), 0700);
        RuntimeDirectory runtime(roots(xdg));
        QCOMPARE(runtime.primary(), xdg);
        const QString fallback = runtime.fallback();
        QVERIFY(!fallback.isEmpty());
        struct stat info{};
        QCOMPARE(stat(QFile::encodeName(fallback).constData(), &info), 0);
        QCOMPARE(int(info.st_mode & 0777), 0700);
    }

    void withNothingButTheFallbackTheFallbackIsPrimary()
    {
        RuntimeDirectory runtime(roots());
        QCOMPARE(runtime.candidates(), QStringList{m_root.filePath(QStringLiteral("tmp/lisp-duet-") + uid())});
    }

    void directoriesOthersMayEnterAreSkipped()
    {
        makeDirectory(QStringLiteral("run/user/") + uid(), 0755);
        const QString xdg = makeDirectory(QStringLiteral("xdg"), 0711);
        const QStringList found = RuntimeDirectory(roots(xdg)).candidates();
        QCOMPARE(found, QStringList{m_root.filePath(QStringLiteral("tmp/lisp-duet-") + uid())});
        QString why;
        QVERIFY(!RuntimeDirectory::isPrivateDirectory(xdg, getuid(), &why));
        QVERIFY2(why.contains(QStringLiteral("must be 0700")), qPrintable(why));
    }

    void aLinkInPlaceOfADirectoryIsRefused()
    {
        const QString real = makeDirectory(QStringLiteral("elsewhere"), 0700);
        const RuntimeDirectory::Roots where = roots();
        QDir().mkpath(m_root.filePath(QStringLiteral("run/user")));
        QVERIFY(QFile::link(real, m_root.filePath(QStringLiteral("run/user/")) + uid()));
        QVERIFY(QFile::link(real, m_root.filePath(QStringLiteral("tmp/lisp-duet-")) + uid()));
        RuntimeDirectory runtime(where);
        QVERIFY(runtime.candidates().isEmpty());
        QVERIFY2(runtime.error().contains(QStringLiteral("symbolic link")), qPrintable(runtime.error()));
    }

    void aFallbackThatSomeoneElseOwnsIsRefused()
    {
        if (getuid() != 0)
            QSKIP("needs root to hand a directory to another user");
        const QString fallback = makeDirectory(QStringLiteral("tmp/lisp-duet-") + uid(), 0700);
        QCOMPARE(chown(QFile::encodeName(fallback).constData(), 65534, 65534), 0);
        RuntimeDirectory runtime(roots());
        QVERIFY(runtime.fallback().isEmpty());
        QVERIFY2(runtime.error().contains(QStringLiteral("belongs to user id 65534")), qPrintable(runtime.error()));
    }

    void aRelativeXdgRuntimeDirIsIgnored()
    {
        QVERIFY(QDir::setCurrent(m_root.path()));
        makeDirectory(QStringLiteral("relative"), 0700);
        const QStringList found = RuntimeDirectory(roots(QStringLiteral("relative"))).candidates();
        QCOMPARE(found.size(), 1);
    }

    void socketNamesResolveInEveryCandidateAndAbsoluteNamesStayAsTheyAre()
    {
        const QString xdg = makeDirectory(QStringLiteral("xdg"), 0700);
        RuntimeDirectory runtime(roots(xdg));
        QCOMPARE(runtime.socketPaths(QStringLiteral("lisp-duet")),
                 (QStringList{xdg + QStringLiteral("/lisp-duet"), m_root.filePath(QStringLiteral("tmp/lisp-duet-") + uid() + QStringLiteral("/lisp-duet"))}));
        QCOMPARE(runtime.socketPaths(QStringLiteral("/abs/sock")), QStringList{QStringLiteral("/abs/sock")});
    }
};

QTEST_GUILESS_MAIN(TestRuntimeDirectory)
#include "tst_runtimedirectory.moc"
