#include "Conversation.h"

using namespace Acp;
using namespace AcpWire;

QString Conversation::Entry::text() const
{
    QString joined;
    for (const ContentBlock &block : blocks) {
        if (block.type == QLatin1String("text"))
            joined += block.text;
    }
    return joined;
}

Conversation::Conversation(QObject *parent)
    : QObject(parent)
{
}

const ToolCall *Conversation::toolCall(const QString &id) const
{
    const auto it = m_toolCalls.constFind(id);
    return it == m_toolCalls.constEnd() ? nullptr : &*it;
}

int Conversation::addEntry(Entry entry)
{
    entry.turn = m_turn;
    m_entries.append(std::move(entry));
    const int index = int(m_entries.size()) - 1;
    Q_EMIT entryAdded(index);
    return index;
}

void Conversation::addPrompt(const QList<ContentBlock> &prompt)
{
    ++m_turn;
    Entry entry;
    entry.kind = Entry::Kind::UserMessage;
    entry.ours = true;
    entry.blocks = prompt;
    addEntry(std::move(entry));
}

void Conversation::addChunk(const Update::Chunk &chunk)
{
    const Entry::Kind kind = chunk.role == Update::Role::User    ? Entry::Kind::UserMessage
                             : chunk.role == Update::Role::Agent ? Entry::Kind::AgentMessage
                                                                 : Entry::Kind::Thought;
    // The message the chunk belongs to: the one of its messageId, else the last entry when it is
    // of the same kind and carries no id either; else a new one.
    int index = -1;
    const QString key = QString::number(int(kind)) + QLatin1Char(':') + chunk.messageId;
    if (!chunk.messageId.isEmpty())
        index = m_messageIndex.value(key, -1);
    else if (!m_entries.isEmpty() && m_entries.constLast().kind == kind && m_entries.constLast().messageId.isEmpty()
             && m_entries.constLast().turn == m_turn && !m_entries.constLast().ours)
        index = int(m_entries.size()) - 1;
    if (index < 0) {
        Entry entry;
        entry.kind = kind;
        entry.messageId = chunk.messageId;
        entry.blocks.append(chunk.content);
        index = addEntry(std::move(entry));
        if (!chunk.messageId.isEmpty())
            m_messageIndex.insert(key, index);
        if (chunk.content.type == QLatin1String("text"))
            Q_EMIT textAppended(index, chunk.content.text);
        return;
    }
    Entry &entry = m_entries[index];
    if (chunk.content.type == QLatin1String("text") && !entry.blocks.isEmpty()
        && entry.blocks.constLast().type == QLatin1String("text")) {
        entry.blocks.last().text += chunk.content.text;
        Q_EMIT textAppended(index, chunk.content.text);
    } else {
        entry.blocks.append(chunk.content);
        if (chunk.content.type == QLatin1String("text"))
            Q_EMIT textAppended(index, chunk.content.text);
        else
            Q_EMIT blockAdded(index);
    }
}

int Conversation::applyToolCall(const QJsonObject &fields, bool announced)
{
    Q_UNUSED(announced) // a tool_call for an id we know updates it; an update for an unknown id makes it
    const QString id = toolCallId(fields);
    if (id.isEmpty())
        return -1;
    ToolCall &call = m_toolCalls[id];
    AcpWire::applyToolCall(call, fields);
    call.id = id;
    int index = m_toolCallIndex.value(id, -1);
    if (index < 0) {
        Entry entry;
        entry.kind = Entry::Kind::ToolCall;
        entry.toolCallId = id;
        index = addEntry(std::move(entry));
        m_toolCallIndex.insert(id, index);
    } else {
        Q_EMIT toolCallChanged(index, id);
    }
    return index;
}

void Conversation::apply(const SessionUpdate &update)
{
    std::visit([this](const auto &u) {
        using T = std::decay_t<decltype(u)>;
        if constexpr (std::is_same_v<T, Update::Chunk>) {
            addChunk(u);
        } else if constexpr (std::is_same_v<T, Update::ToolCall>) {
            applyToolCall(u.fields, u.announced);
        } else if constexpr (std::is_same_v<T, Update::Plan>) {
            m_plan = u.entries;
            Q_EMIT planChanged();
        } else if constexpr (std::is_same_v<T, Update::Commands>) {
            m_commands = u.commands;
            Q_EMIT commandsChanged();
        } else if constexpr (std::is_same_v<T, Update::Mode>) {
            setCurrentMode(u.currentModeId);
        } else if constexpr (std::is_same_v<T, Update::Config>) {
            setConfigOptions(u.options);
        } else if constexpr (std::is_same_v<T, Update::Info>) {
            if (u.title)
                m_title = *u.title;
            if (u.updatedAt)
                m_updatedAt = *u.updatedAt;
            Q_EMIT infoChanged();
        } else if constexpr (std::is_same_v<T, Update::Usage>) {
            if (u.used >= 0)
                m_usage.used = u.used;
            if (u.size >= 0)
                m_usage.size = u.size;
            if (u.costAmount) {
                m_usage.costAmount = u.costAmount;
                m_usage.costCurrency = u.costCurrency;
            }
            Q_EMIT usageChanged();
        } else if constexpr (std::is_same_v<T, Update::Notice>) {
            Entry entry;
            entry.kind = Entry::Kind::Notice;
            entry.severity = u.severity;
            entry.title = u.title;
            entry.description = u.description;
            addEntry(std::move(entry));
        } else {
            Q_EMIT unknownUpdate(u.kind);
        }
    }, update);
}

void Conversation::setModes(const QList<SessionMode> &modes, const QString &currentModeId)
{
    m_modes = modes;
    m_currentModeId = currentModeId;
    Q_EMIT modesChanged();
}

void Conversation::setCurrentMode(const QString &modeId)
{
    if (modeId == m_currentModeId)
        return;
    m_currentModeId = modeId;
    Q_EMIT currentModeChanged(modeId);
}

void Conversation::setConfigOptions(const QList<ConfigOption> &options)
{
    m_configOptions = options;
    // v2 carries the mode as a config option of category "mode"; v1 agents (Claude Code) send
    // both, and a mode change may come only as a config_option_update.
    for (const ConfigOption &option : options) {
        if (option.category == QLatin1String("mode") && option.currentValue.isString() && !m_modes.isEmpty())
            setCurrentMode(option.currentValue.toString());
    }
    Q_EMIT configOptionsChanged();
}

void Conversation::setTurnUsage(const Usage &usage)
{
    m_usage.turnInputTokens = usage.turnInputTokens;
    m_usage.turnOutputTokens = usage.turnOutputTokens;
    Q_EMIT usageChanged();
}
