// Where the session's definitions came from, in the window's Definitions panel: a definition
// loaded from a file shows its file and line, relative to the open project.

#include "ProjectWindow.h"

#include "definitions/DefinitionsModel.h"

#include <QJsonArray>

class TestProjectDefinitions : public QObject
{
    Q_OBJECT

private:
    ProjectWindow m_project;
    // m_project's, for short.
    LiveSession *m_live = nullptr;
    ProjectFiles *m_files = nullptr;
    MainWindow *m_window = nullptr;
    QString m_path;

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_project.open(&error), qPrintable(error));
        m_live = m_project.live();
        m_files = m_project.files();
        m_window = m_project.window();
        m_path = m_files->root().path() + QStringLiteral("/src/shapes.lisp");
    }

    void cleanupTestCase() { m_project.close(); }

    // A definition loaded from a file in the session: the definitions panel says where it is,
    // relative to the project (the kernel's file and line). Systems loaded by ASDF are not the
    // session's own packages, so the panel does not list them.
    void aDefinitionLoadedFromAFileShowsItsFileAndLine()
    {
        const QString tested = m_project.folder(QStringLiteral("loaded"));
        QVERIFY(QDir().mkpath(tested));
        m_live->session.setProjectRoot(tested);
        QFile source(tested + QStringLiteral("/extra.lisp"));
        QVERIFY(source.open(QIODevice::WriteOnly));
        source.write(";;;; extra.lisp\n\n(defun from-a-file (x)\n  (* 2 x))\n");
        source.close();
        JobRequest load = EngineProtocol::evaluation(QStringLiteral("(load (compile-file \"extra.lisp\"))"));
        bool done = false;
        m_live->session.whenFinished(m_live->session.submit(load), [&done](JobPtr) { done = true; });
        QVERIFY(QTest::qWaitFor([&done] { return done; }, 60000));
        DefinitionsModel *model = m_window->definitions();
        model->setProjectRoot(QFileInfo(tested).canonicalFilePath());
        const auto found = [model] { return model->find(QStringLiteral("COMMON-LISP-USER"), QStringLiteral("FROM-A-FILE")); };
        QTRY_VERIFY_WITH_TIMEOUT(found().isValid() && !model->definition(found())->file.isEmpty(), 20000);
        QCOMPARE(model->location(*model->definition(found())), QStringLiteral("extra.lisp:3"));
    }

    void theDefinitionsPanelShowsWhereADefinitionCameFrom()
    {
        DefinitionsModel *model = m_window->definitions();
        model->setProjectRoot(m_files->root().path());
        model->setEngineReply(QJsonObject{
            {"status", "ok"},
            {"definitions", QJsonArray{QJsonObject{{"name", "AREA"}, {"package", "SHAPES"}, {"kind", "function"},
                                                   {"file", m_path}, {"line", 4}},
                                       QJsonObject{{"name", "HELPER"}, {"package", "SHAPES"}, {"kind", "function"},
                                                   {"file", "/usr/share/common-lisp/source/x/x.lisp"}, {"line", 10}},
                                       QJsonObject{{"name", "TYPED"}, {"package", "SHAPES"}, {"kind", "function"},
                                                   {"file", QJsonValue::Null}}}}});
        const auto *area = model->definition(model->find(QStringLiteral("SHAPES"), QStringLiteral("AREA")));
        const auto *helper = model->definition(model->find(QStringLiteral("SHAPES"), QStringLiteral("HELPER")));
        const auto *typed = model->definition(model->find(QStringLiteral("SHAPES"), QStringLiteral("TYPED")));
        QVERIFY(area && helper && typed);
        QCOMPARE(model->location(*area), QStringLiteral("src/shapes.lisp:4"));
        QCOMPARE(model->location(*helper), QStringLiteral("/usr/share/common-lisp/source/x/x.lisp:10"));
        QCOMPARE(model->location(*typed), QString());
        const QModelIndex by = model->find(QStringLiteral("SHAPES"), QStringLiteral("AREA")).siblingAtColumn(DefinitionsModel::ByColumn);
        QCOMPARE(model->data(by).toString(), QStringLiteral("src/shapes.lisp:4"));
    }
};

QTEST_MAIN(TestProjectDefinitions)
#include "tst_projectdefinitions.moc"
