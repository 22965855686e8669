#include "DefinitionsModel.h"

#include "DefinitionForms.h"
#include "LispFile.h"
#include "Session.h"

#include <QBrush>
#include <QColor>
#include <QDir>
#include <QFont>
#include <QJsonArray>
#include <QPointer>
#include <QLocale>

#include <algorithm>

namespace {
// Names share a namespace per group: a defmacro replaces a defun of the same name.
QString kindGroup(const QString &kind)
{
    if (kind == QStringLiteral("function") || kind == QStringLiteral("macro") || kind == QStringLiteral("generic-function")
        || kind == QStringLiteral("method"))
        return QStringLiteral("f");
    if (kind == QStringLiteral("variable") || kind == QStringLiteral("constant"))
        return QStringLiteral("v");
    return QStringLiteral("t");
}

// The kinds the panel shows, in its order (the engine's kinds, and methods).
const QStringList &panelKinds()
{
    static const QStringList order{QStringLiteral("function"), QStringLiteral("generic-function"), QStringLiteral("method"),
                                   QStringLiteral("macro"),    QStringLiteral("variable"),         QStringLiteral("constant"),
                                   QStringLiteral("class"),    QStringLiteral("structure")};
    return order;
}

int kindOrder(const QString &kind)
{
    const auto i = panelKinds().indexOf(kind);
    return i < 0 ? int(panelKinds().size()) : int(i);
}

QString firstString(const QJsonObject &object, std::initializer_list<const char *> keys)
{
    for (const char *key : keys) {
        const QJsonValue value = object.value(QLatin1String(key));
        if (value.isString())
            return value.toString();
    }
    return {};
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
    connect(session, &Session::started, this, [this](const JobPtr &job) {
        m_startPackage.insert(job->id, job->request.package.isEmpty() ? m_session->currentPackage()
                                                                                   : job->request.package);
    });
    connect(session, &Session::finished, this, [this](const JobPtr &job) {
        const QString package = m_startPackage.take(job->id);
        record(*job, package.isEmpty() ? m_session->currentPackage() : package);
        m_refresh.start();
    });
    connect(session, &Session::sessionReset, this, [this] { clear(); });
    connect(session, &Session::engineStatus, this, [this](const QString &state) {
        if (state == QStringLiteral("restarting"))
            clear(); // a fresh engine has none of the old definitions
        else if (state == QStringLiteral("ready"))
            m_refresh.start();
    });
}

void DefinitionsModel::record(const Job &job, const QString &startPackage)
{
    if (job.request.op != QStringLiteral("eval") || !job.result.ok())
        return;
    bool changed = false;
    // LispFile follows the in-package forms: each form has the package it was read in.
    const LispFile file(job.request.code, startPackage);
    for (const TopLevelForm &form : file.forms()) {
        const DefinedName &defined = form.definition;
        if (!panelKinds().contains(defined.kind))
            continue; // in-package, deftype, define-condition, ...: not rows of the panel
        Definition d;
        d.package = defined.package.isEmpty() ? form.package : defined.package;
        d.name = defined.name;
        d.kind = defined.kind;
        d.lambdaList = defined.lambdaList;
        d.value = defined.initForm;
        d.definedBy = job.request.origin.name;
        d.byAgent = job.request.origin.isAgent();
        d.definedAt = job.finishedAt.isValid() ? job.finishedAt : QDateTime::currentDateTime();
        d.form = form.node.text().toString().trimmed();
        m_provenance.insert(provenanceKey(d.package, d.name, d.kind), d);
        changed = true;
    }
    if (changed)
        rebuild();
}

void DefinitionsModel::setEngineReply(const QJsonObject &reply)
{
    if (reply.value(QStringLiteral("status")).toString() != QStringLiteral("ok")) {
        m_engineKnown = false;
        m_engine.clear();
        rebuild();
        return;
    }
    m_engine.clear();
    auto add = [this](const QJsonValue &value, const QString &defaultKind) {
        Definition d;
        if (value.isString()) {
            d.name = value.toString();
        } else {
            const QJsonObject o = value.toObject();
            d.name = firstString(o, {"name", "symbol"});
            d.package = firstString(o, {"package"});
            d.kind = firstString(o, {"kind", "type"});
            d.lambdaList = firstString(o, {"lambda_list", "arglist", "lambdaList"});
            d.value = firstString(o, {"value", "printed_value"});
            d.documentation = firstString(o, {"documentation", "doc", "docstring"});
            d.file = o.value(QStringLiteral("file")).toString(); // null: not from a file
            d.line = o.value(QStringLiteral("line")).toInt();
        }
        if (d.kind.isEmpty())
            d.kind = defaultKind;
        d.kind.replace(u'_', u'-');
        if (d.kind.endsWith(u's') && d.kind != QStringLiteral("class"))
            d.kind.chop(1); // "functions" -> "function"
        const int colon = d.name.indexOf(u':');
        if (colon > 0 && d.package.isEmpty()) {
            d.package = d.name.left(colon);
            d.name = d.name.mid(d.name.lastIndexOf(u':') + 1);
        }
        d.package = d.package.isEmpty() ? QStringLiteral("COMMON-LISP-USER") : DefinitionForms::canonicalPackage(d.package);
        if (!d.name.isEmpty())
            m_engine.append(d);
    };
    const QJsonValue list = reply.value(QStringLiteral("definitions"));
    if (list.isArray()) {
        for (const QJsonValue &item : list.toArray())
            add(item, QString());
    } else {
        // Grouped form: {"functions":[...], "variables":[...], ...}
        const QJsonObject groups = list.isObject() ? list.toObject() : reply;
        for (auto it = groups.begin(); it != groups.end(); ++it) {
            if (it.value().isArray())
                for (const QJsonValue &item : it.value().toArray())
                    add(item, it.key());
        }
    }
    m_engineKnown = true;
    rebuild();
}

void DefinitionsModel::clear()
{
    m_provenance.clear();
    m_engine.clear();
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
        if (guard)
            Q_EMIT guard->refreshed();
    });
}

