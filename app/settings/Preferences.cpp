#include "Preferences.h"

#include <QSettings>

namespace {
const QString PortKey = QStringLiteral("http/port");
const QString AccessKey = QStringLiteral("agents/accessMode");
const QString TimeoutKey = QStringLiteral("limits/timeoutSeconds");
const QString OutputKey = QStringLiteral("limits/maxOutputChars");
const QString ScrollbackKey = QStringLiteral("console/scrollbackLines");
const QString FontFamilyKey = QStringLiteral("console/fontFamily");
const QString FontSizeKey = QStringLiteral("console/fontSize");
const QString ThemeKey = QStringLiteral("appearance/theme");
const QString JournalsKey = QStringLiteral("journal/kept");
const QString ProjectRootKey = QStringLiteral("project/root");
const QString OwnDebugKey = QStringLiteral("debugger/ownErrors");
const QString AgentDebugKey = QStringLiteral("debugger/agentErrors");
const QString AbandonKey = QStringLiteral("debugger/abandonMinutes");
const QString TrayKey = QStringLiteral("window/keepInTray"); // the key main() already reads

// A hand-edited file must not give a port of 0 or a negative time limit.
int bounded(const QSettings &settings, const QString &key, int fallback, int low, int high)
{
    bool ok = false;
    const int value = settings.value(key, fallback).toInt(&ok);
    return ok && value >= low && value <= high ? value : fallback;
}
} // namespace

Preferences Preferences::load()
{
    const QSettings settings;
    return load(settings);
}

Preferences Preferences::load(const QSettings &settings)
{
    Preferences p;
    p.port = bounded(settings, PortKey, p.port, 1, 65535);
    p.accessMode = AccessModes::fromSettingsKey(settings.value(AccessKey, AccessModes::settingsKey(p.accessMode)).toString());
    p.timeoutSeconds = bounded(settings, TimeoutKey, p.timeoutSeconds, 1, 24 * 3600);
    p.maxOutputChars = bounded(settings, OutputKey, p.maxOutputChars, 1000, 100000000);
    p.scrollbackLines = bounded(settings, ScrollbackKey, p.scrollbackLines, 100, 10000000);
    p.fontFamily = settings.value(FontFamilyKey).toString();
    const double size = settings.value(FontSizeKey, p.fontSize).toDouble();
    if (size >= 4 && size <= 96)
        p.fontSize = size;
    p.theme = themeFromKey(settings.value(ThemeKey).toString());
    p.closeToTray = settings.value(TrayKey, false).toBool();
    p.journalsKept = bounded(settings, JournalsKey, p.journalsKept, 1, 100000);
    p.projectRoot = settings.value(ProjectRootKey).toString();
    p.ownErrorsDebug = settings.value(OwnDebugKey, p.ownErrorsDebug).toBool();
    p.agentErrorsDebug = settings.value(AgentDebugKey, p.agentErrorsDebug).toBool();
    p.debuggerAbandonMinutes = bounded(settings, AbandonKey, p.debuggerAbandonMinutes, 0, 7 * 24 * 60);
    return p;
}

void Preferences::save() const
{
    QSettings settings;
    save(settings);
}

void Preferences::save(QSettings &settings) const
{
    settings.setValue(PortKey, port);
    settings.setValue(AccessKey, AccessModes::settingsKey(accessMode));
    settings.setValue(TimeoutKey, timeoutSeconds);
    settings.setValue(OutputKey, maxOutputChars);
    settings.setValue(ScrollbackKey, scrollbackLines);
    settings.setValue(FontFamilyKey, fontFamily);
    settings.setValue(FontSizeKey, fontSize);
    settings.setValue(ThemeKey, themeKey(theme));
    settings.setValue(TrayKey, closeToTray);
    settings.setValue(JournalsKey, journalsKept);
    settings.setValue(OwnDebugKey, ownErrorsDebug);
    settings.setValue(AgentDebugKey, agentErrorsDebug);
    settings.setValue(AbandonKey, debuggerAbandonMinutes);
    settings.sync();
}

void Preferences::rememberProjectRoot(const QString &root)
{
    QSettings settings;
    rememberProjectRoot(settings, root);
}

void Preferences::rememberProjectRoot(QSettings &settings, const QString &root)
{
    settings.setValue(ProjectRootKey, root);
    settings.sync();
}

bool Preferences::isStored()
{
    return QSettings().contains(PortKey);
}

QString Preferences::themeKey(Theme theme)
{
    switch (theme) {
    case Theme::Light: return QStringLiteral("light");
    case Theme::Dark: return QStringLiteral("dark");
    case Theme::System: break;
    }
    return QStringLiteral("system");
}

Preferences::Theme Preferences::themeFromKey(const QString &key)
{
    if (key == QStringLiteral("light"))
        return Theme::Light;
    if (key == QStringLiteral("dark"))
        return Theme::Dark;
    return Theme::System;
}
