#include "ProjectFiles.h"

#include "session/LocalClock.h"

#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QTimer>

QString FileChange::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Write: return QStringLiteral("write");
    case Kind::Edit: return QStringLiteral("edit");
    case Kind::Undo: return QStringLiteral("undo");
    }
    return {};
}

namespace {
// The digest of what is on disk now; empty when there is no file.
QByteArray digestOnDisk(const QString &path, bool *exists)
{
    QFile file(path);
    *exists = file.exists();
    if (!*exists || !file.open(QIODevice::ReadOnly))
        return {};
    return TextFile::digest(file.readAll());
}
} // namespace

ProjectFiles::ProjectFiles(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<FileChange>();
}

bool ProjectFiles::setRoot(const QString &directory, const Origin &by, QString *error)
{
    if (!m_root.setPath(directory, error))
        return false;
    Q_EMIT rootChanged(m_root.path(), by);
    return true;
}

void ProjectFiles::noteSeen(const QString &clientKey, const QString &absolutePath, const QByteArray &digest)
{
    m_seen[clientKey].insert(absolutePath, digest);
    m_read[clientKey].insert(absolutePath, digest);
}

QByteArray ProjectFiles::readBy(const QString &clientKey, const QString &absolutePath) const
{
    return m_read.value(clientKey).value(absolutePath);
}

QByteArray ProjectFiles::seenBy(const QString &clientKey, const QString &absolutePath) const
{
    return m_seen.value(clientKey).value(absolutePath);
}

void ProjectFiles::propose(const QString &absolutePath, const Origin &origin, Maker make, Done done, QObject *proposedBy)
{
    enqueue(absolutePath, {origin, std::move(make), std::move(done), false, proposedBy});
}

const FileChange *ProjectFiles::change(quint64 id) const
{
    for (const FileChange &change : m_history) {
        if (change.id == id)
            return &change;
    }
    return nullptr;
}

const FileChange *ProjectFiles::newestChange(const QString &absolutePath) const
{
    for (auto it = m_history.crbegin(); it != m_history.crend(); ++it) {
        if (it->absolutePath == absolutePath)
            return &*it;
    }
    return nullptr;
}

bool ProjectFiles::canUndo(const QString &absolutePath) const
{
    const FileChange *newest = newestChange(absolutePath);
    return newest && newest->kind != FileChange::Kind::Undo && !newest->origin.isPerson();
}

void ProjectFiles::undoLast(const QString &absolutePath, const Origin &by, Done done)
{
    if (!canUndo(absolutePath)) {
        done({}, QStringLiteral("No change by an agent to %1 is left to undo.").arg(m_root.display(absolutePath)));
        return;
    }
    undo(newestChange(absolutePath)->id, by, std::move(done));
}

void ProjectFiles::undo(quint64 changeId, const Origin &by, Done done)
{
    const FileChange *found = change(changeId);
    if (!found) {
        done({}, QStringLiteral("That change is no longer in this run's history, so it cannot be undone."));
        return;
    }
    const QString refused = QStringLiteral("Could not undo %1's change to %2: ").arg(found->origin.name, found->path);
    if (found->kind == FileChange::Kind::Undo || found->origin.isPerson()) {
        done({}, refused + QStringLiteral("only an agent's change can be undone."));
        return;
    }
    const FileChange *newest = newestChange(found->absolutePath);
    if (newest && newest->kind == FileChange::Kind::Undo && newest->undoes == found->id) {
        done({}, refused + QStringLiteral("you already undid it."));
        return;
    }
    if (newest && newest->id != found->id) {
        const QString whose = newest->origin.isPerson() ? QStringLiteral("your") : QStringLiteral("%1's").arg(newest->origin.name);
        done({}, refused + QStringLiteral("the file changed after it (%1 %2 at %3). Only the newest change to a file can be undone.")
                               .arg(whose, FileChange::kindName(newest->kind), newest->at.toString(QStringLiteral("HH:mm:ss"))));
        return;
    }
    // A copy: the history the change lives in grows when the undo is written.
    const FileChange original = *found;
    Maker make = [original, refused](const TextFileContents &current, bool exists, QString *error) -> std::optional<FileChange> {
        const bool unchanged = original.deleted ? !exists : (exists && current.digest == original.afterDigest);
        if (!unchanged) {
            *error = refused + QStringLiteral("%1 changed after %2's %3 (%4); undoing it now would lose those later changes, so nothing was changed.")
                         .arg(original.path, original.origin.name, FileChange::kindName(original.kind),
                              original.at.toString(QStringLiteral("HH:mm:ss")));
            return std::nullopt;
        }
        FileChange undo;
        undo.kind = FileChange::Kind::Undo;
        undo.tool = QStringLiteral("undo");
        undo.after = original.before;
        undo.deleted = original.created;
        undo.undoes = original.id;
        undo.summary = QStringLiteral("took back %1's change (%2)").arg(original.origin.name, original.summary);
        return undo;
    };
    enqueue(original.absolutePath, {by, std::move(make), std::move(done), true, {}});
}

