#include "DefinitionsModel.h"

#include "history/DefinitionLedger.h"
#include "client/EngineProtocol.h"
#include "native/NativeCompilation.h"
#include "session/Session.h"

#include <QBrush>
#include <QColor>
#include <QDir>
#include <QFont>

#include <QSet>

#include <algorithm>
#include <tuple>

namespace {
// The kinds the panel shows, in its order; a generic function's methods follow it.
const QStringList &panelKinds()
{
    static const QStringList order{QStringLiteral("function"), QStringLiteral("generic-function"), QStringLiteral("method"),
                                   QStringLiteral("macro"),    QStringLiteral("variable"),         QStringLiteral("constant"),
                                   QStringLiteral("class"),    QStringLiteral("structure"),        QStringLiteral("condition"),
                                   QStringLiteral("type")};
    return order;
}

int kindOrder(const QString &kind)
{
    const auto i = panelKinds().indexOf(kind);
    return i < 0 ? int(panelKinds().size()) : int(i);
}

QString nullableText(const QJsonValue &value)
{
    return value.isString() ? value.toString() : QString();
}

// The engine lists a name once per kind; the ledger keys names by namespace.
DefinitionKey keyOf(const DefinitionsModel::Definition &d)
{
    if (d.key.isValid())
        return d.key;
    QString space = DefinitionKey::spaceOf(d.kind);
    return {space, d.package, d.name, {}, {}};
}

// MAKE-POINT, COPY-POINT, POINT-P and POINT-X come from (defstruct point x).
bool madeByDefstruct(const QString &function, const QString &structure)
{
    return function == QStringLiteral("MAKE-") + structure || function == QStringLiteral("COPY-") + structure
        || function == structure + QStringLiteral("-P") || function.startsWith(structure + QLatin1Char('-'));
}
} // namespace

DefinitionsModel::DefinitionsModel(QObject *parent) : QAbstractItemModel(parent)
{
    m_refresh.setSingleShot(true);
    m_refresh.setInterval(80); // several evaluations finishing together cost one query
    connect(&m_refresh, &QTimer::timeout, this, &DefinitionsModel::requestRefresh);
}

void DefinitionsModel::attach(Session *session)
{
    m_session = session;
    connect(session, &Session::finished, this, [this] { m_refresh.start(); });
    connect(session, &Session::sessionReset, this, [this] { clear(); });
    connect(session, &Session::engineStatus, this, [this](Session::EngineStatus state) {
        if (state == Session::EngineStatus::Restarting)
            clear(); // a fresh engine has none of the old definitions
        else if (state == Session::EngineStatus::Ready)
            m_refresh.start();
    });
}

void DefinitionsModel::setNativeCompilation(NativeCompilation *native)
{
    m_native = native;
    // A definition became native (or failed to) long after the job that made it, or native
    // code was switched: the rows' Runs change in place; what exists is what it was.
    connect(native, &NativeCompilation::changed, this, &DefinitionsModel::updateExecutions);
    connect(native, &NativeCompilation::statusChanged, this, &DefinitionsModel::updateExecutions);
    updateExecutions();
}

void DefinitionsModel::updateExecutions()
{
    for (int p = 0; p < m_packages.size(); ++p) {
        QList<Definition> &rows = m_packages[p].definitions;
        for (int row = 0; row < rows.size(); ++row) {
            if (execution(rows[row])) {
                const QModelIndex runs = createIndex(row, RunsColumn, quintptr(p + 1));
                Q_EMIT dataChanged(runs, runs);
            }
        }
    }
}

void DefinitionsModel::setLedger(DefinitionLedger *ledger)
{
    if (m_ledger)
        disconnect(m_ledger, nullptr, this, nullptr);
    m_ledger = ledger;
    if (ledger)
        connect(ledger, &DefinitionLedger::changed, this, &DefinitionsModel::rebuild);
    rebuild();
}

void DefinitionsModel::setEngineReply(const QJsonObject &json)
{
    const EngineProtocol::DefinitionsReply reply(json);
    m_engine.clear();
    m_engineKnown = reply.ok() && reply.hasDefinitions();
    if (m_engineKnown) {
        for (const QJsonValue &value : reply.definitions()) {
            const EngineProtocol::DefinitionsReply::Entry entry(value);
            Definition d;
            d.package = entry.package();
            d.name = entry.symbol().isEmpty() ? entry.name() : entry.symbol();
            d.kind = entry.kind();
            d.lambdaList = nullableText(entry.lambdaList());
            d.value = nullableText(entry.value());
            d.documentation = nullableText(entry.documentation());
            d.file = nullableText(entry.file());
            d.line = entry.line();
            d.listed = {entry.execution(), entry.nativeSinceMs(), entry.nativeReason()};
            if (d.name.isEmpty() || d.package.isEmpty())
                continue;
            m_engine.append(d);
        }
    }
    rebuild();
}

