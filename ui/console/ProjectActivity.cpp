#include "ProjectActivity.h"

#include "TranscriptEntries.h"
#include "TranscriptView.h"

#include "project/ProjectFiles.h"

#include <QPointer>

ProjectActivity::ProjectActivity(ProjectFiles *files, TranscriptEntries *entries, QObject *parent)
    : QObject(parent), m_files(files), m_entries(entries)
{
    connect(files, &ProjectFiles::changeApplied, this, &ProjectActivity::showChange);
    connect(files, &ProjectFiles::changeRefused, this, [this](const FileChange &change, const QString &reason) {
        // An agent's change that was not made says why where its changes appear (the person's
        // own refused undo says so through undo()).
        if (change.origin.isAgent())
            m_entries->showNote(tr("%1's change to %2 was not made: %3").arg(change.origin.name, change.path, reason), true,
                                m_entries->laneFor(change.origin));
    });
    connect(entries->view(), &TranscriptView::linkActivated, this, [this](const QString &href) {
        if (href.startsWith(QStringLiteral("undo:")))
            undo(href.mid(5).toULongLong());
    });
}

const FileChange *ProjectActivity::findChange(quint64 id) const
{
    for (const FileChange &change : m_files->history()) {
        if (change.id == id)
            return &change;
    }
    return nullptr;
}

void ProjectActivity::showChange(const FileChange &change)
{
    using Style = TranscriptView::Style;
    TranscriptView *t = m_entries->view();
    const int lane = m_entries->laneFor(change.origin);
    m_entries->startEntry();
    t->newLine(lane);
    if (change.kind == FileChange::Kind::Undo) {
        const FileChange *original = findChange(change.undoes);
        const QString whose = original ? tr("%1's").arg(original->origin.name) : tr("an agent's");
        t->appendText(tr("%1 undid %2 change to %3").arg(change.origin.name, whose, change.path), Style::Header, lane);
    } else {
        QString title = change.origin.name;
        if (!change.tool.isEmpty())
            title += QStringLiteral(" \u00b7 ") + change.tool;
        if (!change.description.isEmpty())
            title += QStringLiteral(" \u2014 ") + change.description;
        t->appendText(title + QStringLiteral("   "), Style::Header, lane);
        if (change.origin.isAgent())
            t->appendLink(tr("Undo"), QStringLiteral("undo:%1").arg(change.id), lane);
    }
    t->newLine(lane);
    QString what = change.created ? tr("%1 (new file)").arg(change.path) : change.deleted ? tr("%1 (deleted)").arg(change.path) : change.path;
    if (!change.summary.isEmpty() && change.kind != FileChange::Kind::Undo)
        what += QStringLiteral(": ") + change.summary;
    t->appendText(what + tr("  (+%1 \u2212%2)").arg(change.diff.added).arg(change.diff.removed) + QLatin1Char('\n'), Style::Note, lane);
    t->appendDiff(change.diff.lines, lane);
}

void ProjectActivity::undo(quint64 changeId)
{
    QPointer<ProjectActivity> guard(this);
    m_files->undo(changeId, Origin::person(), [guard](const FileChange &, const QString &error) {
        if (guard && !error.isEmpty())
            guard->showNote(error, true);
    });
}

void ProjectActivity::showNote(const QString &text, bool error)
{
    m_entries->showNote(text, error, 1);
}
