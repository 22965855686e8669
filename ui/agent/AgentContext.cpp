#include "AgentContext.h"

#include "features/ResourceProvider.h"
#include "session/Session.h"
#include "tools/DebuggerFormatter.h"

#include <QUrl>

namespace {
constexpr auto Scheme = "lisp-duet://";
constexpr int LabelChars = 40;

QString capped(const QString &text)
{
    if (text.size() <= AgentContext::MaxChars)
        return text;
    return text.left(AgentContext::MaxChars)
        + QObject::tr("\n;; ... %1 more characters cut by Lisp Duet").arg(text.size() - AgentContext::MaxChars);
}

// The first line of `text`, at most LabelChars of it.
QString glimpse(const QString &text)
{
    QString line = text.trimmed().section(u'\n', 0, 0).simplified();
    if (line.size() > LabelChars)
        line = line.left(LabelChars - 1) + QChar(0x2026);
    return line;
}

QString encoded(const QString &part)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(part, "*+-!$&=<>/?%"));
}

// The transcript's own number ("12" for #12, as the transcript resource and session-transcript
// show it); a job not finished yet has none.
QString entryId(const Job &job)
{
    return job.sequence > 0 ? QString::number(job.sequence) : QStringLiteral("job-%1").arg(job.id);
}

Acp::ContentBlock resource(const QString &path, const QString &text, const QString &mimeType)
{
    return Acp::ContentBlock::fromResource(QLatin1String(Scheme) + path, capped(text), mimeType);
}
} // namespace

namespace AgentContext {

Context forEntry(const Job &job)
{
    Context context;
    const QString id = entryId(job);
    context.resource = resource(QStringLiteral("transcript/") + id, ResourceProvider::entryText(job, 200), QStringLiteral("text/plain"));
    context.label = QObject::tr("REPL #%1: %2").arg(id, glimpse(job.request.code));
    return context;
}

Context forDefinition(const DefinitionsModel::Definition &d, const QString &location)
{
    QStringList lines;
    lines << QStringLiteral(";; %1 %2::%3%4").arg(d.kind, d.package, d.name,
                                                   d.lambdaList.isEmpty() ? QString() : QLatin1Char(' ') + d.lambdaList);
    if (!d.definedBy.isEmpty())
        lines << QStringLiteral(";; defined by %1%2").arg(d.definedBy,
                                                          d.definedAt.isValid() ? QStringLiteral(" at ") + d.definedAt.toString(Qt::ISODate) : QString());
    if (!location.isEmpty())
        lines << QStringLiteral(";; in %1").arg(location);
    if (!d.value.isEmpty())
        lines << QStringLiteral(";; value: %1").arg(d.value);
    if (!d.documentation.isEmpty())
        lines << QStringLiteral(";; documentation: %1").arg(d.documentation.section(u'\n', 0, 0));
    lines << (d.form.isEmpty() ? QStringLiteral(";; (its form is not known: it was not evaluated in this session)") : d.form);
    Context context;
    context.resource = resource(QStringLiteral("definition/%1::%2").arg(encoded(d.package), encoded(d.name)), lines.join(u'\n'),
                                QStringLiteral("text/x-common-lisp"));
    context.label = QObject::tr("%1 %2").arg(d.kind, d.name);
    return context;
}

Context forDebugger(const Debugger &d, const Session *session)
{
    QStringList lines;
    lines << QStringLiteral(";; %1's evaluation, parked in debugger %2 (level %3):").arg(d.owner.name).arg(d.id).arg(d.level);
    lines << d.code.trimmed();
    lines << QStringLiteral("Condition: %1: %2").arg(d.conditionType, d.message);
    lines << QStringLiteral("Frames:");
    for (const DebuggerFrame &frame : d.frames)
        lines << QStringLiteral("  %1: %2").arg(frame.index).arg(frame.text);
    if (d.frames.isEmpty())
        lines << QStringLiteral("  (none recorded)");
    if (d.isOpen())
        lines << DebuggerFormatter::block(d, session);
    else
        lines << QStringLiteral("Closed: %1").arg(d.outcomeSentence());
    Context context;
    context.resource = resource(QStringLiteral("debugger/%1").arg(d.id), lines.join(u'\n'), QStringLiteral("text/plain"));
    context.label = QObject::tr("debugger %1: %2").arg(d.id).arg(d.conditionType);
    return context;
}

Context forSelection(const QString &text, const Job *job)
{
    Context context;
    const QString path = job ? QStringLiteral("transcript/%1#selection").arg(entryId(*job)) : QStringLiteral("transcript/selection");
    context.resource = resource(path, text, QStringLiteral("text/plain"));
    context.label = QObject::tr("selection: %1").arg(glimpse(text));
    return context;
}

QString describeUri(const QString &uri)
{
    if (!uri.startsWith(QLatin1String(Scheme)))
        return uri;
    const QString path = uri.mid(qsizetype(qstrlen(Scheme)));
    const QString kind = path.section(u'/', 0, 0);
    const QString rest = QUrl::fromPercentEncoding(path.section(u'/', 1).toUtf8());
    if (kind == QLatin1String("transcript"))
        return rest.contains(u'#') || rest == QLatin1String("selection") ? QObject::tr("a selection of the transcript")
                                                                         : QObject::tr("REPL entry #%1").arg(rest);
    if (kind == QLatin1String("definition"))
        return QObject::tr("definition %1").arg(rest);
    if (kind == QLatin1String("debugger"))
        return QObject::tr("debugger %1").arg(rest);
    return uri;
}

} // namespace AgentContext
