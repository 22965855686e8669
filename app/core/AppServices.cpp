#include "AppServices.h"

#include "EngineClient.h"
#include "EvaluateLispTool.h"
#include "McpServer.h"
#include "Session.h"
#include "StandardTools.h"
#include "ToolRegistry.h"

#include <memory>

AppServices::AppServices(QObject *parent)
    : QObject(parent),
      m_engine(new EngineClient(this)),
      m_session(new Session(m_engine, this)),
      m_tools(new ToolRegistry(this)),
      m_server(new McpServer(m_session, m_tools, this))
{
    m_tools->add(std::make_unique<EvaluateLispTool>(m_session));
    addStandardTools(m_tools, m_session, this);
}

AppServices::~AppServices()
{
    m_engine->stop();
}

void AppServices::start()
{
    m_engine->start();
}
