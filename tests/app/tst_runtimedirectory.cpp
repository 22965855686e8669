// Where the app and the bridge meet (issue 12): the same directories, in the same order, whatever
// the environment says, and never a directory that another user could have prepared.

#include "RuntimeDirectory.h"

#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace {
// What a machine offers at one place: nothing, a directory fit for the socket, or one that must
// not be used. "Unset" is for XDG_RUNTIME_DIR only (the variable is absent); "Missing" names a
// directory that does not exist; "SameAsRunUser" is a desktop's XDG_RUNTIME_DIR=/run/user/UID.
enum class Place { Unset, Missing, Private, TooOpen, Foreign, SameAsRunUser };
} // namespace
Q_DECLARE_METATYPE(Place)

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

    // Makes `relative` what `place` says; returns its path (empty for Unset).
    QString prepare(const QString &relative, Place place)
    {
        switch (place) {
        case Place::Unset:
            return {};
        case Place::Missing:
            return m_root.filePath(relative);
        case Place::Private:
            return makeDirectory(relative, 0700);
        case Place::TooOpen:
            return makeDirectory(relative, 0755);
        case Place::Foreign: {
            const QString path = makeDirectory(relative, 0700);
            if (chown(QFile::encodeName(path).constData(), 65534, 65534) != 0)
                return {};
            return path;
        }
        case Place::SameAsRunUser:
            return m_root.filePath(QStringLiteral("run/user/") + uid());
        }
        return {};
    }