void DefinitionsModel::clear()
{
    m_engine.clear();
    m_engineKnown = false;
    rebuild();
}

void DefinitionsModel::requestRefresh()
{
    if (!m_session)
        return;
    QPointer<DefinitionsModel> guard(this);
    m_session->query(EngineProtocol::definitions(), [guard](const QJsonObject &reply) {
        if (guard)
            guard->setEngineReply(reply);
    });
}

void DefinitionsModel::provenance(Definition &d) const
{
    if (!m_ledger)
        return;
    const DefinitionLedger::History *history = m_ledger->history(keyOf(d));
    if (!history && d.kind == QStringLiteral("function")) {
        // A defstruct's functions have the structure's provenance, not a history of their own.
        for (const DefinitionKey &key : m_ledger->keys()) {
            const DefinitionLedger::History *structure = m_ledger->history(key);
            if (key.space == QStringLiteral("type") && key.package == d.package && structure->latest().kind == QStringLiteral("structure")
                && madeByDefstruct(d.name, key.name)) {
                history = structure;
                break;
            }
        }
        if (history) {
            const DefinitionVersion &v = history->latest();
            d.definedBy = v.via == DefinitionVersion::Via::File ? QString() : v.by.name;
            d.byAgent = v.by.isAgent();
            d.definedAt = v.at;
            d.form = v.source;
            return;
        }
    }
    if (!history)
        return;
    const DefinitionVersion &v = history->latest();
    d.key = history->key;
    d.versions = int(history->versions.size());
    d.form = v.source;
    d.definedAt = v.at;
    d.byAgent = v.via != DefinitionVersion::Via::File && v.by.isAgent();
    if (v.via == DefinitionVersion::Via::File) {
        d.definedBy.clear();
        if (d.file.isEmpty()) { // the engine's own record, when it has one, is the image's word
            d.file = v.file;
            d.line = v.line;
        }
    } else {
        d.definedBy = v.by.name;
    }
}

bool DefinitionsModel::execution(Definition &d) const
{
    const std::optional<NativeCompilation::Definition> runs = m_native ? m_native->runs(keyOf(d), d.kind, &d.listed) : std::nullopt;
    const QString execution = runs ? runs->execution() : QString();
    const QString sentence = runs ? runs->sentence() : QString();
    const bool failed = runs && runs->failed;
    if (execution == d.execution && sentence == d.executionSentence && failed == d.nativeFailed)
        return false;
    d.execution = execution;
    d.executionSentence = sentence;
    d.nativeFailed = failed;
    return true;
}

void DefinitionsModel::rebuild()
{
    QList<Definition> all;
    QSet<QString> listed;
    if (m_engineKnown) {
        for (Definition d : std::as_const(m_engine)) {
            provenance(d);
            execution(d);
            listed.insert(keyOf(d).id());
            all.append(d);
        }
    }
    if (m_ledger) {
        // The methods, one row each; and, without the engine's list, every live definition.
        for (const DefinitionKey &key : m_ledger->keys()) {
            const DefinitionLedger::History *history = m_ledger->history(key);
            if (!history->live || listed.contains(key.id()))
                continue;
            if (m_engineKnown && key.space != QStringLiteral("method"))
                continue;
            Definition d;
            d.package = key.package;
            d.name = key.name;
            d.kind = history->latest().kind;
            d.key = key;
            provenance(d);
            execution(d);
            all.append(d);
        }
    }
    // By package, then kind, then name; a generic function's methods right after it.
    const auto order = [](const Definition &d) {
        const bool method = d.kind == QStringLiteral("method");
        return std::make_tuple(d.package, kindOrder(method ? QStringLiteral("generic-function") : d.kind), d.name, method ? 1 : 0,
                               displayText(d));
    };
    std::sort(all.begin(), all.end(), [&order](const Definition &a, const Definition &b) { return order(a) < order(b); });
    beginResetModel();
    m_packages.clear();
    for (const Definition &d : std::as_const(all)) {
        if (m_packages.isEmpty() || m_packages.last().name != d.package)
            m_packages.append(Package{d.package, {}});
        m_packages.last().definitions.append(d);
    }
    endResetModel();
}

const DefinitionsModel::Definition *DefinitionsModel::definition(const QModelIndex &index) const
{
    if (!index.isValid() || index.internalId() == 0)
        return nullptr;
    const int package = int(index.internalId()) - 1;
    if (package >= m_packages.size() || index.row() >= m_packages.at(package).definitions.size())
        return nullptr;
    return &m_packages.at(package).definitions.at(index.row());
}

QModelIndex DefinitionsModel::find(const QString &package, const QString &name) const
{
    for (int p = 0; p < m_packages.size(); ++p) {
        if (m_packages.at(p).name != package)
            continue;
        const auto &defs = m_packages.at(p).definitions;
        for (int row = 0; row < defs.size(); ++row) {
            if (defs.at(row).name.compare(name, Qt::CaseInsensitive) == 0)
                return createIndex(row, 0, quintptr(p + 1));
        }
    }
    return {};
}