// By value: a caller's path may live in m_history (undo's does), which writing changes.
void ProjectFiles::enqueue(QString absolutePath, Pending pending)
{
    QQueue<Pending> &queue = m_queues[absolutePath];
    queue.enqueue(std::move(pending));
    if (queue.size() == 1)
        runNext(absolutePath);
}

void ProjectFiles::runNext(QString absolutePath)
{
    const auto queueIt = m_queues.find(absolutePath);
    if (queueIt == m_queues.end())
        return;
    if (queueIt->isEmpty()) {
        m_queues.erase(queueIt);
        return;
    }
    if (m_inProgress.contains(absolutePath))
        return;
    m_inProgress.insert(absolutePath);
    const Pending pending = queueIt->head();
    const bool exists = QFileInfo::exists(absolutePath);
    const TextFileContents current = exists ? TextFile::read(absolutePath) : TextFileContents{};
    const QString display = m_root.display(absolutePath);
    if (exists && !current.ok()) {
        finish(absolutePath, {}, current.error, pending.done);
        return;
    }
    if (pending.origin.isAgent()) {
        const QByteArray seen = seenBy(pending.origin.clientKey, absolutePath);
        if (!seen.isEmpty() && seen != (exists ? current.digest : QByteArray())) {
            finish(absolutePath, {},
                   QStringLiteral("%1 changed on disk since you last read it (someone else edited it); nothing was written. "
                                  "Read it again, then make your change.").arg(display),
                   pending.done);
            return;
        }
    }
    QString error;
    std::optional<FileChange> made = pending.make(current, exists, &error);
    if (!made) {
        finish(absolutePath, {}, error.isEmpty() ? QStringLiteral("The change to %1 could not be made.").arg(display) : error, pending.done);
        return;
    }
    FileChange change = *made;
    change.id = m_nextId++;
    change.origin = pending.origin;
    change.proposedBy = pending.proposedBy;
    change.absolutePath = absolutePath;
    change.path = display;
    change.at = LocalClock::now();
    change.created = !exists;
    change.before = current.text;
    change.beforeDigest = exists ? current.digest : QByteArray();
    if (change.deleted)
        change.after.clear();
    change.afterDigest = change.deleted ? QByteArray() : TextFile::digest(change.after.toUtf8());
    change.diff = UnifiedDiff::between(display, change.before, change.after);
    if (exists && !change.deleted && change.afterDigest == change.beforeDigest) {
        // Nothing to write: the caller learns it from the empty diff.
        finish(absolutePath, change, QString(), pending.done);
        return;
    }
    if (pending.ungated || !m_gate) {
        const bool written = write(change, &error);
        finish(absolutePath, change, written ? QString() : error, pending.done);
        return;
    }
    QPointer<ProjectFiles> guard(this);
    m_gate(change, [guard, absolutePath, change, done = pending.done](const QString &refusal) mutable {
        if (!guard)
            return;
        QString error = refusal;
        if (error.isEmpty())
            guard->write(change, &error);
        guard->finish(absolutePath, change, error, done);
    });
}

bool ProjectFiles::write(FileChange &change, QString *error)
{
    // The bytes the change was computed from must still be there: the gate may have waited for
    // the person, and an editor may have saved the file meanwhile.
    bool exists = false;
    const QByteArray now = digestOnDisk(change.absolutePath, &exists);
    if (exists == change.created || now != change.beforeDigest) {
        *error = QStringLiteral("%1 changed on disk while this change waited; nothing was written. Read it again and retry.").arg(change.path);
        return false;
    }
    if (change.deleted) {
        if (!QFile::remove(change.absolutePath)) {
            *error = QStringLiteral("Cannot remove %1.").arg(change.path);
            return false;
        }
    } else if (!TextFile::write(change.absolutePath, change.after, error)) {
        return false;
    }
    m_history.append(change);
    while (m_history.size() > MaxHistory)
        m_history.removeFirst();
    if (change.origin.isAgent())
        m_seen[change.origin.clientKey].insert(change.absolutePath, change.afterDigest);
    Q_EMIT changeApplied(change);
    return true;
}

void ProjectFiles::finish(const QString &absolutePath, const FileChange &change, const QString &error, const Done &done)
{
    if (!error.isEmpty() && change.id != 0)
        Q_EMIT changeRefused(change, error);
    done(change, error);
    m_inProgress.remove(absolutePath);
    auto queueIt = m_queues.find(absolutePath);
    if (queueIt != m_queues.end() && !queueIt->isEmpty())
        queueIt->dequeue();
    // The next change to this file starts from the event loop, after the caller has seen this one.
    QTimer::singleShot(0, this, [this, absolutePath] { runNext(absolutePath); });
}
