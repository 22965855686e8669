// Issue 39's warm-up after a first start, as the app wires it (AppServices, every mode): the
// first time a project is open on this machine, once the engine says libraries can become
// native, the libraries its .asd depends on are compiled natively in the background at idle
// priority, loading nothing, as Lisp Duet's own job; the next start of the same project does
// not do it again; the setting (File ▸ Settings…, libraries/warmUp) turns it off. Against the
// real engine and its compiler process, with a scratch XDG_CONFIG_HOME and ASDF cache.

#include "../common/IsolatedFolders.h"
#include "AppServices.h"
#include "Preferences.h"
#include "SettingsDialog.h"
#include "native/LibraryCompilation.h"
#include "project/ProjectFiles.h"
#include "session/Session.h"

#include <QCheckBox>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

namespace {
void isolate()
{
    isolateFolders();
    qputenv("XDG_CACHE_HOME", scratch()->filePath(QStringLiteral("cache")).toUtf8());
    qputenv("LISP_DUET_SYSTEM_PATHS", QByteArray(DUET_SOURCE_DIR "/tests/data/libraries"));
    qputenv("LISP_DUET_LIBRARY_NATIVE", "1");
}
Q_CONSTRUCTOR_FUNCTION(isolate)

// The warm-up jobs the session ran: Lisp Duet's own library-warmup.
QList<JobPtr> warmUps(const Session *session)
{
    QList<JobPtr> found;
    for (const JobPtr &job : session->transcript()) {
        if (job->request.kind == EngineJob::Kind::LibraryWarmUp)
            found << job;
    }
    return found;
}
} // namespace

class TestLibraryWarmUp : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_project;

    // An app started on the project, as a first start of it or a later one.
    std::unique_ptr<AppServices> start()
    {
        auto services = std::make_unique<AppServices>();
        services->start();
        QString error;
        [&] { QVERIFY2(services->projectFiles()->setRoot(m_project.path(), Origin::person(), &error), qPrintable(error)); }();
        [&] { QVERIFY(QTest::qWaitFor([&] { return services->libraries()->isKnown(); }, 30000)); }();
        return services;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("lisp-duet"));
        QCoreApplication::setApplicationName(QStringLiteral("lisp-duet"));
        QVERIFY(QSettings().fileName().startsWith(scratch()->path()));
        QVERIFY(m_project.isValid());
        QFile asd(m_project.filePath(QStringLiteral("warmapp.asd")));
        QVERIFY(asd.open(QIODevice::WriteOnly));
        asd.write("(asdf:defsystem \"warmapp\" :depends-on (\"duet-warmlib\") :components ())\n"
                  "(asdf:defsystem \"warmapp/tests\" :depends-on (\"warmapp\") :components ())\n");
    }

    void theFirstOpeningOfAProjectCompilesItsLibrariesAheadAndOnlyOnce()
    {
        {
            auto services = start();
            LibraryCompilation *libraries = services->libraries();
            QVERIFY2(libraries->isAvailable(), qPrintable(libraries->reason()));
            QVERIFY(QTest::qWaitFor([&] { return !warmUps(services->session()).isEmpty(); }, 60000));
            const JobPtr job = warmUps(services->session()).first();
            QVERIFY2(job->result.ok(), qPrintable(job->result.error.message));
            QCOMPARE(job->request.origin.name, QStringLiteral("warm-up"));
            QCOMPARE(job->request.dependenciesOf, (QStringList{QStringLiteral("warmapp"), QStringLiteral("warmapp/tests")}));
            // The project's own systems are not libraries: only duet-warmlib is compiled.
            QCOMPARE(job->result.reply.value(QStringLiteral("queued")).toArray(), QJsonArray{QStringLiteral("duet-warmlib")});
            QVERIFY(QTest::qWaitFor([&] {
                const LibraryCompilation::Library *warm = libraries->find(QStringLiteral("duet-warmlib"));
                return warm && warm->state == LibraryCompilation::State::Native;
            }, 240000));
            QVERIFY(libraries->find(QStringLiteral("duet-warmlib"))->warmUp);
            QVERIFY(QSettings().value(QStringLiteral("libraries/warmedUpProjects")).toStringList().contains(m_project.path()));
        }
        // The next start of the same project: nothing to warm up again.
        auto again = start();
        QTest::qWait(500);
        QVERIFY(warmUps(again->session()).isEmpty());
    }

    void theSettingTurnsItOff()
    {
        SettingsDialog dialog(Preferences::load());
        auto *box = dialog.findChild<QCheckBox *>(QStringLiteral("libraryWarmUp"));
        QVERIFY(box && box->isChecked());
        box->setChecked(false);
        QCOMPARE(dialog.preferences().libraryWarmUp, false);
        Preferences off = Preferences::load();
        off.libraryWarmUp = false;
        off.save();
        QSettings().remove(QStringLiteral("libraries/warmedUpProjects")); // as if this project were new here
        auto services = start();
        QTest::qWait(500);
        QVERIFY(warmUps(services->session()).isEmpty());
        QVERIFY(!QSettings().contains(QStringLiteral("libraries/warmedUpProjects")));
        Preferences().save();
    }
};

QTEST_MAIN(TestLibraryWarmUp)
#include "tst_librarywarmup.moc"