QString DefinitionsModel::provenanceKey(const QString &package, const QString &name, const QString &kind)
{
    return package + QLatin1Char('\x1f') + name.toUpper() + QLatin1Char('\x1f') + kindGroup(kind);
}

void DefinitionsModel::rebuild()
{
    // A defstruct also defines MAKE-S, COPY-S, S-P and the slot accessors S-...: they come
    // from the same form.
    QList<const Definition *> structures;
    for (const Definition &p : std::as_const(m_provenance)) {
        if (p.kind == QStringLiteral("structure"))
            structures.append(&p);
    }
    auto structureFor = [&structures](const Definition &d) -> const Definition * {
        for (const Definition *s : std::as_const(structures)) {
            if (s->package != d.package)
                continue;
            const QString &n = d.name;
            if (n == QStringLiteral("MAKE-") + s->name || n == QStringLiteral("COPY-") + s->name
                || n == s->name + QStringLiteral("-P") || n.startsWith(s->name + QLatin1Char('-')))
                return s;
        }
        return nullptr;
    };
    QList<Definition> all;
    if (m_engineKnown) {
        for (Definition d : m_engine) {
            const auto it = m_provenance.constFind(provenanceKey(d.package, d.name, d.kind));
            const Definition *source = it != m_provenance.constEnd() ? &*it
                                       : d.kind == QStringLiteral("function") ? structureFor(d) : nullptr;
            if (source) {
                d.definedBy = source->definedBy;
                d.byAgent = source->byAgent;
                d.definedAt = source->definedAt;
                d.form = source->form;
                if (d.lambdaList.isEmpty() && source->kind != QStringLiteral("structure"))
                    d.lambdaList = source->lambdaList;
            }
            all.append(d);
        }
    } else {
        all = m_provenance.values();
    }
    std::sort(all.begin(), all.end(), [](const Definition &a, const Definition &b) {
        if (a.package != b.package)
            return a.package < b.package;
        if (kindOrder(a.kind) != kindOrder(b.kind))
            return kindOrder(a.kind) < kindOrder(b.kind);
        return a.name < b.name;
    });
    beginResetModel();
    m_packages.clear();
    for (const Definition &d : all) {
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

int DefinitionsModel::definitionCount() const
{
    int count = 0;
    for (const Package &p : m_packages)
        count += int(p.definitions.size());
    return count;
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
    }
    return {};
}

QString DefinitionsModel::displayText(const Definition &d)
{
    QString name = d.name.toLower();
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
    if (role == Qt::ToolTipRole)
        return d->documentation.isEmpty() ? displayText(*d) : d->documentation;
    if (role == Qt::ForegroundRole && index.column() == ByColumn && d->byAgent)
        return QBrush(QColor(0x7a, 0x3e, 0x9d));
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NameColumn: return displayText(*d);
    case KindColumn: return d->kind;
    case ByColumn:
        if (!d->definedBy.isEmpty())
            return d->definedBy;
        return d->file.isEmpty() ? QStringLiteral("\u2014") : location(*d);
    case WhenColumn: return d->definedAt.isValid() ? d->definedAt.toString(QStringLiteral("HH:mm:ss")) : QString();
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
    if (d.file.isEmpty())
        return {};
    QString file = QDir::cleanPath(d.file);
    const QString root = QDir::cleanPath(m_projectRoot);
    if (!m_projectRoot.isEmpty() && file.startsWith(root + QLatin1Char('/')))
        file = file.mid(root.size() + 1);
    return d.line > 0 ? QStringLiteral("%1:%2").arg(file).arg(d.line) : file;
}
