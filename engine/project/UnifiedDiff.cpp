#include "UnifiedDiff.h"

#include <git2.h>

namespace {
// libgit2 keeps global state that must be set up once per process.
void ensureLibgit2()
{
    static const int initialized = git_libgit2_init();
    Q_UNUSED(initialized)
}

QString lineText(const git_diff_line *line)
{
    QString text = QString::fromUtf8(line->content, qsizetype(line->content_len));
    while (text.endsWith(QLatin1Char('\n')) || text.endsWith(QLatin1Char('\r')))
        text.chop(1);
    return text;
}

void append(FileDiff &diff, DiffLine::Kind kind, const QString &prefix, const QString &text, int oldLine = 0, int newLine = 0)
{
    diff.lines.append({kind, text, oldLine, newLine});
    diff.text += prefix + text + QLatin1Char('\n');
}
} // namespace

namespace UnifiedDiff {

FileDiff between(const QString &path, const QString &before, const QString &after, int contextLines)
{
    ensureLibgit2();
    FileDiff diff;
    if (before == after)
        return diff;
    const QByteArray oldBytes = before.toUtf8();
    const QByteArray newBytes = after.toUtf8();
    git_diff_options options;
    git_diff_options_init(&options, GIT_DIFF_OPTIONS_VERSION);
    options.context_lines = quint32(qMax(0, contextLines));
    options.flags |= GIT_DIFF_FORCE_TEXT;
    git_patch *patch = nullptr;
    if (git_patch_from_buffers(&patch, oldBytes.constData(), size_t(oldBytes.size()), nullptr, newBytes.constData(),
                               size_t(newBytes.size()), nullptr, &options) != 0 || !patch) {
        // Only an allocation failure gets here; say what changed at the least.
        append(diff, DiffLine::Kind::Header, QString(), QStringLiteral("(the diff of %1 could not be computed)").arg(path));
        diff.added = diff.removed = 1;
        return diff;
    }
    append(diff, DiffLine::Kind::Header, QString(), (before.isEmpty() ? QStringLiteral("--- /dev/null") : QStringLiteral("--- a/") + path));
    append(diff, DiffLine::Kind::Header, QString(), (after.isEmpty() ? QStringLiteral("+++ /dev/null") : QStringLiteral("+++ b/") + path));
    const size_t hunks = git_patch_num_hunks(patch);
    for (size_t h = 0; h < hunks; ++h) {
        const git_diff_hunk *hunk = nullptr;
        size_t lineCount = 0;
        if (git_patch_get_hunk(&hunk, &lineCount, patch, h) != 0)
            continue;
        QString header = QString::fromUtf8(hunk->header, qsizetype(hunk->header_len));
        while (header.endsWith(QLatin1Char('\n')))
            header.chop(1);
        append(diff, DiffLine::Kind::Hunk, QString(), header, hunk->old_start, hunk->new_start);
        for (size_t i = 0; i < lineCount; ++i) {
            const git_diff_line *line = nullptr;
            if (git_patch_get_line_in_hunk(&line, patch, h, i) != 0)
                continue;
            switch (line->origin) {
            case GIT_DIFF_LINE_CONTEXT:
                append(diff, DiffLine::Kind::Context, QStringLiteral(" "), lineText(line), line->old_lineno, line->new_lineno);
                break;
            case GIT_DIFF_LINE_ADDITION:
                append(diff, DiffLine::Kind::Added, QStringLiteral("+"), lineText(line), 0, line->new_lineno);
                ++diff.added;
                break;
            case GIT_DIFF_LINE_DELETION:
                append(diff, DiffLine::Kind::Removed, QStringLiteral("-"), lineText(line), line->old_lineno, 0);
                ++diff.removed;
                break;
            default: // the end-of-file markers
                append(diff, DiffLine::Kind::NoNewline, QString(), QStringLiteral("\\ No newline at end of file"));
                break;
            }
        }
    }
    git_patch_free(patch);
    return diff;
}

} // namespace UnifiedDiff
