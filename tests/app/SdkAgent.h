#pragma once

// The official TypeScript SDK client in a Node process (tests/e2e/agent-repl.mjs) as an agent
// of the app's HTTP endpoint, for tests that drive the window while an agent calls tools: one
// JSON line per call, answers as they come. Skipped by its tests without `npm ci` in tests/.

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

class SdkAgent
{
public:
    bool start(const QString &url, const QByteArray &token, const QString &name)
    {
        m_node.setProcessChannelMode(QProcess::SeparateChannels);
        m_node.setWorkingDirectory(QStringLiteral(DUET_SOURCE_DIR "/tests"));
        m_node.start(QStringLiteral("node"), {QStringLiteral(DUET_SOURCE_DIR "/tests/e2e/agent-repl.mjs"), url, QString::fromLatin1(token), name});
        return m_node.waitForStarted(10000) && QTest::qWaitFor([this] { read(); return m_ready; }, 30000);
    }
    ~SdkAgent()
    {
        m_node.closeWriteChannel();
        if (!m_node.waitForFinished(5000))
            m_node.kill();
        m_node.waitForFinished(2000);
    }
    int call(const QString &tool, const QJsonObject &arguments)
    {
        const int id = m_nextId++;
        send({{"id", id}, {"tool", tool}, {"arguments", arguments}});
        return id;
    }
    // client.close(), as an agent that quits: no DELETE; the process ends.
    bool close()
    {
        const int id = m_nextId++;
        send({{"id", id}, {"close", true}});
        return m_node.waitForFinished(10000);
    }
    // The answer to call `id` ({result} or {error}); empty when none came in time.
    QJsonObject answer(int id, int ms = 60000)
    {
        (void)QTest::qWaitFor([&] { read(); return m_answers.contains(id); }, ms);
        return m_answers.value(id);
    }
    bool answered(int id)
    {
        read();
        return m_answers.contains(id);
    }
    QString errors() { return QString::fromUtf8(m_node.readAllStandardError()); }

    static QString text(const QJsonObject &answer, int part = 0)
    {
        return answer.value("result").toObject().value("content").toArray().at(part).toObject().value("text").toString();
    }
    // Every text block: the tool's own, then [Debugger] notes and the activity digest.
    static QString allText(const QJsonObject &answer)
    {
        QStringList texts;
        for (const QJsonValue &part : answer.value("result").toObject().value("content").toArray())
            texts << part.toObject().value("text").toString();
        return texts.join('\n');
    }
    static QJsonObject structured(const QJsonObject &answer) { return answer.value("result").toObject().value("structuredContent").toObject(); }
    static bool isError(const QJsonObject &answer) { return answer.value("result").toObject().value("isError").toBool(); }

private:
    void send(const QJsonObject &message) { m_node.write(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n'); }
    void read()
    {
        while (m_node.canReadLine()) {
            const QJsonObject message = QJsonDocument::fromJson(m_node.readLine()).object();
            if (message.value("ready").toBool())
                m_ready = true;
            else if (message.contains("id"))
                m_answers.insert(message.value("id").toInt(), message);
        }
    }

    QProcess m_node;
    bool m_ready = false;
    int m_nextId = 1;
    QHash<int, QJsonObject> m_answers;
};