QModelIndex DefinitionsModel::find(const DefinitionKey &key) const
{
    for (int p = 0; p < m_packages.size(); ++p) {
        const auto &defs = m_packages.at(p).definitions;
        for (int row = 0; row < defs.size(); ++row) {
            if (defs.at(row).key.isValid() && defs.at(row).key == key)
                return createIndex(row, 0, quintptr(p + 1));
        }
    }
    return {};
}

int DefinitionsModel::definitionCount() const
{
    int count = 0;
    for (const Package &p : m_packages)
        count += int(p.definitions.size());
    return count;
}

QStringList DefinitionsModel::packages() const
{
    QStringList names;
    for (const Package &p : m_packages)
        names << p.name;
    return names;
}

QModelIndex DefinitionsModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < m_packages.size() ? createIndex(row, column, quintptr(0)) : QModelIndex();
    if (parent.internalId() != 0 || parent.row() >= m_packages.size())
        return {};
    if (row >= m_packages.at(parent.row()).definitions.size())
        return {};
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex DefinitionsModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId()) - 1, 0, quintptr(0));
}

int DefinitionsModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_packages.size());
    if (parent.internalId() != 0 || parent.column() != 0 || parent.row() >= m_packages.size())
        return 0;
    return int(m_packages.at(parent.row()).definitions.size());
}

int DefinitionsModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant DefinitionsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Definition");
    case KindColumn: return tr("Kind");
    case ByColumn: return tr("By");
    case WhenColumn: return tr("When");
    case RunsColumn: return tr("Runs");
    }
    return {};
}

QString DefinitionsModel::displayText(const Definition &d)
{
    QString name = d.name.toLower();
    if (d.kind == QStringLiteral("method") && d.key.isValid()) {
        for (const QString &qualifier : d.key.qualifiers)
            name += QLatin1Char(' ') + qualifier.toLower();
        return name + QStringLiteral(" (") + d.key.specializers.join(QLatin1Char(' ')).toLower() + QLatin1Char(')');
    }
    if (!d.lambdaList.isEmpty())
        return name + QLatin1Char(' ') + d.lambdaList.toLower();
    if (!d.value.isEmpty()) {
        QString value = d.value;
        if (value.size() > 40)
            value = value.left(39) + QChar(0x2026);
        return name + QStringLiteral(" = ") + value;
    }
    return name;
}

QVariant DefinitionsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    if (index.internalId() == 0) {
        if (index.row() >= m_packages.size())
            return {};
        if (role == Qt::DisplayRole && index.column() == NameColumn)
            return m_packages.at(index.row()).name;
        if (role == Qt::FontRole && index.column() == NameColumn) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    }
    const Definition *d = definition(index);
    if (!d)
        return {};
    if (role == Qt::ToolTipRole && index.column() == ByColumn && !d->file.isEmpty())
        return tr("Defined in %1").arg(location(*d));
    if (role == Qt::ToolTipRole && index.column() == ByColumn && d->versions > 1)
        return tr("%1 versions: select it to see them").arg(d->versions);
    if (role == Qt::ToolTipRole && index.column() == RunsColumn && !d->executionSentence.isEmpty())
        return d->executionSentence;
    if (role == Qt::ForegroundRole && index.column() == RunsColumn && (d->nativeFailed || d->execution == QStringLiteral("compiling")))
        return QBrush(d->nativeFailed ? QColor(0xb3, 0x5c, 0x00) : QColor(0x6b, 0x75, 0x80));
    if (role == Qt::ToolTipRole)
        return d->documentation.isEmpty() ? displayText(*d) : d->documentation;
    if (role == Qt::ForegroundRole && index.column() == ByColumn && d->byAgent)
        return QBrush(QColor(0x7a, 0x3e, 0x9d));
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NameColumn: return displayText(*d);
    case KindColumn: return d->kind;
    case ByColumn: {
        const QString who = !d->definedBy.isEmpty() ? d->definedBy : d->file.isEmpty() ? QStringLiteral("\u2014") : location(*d);
        return d->versions > 1 ? tr("%1 \u00b7 v%2").arg(who).arg(d->versions) : who;
    }
    case WhenColumn: return d->definedAt.isValid() ? d->definedAt.toString(QStringLiteral("HH:mm:ss")) : QString();
    case RunsColumn: return d->execution == QStringLiteral("compiling") ? tr("compiling\u2026") : d->execution;
    }
    return {};
}

void DefinitionsModel::setProjectRoot(const QString &root)
{
    if (root == m_projectRoot)
        return;
    m_projectRoot = root;
    if (!m_packages.isEmpty()) // the locations read differently now
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

QString DefinitionsModel::location(const Definition &d) const
{
    return d.file.isEmpty() ? QString() : DefinitionVersion::place(QDir::cleanPath(d.file), d.line, QDir::cleanPath(m_projectRoot));
}
