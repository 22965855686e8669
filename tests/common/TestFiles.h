#pragma once

// Files for tests that need a project on disk: a copy of tests/data/shapes, a file written
// whole, a one-file ASDF system.

#include <QByteArray>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QString>

namespace TestFiles {

// Copies every file under `from` to the same place under `to`.
inline bool copyTree(const QString &from, const QString &to)
{
    QDirIterator it(from, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString source = it.next();
        const QString target = to + QLatin1Char('/') + QDir(from).relativeFilePath(source);
        if (!QDir().mkpath(QFileInfo(target).path()) || !QFile::copy(source, target))
            return false;
    }
    return true;
}

// Writes `bytes` as the whole file, making its folder.
inline bool write(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// An ASDF system NAME of one file, ROOT/NAME/NAME.asd and ROOT/NAME/NAME.lisp holding `source`.
inline bool writeOneFileSystem(const QString &root, const QString &name, const QByteArray &source)
{
    const QString folder = root + QLatin1Char('/') + name + QLatin1Char('/');
    return write(folder + name + QStringLiteral(".asd"),
                 "(asdf:defsystem \"" + name.toUtf8() + "\" :components ((:file \"" + name.toUtf8() + "\")))\n")
           && write(folder + name + QStringLiteral(".lisp"), source);
}

inline QString read(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace TestFiles
