#include "TranscriptExport.h"

#include "session/JobSummary.h"

#include "session/JobOutcome.h"

#include <QLocale>
#include <QSaveFile>

namespace {
QString who(const Origin &origin)
{
    if (origin.isPerson())
        return origin.name.isEmpty() || origin.name == QStringLiteral("You") ? QStringLiteral("The person") : origin.name;
    if (origin.kind == Origin::Kind::System)
        return QStringLiteral("Lisp Duet (%1)").arg(origin.name);
    return origin.name;
}

QString kindLabel(const Origin &origin)
{
    return origin.kindName();
}

QString timeOf(const QDateTime &time)
{
    return time.isValid() ? time.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QStringLiteral("(unknown time)");
}

QString defaultTitle(const QList<JournalEntry> &entries)
{
    for (const JournalEntry &entry : entries) {
        if (entry.time().isValid())
            return QStringLiteral("Lisp Duet session of %1").arg(entry.time().toString(QStringLiteral("yyyy-MM-dd HH:mm")));
    }
    return QStringLiteral("Lisp Duet session");
}

QString operationLine(const Job &e)
{
    const QString operation = JobSummary::shownOperation(e.request);
    return operation.isEmpty() ? QStringLiteral("evaluated") : operation;
}

QString outputNote(qint64 cut, qint64 dropped)
{
    QStringList notes;
    if (dropped > 0)
        notes << QStringLiteral("%1 characters beyond the output limit were not captured").arg(QLocale::c().toString(dropped));
    if (cut > 0)
        notes << QStringLiteral("%1 characters were left out of the journal").arg(QLocale::c().toString(cut));
    return notes.join(QStringLiteral("; "));
}

// A fence longer than any run of backticks inside, so code cannot close it.
QString fence(const QString &text)
{
    int longest = 0;
    int run = 0;
    for (const QChar c : text) {
        run = c == QLatin1Char('`') ? run + 1 : 0;
        longest = qMax(longest, run);
    }
    return QString(qMax(3, longest + 1), QLatin1Char('`'));
}

QString codeBlock(const QString &text, const QString &language = QString())
{
    QString body = text;
    if (body.endsWith(QLatin1Char('\n')))
        body.chop(1);
    const QString f = fence(body);
    return f + language + QLatin1Char('\n') + body + QLatin1Char('\n') + f + QLatin1Char('\n');
}

QString escape(const QString &text)
{
    return text.toHtmlEscaped();
}

// "claude-code edited src/shapes.lisp", for a file change's heading.
QString changeLine(const FileChange &change)
{
    const QString verb = change.kind == FileChange::Kind::Undo ? QStringLiteral("undid a change to")
                         : change.created                       ? QStringLiteral("created")
                         : change.deleted                       ? QStringLiteral("removed")
                         : change.kind == FileChange::Kind::Edit ? QStringLiteral("edited")
                                                                 : QStringLiteral("rewrote");
    return QStringLiteral("%1 %2").arg(verb, change.path);
}

QString htmlDiff(const QString &diff)
{
    QString h;
    for (const QString &line : diff.split(QLatin1Char('\n'))) {
        const QString cls = line.startsWith(QLatin1String("+++")) || line.startsWith(QLatin1String("---")) ? QStringLiteral("dh")
                            : line.startsWith(QLatin1Char('@'))                                        ? QStringLiteral("dhunk")
                            : line.startsWith(QLatin1Char('+'))                                        ? QStringLiteral("dadd")
                            : line.startsWith(QLatin1Char('-'))                                        ? QStringLiteral("ddel")
                                                                                                       : QString();
        h += cls.isEmpty() ? escape(line) + QLatin1Char('\n') : QStringLiteral("<span class=\"%1\">%2</span>\n").arg(cls, escape(line));
    }
    return h;
}

const char *Css = R"css(
body { font-family: -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; max-width: 60rem;
       margin: 2rem auto; padding: 0 1rem; color: #1d1d1f; background: #fbfbfa; line-height: 1.45; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; }
.meta { color: #6b6b6b; font-size: .9rem; margin-bottom: 1.5rem; }
.entry { border-left: 4px solid #999; background: #fff; margin: 1rem 0; padding: .6rem .9rem; border-radius: 4px;
         box-shadow: 0 1px 2px rgba(0,0,0,.06); }
.entry.person { border-left-color: #2f6fbd; }
.entry.agent { border-left-color: #8a4fbf; background: #fcf9ff; }
.entry.system { border-left-color: #7a7a7a; background: #f6f6f6; }
.who { font-weight: 600; }
.person .who { color: #2f6fbd; }
.agent .who { color: #8a4fbf; }
.system .who { color: #555; }
.head { font-size: .9rem; color: #555; }
.badge { font-size: .75rem; border: 1px solid currentColor; border-radius: 3px; padding: 0 .3rem; margin-left: .3rem; }
.why { font-style: italic; color: #444; margin: .3rem 0; }
pre { margin: .4rem 0; padding: .5rem .7rem; overflow-x: auto; white-space: pre-wrap; word-break: break-word;
      font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .88rem; border-radius: 3px; }
pre.code { background: #f2f4f7; }
pre.out { background: #fffbe8; }
pre.err-out { background: #fff1f0; }
pre.values { background: #eef8ee; }
.label { font-size: .75rem; text-transform: uppercase; letter-spacing: .04em; color: #777; margin-top: .4rem; }
.error { color: #b00020; }
.error pre { background: #fff1f0; color: #b00020; }
.event { color: #555; font-style: italic; margin: 1rem 0; padding: .3rem .9rem; border-top: 1px dashed #bbb; }
.event.restart, .event.failed { color: #b00020; }
.note { font-size: .8rem; color: #777; }
pre.diff { background: #f7f7f7; }
.dadd { color: #1a7f37; background: #e6ffec; display: inline-block; width: 100%; }
.ddel { color: #b00020; background: #ffebe9; display: inline-block; width: 100%; }
.dhunk { color: #6f42c1; }
.dh { color: #555; font-weight: 600; }
)css";
} // namespace

namespace TranscriptExport {

bool parseFormat(const QString &name, Format *format)
{
    const QString lower = name.trimmed().toLower();
    if (lower == QStringLiteral("md") || lower == QStringLiteral("markdown")) {
        *format = Format::Markdown;
        return true;
    }
    if (lower == QStringLiteral("html") || lower == QStringLiteral("htm")) {
        *format = Format::Html;
        return true;
    }
    return false;
}

QList<JournalEntry> fromTranscript(const QList<JobPtr> &transcript)
{
    QList<JournalEntry> entries;
    entries.reserve(transcript.size());
    for (const JobPtr &job : transcript)
        entries.append(JournalEntry::fromJob(*job));
    return entries;
}

QString markdown(const QList<JournalEntry> &entries, const QString &title)
{
    QString md = QStringLiteral("# %1\n\n").arg(title.isEmpty() ? defaultTitle(entries) : title);
    md += QStringLiteral("_Exported from Lisp Duet on %1. %2 entries._\n\n").arg(timeOf(QDateTime::currentDateTime())).arg(entries.size());
    for (const JournalEntry &entry : entries) {
        if (entry.isDefinition())
            continue; // the evaluation or file load that made it is shown already
        if (entry.isFileChange()) {
            const FileChange &f = entry.file;
            md += QStringLiteral("### %1 · %2 (%3) %4\n\n").arg(timeOf(f.at), who(f.origin), kindLabel(f.origin), changeLine(f));
            if (!f.description.isEmpty())
                md += QStringLiteral("> %1\n\n").arg(f.description.simplified());
            if (!f.summary.isEmpty())
                md += f.summary + QStringLiteral("\n\n");
            md += codeBlock(f.diff.text, QStringLiteral("diff")) + QLatin1Char('\n');
            continue;
        }
        if (!entry.isJob()) {
            md += QStringLiteral("---\n\n*%1 — %2*\n\n").arg(timeOf(entry.at), entry.message.isEmpty() ? entry.event : entry.message);
            continue;
        }
        const Job &e = entry.job;
        const JobResult &r = e.result;
        md += QStringLiteral("### %1 · %2 (%3) %4\n\n").arg(timeOf(e.startedAt.isValid() ? e.startedAt : e.finishedAt), who(e.request.origin),
                                                         kindLabel(e.request.origin), operationLine(e));
        if (!e.request.description.isEmpty())
            md += QStringLiteral("> %1\n\n").arg(e.request.description.simplified());
        if (!JobSummary::subject(e.request).isEmpty())
            md += codeBlock(JobSummary::subject(e.request), QStringLiteral("lisp")) + QLatin1Char('\n');
        if (!r.stdoutText.isEmpty())
            md += QStringLiteral("Output:\n\n") + codeBlock(r.stdoutText) + QLatin1Char('\n');
        if (!r.stderrText.isEmpty())
            md += QStringLiteral("Error output:\n\n") + codeBlock(r.stderrText) + QLatin1Char('\n');
        const QString note = outputNote(entry.stdoutCut + entry.stderrCut, r.outputDropped);
        if (!note.isEmpty())
            md += QStringLiteral("_(%1)_\n\n").arg(note);
        if (!r.warnings.isEmpty())
            md += QStringLiteral("Warnings:\n\n") + codeBlock(r.warnings.join(QLatin1Char('\n'))) + QLatin1Char('\n');
        if (r.ok()) {
            md += codeBlock(JobOutcome::values(r.values)) + QLatin1Char('\n');
        } else {
            md += QStringLiteral("**Error %1** (%2): %3\n\n").arg(r.error.type, JobResult::statusName(r.status), r.error.message.simplified());
            if (!r.error.backtrace.isEmpty())
                md += codeBlock(r.error.backtrace.join(QLatin1Char('\n'))) + QLatin1Char('\n');
        }
        if (r.realMicroseconds > 0)
            md += QStringLiteral("_%1 ms_\n\n").arg(double(r.realMicroseconds) / 1000.0, 0, 'f', 1);
    }
    return md;
}

QString html(const QList<JournalEntry> &entries, const QString &title)
{
    const QString heading = title.isEmpty() ? defaultTitle(entries) : title;
    QString h;
    h += QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    h += QStringLiteral("<title>%1</title>\n<style>%2</style>\n</head>\n<body>\n").arg(escape(heading), QString::fromUtf8(Css));
    h += QStringLiteral("<h1>%1</h1>\n<div class=\"meta\">Exported from Lisp Duet on %2 · %3 entries · "
                        "<span class=\"who\" style=\"color:#2f6fbd\">person</span>, "
                        "<span class=\"who\" style=\"color:#8a4fbf\">agents</span>, "
                        "<span class=\"who\" style=\"color:#555\">Lisp Duet itself</span></div>\n")
             .arg(escape(heading), escape(timeOf(QDateTime::currentDateTime())))
             .arg(entries.size());
    for (const JournalEntry &entry : entries) {
        if (entry.isDefinition())
            continue; // the evaluation or file load that made it is shown already
        if (entry.isFileChange()) {
            const FileChange &f = entry.file;
            h += QStringLiteral("<section class=\"entry %1\">\n<div class=\"head\"><span class=\"who\">%2</span>"
                                "<span class=\"badge\">%1</span> %3 at %4 · +%5 −%6</div>\n")
                     .arg(kindLabel(f.origin), escape(who(f.origin)), escape(changeLine(f)), escape(timeOf(f.at)))
                     .arg(f.diff.added)
                     .arg(f.diff.removed);
            if (!f.description.isEmpty())
                h += QStringLiteral("<div class=\"why\">%1</div>\n").arg(escape(f.description));
            h += QStringLiteral("<pre class=\"diff\">%1</pre>\n</section>\n").arg(htmlDiff(f.diff.text));
            continue;
        }
        if (!entry.isJob()) {
            const QString cls = entry.event == QStringLiteral("engine-restarted") ? QStringLiteral(" restart")
                                : entry.event == QStringLiteral("engine-failed") ? QStringLiteral(" failed")
                                                                                  : QString();
            h += QStringLiteral("<div class=\"event%1\">%2 — %3</div>\n")
                     .arg(cls, escape(timeOf(entry.at)), escape(entry.message.isEmpty() ? entry.event : entry.message));
            continue;
        }
        const Job &e = entry.job;
        const JobResult &r = e.result;
        const QString kind = kindLabel(e.request.origin);
        h += QStringLiteral("<section class=\"entry %1\">\n<div class=\"head\"><span class=\"who\">%2</span>"
                            "<span class=\"badge\">%1</span> %3 at %4%5</div>\n")
                 .arg(kind, escape(who(e.request.origin)), escape(operationLine(e)),
                      escape(timeOf(e.startedAt.isValid() ? e.startedAt : e.finishedAt)),
                      r.realMicroseconds > 0 ? QStringLiteral(" · %1 ms").arg(double(r.realMicroseconds) / 1000.0, 0, 'f', 1) : QString());
        if (!e.request.description.isEmpty())
            h += QStringLiteral("<div class=\"why\">%1</div>\n").arg(escape(e.request.description));
        if (!JobSummary::subject(e.request).isEmpty())
            h += QStringLiteral("<pre class=\"code\">%1</pre>\n").arg(escape(JobSummary::subject(e.request)));
        if (!r.stdoutText.isEmpty())
            h += QStringLiteral("<div class=\"label\">output</div><pre class=\"out\">%1</pre>\n").arg(escape(r.stdoutText));
        if (!r.stderrText.isEmpty())
            h += QStringLiteral("<div class=\"label\">error output</div><pre class=\"err-out\">%1</pre>\n").arg(escape(r.stderrText));
        const QString note = outputNote(entry.stdoutCut + entry.stderrCut, r.outputDropped);
        if (!note.isEmpty())
            h += QStringLiteral("<div class=\"note\">(%1)</div>\n").arg(escape(note));
        if (!r.warnings.isEmpty())
            h += QStringLiteral("<div class=\"label\">warnings</div><pre class=\"out\">%1</pre>\n").arg(escape(r.warnings.join(QLatin1Char('\n'))));
        if (r.ok()) {
            h += QStringLiteral("<pre class=\"values\">%1</pre>\n").arg(escape(JobOutcome::values(r.values)));
        } else {
            h += QStringLiteral("<div class=\"error\"><strong>[ERROR] %1</strong> (%2)<pre>%3</pre>")
                     .arg(escape(r.error.type), escape(JobResult::statusName(r.status)), escape(r.error.message));
            if (!r.error.backtrace.isEmpty())
                h += QStringLiteral("<div class=\"label\">backtrace</div><pre>%1</pre>").arg(escape(r.error.backtrace.join(QLatin1Char('\n'))));
            h += QStringLiteral("</div>\n");
        }
        h += QStringLiteral("</section>\n");
    }
    h += QStringLiteral("</body>\n</html>\n");
    return h;
}

QString render(Format format, const QList<JournalEntry> &entries, const QString &title)
{
    return format == Format::Html ? html(entries, title) : markdown(entries, title);
}

bool write(const QString &path, Format format, const QList<JournalEntry> &entries, const QString &title, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QStringLiteral("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    file.write(render(format, entries, title).toUtf8());
    if (!file.commit()) {
        if (error)
            *error = QStringLiteral("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace TranscriptExport
