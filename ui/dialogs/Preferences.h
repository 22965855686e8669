#pragma once

#include "access/AccessController.h"

#include <QString>

class QSettings;

// What the Settings dialog edits, stored with QSettings (~/.config/lisp-duet/lisp-duet.conf).
// Plain values without widgets: main() reads the port before any window exists, and
// --client-config reads it to print the same URL the app listens on.
struct Preferences
{
    enum class Theme { System, Light, Dark };

    int port = 7878; // HttpTransport::DefaultPort
    AccessController::Mode accessMode = AccessController::Mode::Allow; // at start
    int timeoutSeconds = 30;      // Session's default time limit per evaluation
    int maxOutputChars = 100000;  // the engine's default output cap
    int scrollbackLines = 20000;  // TranscriptView's default
    QString fontFamily;           // empty: the console's own monospace font
    double fontSize = 11.0;
    Theme theme = Theme::System;
    bool closeToTray = false;

    static Preferences load();
    static Preferences load(const QSettings &settings);
    void save() const;
    void save(QSettings &settings) const;
    // No settings written yet: the first start of the app on this account.
    static bool isStored();

    static QString themeKey(Theme theme);                 // "system", "light", "dark"
    static Theme themeFromKey(const QString &key);         // unknown: System
    static QString accessKey(AccessController::Mode mode); // "allow", "ask", "read-only", "paused"
    static AccessController::Mode accessFromKey(const QString &key);

    bool operator==(const Preferences &other) const = default;
};
