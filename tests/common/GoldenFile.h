#pragma once

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QString>
#include <QTest>

// Golden files: the expected text of a case lives in a file beside the tests and is compared
// whole. With LISP_DUET_REFRESH_GOLDEN=1 (tests/refresh-golden.sh sets it) the file is written
// from what the code produces now instead; read `git diff` before committing, a golden file is a
// promise. On a mismatch the unified diff is printed, not two blobs.
namespace GoldenFile {

inline bool refreshing()
{
    return qEnvironmentVariableIsSet("LISP_DUET_REFRESH_GOLDEN");
}

inline QString read(const QString &path, bool *ok)
{
    QFile file(path);
    *ok = file.open(QIODevice::ReadOnly);
    return *ok ? QString::fromUtf8(file.readAll()) : QString();
}

inline void write(const QString &path, const QString &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(text.toUtf8());
}

inline void printDiff(const QString &path, const QString &actual)
{
    const QString actualPath = QDir::temp().filePath(QStringLiteral("lisp-duet-golden-") + QFileInfo(path).fileName());
    write(actualPath, actual);
    QProcess diff;
    diff.start(QStringLiteral("diff"), {QStringLiteral("-u"), path, actualPath});
    diff.waitForFinished(5000);
    qWarning().noquote() << diff.readAllStandardOutput();
}

} // namespace GoldenFile

// Compares ACTUAL (a QString) with the golden file at PATH, or rewrites the file when refreshing.
#define DUET_COMPARE_GOLDEN(actual, path)                                                          \
    do {                                                                                           \
        const QString duetActual_ = (actual);                                                      \
        const QString duetPath_ = (path);                                                          \
        if (GoldenFile::refreshing()) {                                                            \
            GoldenFile::write(duetPath_, duetActual_);                                             \
            break;                                                                                 \
        }                                                                                          \
        bool duetFound_ = false;                                                                   \
        const QString duetExpected_ = GoldenFile::read(duetPath_, &duetFound_);                    \
        QVERIFY2(duetFound_, qPrintable(duetPath_ + QStringLiteral(" is missing: run tests/refresh-golden.sh"))); \
        if (duetActual_ != duetExpected_)                                                          \
            GoldenFile::printDiff(duetPath_, duetActual_);                                         \
        QCOMPARE(duetActual_, duetExpected_);                                                      \
    } while (false)
