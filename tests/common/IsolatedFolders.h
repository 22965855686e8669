#pragma once

// A test program's own settings, data and runtime folders, in one temporary folder (scratch()).
// Call isolateFolders() from a Q_CONSTRUCTOR_FUNCTION, before QApplication exists, so that
// QSettings and QStandardPaths never see the real ones; useBuiltEngine() points the app at the
// engine of this build unless LISP_DUET_ENGINE says otherwise.

#include <QTemporaryDir>
#include <QtGlobal>

inline QTemporaryDir *scratch()
{
    static QTemporaryDir dir;
    return &dir;
}

inline void isolateFolders()
{
    qputenv("XDG_CONFIG_HOME", scratch()->filePath(QStringLiteral("config")).toUtf8());
    qputenv("XDG_DATA_HOME", scratch()->filePath(QStringLiteral("data")).toUtf8());
    qputenv("XDG_RUNTIME_DIR", scratch()->filePath(QStringLiteral("run")).toUtf8());
}

inline void useBuiltEngine()
{
    if (qEnvironmentVariableIsEmpty("LISP_DUET_ENGINE"))
        qputenv("LISP_DUET_ENGINE", QByteArray(DUET_BIN_DIR "/lisp-duet-engine"));
}
