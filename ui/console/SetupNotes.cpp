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
        return InitFile::outcome(job, InitFile::Reader::Person);
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
    return job.request.kind == EngineJob::Kind::LoadInit ? InitFile::outcome(job, InitFile::Reader::Person) : QString();
}

} // namespace SetupNotes
