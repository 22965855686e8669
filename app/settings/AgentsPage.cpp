#include "AgentsPage.h"

#include "agenthost/AgentHost.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {
constexpr int KeyRole = Qt::UserRole + 1;      // on the name: the built-in agent's key
constexpr int FoundRole = Qt::UserRole + 2;    // on the command: what was found for a built-in one
constexpr int ProgramRole = Qt::UserRole + 3;  // on the command: the program as stored (empty: found)
} // namespace

AgentsPage::AgentsPage(QWidget *parent)
    : QWidget(parent), m_table(new QTableWidget(0, ColumnCount, this)), m_add(new QPushButton(tr("&Add"), this)),
      m_edit(new QPushButton(tr("&Edit"), this)), m_remove(new QPushButton(tr("&Remove"), this)), m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("agentsPage"));
    m_table->setObjectName(QStringLiteral("agentsTable"));
    m_table->setHorizontalHeaderLabels({tr("Name"), tr("Command"), tr("Environment"), tr("Starts in mode")});
    m_table->horizontalHeader()->setSectionResizeMode(CommandColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed | QAbstractItemView::AnyKeyPressed);
    m_add->setObjectName(QStringLiteral("addAgent"));
    m_edit->setObjectName(QStringLiteral("editAgent"));
    m_remove->setObjectName(QStringLiteral("removeAgent"));
    m_add->setToolTip(tr("Add another agent that speaks the Agent Client Protocol, e.g. \u201cgemini --acp\u201d"));
    m_edit->setToolTip(tr("Edit the selected cell (or double-click it)"));
    m_remove->setToolTip(tr("Remove the selected agent (the built-in ones stay)"));
    m_status->setObjectName(QStringLiteral("agentStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *intro = new QLabel(tr("The agents the Agent panel can start. Each works in the project's folder with Lisp Duet's "
                                "own tools, so what it evaluates runs in this session. The environment is added to Lisp "
                                "Duet's own (KEY=value; separated by \u201c;\u201d); API keys you have set pass through. "
                                "The mode is the one its new conversations start in (empty: the one that asks before "
                                "every tool call); the panel keeps your last choice here."),
                             this);
    intro->setWordWrap(true);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_edit);
    buttons->addWidget(m_remove);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_status);

    connect(m_add, &QPushButton::clicked, this, [this] {
        addRow({{}, tr("New agent"), {}, {}, {}, {}});
        const int row = m_table->rowCount() - 1;
        m_table->setCurrentCell(row, CommandColumn);
        m_table->editItem(m_table->item(row, CommandColumn));
    });
    connect(m_edit, &QPushButton::clicked, this, [this] {
        if (QTableWidgetItem *item = m_table->currentItem())
            m_table->editItem(item);
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const int row = m_table->currentRow();
        if (row >= 0 && !rowAgent(row).isBuiltIn())
            m_table->removeRow(row);
        updateButtons();
    });
    connect(m_table, &QTableWidget::currentCellChanged, this, &AgentsPage::updateButtons);
    connect(m_table, &QTableWidget::itemChanged, this, &AgentsPage::updateButtons);
}

void AgentsPage::setAgents(const QList<ConfiguredAgent> &agents)
{
    m_table->setRowCount(0);
    for (const ConfiguredAgent &agent : agents)
        addRow(agent);
    if (m_table->rowCount() > 0)
        m_table->setCurrentCell(0, NameColumn);
    updateButtons();
}

void AgentsPage::addRow(const ConfiguredAgent &agent)
{
    const QSignalBlocker quiet(m_table);
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    auto *name = new QTableWidgetItem(agent.name);
    name->setData(KeyRole, agent.key);
    const AgentCommand command = agent.command();
    auto *line = new QTableWidgetItem(command.isEmpty() ? QString() : command.commandLine());
    line->setData(ProgramRole, agent.program);
    if (agent.isBuiltIn()) {
        ConfiguredAgent found = agent;
        found.program.clear();
        line->setData(FoundRole, found.command().commandLine());
        name->setToolTip(tr("Built in: its command is the one installer/agents.sh installed, or the program on PATH, "
                            "unless you give another"));
    }
    m_table->setItem(row, NameColumn, name);
    m_table->setItem(row, CommandColumn, line);
    m_table->setItem(row, EnvironmentColumn, new QTableWidgetItem(agent.environmentLines().join(QStringLiteral("; "))));
    m_table->setItem(row, ModeColumn, new QTableWidgetItem(agent.mode));
}

ConfiguredAgent AgentsPage::rowAgent(int row) const
{
    const auto text = [this, row](int column) { return m_table->item(row, column) ? m_table->item(row, column)->text().trimmed() : QString(); };
    ConfiguredAgent agent;
    agent.key = m_table->item(row, NameColumn)->data(KeyRole).toString();
    agent.name = text(NameColumn);
    const QString line = text(CommandColumn);
    const QTableWidgetItem *command = m_table->item(row, CommandColumn);
    // A built-in agent whose command still reads as what was found keeps following the finding.
    if (!(agent.isBuiltIn() && (line.isEmpty() || line == command->data(FoundRole).toString()))) {
        const AgentCommand parsed = AgentCommand::parse(line);
        agent.program = parsed.program;
        agent.arguments = parsed.arguments;
    }
    QStringList lines;
    for (const QString &piece : text(EnvironmentColumn).split(QLatin1Char(';'), Qt::SkipEmptyParts))
        lines << piece.trimmed();
    agent.environment = ConfiguredAgent::environmentFrom(lines);
    agent.mode = text(ModeColumn);
    return agent;
}

QList<ConfiguredAgent> AgentsPage::agents() const
{
    QList<ConfiguredAgent> agents;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        ConfiguredAgent agent = rowAgent(row);
        if (agent.isBuiltIn() || (!agent.name.isEmpty() && !agent.program.isEmpty()))
            agents.append(agent);
    }
    return agents;
}

QString AgentsPage::status() const
{
    return m_status->text();
}

void AgentsPage::updateButtons()
{
    const int row = m_table->currentRow();
    m_edit->setEnabled(row >= 0);
    m_remove->setEnabled(row >= 0 && !rowAgent(row).isBuiltIn());
    if (row < 0) {
        m_status->clear();
        return;
    }
    const ConfiguredAgent agent = rowAgent(row);
    QString fix;
    const QString missing = agent.program.isEmpty() && !agent.isBuiltIn()
        ? tr("Give %1 a command line, such as \u201cgemini --acp\u201d.").arg(agent.name)
        : AgentHost::whatIsMissing(agent.command(), &fix);
    if (missing.isEmpty())
        m_status->setText(tr("%1 starts as: %2").arg(agent.name, agent.command().commandLine()));
    else
        m_status->setText(fix.isEmpty() ? missing : tr("%1\nTo get it: %2").arg(missing, fix));
}
