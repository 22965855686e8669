#include "Preferences.h"

#include <QSettings>

namespace {
constexpr const char *PortKey = "http/port"; // also what isStored() asks for
const QString ProjectRootKey = QStringLiteral("project/root");

// The settings stored as they are, each read back within its bounds: a hand-edited file must
// not give a port of 0 or a negative time limit. One table serves load() and save().
struct IntSetting
{
    const char *key;
    int Preferences::*field;
    int low, high;
};
constexpr IntSetting IntSettings[] = {
    {PortKey, &Preferences::port, 1, 65535},
    {"limits/timeoutSeconds", &Preferences::timeoutSeconds, 1, 24 * 3600},
    {"limits/maxOutputChars", &Preferences::maxOutputChars, 1000, 100000000},
    {"console/scrollbackLines", &Preferences::scrollbackLines, 100, 10000000},
    {"journal/kept", &Preferences::journalsKept, 1, 100000},
    {"debugger/abandonMinutes", &Preferences::debuggerAbandonMinutes, 0, 7 * 24 * 60},
    {"editor/swankPort", &Preferences::swankPort, 0, 65535},
    {"init/timeLimitSeconds", &Preferences::initTimeLimitSeconds, 1, 3600},
};
struct BoolSetting
{
    const char *key;
    bool Preferences::*field;
};
constexpr BoolSetting BoolSettings[] = {
    {"window/keepInTray", &Preferences::closeToTray}, // the key main() already reads
    {"debugger/ownErrors", &Preferences::ownErrorsDebug},
    {"debugger/agentErrors", &Preferences::agentErrorsDebug},
    {"tools/project", &Preferences::projectTools},
    {"tools/debugger", &Preferences::debuggerTools},
    {"tools/handoffs", &Preferences::handoffTools},
    {"engine/nativeCompilation", &Preferences::nativeCompilation},
    {"libraries/warmUp", &Preferences::libraryWarmUp},
    {"editor/swank", &Preferences::swankEnabled},
    {"init/load", &Preferences::initFileEnabled},
    {"init/eclrc", &Preferences::eclrcEnabled},
};
const QString AccessKey = QStringLiteral("agents/accessMode");
const QString FontFamilyKey = QStringLiteral("console/fontFamily");
const QString FontSizeKey = QStringLiteral("console/fontSize");
const QString ThemeKey = QStringLiteral("appearance/theme");
const QString WarmedUpKey = QStringLiteral("libraries/warmedUpProjects");
} // namespace

Preferences Preferences::load()
{
    const QSettings settings;
    return load(settings);
}

Preferences Preferences::load(const QSettings &settings)
{
    Preferences p;
    for (const IntSetting &s : IntSettings) {
        bool ok = false;
        const int value = settings.value(QLatin1String(s.key), p.*s.field).toInt(&ok);
        if (ok && value >= s.low && value <= s.high)
            p.*s.field = value;
    }
    for (const BoolSetting &s : BoolSettings)
        p.*s.field = settings.value(QLatin1String(s.key), p.*s.field).toBool();
    p.accessMode = AccessModes::fromSettingsKey(settings.value(AccessKey, AccessModes::settingsKey(p.accessMode)).toString());
    p.fontFamily = settings.value(FontFamilyKey).toString();
    const double size = settings.value(FontSizeKey, p.fontSize).toDouble();
    if (size >= 4 && size <= 96)
        p.fontSize = size;
    p.theme = themeFromKey(settings.value(ThemeKey).toString());
    p.projectRoot = settings.value(ProjectRootKey).toString();
    p.agents = AgentSettings::load(settings);
    return p;
}

void Preferences::save() const
{
    QSettings settings;
    save(settings);
}

void Preferences::save(QSettings &settings) const
{
    for (const IntSetting &s : IntSettings)
        settings.setValue(QLatin1String(s.key), this->*s.field);
    for (const BoolSetting &s : BoolSettings)
        settings.setValue(QLatin1String(s.key), this->*s.field);
    settings.setValue(AccessKey, AccessModes::settingsKey(accessMode));
    settings.setValue(FontFamilyKey, fontFamily);
    settings.setValue(FontSizeKey, fontSize);
    settings.setValue(ThemeKey, themeKey(theme));
    if (!agents.isEmpty())
        AgentSettings::save(settings, agents);
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

bool Preferences::markWarmedUp(const QString &root)
{
    QSettings settings;
    return markWarmedUp(settings, root);
}

bool Preferences::markWarmedUp(QSettings &settings, const QString &root)
{
    QStringList roots = settings.value(WarmedUpKey).toStringList();
    if (roots.contains(root))
        return false;
    roots << root;
    settings.setValue(WarmedUpKey, roots);
    settings.sync();
    return true;
}

bool Preferences::isStored()
{
    return QSettings().contains(QLatin1String(PortKey));
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
