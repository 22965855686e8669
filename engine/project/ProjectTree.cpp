#include "ProjectTree.h"

#include "TextFile.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace ProjectTree {

bool isSkippedFolder(const QString &name)
{
    static const QStringList skipped{QStringLiteral(".git"), QStringLiteral("build"), QStringLiteral("_build"),
                                     QStringLiteral("node_modules"), QStringLiteral(".cache")};
    return skipped.contains(name);
}

bool isSkippedFile(const QString &name)
{
    return name.endsWith(QLatin1String(".fasl")) || name.endsWith(QLatin1String(".fas")) || name.endsWith(QLatin1String(".o"));
}

bool isLispFile(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("lisp") || suffix == QLatin1String("lsp") || suffix == QLatin1String("cl")
        || suffix == QLatin1String("asd");
}

Walk walk(const ProjectRoot &root)
{
    Walk result;
    if (!root.isSet())
        return result;
    const QDir base(root.path());
    // A stack of folders, not a recursion; links to folders are not followed (no cycles, and a
    // link out of the root would lead outside it).
    QStringList folders{root.path()};
    while (!folders.isEmpty() && !result.truncated) {
        const QString folder = folders.takeLast();
        const QFileInfoList entries = QDir(folder).entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
        for (const QFileInfo &entry : entries) {
            if (entry.isDir()) {
                if (!entry.isSymLink() && !isSkippedFolder(entry.fileName()))
                    folders << entry.filePath();
                continue;
            }
            if (isSkippedFile(entry.fileName()) || entry.fileName().contains(QLatin1Char('\n')))
                continue;
            if (entry.isSymLink() ? !root.contains(entry.canonicalFilePath()) || !QFileInfo(entry.canonicalFilePath()).isFile()
                                  : !entry.isFile())
                continue;
            result.files << base.relativeFilePath(entry.filePath());
            if (result.files.size() >= MaxWalkedFiles) {
                result.truncated = true;
                break;
            }
        }
    }
    std::sort(result.files.begin(), result.files.end());
    return result;
}

Glob::Glob(const QString &glob, bool caseSensitive)
{
    QString pattern;
    const QString trimmed = glob.trimmed();
    if (!trimmed.contains(QLatin1Char('/')))
        pattern = QStringLiteral("(?:.*/)?"); // a name: in any folder
    for (qsizetype i = 0; i < trimmed.size(); ++i) {
        const QChar c = trimmed[i];
        if (c == QLatin1Char('*')) {
            const bool doubleStar = i + 1 < trimmed.size() && trimmed[i + 1] == QLatin1Char('*');
            if (!doubleStar) {
                pattern += QStringLiteral("[^/]*");
                continue;
            }
            ++i;
            if (i + 1 < trimmed.size() && trimmed[i + 1] == QLatin1Char('/')) {
                ++i;
                pattern += QStringLiteral("(?:.*/)?"); // "**/": any folders, none included
            } else {
                pattern += QStringLiteral(".*");
            }
        } else if (c == QLatin1Char('?')) {
            pattern += QStringLiteral("[^/]");
        } else {
            pattern += QRegularExpression::escape(QString(c));
        }
    }
    m_expression = QRegularExpression(QRegularExpression::anchoredPattern(pattern),
                                      caseSensitive ? QRegularExpression::NoPatternOption : QRegularExpression::CaseInsensitiveOption);
}

Sources lispSources(const ProjectRoot &root)
{
    Sources sources;
    const Walk walked = walk(root);
    sources.truncated = walked.truncated;
    for (const QString &relative : walked.files) {
        if (!isLispFile(relative))
            continue;
        const QString absolute = QDir(root.path()).filePath(relative);
        const TextFileContents contents = TextFile::read(absolute);
        if (!contents.ok()) {
            sources.skipped << QStringLiteral("%1 (%2)").arg(relative, contents.error);
            continue;
        }
        sources.files.append(SourceFile{absolute, relative, contents.text});
    }
    return sources;
}

QString skippedNote(const Sources &sources)
{
    QString note;
    if (!sources.skipped.isEmpty())
        note += QStringLiteral("Not searched: %1.").arg(sources.skipped.join(QStringLiteral("; ")));
    if (sources.truncated)
        note += QStringLiteral("%1Only the first %2 files of the project were searched.")
                    .arg(note.isEmpty() ? QString() : QStringLiteral(" ")).arg(MaxWalkedFiles);
    return note;
}

} // namespace ProjectTree
