#include "AgentSettings.h"

#include <QSettings>

namespace {
const QString ListKey = QStringLiteral("agents/list");

std::optional<KnownAgent> known(const QString &key)
{
    for (const KnownAgent &agent : AgentCommand::knownAgents()) {
        if (agent.key == key)
            return agent;
    }
    return std::nullopt;
}
} // namespace

AgentCommand ConfiguredAgent::command() const
{
    AgentCommand command;
    if (isBuiltIn() && program.isEmpty()) {
        if (const std::optional<KnownAgent> agent = known(key))
            command = agent->command;
    } else {
        command.program = program;
        command.arguments = arguments;
    }
    command.name = name;
    command.environment += environment;
    return command;
}

QStringList ConfiguredAgent::environmentLines() const
{
    QStringList lines;
    for (const auto &[variable, value] : environment)
        lines << variable + QLatin1Char('=') + value;
    return lines;
}

QList<QPair<QString, QString>> ConfiguredAgent::environmentFrom(const QStringList &lines)
{
    QList<QPair<QString, QString>> environment;
    for (const QString &line : lines) {
        const qsizetype equals = line.indexOf(QLatin1Char('='));
        const QString variable = line.left(equals).trimmed();
        if (equals > 0 && !variable.isEmpty())
            environment.append({variable, line.mid(equals + 1)});
    }
    return environment;
}

namespace AgentSettings {

QList<ConfiguredAgent> builtIns()
{
    QList<ConfiguredAgent> agents;
    for (const KnownAgent &agent : AgentCommand::knownAgents())
        agents.append({agent.key, agent.title, {}, {}, {}, {}});
    return agents;
}

QList<ConfiguredAgent> load(const QSettings &settings)
{
    // QSettings' arrays need a non-const object to read (beginReadArray moves its group).
    QSettings &s = const_cast<QSettings &>(settings);
    QList<ConfiguredAgent> agents = builtIns();
    const int count = s.beginReadArray(ListKey);
    for (int i = 0; i < count; ++i) {
        s.setArrayIndex(i);
        ConfiguredAgent agent;
        agent.key = s.value(QStringLiteral("key")).toString();
        agent.name = s.value(QStringLiteral("name")).toString().trimmed();
        agent.program = s.value(QStringLiteral("program")).toString();
        agent.arguments = s.value(QStringLiteral("arguments")).toStringList();
        agent.environment = ConfiguredAgent::environmentFrom(s.value(QStringLiteral("environment")).toStringList());
        agent.mode = s.value(QStringLiteral("mode")).toString();
        const auto builtIn = std::find_if(agents.begin(), agents.end(), [&](const ConfiguredAgent &a) { return a.isBuiltIn() && a.key == agent.key; });
        if (agent.isBuiltIn() && builtIn != agents.end()) {
            if (agent.name.isEmpty())
                agent.name = builtIn->name;
            *builtIn = agent; // the person's changes to a built-in agent
        } else if (!agent.name.isEmpty() && !agent.program.isEmpty()) {
            agent.key.clear(); // an agent this version does not build in is the person's own
            agents.append(agent);
        }
    }
    s.endArray();
    return agents;
}

void save(QSettings &settings, const QList<ConfiguredAgent> &agents)
{
    settings.remove(ListKey);
    settings.beginWriteArray(ListKey, int(agents.size()));
    for (int i = 0; i < agents.size(); ++i) {
        const ConfiguredAgent &agent = agents.at(i);
        settings.setArrayIndex(i);
        settings.setValue(QStringLiteral("key"), agent.key);
        settings.setValue(QStringLiteral("name"), agent.name);
        settings.setValue(QStringLiteral("program"), agent.program);
        settings.setValue(QStringLiteral("arguments"), agent.arguments);
        settings.setValue(QStringLiteral("environment"), agent.environmentLines());
        settings.setValue(QStringLiteral("mode"), agent.mode);
    }
    settings.endArray();
}

QString modeOf(const QList<ConfiguredAgent> &agents, const QString &name)
{
    for (const ConfiguredAgent &agent : agents) {
        if (agent.name == name)
            return agent.mode;
    }
    return {};
}

void rememberMode(const QString &name, const QString &modeId)
{
    QSettings settings;
    rememberMode(settings, name, modeId);
}

void rememberMode(QSettings &settings, const QString &name, const QString &modeId)
{
    QList<ConfiguredAgent> agents = load(settings);
    const auto agent = std::find_if(agents.begin(), agents.end(), [&](const ConfiguredAgent &a) { return a.name == name; });
    if (agent == agents.end())
        return; // a command line given with --agent: nothing to keep it in
    agent->mode = modeId;
    save(settings, agents);
    settings.sync();
}

AgentCommand resolve(const QList<ConfiguredAgent> &agents, const QString &nameOrCommandLine, QString *error)
{
    const QString wanted = nameOrCommandLine.trimmed();
    for (const ConfiguredAgent &agent : agents) {
        if (wanted.compare(agent.name, Qt::CaseInsensitive) == 0 || (agent.isBuiltIn() && wanted.compare(agent.key, Qt::CaseInsensitive) == 0))
            return agent.command();
    }
    return AgentCommand::parse(wanted, error);
}

} // namespace AgentSettings
