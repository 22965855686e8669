#include "PersonalSetupInfo.h"

#include "editor/EditorBridge.h"
#include "initfile/InitFile.h"
#include "schema/JsonSchema.h"

#include <QJsonArray>

namespace {
QJsonObject editorFields(const EditorBridge *editors)
{
    QJsonArray connected;
    for (const EditorBridge::Editor &editor : editors->editors())
        connected.append(QJsonObject{{QStringLiteral("name"), editor.origin.name}, {QStringLiteral("peer"), editor.peer}});
    const bool listening = editors->state() == EditorBridge::State::Listening;
    QJsonObject editor{{QStringLiteral("state"), editors->stateName()}, {QStringLiteral("editors"), connected}};
    if (listening) {
        editor.insert(QStringLiteral("address"), editors->address());
        editor.insert(QStringLiteral("port"), editors->port());
        editor.insert(QStringLiteral("connect"), EditorBridge::connectLine(editors->port()));
    }
    if (!editors->message().isEmpty())
        editor.insert(QStringLiteral("message"), editors->message());
    return editor;
}

QJsonArray initFileFields(const InitFile *initFile)
{
    QJsonArray initFiles;
    for (const InitFile::Status &status : initFile->statuses()) {
        QJsonObject file{{QStringLiteral("file"), status.file}, {QStringLiteral("status"), status.stateName()}};
        if (!status.error.isEmpty())
            file.insert(QStringLiteral("error"), status.error);
        initFiles.append(file);
    }
    return initFiles;
}
} // namespace

namespace PersonalSetupInfo {

QStringList lines(const EditorBridge *editors, const InitFile *initFile)
{
    QStringList lines;
    switch (editors ? editors->state() : EditorBridge::State::Off) {
    case EditorBridge::State::Listening: {
        QStringList connected;
        for (const EditorBridge::Editor &editor : editors->editors())
            connected << QStringLiteral("%1 (%2)").arg(editor.origin.name, editor.peer);
        lines << QStringLiteral("The person's editor: Swank at %1:%2 (%3); %4. What it evaluates appears in your activity "
                                "digest as \"the person, in Emacs\" (or their editor's name).")
                     .arg(editors->address())
                     .arg(editors->port())
                     .arg(EditorBridge::clientNames(),
                          connected.isEmpty() ? QStringLiteral("no editor connected now")
                                              : QStringLiteral("connected now: ") + connected.join(QStringLiteral(", ")));
        break;
    }
    case EditorBridge::State::NoSecret:
    case EditorBridge::State::Failed:
        lines << QStringLiteral("The person's editor cannot connect: %1").arg(editors->message());
        break;
    case EditorBridge::State::Starting:
        lines << QStringLiteral("The person's editor: Swank is starting.");
        break;
    case EditorBridge::State::Off:
        break;
    }
    if (!initFile)
        return lines;
    const QString problem = initFile->problem(InitFile::Reader::Agent);
    if (!problem.isEmpty())
        lines << problem;
    for (const InitFile::Status &status : initFile->statuses()) {
        if (status.state == InitFile::Status::State::Loaded)
            lines << QStringLiteral("The person's init file %1 was loaded when the engine started.").arg(InitFile::shortPath(status.file));
    }
    return lines;
}

QJsonObject fields(const EditorBridge *editors, const InitFile *initFile)
{
    QJsonObject setup;
    if (editors)
        setup.insert(QStringLiteral("editor"), editorFields(editors));
    if (initFile)
        setup.insert(QStringLiteral("init_files"), initFileFields(initFile));
    return setup;
}

QJsonObject outputProperties()
{
    using namespace Schema;
    return {{QStringLiteral("editor"),
             object({{QStringLiteral("state"), string(QStringLiteral("off, no-secret, starting, listening or failed"))}}, {}, false)},
            {QStringLiteral("init_files"),
             objectArray(QStringLiteral("The person's init files at the last engine start"),
                         {{QStringLiteral("file"), string(QStringLiteral("Its path"))},
                          {QStringLiteral("status"), string(QStringLiteral("missing, queued, loaded, failed, timed-out, stopped or skipped"))}})}};
}

} // namespace PersonalSetupInfo
