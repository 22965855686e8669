#include "JobSummary.h"

#include "TextLines.h"
#include "client/EngineProtocol.h"

namespace JobSummary {

using Kind = EngineJob::Kind;

QString operation(const JobRequest &request)
{
    return EngineProtocol::operationName(request.kind);
}

QString shownOperation(const JobRequest &request)
{
    return request.kind == Kind::Evaluate ? QString() : operation(request);
}

QString subject(const JobRequest &request)
{
    switch (request.kind) {
    case Kind::LoadSystem:
        return request.system;
    case Kind::RunTests:
        return request.test.isEmpty() ? request.system : request.system + QLatin1Char(' ') + request.test;
    case Kind::InvokeRestart:
        return request.restart;
    case Kind::FrameLook:
        return QStringLiteral("frame %1 of debugger %2").arg(request.frame).arg(request.debuggerId);
    case Kind::LibraryWarmUp: {
        QStringList what = request.systems;
        if (!request.dependenciesOf.isEmpty())
            what << QStringLiteral("the libraries of %1").arg(request.dependenciesOf.join(QStringLiteral(", ")));
        return what.join(QStringLiteral(", "));
    }
    default:
        return request.code;
    }
}

QString debuggerStep(const JobRequest &request)
{
    switch (request.kind) {
    case Kind::InvokeRestart:
        return QStringLiteral("chose %1%2 in debugger %3")
            .arg(request.restart,
                 request.restartArguments.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(request.restartArguments.join(QStringLiteral(", "))))
            .arg(request.debuggerId);
    case Kind::FrameEvaluation:
        return request.frame < 0 ? QStringLiteral("in debugger %1").arg(request.debuggerId)
                                 : QStringLiteral("in debugger %1, frame %2").arg(request.debuggerId).arg(request.frame);
    case Kind::FrameLook:
        return QStringLiteral("looked at %1").arg(subject(request));
    default:
        return {};
    }
}

QString debuggerLine(const JobRequest &request)
{
    QString step = debuggerStep(request);
    if (step.isEmpty() || !request.origin.isPerson())
        return request.kind == Kind::FrameEvaluation ? step + QLatin1Char(':') : step;
    if (request.kind == Kind::FrameEvaluation)
        return step.replace(0, 1, QStringLiteral("I")) + QLatin1Char(':');
    return QStringLiteral("You ") + step;
}

QString action(const JobRequest &request, int maxChars)
{
    if (request.kind == Kind::FrameEvaluation)
        return QStringLiteral("%1: %2").arg(debuggerStep(request), TextLines::oneLine(request.code, maxChars));
    if (request.isDebuggerStep())
        return debuggerStep(request);
    if (shownOperation(request).isEmpty())
        return TextLines::oneLine(request.code, maxChars);
    return TextLines::oneLine(QStringLiteral("%1 %2").arg(operation(request), subject(request)), maxChars);
}

} // namespace JobSummary
