#include "TextFile.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStringDecoder>

namespace {
// NUL bytes do not occur in text; a few in the first 64 KiB mark a binary file.
constexpr qint64 BinaryProbeBytes = 64 * 1024;

// Offset of the first byte that is not valid UTF-8, or -1.
qint64 firstInvalidUtf8(const QByteArray &bytes)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString decoded = decoder.decode(bytes);
    if (!decoder.hasError())
        return -1;
    // Find it by re-decoding prefixes: rare (errors only), and precise for the message.
    qint64 low = 0, high = bytes.size();
    while (low < high) {
        const qint64 middle = (low + high) / 2;
        QStringDecoder probe(QStringDecoder::Utf8);
        (void)QString(probe.decode(QByteArrayView(bytes).first(middle + 1)));
        if (probe.hasError())
            high = middle;
        else
            low = middle + 1;
    }
    return low;
}
} // namespace

namespace TextFile {

QStringList lines(const QString &text)
{
    QStringList result;
    qsizetype start = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c != QLatin1Char('\n') && c != QLatin1Char('\r'))
            continue;
        result << text.mid(start, i - start);
        if (c == QLatin1Char('\r') && i + 1 < text.size() && text[i + 1] == QLatin1Char('\n'))
            ++i;
        start = i + 1;
    }
    if (start < text.size())
        result << text.mid(start);
    return result;
}

QByteArray digest(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

QString shortDigest(const QByteArray &digest)
{
    return QString::fromLatin1(digest.left(12));
}

TextFileContents decode(const QByteArray &bytes, const QString &name)
{
    TextFileContents contents;
    contents.size = bytes.size();
    contents.digest = digest(bytes);
    if (QByteArrayView(bytes).first(qMin<qint64>(bytes.size(), BinaryProbeBytes)).contains('\0')) {
        contents.error = QStringLiteral("%1 is a binary file (it contains NUL bytes); Lisp Duet reads and writes text files only.").arg(name);
        return contents;
    }
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    contents.text = decoder.decode(bytes);
    if (decoder.hasError()) {
        contents.text.clear();
        contents.error = QStringLiteral("%1 is not valid UTF-8 (the first bad byte is at offset %2); Lisp Duet reads and writes UTF-8 text only.")
                             .arg(name).arg(firstInvalidUtf8(bytes));
    }
    return contents;
}

TextFileContents read(const QString &path, qint64 maxBytes)
{
    const QString name = QFileInfo(path).fileName();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        TextFileContents failed;
        failed.error = QStringLiteral("Cannot read %1: %2.").arg(path, file.errorString());
        return failed;
    }
    if (file.size() > maxBytes) {
        TextFileContents tooLarge;
        tooLarge.size = file.size();
        tooLarge.error = QStringLiteral("%1 has %2 bytes, more than the %3 that whole-file operations take; read it in line ranges instead.")
                             .arg(name).arg(file.size()).arg(maxBytes);
        return tooLarge;
    }
    return decode(file.readAll(), name);
}

TextFileLines readLines(const QString &path, int firstLine, int maxLines)
{
    TextFileLines window;
    window.firstLine = qMax(1, firstLine);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        window.error = QStringLiteral("Cannot read %1: %2.").arg(path, file.errorString());
        return window;
    }
    window.size = file.size();
    const QString name = QFileInfo(path).fileName();
    QCryptographicHash hash(QCryptographicHash::Sha256);
    QStringDecoder decoder(QStringDecoder::Utf8);
    int lineNumber = 0;
    qint64 offset = 0;
    constexpr qint64 MaxLineBytes = 1024 * 1024; // a "line" of 50 MB is not text to show
    // Every line is read into this one buffer: QIODevice::readLine(MaxLineBytes) allocates
    // MaxLineBytes for each line, however short (200,000 lines: 200,000 allocations of 1 MiB,
    // which took 137 s under AddressSanitizer, mapping and unmapping each one).
    QByteArray buffer(MaxLineBytes + 1, Qt::Uninitialized);
    const auto readLine = [&file, &buffer]() {
        const qint64 read = file.readLine(buffer.data(), buffer.size()); // at most MaxLineBytes, then a NUL
        return QByteArrayView(buffer.constData(), qMax<qint64>(read, 0));
    };
    while (!file.atEnd()) {
        const QByteArrayView raw = readLine();
        hash.addData(raw);
        if (offset < BinaryProbeBytes && raw.first(qMin<qint64>(raw.size(), BinaryProbeBytes - offset)).contains('\0')) {
            window.error = QStringLiteral("%1 is a binary file (it contains NUL bytes); Lisp Duet reads and writes text files only.").arg(name);
            return window;
        }
        offset += raw.size();
        const bool complete = raw.endsWith('\n') || file.atEnd();
        ++lineNumber;
        if (lineNumber >= window.firstLine && window.lines.size() < maxLines) {
            QString line = decoder.decode(raw);
            if (decoder.hasError()) {
                window.error = QStringLiteral("%1 is not valid UTF-8 at line %2; Lisp Duet reads and writes UTF-8 text only.").arg(name).arg(lineNumber);
                return window;
            }
            while (line.endsWith(QLatin1Char('\n')) || line.endsWith(QLatin1Char('\r')))
                line.chop(1);
            if (!complete)
                line += QStringLiteral(" [line cut at %1 bytes]").arg(MaxLineBytes);
            window.lines << line;
        } else if (window.lines.size() >= maxLines) {
            window.more = true;
        }
        if (!complete) {
            // Skip the rest of an overlong line without holding it.
            while (!file.atEnd()) {
                const QByteArrayView rest = readLine();
                hash.addData(rest);
                offset += rest.size();
                if (rest.endsWith('\n'))
                    break;
            }
        }
    }
    window.totalLines = lineNumber;
    window.digest = hash.result().toHex();
    return window;
}

bool write(const QString &path, const QString &text, QString *error)
{
    const QString folder = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(folder)) {
        *error = QStringLiteral("Cannot create the folder %1.").arg(folder);
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("Cannot write %1: %2.").arg(path, file.errorString());
        return false;
    }
    const QByteArray bytes = text.toUtf8();
    if (file.write(bytes) != bytes.size() || !file.commit()) {
        *error = QStringLiteral("Writing %1 failed: %2; the file is unchanged.").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace TextFile
