#pragma once

#include "session/Origin.h"
#include "UnifiedDiff.h"

#include <QByteArray>
#include <QDateTime>
#include <QMetaType>
#include <QObject>
#include <QPointer>
#include <QString>

// One change to a file of the project, by whom and why, with both texts (for undo) and the
// diff the person sees. Made by the file tools, applied by ProjectFiles, shown in the window's
// transcript and recorded in the journal.
struct FileChange
{
    enum class Kind {
        Write, // the whole file created or replaced
        Edit,  // one top-level form replaced, inserted or deleted
        Undo,  // an earlier change taken back by the person
    };

    quint64 id = 0;
    Kind kind = Kind::Write;
    QString path;         // as people read it: relative to the project root
    QString absolutePath; // canonical
    Origin origin;
    QString tool;         // the MCP tool that made it, e.g. "edit-form"
    QString description;  // why, in the agent's words (the call's `description`)
    QString summary;      // what, in a few words: "replaced (defun area) at lines 10-14"
    QString followUp;     // what the proposer does once it is written, e.g. "then evaluates the new text..."
    QString before;       // the text before; empty with `created`
    QString after;        // the text after; empty with `deleted`
    bool created = false;
    bool deleted = false;
    QByteArray beforeDigest; // SHA-256 hex of the bytes before (empty when created)
    QByteArray afterDigest;
    FileDiff diff;
    int firstLine = 0; // the changed range in the new text (1-based; 0 when nothing remains)
    int lastLine = 0;
    QDateTime at;
    quint64 undoes = 0; // Kind::Undo: the id of the change it took back
    // The request that proposed it (an MCP tool call), weakly; null for the person's own. The
    // access gate asks the person through that request's client.
    QPointer<QObject> proposedBy;

    static QString kindName(Kind kind);
};

Q_DECLARE_METATYPE(FileChange)
