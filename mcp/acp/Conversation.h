#pragma once

#include "AcpTypes.h"
#include "AcpWire.h"

#include <QHash>
#include <QList>
#include <QObject>

// One ACP session's conversation as the client knows it, fed by session/update (and by the
// prompts we send): an ordered list of entries (the person's messages, the agent's messages and
// thoughts, tool calls, notices), and the session's state beside it (plan, commands, modes,
// config options, usage, title). A view follows it incrementally: entryAdded for a new entry,
// textAppended for each streamed chunk (the chunk alone), toolCallChanged when a tool call's
// fields change, and one signal per piece of state; nothing asks it to be read again whole.
class Conversation : public QObject
{
    Q_OBJECT
public:
    struct Entry
    {
        enum class Kind { UserMessage, AgentMessage, Thought, ToolCall, Notice };
        Kind kind = Kind::AgentMessage;
        int turn = 0;               // 0: before our first prompt (a loaded session's history)
        bool ours = false;          // a prompt we sent: complete, the agent's chunks never join it
        QString messageId;          // the agent's, when it gives one
        QList<Acp::ContentBlock> blocks; // messages: consecutive text chunks are one text block
        QString toolCallId;         // ToolCall
        QString severity;           // Notice: info, warning, error
        QString title;              // Notice
        QString description;        // Notice

        QString text() const; // a message's text blocks, joined
    };

    explicit Conversation(QObject *parent = nullptr);

    int count() const { return int(m_entries.size()); }
    const Entry &entry(int index) const { return m_entries.at(index); }
    const QList<Entry> &entries() const { return m_entries; }
    int turn() const { return m_turn; }

    // The tool call of that id (null if none) and its entry's index (-1 if none).
    const Acp::ToolCall *toolCall(const QString &id) const;
    int indexOfToolCall(const QString &id) const { return m_toolCallIndex.value(id, -1); }

    const QList<Acp::PlanEntry> &plan() const { return m_plan; }
    const QList<Acp::AvailableCommand> &commands() const { return m_commands; }
    const QList<Acp::SessionMode> &modes() const { return m_modes; }
    const QString &currentModeId() const { return m_currentModeId; }
    const QList<Acp::ConfigOption> &configOptions() const { return m_configOptions; }
    const Acp::Usage &usage() const { return m_usage; }
    const QString &title() const { return m_title; }
    const QString &updatedAt() const { return m_updatedAt; }

    // Ours: the person's prompt starts a turn.
    void addPrompt(const QList<Acp::ContentBlock> &prompt);
    // The agent's: one session/update.
    void apply(const AcpWire::SessionUpdate &update);
    // A tool call's fields from anywhere (session/update, a permission request's toolCall).
    // Returns its entry's index; -1 when the fields name no tool call.
    int applyToolCall(const QJsonObject &fields, bool announced);
    void setModes(const QList<Acp::SessionMode> &modes, const QString &currentModeId);
    void setCurrentMode(const QString &modeId);
    void setConfigOptions(const QList<Acp::ConfigOption> &options);
    void setTurnUsage(const Acp::Usage &usage);

Q_SIGNALS:
    void entryAdded(int index);
    void textAppended(int index, const QString &chunk); // a text chunk added to a message entry
    void blockAdded(int index);                         // a block that is not text (an image...)
    void toolCallChanged(int index, const QString &toolCallId);
    void planChanged();
    void commandsChanged();
    void modesChanged();        // the list (and the current one)
    void currentModeChanged(const QString &modeId);
    void configOptionsChanged();
    void usageChanged();
    void infoChanged();         // title, updatedAt
    void unknownUpdate(const QString &kind);

private:
    void addChunk(const AcpWire::Update::Chunk &chunk);
    int addEntry(Entry entry);

    QList<Entry> m_entries;
    QHash<QString, int> m_toolCallIndex;
    QHash<QString, Acp::ToolCall> m_toolCalls;
    QHash<QString, int> m_messageIndex; // role + messageId -> entry
    QList<Acp::PlanEntry> m_plan;
    QList<Acp::AvailableCommand> m_commands;
    QList<Acp::SessionMode> m_modes;
    QString m_currentModeId;
    QList<Acp::ConfigOption> m_configOptions;
    Acp::Usage m_usage;
    QString m_title;
    QString m_updatedAt;
    int m_turn = 0;
};
