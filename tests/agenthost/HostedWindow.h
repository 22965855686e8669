#pragma once

// The window lisp-duet makes over HostedApp's services: MainWindow, WindowSetup and AgentSetup
// (the window's Agent panel joined to its AgentHost), 1200x800, shown and exposed.

#include "HostedApp.h"

#include "AgentSetup.h"
#include "ClientConfig.h"
#include "WindowSetup.h"
#include "window/MainWindow.h"

inline bool openHostedWindow(HostedApp &app, std::unique_ptr<MainWindow> &window, std::unique_ptr<WindowSetup> &setup,
                             std::unique_ptr<AgentSetup> &agents)
{
    AppServices *services = app.services.get();
    window = std::make_unique<MainWindow>(services->session(), services->server(), services->access());
    ClientConfig::Target target;
    target.token = app.endpoints->token();
    setup = std::make_unique<WindowSetup>(window.get(), services, target, false);
    agents = std::make_unique<AgentSetup>(window.get(), services, app.server());
    setup->setAgentSetup(agents.get());
    window->resize(1200, 800);
    window->show();
    return QTest::qWaitForWindowExposed(window.get());
}
