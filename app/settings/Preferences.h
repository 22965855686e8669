#pragma once

#include "access/AccessMode.h"
#include "AgentSettings.h"

#include "client/EngineProtocol.h"
#include "history/Journal.h"

#include <QString>

class QSettings;

// What the Settings dialog edits, stored with QSettings (~/.config/lisp-duet/lisp-duet.conf).
// Plain values without widgets (QtCore only): main() reads the port before any window exists,
// --client-config reads it to print the same URL the app listens on, and the access mode is
// mcp/access/AccessMode.h's plain value.
struct Preferences
{
    enum class Theme { System, Light, Dark };

    int port = 7878; // HttpTransport::DefaultPort
    AccessMode accessMode = AccessMode::Allow; // at start
    int timeoutSeconds = EngineProtocol::DefaultTimeoutMs / 1000; // per evaluation
    int maxOutputChars = EngineProtocol::DefaultMaxOutputChars;
    int scrollbackLines = 20000;  // TranscriptView's default
    QString fontFamily;           // empty: the console's own monospace font
    double fontSize = 11.0;
    Theme theme = Theme::System;
    bool closeToTray = false;
    int journalsKept = Journal::DefaultJournalsKept; // older journals are removed at start
    // The shared debugger: the person's own errors park in it; agents' too when they ask
    // (debug: true) or when agentErrorsDebug is on; a parked evaluation nobody answers is
    // aborted after abandonMinutes (0: never).
    bool ownErrorsDebug = true;
    bool agentErrorsDebug = false;
    int debuggerAbandonMinutes = 10;
    // The optional groups of agents' tools (ToolRegistry::Group): switched off, a group leaves
    // tools/list (clients are told) and its calls are refused. The core tools are always on.
    bool projectTools = true;
    bool debuggerTools = true;
    bool handoffTools = true;
    // Issue 30: the session's definitions are compiled to native code in the background
    // (--no-native turns it off for one run).
    bool nativeCompilation = true;
    // Issue 39: the first time a project is open on this machine, the libraries its .asd files
    // depend on are compiled natively in the background at idle priority (warm-up).
    bool libraryWarmUp = true;
    // The person's own setup (issue 31): Swank for their editor (off unless they turn it on, or
    // --swank), on swankPort (SLIME's usual 4005; 0: any free port); their init file
    // (~/.config/lisp-duet/init.lisp) loaded at every engine start unless off (or --no-init),
    // ~/.eclrc too only when they ask, within initTimeLimitSeconds.
    bool swankEnabled = false;
    int swankPort = 4005;
    bool initFileEnabled = true;
    bool eclrcEnabled = false;
    int initTimeLimitSeconds = 30;
    // The project the person last opened (File ▸ Open project…), reopened at start unless
    // --project names another. Written by rememberProjectRoot(), not by save(): the Settings
    // dialog does not edit it, so saving settings never forgets it.
    QString projectRoot;
    // The coding agents the window hosts (issue 38): the built-in ones and the person's own,
    // each with the mode its conversations start in (AgentSettings). Empty only in a Preferences
    // not read from the settings, whose save() then leaves the stored table alone.
    QList<ConfiguredAgent> agents;

    static Preferences load();
    static Preferences load(const QSettings &settings);
    void save() const;
    void save(QSettings &settings) const;
    static void rememberProjectRoot(const QString &root);
    static void rememberProjectRoot(QSettings &settings, const QString &root);
    // The projects whose libraries were warmed up on this machine: true when `root` was not
    // among them (it is now). Not save()'s either.
    static bool markWarmedUp(const QString &root);
    static bool markWarmedUp(QSettings &settings, const QString &root);
    // No settings written yet: the first start of the app on this account.
    static bool isStored();

    static QString themeKey(Theme theme);                 // "system", "light", "dark"
    static Theme themeFromKey(const QString &key);         // unknown: System

    bool operator==(const Preferences &other) const = default;
};
