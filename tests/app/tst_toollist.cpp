// What every agent must read is small (issue 32): tools/list as the app serves it, with every
// tool, is at most 40,000 characters, and the descriptions plus input schemas (what clients put
// before the model) at most 20,000, with every tool, its arguments and its annotations there
// (read-only tools marked so: Claude Code runs only those in plan mode and in parallel). Before
// this: 121,008 characters, 35,630 of descriptions and input schemas. The optional groups
// (project, debugger, hand-offs) leave the list when the person switches them off, clients
// hear of it, and a call to a switched-off tool says why.

#include "../common/IsolatedFolders.h"
#include "AppServices.h"
#include "Preferences.h"
#include "server/McpPeer.h"
#include "server/McpServer.h"
#include "toolapi/ToolRegistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

namespace {
// Before QApplication exists, so QSettings and QStandardPaths never see the real folders.
void isolate()
{
    isolateFolders();
}
Q_CONSTRUCTOR_FUNCTION(isolate)

constexpr qsizetype ListBudget = 40000;
constexpr qsizetype ReadBudget = 20000; // descriptions + input schemas

const QStringList ReadOnlyTools{
    "list-definitions", "compile-form", "describe-symbol", "documentation", "apropos", "macroexpand", "inspect-object",
    "check-parens", "complete-symbol", "session-transcript", "list-debuggers", "debugger-frame", "project-info", "list-files",
    "read-file", "view-lisp-file", "search-forms", "find-definition", "find-references", "definition-history"};
} // namespace