private Q_SLOTS:
    void init()
    {
        QDir(m_root.path()).removeRecursively();
        QDir().mkpath(m_root.path());
    }

    // Every machine the app and the bridge may meet on, proven without touching this machine's
    // /run/user or /tmp: the expected list names "run" (run/user/UID), "xdg" and "tmp" (the
    // fallback tmp/lisp-duet-UID, always last and always usable here).
    void theChoiceFollowsWhatTheMachineOffers_data()
    {
        QTest::addColumn<Place>("runUser");
        QTest::addColumn<Place>("xdg");
        QTest::addColumn<QStringList>("expected");
        const QStringList tmp{QStringLiteral("tmp")};
        const QStringList xdgTmp{QStringLiteral("xdg"), QStringLiteral("tmp")};
        const QStringList runTmp{QStringLiteral("run"), QStringLiteral("tmp")};
        const QStringList all{QStringLiteral("run"), QStringLiteral("xdg"), QStringLiteral("tmp")};
        QTest::newRow("a desktop: run/user/UID private, XDG_RUNTIME_DIR names it") << Place::Private << Place::SameAsRunUser << runTmp;
        QTest::newRow("run/user/UID private, XDG_RUNTIME_DIR unset (an MCP client's environment)") << Place::Private << Place::Unset << runTmp;
        QTest::newRow("run/user/UID private, XDG_RUNTIME_DIR elsewhere and private") << Place::Private << Place::Private << all;
        QTest::newRow("run/user/UID private, XDG_RUNTIME_DIR too open") << Place::Private << Place::TooOpen << runTmp;
        QTest::newRow("run/user/UID private, XDG_RUNTIME_DIR another user's") << Place::Private << Place::Foreign << runTmp;
        QTest::newRow("run/user/UID private, XDG_RUNTIME_DIR missing") << Place::Private << Place::Missing << runTmp;
        QTest::newRow("no run/user/UID (a container, CI), XDG_RUNTIME_DIR private") << Place::Missing << Place::Private << xdgTmp;
        QTest::newRow("no run/user/UID, XDG_RUNTIME_DIR unset") << Place::Missing << Place::Unset << tmp;
        QTest::newRow("no run/user/UID, XDG_RUNTIME_DIR missing") << Place::Missing << Place::Missing << tmp;
        QTest::newRow("run/user/UID too open, XDG_RUNTIME_DIR private") << Place::TooOpen << Place::Private << xdgTmp;
        QTest::newRow("run/user/UID too open, XDG_RUNTIME_DIR unset") << Place::TooOpen << Place::Unset << tmp;
        QTest::newRow("run/user/UID another user's, XDG_RUNTIME_DIR private") << Place::Foreign << Place::Private << xdgTmp;
        QTest::newRow("run/user/UID another user's, XDG_RUNTIME_DIR unset") << Place::Foreign << Place::Unset << tmp;
    }

    void theChoiceFollowsWhatTheMachineOffers()
    {
        QFETCH(Place, runUser);
        QFETCH(Place, xdg);
        QFETCH(QStringList, expected);
        if ((runUser == Place::Foreign || xdg == Place::Foreign) && getuid() != 0)
            QSKIP("needs root to hand a directory to another user");
        const QString runPath = prepare(QStringLiteral("run/user/") + uid(), runUser);
        const QString xdgPath = prepare(QStringLiteral("xdg"), xdg);
        QVERIFY(runUser != Place::Foreign || !runPath.isEmpty());
        QVERIFY(xdg != Place::Foreign || !xdgPath.isEmpty());
        QStringList want;
        for (const QString &place : expected)
            want << (place == QLatin1String("run") ? runPath
                     : place == QLatin1String("xdg") ? xdgPath
                                                     : m_root.filePath(QStringLiteral("tmp/lisp-duet-") + uid()));
        RuntimeDirectory runtime(roots(xdgPath));
        QCOMPARE(runtime.candidates(), want);
        QCOMPARE(runtime.primary(), want.first());
        QVERIFY2(runtime.error().isEmpty(), qPrintable(runtime.error()));
        // The bridge looks for a socket name in the same places, in the same order.
        QStringList sockets;
        for (const QString &directory : want)
            sockets << directory + QStringLiteral("/lisp-duet");
        QCOMPARE(runtime.socketPaths(QStringLiteral("lisp-duet")), sockets);
    }

    void aRunDirectoryOfAnotherUserSaysWhoOwnsIt()
    {
        // Injected ids instead of chown, so this holds without root: the directory is this
        // process's, the roots say the user is someone else.
        const uid_t someoneElse = getuid() + 4242;
        const QString runUser = makeDirectory(QStringLiteral("run/user/") + QString::number(someoneElse), 0700);
        QString why;
        QVERIFY(!RuntimeDirectory::isPrivateDirectory(runUser, someoneElse, &why));
        QVERIFY2(why.contains(QStringLiteral("belongs to user id %1, not to %2").arg(getuid()).arg(someoneElse)), qPrintable(why));
        RuntimeDirectory::Roots where = roots();
        where.uid = someoneElse;
        QVERIFY(!RuntimeDirectory(where).candidates().contains(runUser));
    }

    void theMachineRootMovesRunUserAndTmpForTheAppAndTheBridgeAlike()
    {
        const RuntimeDirectory::Roots moved = RuntimeDirectory::Roots::of(QStringLiteral("/xdg"), QStringLiteral("/sandbox/machine/"), 1000);
        QCOMPARE(moved.runUser, QStringLiteral("/sandbox/machine/run/user"));
        QCOMPARE(moved.tmp, QStringLiteral("/sandbox/machine/tmp"));
        QCOMPARE(moved.xdgRuntimeDir, QStringLiteral("/xdg"));
        QCOMPARE(moved.uid, uid_t(1000));
        for (const QString &ignored : {QString(), QStringLiteral("relative/machine")}) {
            const RuntimeDirectory::Roots plain = RuntimeDirectory::Roots::of(QString(), ignored, 1000);
            QCOMPARE(plain.runUser, QStringLiteral("/run/user"));
            QCOMPARE(plain.tmp, QStringLiteral("/tmp"));
        }
    }

    void theProcessReadsTheMachineRootAndXdgFromItsEnvironment()
    {
        // The test command sets both for every test; put them back as found.
        const auto restore = [](const char *name) {
            const std::optional<QByteArray> value = qEnvironmentVariableIsSet(name) ? std::optional(qgetenv(name)) : std::nullopt;
            return qScopeGuard([name, value] { value ? qputenv(name, *value) : qunsetenv(name); });
        };
        const auto restoreRoot = restore("LISP_DUET_RUNTIME_ROOT");
        const auto restoreXdg = restore("XDG_RUNTIME_DIR");
        const QString runUser = makeDirectory(QStringLiteral("run/user/") + uid(), 0700);
        makeDirectory(QStringLiteral("tmp"), 01777);
        qputenv("LISP_DUET_RUNTIME_ROOT", QFile::encodeName(m_root.path()));
        qunsetenv("XDG_RUNTIME_DIR");
        QCOMPARE(RuntimeDirectory().candidates(), (QStringList{runUser, m_root.filePath(QStringLiteral("tmp/lisp-duet-") + uid())}));
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
