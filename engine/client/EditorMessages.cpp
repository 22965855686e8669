#include "EditorMessages.h"

#include "EngineProtocol.h"

namespace EngineProtocol {

namespace {
qint64 integer(const QJsonObject &json, const char *name)
{
    return json.value(QLatin1String(name)).toInteger();
}

QString string(const QJsonObject &json, const char *name)
{
    return json.value(QLatin1String(name)).toString();
}
} // namespace

qint64 EditorConnectedEvent::editor() const { return integer(m_json, "editor"); }
QString EditorConnectedEvent::peer() const { return string(m_json, "peer"); }
qint64 EditorConnectedEvent::pid() const { return integer(m_json, "pid"); }
QString EditorConnectedEvent::command() const { return string(m_json, "command"); }

QString EditorRefusedEvent::peer() const { return string(m_json, "peer"); }
QString EditorRefusedEvent::reason() const { return string(m_json, "reason"); }

qint64 EditorDisconnectedEvent::editor() const { return integer(m_json, "editor"); }
QList<qint64> EditorDisconnectedEvent::dropped() const
{
    QList<qint64> numbers;
    for (const QJsonValue &number : m_json.value(QStringLiteral("dropped")).toArray())
        numbers.append(number.toInteger());
    return numbers;
}

qint64 EditorRequestEvent::editorRequest() const { return integer(m_json, "editor_request"); }
qint64 EditorRequestEvent::editor() const { return integer(m_json, "editor"); }
QString EditorRequestEvent::kind() const { return string(m_json, "kind"); }
std::optional<EngineJob> EditorRequestEvent::job() const
{
    return editorJob(m_json.value(QStringLiteral("request")).toObject());
}

qint64 EditorRestartEvent::editor() const { return integer(m_json, "editor"); }
quint64 EditorRestartEvent::target() const { return quint64(integer(m_json, "target")); }
int EditorRestartEvent::level() const { return int(integer(m_json, "level")); }
int EditorRestartEvent::restart() const { return m_json.value(QStringLiteral("restart")).toInt(-1); }
QString EditorRestartEvent::restartName() const { return string(m_json, "restart_name"); }

qint64 EditorInterruptEvent::editor() const { return integer(m_json, "editor"); }
qint64 EditorInterruptEvent::editorRequest() const { return integer(m_json, "editor_request"); }
EditorInterruptEvent::State EditorInterruptEvent::state() const
{
    const QString state = string(m_json, "state");
    if (state == QLatin1String("queued"))
        return State::Queued;
    if (state == QLatin1String("running"))
        return State::Running;
    if (state == QLatin1String("parked"))
        return State::Parked;
    return State::Unknown;
}

QString EditorListenReply::address() const { return text("address"); }
int EditorListenReply::port() const { return int(number("port")); }
QString EditorListenReply::secretFile() const { return text("secret_file"); }
QString EditorListenReply::swankVersion() const { return text("swank_version"); }
int EditorListenReply::loadMs() const { return int(number("load_ms")); }

QString InitFileReply::file() const { return text("file"); }
bool InitFileReply::loaded() const { return flag("loaded"); }
bool InitFileReply::timedOut() const { return flag("timed_out"); }

bool InitFileReply::isDebuggerSetting(const QString &setting)
{
    return setting.startsWith(QLatin1String("*BREAK-ON-SIGNALS*")) || setting.startsWith(QLatin1String("*DEBUGGER-HOOK*"))
        || setting.startsWith(QLatin1String("EXT:*INVOKE-DEBUGGER-HOOK*"));
}

QStringList InitFileReply::changedSettings() const
{
    QStringList debugger;
    QStringList others;
    for (const QJsonValue &v : array("changed_settings")) {
        const QJsonObject setting = v.toObject();
        const QString text = setting.value(QStringLiteral("name")).toString() + QStringLiteral(" = ") + setting.value(QStringLiteral("value")).toString();
        (isDebuggerSetting(text) ? debugger : others) << text;
    }
    return debugger + others;
}

} // namespace EngineProtocol
