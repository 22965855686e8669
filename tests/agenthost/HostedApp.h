#pragma once

// The app's own services (AppServices: the real engine, session, MCP server, access gate,
// journal) serving HTTP and the local socket (Endpoints) on this test's machine, with a project
// folder open: what an AgentHost is given in the window. And the Lisp Duet server an agent is
// handed, by HTTP or through the real lisp-duet-bridge.

#include "../acp/MockAgent.h"
#include "../common/IsolatedFolders.h"

#include "AppServices.h"
#include "Endpoints.h"
#include "agenthost/AgentHost.h"
#include "project/ProjectFiles.h"
#include "session/Session.h"

#include <memory>

class HostedApp
{
public:
    bool start()
    {
        if (!m_project.isValid())
            return false;
        services = std::make_unique<AppServices>();
        Endpoints::Options options;
        options.port = 0; // any free port
        options.socketName = QStringLiteral("agenthost-%1").arg(QCoreApplication::applicationPid());
        endpoints = std::make_unique<Endpoints>(services->server(), options);
        if (!endpoints->start())
            return false;
        QString error;
        if (!services->projectFiles()->setRoot(m_project.path(), Origin::person(), &error))
            return false;
        services->start();
        return QTest::qWaitFor([this] { return services->session()->isEngineReady(); }, 60000);
    }

    QString projectPath() const { return QFileInfo(m_project.path()).canonicalFilePath(); }

    // Lisp Duet's server as the window hands it: HTTP when `http`, else only the bridge.
    LispDuetServer server(bool http = true) const
    {
        LispDuetServer server;
        if (http) {
            server.httpUrl = endpoints->httpUrl();
            server.token = endpoints->token();
        }
        server.bridgePath = QStringLiteral(DUET_BIN_DIR "/lisp-duet-bridge");
        server.socketPath = endpoints->socketPath();
        return server;
    }

    // A host as the window makes it, in the project.
    std::unique_ptr<AgentHost> makeHost(bool http = true) const
    {
        auto host = std::make_unique<AgentHost>(services->access(), services->server(), services->tools());
        host->setJournal(services->journal());
        host->setServer(server(http));
        host->setProjectRoot(services->projectFiles()->root().path());
        return host;
    }

    // The journal so far, read back from its file.
    QList<JournalEntry> journal() const { return Journal::read(services->journal()->path()).entries; }
    QList<ChatRecord> chat() const
    {
        QList<ChatRecord> records;
        for (const JournalEntry &entry : journal()) {
            if (entry.isChat())
                records << entry.chat;
        }
        return records;
    }
    // The session's finished jobs whose code is `code`.
    QList<JobPtr> jobsOf(const QString &code) const
    {
        QList<JobPtr> found;
        for (const JobPtr &job : services->session()->transcript()) {
            if (job->request.code == code)
                found << job;
        }
        return found;
    }

    std::unique_ptr<AppServices> services;
    std::unique_ptr<Endpoints> endpoints;

private:
    QTemporaryDir m_project;
};

// Waits until the host stands still (a conversation open, or it failed, or it lacks something).
inline bool settles(AgentHost &host, int ms = 30000)
{
    return QTest::qWaitFor([&] {
        const AgentHost::State state = host.state();
        return state == AgentHost::State::Ready || state == AgentHost::State::Failed || state == AgentHost::State::Missing
            || state == AgentHost::State::NeedsLogin;
    }, ms);
}

inline qint64 groupOf(const AgentHost &host)
{
    return host.client() && host.client()->process() ? host.client()->process()->processGroup() : 0;
}
