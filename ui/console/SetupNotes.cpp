#include "SetupNotes.h"

#include "client/EditorMessages.h"
#include "editor/EditorBridge.h"
#include "initfile/InitFile.h"

#include <QCoreApplication>

namespace SetupNotes {

bool isSetupJob(const JobRequest &request)
{
    using Kind = EngineJob::Kind;
    return request.kind == Kind::LoadInit || request.kind == Kind::EditorListen || request.kind == Kind::EditorClose;
}

QString okNote(const Job &job)
{
    const auto tr = [](const char *text) { return QCoreApplication::translate("SetupNotes", text); };
    switch (job.request.kind) {
    case EngineJob::Kind::LoadInit:
        return EngineProtocol::InitFileReply(job.result.reply).loaded()
            ? tr("Loaded your init file %1.").arg(InitFile::shortPath(job.request.file))
            : tr("There is no init file at %1.").arg(InitFile::shortPath(job.request.file));
    case EngineJob::Kind::EditorListen: {
        const int port = EngineProtocol::EditorListenReply(job.result.reply).port();
        return tr("Your editor can join this session: Swank (%1) at 127.0.0.1:%2. In Emacs: %3")
            .arg(EditorBridge::clientNames())
            .arg(port)
            .arg(EditorBridge::connectLine(port));
    }
    case EngineJob::Kind::EditorClose:
        return tr("Swank stopped listening; connected editors were closed.");
    default:
        return {};
    }
}

QString problemNote(const Job &job)
{
    if (job.request.kind != EngineJob::Kind::LoadInit)
        return {};
    const QString file = InitFile::shortPath(job.request.file);
    if (EngineProtocol::InitFileReply(job.result.reply).timedOut())
        return QCoreApplication::translate("SetupNotes", "Your init file %1 did not finish within %2 s and was interrupted. "
                                                         "The session runs without the rest of it.")
            .arg(file)
            .arg(job.request.timeLimitMs / 1000.0, 0, 'g', 3);
    return QCoreApplication::translate("SetupNotes", "The session runs without the rest of your init file %1. Fix it and "
                                                     "reset the session (Session \u25b8 Reset session), or turn it off in File \u25b8 Settings.")
        .arg(file);
}

} // namespace SetupNotes
