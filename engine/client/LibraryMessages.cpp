#include "LibraryMessages.h"

namespace EngineProtocol {

QString LibraryEntry::system() const { return json.value(QStringLiteral("system")).toString(); }
QString LibraryEntry::state() const { return json.value(QStringLiteral("state")).toString(); }
int LibraryEntry::compiled() const { return json.value(QStringLiteral("compiled")).toInt(); }
int LibraryEntry::total() const { return json.value(QStringLiteral("total")).toInt(); }
int LibraryEntry::bytecodeFiles() const { return json.value(QStringLiteral("bytecode_files")).toInt(); }
int LibraryEntry::nativeFiles() const { return json.value(QStringLiteral("native_files")).toInt(); }
QString LibraryEntry::reason() const { return json.value(QStringLiteral("reason")).toString(); }
bool LibraryEntry::warmUp() const { return json.value(QStringLiteral("warm_up")).toBool(); }
qint64 LibraryEntry::pid() const { return json.value(QStringLiteral("pid")).toInteger(); }
qint64 LibraryEntry::sinceMs() const { return qint64(json.value(QStringLiteral("since_ms")).toDouble()); }

QList<LibraryEntry::Deferred> LibraryEntry::deferred() const
{
    QList<Deferred> files;
    for (const QJsonValue &v : json.value(QStringLiteral("deferred")).toArray()) {
        const QJsonObject file = v.toObject();
        files.append({file.value(QStringLiteral("file")).toString(), file.value(QStringLiteral("reason")).toString()});
    }
    return files;
}

QList<LibraryEntry> libraryEntries(const QJsonObject &json)
{
    QList<LibraryEntry> entries;
    for (const QJsonValue &v : json.value(QStringLiteral("libraries")).toArray())
        entries.append(LibraryEntry(v));
    return entries;
}

int LibrariesReply::compilers() const { return int(number("compilers")); }
int LibrariesReply::compilerLimit() const { return int(number("compiler_limit")); }
bool LibrariesReply::available() const { return flag("available"); }
QString LibrariesReply::reason() const { return text("reason"); }

QStringList LibraryWarmUpReply::queued() const { return toStringList(field("queued")); }
QStringList LibraryWarmUpReply::native() const { return toStringList(field("native")); }
QStringList LibraryWarmUpReply::unknown() const { return toStringList(field("unknown")); }

} // namespace EngineProtocol