class TestToolList : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<AppServices> m_services;
    McpPeer *m_peer = nullptr;
    QList<McpMessage> m_messages;
    int m_nextId = 1;

    McpMessage request(const QString &method, const QJsonObject &params = {})
    {
        const int id = m_nextId++;
        m_services->server()->receive(m_peer, QJsonDocument(QJsonObject{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}})
                                                  .toJson(QJsonDocument::Compact));
        for (const McpMessage &message : std::as_const(m_messages)) {
            if (message.object().value("id") == QJsonValue(id))
                return message;
        }
        return McpMessage();
    }
    QJsonArray tools() { return request(QStringLiteral("tools/list")).object().value("result").toObject().value("tools").toArray(); }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_services = std::make_unique<AppServices>(); // every tool, as the app serves them; no engine needed
        m_peer = m_services->server()->createPeer(QStringLiteral("test"));
        connect(m_peer, &McpPeer::message, this, [this](const McpMessage &message) { m_messages.append(message); });
        request(QStringLiteral("initialize"), {{"protocolVersion", "2025-11-25"}, {"capabilities", QJsonObject{}},
                                               {"clientInfo", QJsonObject{{"name", "budget"}, {"version", "1"}}}});
        m_services->server()->receive(m_peer, R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    }
    void cleanupTestCase() { m_services.reset(); }

    void toolsListWithEveryToolFitsTheBudget()
    {
        const McpMessage answer = request(QStringLiteral("tools/list"));
        const QJsonObject result = answer.object().value("result").toObject();
        const QJsonArray list = result.value("tools").toArray();
        QCOMPARE(list.size(), 35);
        const qsizetype total = QJsonDocument(result).toJson(QJsonDocument::Compact).size();
        qsizetype descriptions = 0, inputSchemas = 0, outputSchemas = 0;
        for (const QJsonValue &value : list) {
            const QJsonObject tool = value.toObject();
            descriptions += tool.value("description").toString().size();
            inputSchemas += QJsonDocument(tool.value("inputSchema").toObject()).toJson(QJsonDocument::Compact).size();
            outputSchemas += QJsonDocument(tool.value("outputSchema").toObject()).toJson(QJsonDocument::Compact).size();
        }
        qInfo().noquote() << QStringLiteral("tools/list: %1 tools, %2 characters (the JSON-RPC message %3); descriptions %4, input "
                                            "schemas %5 (together %6), output schemas %7")
                                 .arg(list.size()).arg(total).arg(answer.text().size()).arg(descriptions).arg(inputSchemas)
                                 .arg(descriptions + inputSchemas).arg(outputSchemas);
        QVERIFY2(total <= ListBudget, qPrintable(QStringLiteral("tools/list is %1 characters, over %2").arg(total).arg(ListBudget)));
        QVERIFY2(descriptions + inputSchemas <= ReadBudget,
                 qPrintable(QStringLiteral("descriptions and input schemas are %1 characters, over %2").arg(descriptions + inputSchemas).arg(ReadBudget)));
    }

    void nothingAnAgentNeedsIsLost()
    {
        for (const QJsonValue &value : tools()) {
            const QJsonObject tool = value.toObject();
            const QString name = tool.value("name").toString();
            QVERIFY2(!tool.value("title").toString().isEmpty(), qPrintable(name));
            QVERIFY2(tool.value("description").toString().size() >= 90, qPrintable(name));
            const QJsonObject properties = tool.value("inputSchema").toObject().value("properties").toObject();
            for (auto it = properties.begin(); it != properties.end(); ++it) {
                QVERIFY2(!it.value().toObject().value("type").toString().isEmpty(), qPrintable(name + "." + it.key()));
                QVERIFY2(!it.value().toObject().value("description").toString().isEmpty(), qPrintable(name + "." + it.key()));
            }
            // Every output field is named with its type; the text result says what it means.
            const QJsonObject output = tool.value("outputSchema").toObject().value("properties").toObject();
            QVERIFY2(output.contains("session_activity"), qPrintable(name));
            for (auto it = output.begin(); it != output.end(); ++it)
                QVERIFY2(it.value().toObject().contains("type"), qPrintable(name + " output " + it.key()));
            const QJsonObject annotations = tool.value("annotations").toObject();
            QCOMPARE(annotations.value("readOnlyHint").toBool(), ReadOnlyTools.contains(name));
            QCOMPARE(annotations.value("openWorldHint"), QJsonValue(false));
            if (!ReadOnlyTools.contains(name))
                QVERIFY2(annotations.contains("destructiveHint") && annotations.contains("idempotentHint"), qPrintable(name));
        }
    }

    // A tool that changes the session or files says why it runs.
    void everyToolThatChangesSomethingTakesADescription()
    {
        for (const QJsonValue &value : tools()) {
            const QJsonObject tool = value.toObject();
            const QString name = tool.value("name").toString();
            if (tool.value("annotations").toObject().value("readOnlyHint").toBool() || name == QLatin1String("job"))
                continue; // job waits for work a call started with its own description
            QVERIFY2(tool.value("inputSchema").toObject().value("properties").toObject().contains("description"), qPrintable(name));
        }
    }

    void switchedOffGroupsLeaveTheListAndTheirCallsSayWhy()
    {
        const int before = int(m_messages.size());
        ToolRegistry *registry = m_services->tools();
        registry->setGroupEnabled(ToolRegistry::Group::Project, false);
        registry->setGroupEnabled(ToolRegistry::Group::Debugger, false);
        bool told = false;
        for (qsizetype i = before; i < m_messages.size(); ++i)
            told = told || m_messages.at(i).object().value("method").toString() == QLatin1String("notifications/tools/list_changed");
        QVERIFY(told);
        QStringList names;
        for (const QJsonValue &value : tools())
            names << value.toObject().value("name").toString();
        QCOMPARE(names.size(), 35 - 10 - 4);
        QVERIFY(names.contains("evaluate-lisp") && names.contains("stage-form") && !names.contains("read-file") && !names.contains("invoke-restart"));
        const QJsonObject refused = request(QStringLiteral("tools/call"), {{"name", "read-file"}, {"arguments", QJsonObject{{"path", "x"}}}}).object();
        QCOMPARE(refused.value("error").toObject().value("message").toString(),
                 QStringLiteral("read-file is switched off: the person turned off the project tools in Lisp Duet's settings."));
        registry->setGroupEnabled(ToolRegistry::Group::Core, false); // the core cannot be switched off
        QVERIFY(tools().size() == 21);
        // The saved settings decide at start, in every mode of the app.
        Preferences preferences;
        preferences.handoffTools = false;
        m_services->applyToolGroups(preferences);
        QCOMPARE(tools().size(), 35 - 3);
        m_services->applyToolGroups(Preferences());
        QCOMPARE(tools().size(), 35);
    }
};

QTEST_MAIN(TestToolList)
#include "tst_toollist.moc"
