// The project root reaches the engine (issue 11): AppServices passes ProjectFiles' root to the
// Session, which sends it to the running engine and again to every new one, so that the
// engine's *default-pathname-defaults* (and ASDF's source registry) follow the root.

#include "AppServices.h"
#include "client/EngineClient.h"
#include "client/EngineProtocol.h"
#include "session/Origin.h"
#include "project/ProjectFiles.h"
#include "session/Session.h"

#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

class TestProjectRootEngine : public QObject
{
    Q_OBJECT

private:
    // The printed value of `code`, or a sentence saying why there is none.
    static QString value(Session *session, const QString &code)
    {
        QString printed = QStringLiteral("(did not finish)");
        const quint64 id = session->submit(EngineProtocol::evaluation(code));
        bool done = false;
        session->whenFinished(id, [&](JobPtr job) {
            printed = job->result.ok() && !job->result.values.isEmpty() ? job->result.values.first() : job->result.error.message;
            done = true;
        });
        (void)QTest::qWaitFor([&] { return done; }, 30000);
        return printed;
    }

private Q_SLOTS:
    void rootFollowsIntoTheEngineAndSurvivesARestart()
    {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const QString canonical = QDir(root.path()).canonicalPath();
        AppServices services;
        services.start();
        Session *session = services.session();
        QVERIFY(QTest::qWaitFor([session] { return session->isEngineReady(); }, 30000));

        QString error;
        QVERIFY2(services.projectFiles()->setRoot(root.path(), Origin::person(), &error), qPrintable(error));
        QCOMPARE(session->projectRoot(), canonical);
        QCOMPARE(value(session, QStringLiteral("(namestring *default-pathname-defaults*)")), QStringLiteral("\"%1/\"").arg(canonical));

        // A new engine knows nothing: the session sends the root again as soon as it is ready.
        QSignalSpy ready(session, &Session::engineStatus);
        session->reset(Origin::person());
        QVERIFY(QTest::qWaitFor([&] {
            for (const auto &status : std::as_const(ready))
                if (status.first().value<Session::EngineStatus>() == Session::EngineStatus::Ready)
                    return true;
            return false;
        }, 30000));
        QCOMPARE(value(session, QStringLiteral("(namestring *default-pathname-defaults*)")), QStringLiteral("\"%1/\"").arg(canonical));
    }
};

QTEST_GUILESS_MAIN(TestProjectRootEngine)
#include "tst_projectrootengine.moc"
