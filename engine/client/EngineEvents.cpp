#include "EngineEvents.h"

#include <QJsonDocument>

namespace EngineProtocol {

QStringList toStringList(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &item : value.toArray())
        list << item.toString();
    return list;
}

Incoming Incoming::decode(const QByteArray &line)
{
    Incoming incoming;
    incoming.m_json = QJsonDocument::fromJson(line).object();
    if (incoming.m_json.isEmpty())
        return incoming;
    const QString event = incoming.m_json.value(QStringLiteral("event")).toString();
    if (event == QStringLiteral("output"))
        incoming.m_kind = Kind::Output;
    else if (event == QStringLiteral("ready"))
        incoming.m_kind = Kind::Ready;
    else if (event == QStringLiteral("parked"))
        incoming.m_kind = Kind::Parked;
    else if (event == QStringLiteral("unparked"))
        incoming.m_kind = Kind::Unparked;
    else if (event == QStringLiteral("still-parked"))
        incoming.m_kind = Kind::StillParked;
    else if (event.isEmpty() && incoming.m_json.contains(QStringLiteral("id")))
        incoming.m_kind = Kind::Reply;
    else
        incoming.m_kind = Kind::OtherEvent;
    return incoming;
}

quint64 Incoming::id() const
{
    return quint64(m_json.value(QStringLiteral("id")).toDouble());
}

quint64 ParkedEvent::id() const { return quint64(m_json.value(QStringLiteral("id")).toDouble()); }
int ParkedEvent::level() const { return m_json.value(QStringLiteral("level")).toInt(); }
QString ParkedEvent::conditionType() const { return m_json.value(QStringLiteral("condition_type")).toString(); }
QString ParkedEvent::message() const { return m_json.value(QStringLiteral("message")).toString(); }
QString ParkedEvent::package() const { return m_json.value(QStringLiteral("package")).toString(); }
bool ParkedEvent::isBreak() const { return m_json.value(QStringLiteral("break")).toBool(); }

QList<DebuggerRestart> ParkedEvent::restarts() const
{
    QList<DebuggerRestart> list;
    for (const QJsonValue &item : m_json.value(QStringLiteral("restarts")).toArray()) {
        const QJsonObject r = item.toObject();
        list.append({r.value(QStringLiteral("index")).toInt(), r.value(QStringLiteral("name")).toString(),
                     r.value(QStringLiteral("description")).toString()});
    }
    return list;
}

QList<DebuggerFrame> ParkedEvent::frames() const
{
    QList<DebuggerFrame> list;
    for (const QJsonValue &item : m_json.value(QStringLiteral("frames")).toArray()) {
        const QJsonObject f = item.toObject();
        list.append({f.value(QStringLiteral("index")).toInt(), f.value(QStringLiteral("text")).toString(),
                     f.value(QStringLiteral("locals")).toBool()});
    }
    return list;
}

JobError ParkedEvent::error() const
{
    const QJsonObject e = m_json.value(QStringLiteral("error")).toObject();
    return {e.value(QStringLiteral("type")).toString(), e.value(QStringLiteral("message")).toString(),
            e.value(QStringLiteral("phase")).toString(), toStringList(e.value(QStringLiteral("backtrace")))};
}

quint64 UnparkedEvent::id() const { return quint64(m_json.value(QStringLiteral("id")).toDouble()); }
int UnparkedEvent::level() const { return m_json.value(QStringLiteral("level")).toInt(); }
QString UnparkedEvent::restart() const { return m_json.value(QStringLiteral("restart")).toString(); }

QString ReadyEvent::version() const { return m_json.value(QStringLiteral("version")).toString(); }
QString ReadyEvent::implementation() const { return m_json.value(QStringLiteral("implementation")).toString(); }
QString ReadyEvent::package() const { return m_json.value(QStringLiteral("package")).toString(); }

NativeStatus NativeStatus::from(const QJsonObject &json)
{
    NativeStatus status;
    status.known = json.contains(QStringLiteral("enabled"));
    status.enabled = json.value(QStringLiteral("enabled")).toBool();
    status.available = json.value(QStringLiteral("available")).toBool();
    status.reason = json.value(QStringLiteral("reason")).toString();
    status.pending = json.value(QStringLiteral("pending")).toInt();
    return status;
}

NativeStatus ReadyEvent::native() const { return NativeStatus::from(m_json.value(QStringLiteral("native")).toObject()); }

QString eventName(const QJsonObject &json) { return json.value(QStringLiteral("event")).toString(); }

qint64 NativeDefinition::serial() const { return qint64(json.value(QStringLiteral("serial")).toDouble()); }
QString NativeDefinition::kind() const { return json.value(QStringLiteral("kind")).toString(); }
QString NativeDefinition::package() const { return json.value(QStringLiteral("package")).toString(); }
QString NativeDefinition::name() const { return json.value(QStringLiteral("name")).toString(); }
QStringList NativeDefinition::qualifiers() const { return toStringList(json.value(QStringLiteral("qualifiers"))); }
QStringList NativeDefinition::specializers() const { return toStringList(json.value(QStringLiteral("specializers"))); }
QString NativeDefinition::state() const { return json.value(QStringLiteral("state")).toString(); }
qint64 NativeDefinition::sinceMs() const { return qint64(json.value(QStringLiteral("since_ms")).toDouble()); }

qint64 NativeDefinition::afterMs() const
{
    const QJsonValue after = json.value(QStringLiteral("after_ms"));
    return after.isDouble() ? qint64(after.toDouble()) : -1;
}

quint64 NativeDefinition::job() const { return quint64(json.value(QStringLiteral("job")).toDouble()); }
QString NativeDefinition::reason() const { return json.value(QStringLiteral("reason")).toString(); }
QStringList NativeDefinition::notes() const { return toStringList(json.value(QStringLiteral("notes"))); }

namespace {
QList<NativeDefinition> nativeList(const QJsonValue &array)
{
    QList<NativeDefinition> list;
    for (const QJsonValue &v : array.toArray())
        list.append(NativeDefinition(v));
    return list;
}
} // namespace

QList<NativeDefinition> nativeDefinitions(const QJsonObject &reply) { return nativeList(reply.value(QStringLiteral("native"))); }

QList<NativeDefinition> NativeEvent::definitions() const { return nativeList(m_json.value(QStringLiteral("definitions"))); }
int NativeEvent::pending() const { return m_json.value(QStringLiteral("pending")).toInt(); }

bool NativeEvent::saysUnavailable() const
{
    const QJsonValue available = m_json.value(QStringLiteral("available"));
    return available.isBool() && !available.toBool();
}

QString NativeEvent::reason() const { return m_json.value(QStringLiteral("reason")).toString(); }

quint64 ProgressEvent::id() const { return quint64(m_json.value(QStringLiteral("id")).toDouble()); }
QString ProgressEvent::operation() const { return m_json.value(QStringLiteral("operation")).toString(); }
int ProgressEvent::current() const { return m_json.value(QStringLiteral("current")).toInt(); }
int ProgressEvent::total() const { return m_json.value(QStringLiteral("total")).toInt(); }
QString ProgressEvent::file() const { return m_json.value(QStringLiteral("file")).toString(); }
QString ProgressEvent::message() const { return m_json.value(QStringLiteral("message")).toString(); }

quint64 OutputEvent::id() const { return quint64(m_json.value(QStringLiteral("id")).toDouble()); }
QString OutputEvent::stream() const { return m_json.value(QStringLiteral("stream")).toString(); }
QString OutputEvent::text() const { return m_json.value(QStringLiteral("text")).toString(); }

} // namespace EngineProtocol
