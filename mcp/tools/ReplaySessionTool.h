#pragma once

#include "Journal.h"
#include "SessionTool.h"

#include <functional>

class Replayer;

// replay-session: after the engine lost its state (crash, kill, reset, a new start of the
// app), evaluates the journal's successful definitions again, in order, and says which failed.
class ReplaySessionTool : public SessionTool
{
public:
    // source is "journal" (this session's journal, which holds a loaded --journal file's past
    // too) or "previous" (the journal of the app's previous run); on failure the function
    // returns nothing and a sentence in *error.
    using EntrySource = std::function<QList<JournalEntry>(const QString &source, QString *error)>;

    ReplaySessionTool(Session *session, Replayer *replayer, EntrySource entries)
        : SessionTool(session), m_replayer(replayer), m_entries(std::move(entries)) {}

    QString name() const override { return QStringLiteral("replay-session"); }
    QJsonObject descriptor() const override;
    bool isReadOnly() const override { return false; }
    void call(const ToolCallPtr &call) override;

private:
    Replayer *m_replayer;
    EntrySource m_entries;
};
