#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

// A project file as text: UTF-8 only, decoded strictly (every byte kept, line endings too, so an
// edit can leave everything outside the edited form byte for byte), with the SHA-256 digest of
// its bytes, which tells whether somebody changed it since it was read.
struct TextFileContents
{
    QString text;
    QByteArray digest;  // hex SHA-256 of the bytes on disk
    qint64 size = 0;    // bytes
    QString error;      // why it cannot be used as text
    bool ok() const { return error.isEmpty(); }
};

// A window of a file's lines, for files of any size.
struct TextFileLines
{
    QStringList lines;     // without their line endings
    int firstLine = 1;     // 1-based number of lines.first()
    int totalLines = 0;    // counted to the end when known, else -1
    bool more = false;     // lines follow the window
    QByteArray digest;     // of the whole file
    qint64 size = 0;
    QString error;
    bool ok() const { return error.isEmpty(); }
};

namespace TextFile {

// Whole-file reads and edits stop here: past it, read line windows.
constexpr qint64 MaxWholeFileBytes = 8 * 1024 * 1024;

QByteArray digest(const QByteArray &bytes);
QString shortDigest(const QByteArray &digest); // the first 12 hex digits, for people

// The lines of a text without their line endings (CRLF, LF or CR); a last line without an
// ending counts, an empty text has none.
QStringList lines(const QString &text);

// The whole file; an error for binary data, invalid UTF-8 (with the offset) or a file larger
// than maxBytes (with what to do instead).
TextFileContents read(const QString &path, qint64 maxBytes = MaxWholeFileBytes);
// Checks bytes the same way read() does.
TextFileContents decode(const QByteArray &bytes, const QString &nameForMessages);

// Lines firstLine.. (1-based), at most maxLines of them, streamed: works on a 100 MB file.
TextFileLines readLines(const QString &path, int firstLine, int maxLines);

// Creates or replaces the file atomically (QSaveFile: a temporary file renamed over it), as
// UTF-8, creating missing parent folders. False with a sentence on failure; nothing half-written.
bool write(const QString &path, const QString &text, QString *error);

} // namespace TextFile
