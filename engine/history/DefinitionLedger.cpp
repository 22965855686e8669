#include "DefinitionLedger.h"

#include "client/EngineProtocol.h"
#include "session/LocalClock.h"
#include "lispsource/LispFile.h"
#include "project/ProjectRoot.h"
#include "session/Session.h"
#include "project/TextFile.h"
#include "project/UnifiedDiff.h"

#include <QDir>
#include <QFileInfo>
#include <QPointer>

namespace {
// The engine counts characters (code points); a QString counts UTF-16 units.
int utf16Index(const QString &text, int codePoints)
{
    int units = 0;
    for (int seen = 0; seen < codePoints && units < text.size(); ++seen)
        units += (text.at(units).isHighSurrogate() && units + 1 < text.size()) ? 2 : 1;
    return units;
}

// The form's own text: the engine's range starts before the blanks and comments that precede it.
QString formText(const QString &code, int start, int end)
{
    const int from = utf16Index(code, start);
    const QString slice = code.mid(from, utf16Index(code, end) - from);
    const SyntaxTree tree = SyntaxTree::read(slice);
    const QList<SyntaxNode> forms = tree.forms();
    return forms.isEmpty() ? slice.trimmed() : forms.first().text().toString();
}

QString capped(const QString &source)
{
    return source.size() > DefinitionVersion::SourceCap ? source.left(DefinitionVersion::SourceCap) : source;
}

bool isLedgerKind(const QString &kind)
{
    static const QStringList kinds{QStringLiteral("function"), QStringLiteral("macro"),    QStringLiteral("generic-function"),
                                   QStringLiteral("method"),   QStringLiteral("variable"), QStringLiteral("constant"),
                                   QStringLiteral("class"),    QStringLiteral("structure"), QStringLiteral("condition"),
                                   QStringLiteral("type")};
    return kinds.contains(kind);
}

// Whether a form read in a file defines what `key` names (its package aside: the file writes
// names as its package reads them).
bool defines(const DefinedName &defined, const DefinitionKey &key)
{
    if (!defined.isValid() || DefinitionKey::spaceOf(defined.kind) != key.space)
        return false;
    if (defined.name.compare(key.name, Qt::CaseInsensitive) != 0)
        return false;
    if (key.space != QStringLiteral("method"))
        return true;
    return DefinitionKey::normalizedQualifiers(defined.qualifiers) == key.qualifiers
        && DefinitionKey::normalizedSpecializers(defined.specializers) == key.specializers;
}

// The form of `file` that defines `key`, nearest to `line` (a name may be defined twice, under
// #+ and #-); null when the file no longer defines it.
const TopLevelForm *closestForm(const LispFile &file, const DefinitionKey &key, int line)
{
    const TopLevelForm *best = nullptr;
    for (const TopLevelForm &form : file.forms()) {
        if (defines(form.definition, key) && (!best || qAbs(form.firstLine - line) < qAbs(best->firstLine - line)))
            best = &form;
    }
    return best;
}

// How what a job defines came to be, by what the job was for.
DefinitionVersion::Via viaOf(JobPurpose purpose)
{
    using Via = DefinitionVersion::Via;
    switch (purpose) {
    case JobPurpose::Revert: return Via::Revert;
    case JobPurpose::FormEdit: return Via::EditForm;
    case JobPurpose::StagedForm: return Via::StageForm;
    case JobPurpose::Replay: return Via::Replay;
    case JobPurpose::Unstated:
    case JobPurpose::Repl:
    case JobPurpose::AgentTool:
    case JobPurpose::Editor:
    case JobPurpose::InitFile:
    case JobPurpose::Setup: break;
    }
    return Via::Evaluation;
}
} // namespace

QString DefinitionKey::id() const
{
    const QChar unit(0x1f);
    return space + unit + package + unit + name + unit + qualifiers.join(u' ') + unit + specializers.join(u' ');
}

QString DefinitionKey::text() const
{
    QString text = package.isEmpty() ? name : package + QStringLiteral("::") + name;
    if (space == QStringLiteral("method")) {
        for (const QString &qualifier : qualifiers)
            text += u' ' + qualifier;
        text += QStringLiteral(" (") + specializers.join(u' ') + u')';
    }
    return text;
}

QString DefinitionKey::spaceOf(const QString &kind)
{
    if (kind == QStringLiteral("function") || kind == QStringLiteral("macro") || kind == QStringLiteral("generic-function"))
        return QStringLiteral("function");
    if (kind == QStringLiteral("method"))
        return kind;
    if (kind == QStringLiteral("variable") || kind == QStringLiteral("constant"))
        return QStringLiteral("variable");
    if (kind == QStringLiteral("class") || kind == QStringLiteral("structure") || kind == QStringLiteral("condition")
        || kind == QStringLiteral("type"))
        return QStringLiteral("type");
    return {};
}

QStringList DefinitionKey::normalizedSpecializers(const QStringList &specializers)
{
    QStringList list;
    for (const QString &specializer : specializers)
        list << specializer.simplified().toUpper();
    while (!list.isEmpty() && list.last() == QStringLiteral("T"))
        list.removeLast();
    return list;
}

QStringList DefinitionKey::normalizedQualifiers(const QStringList &qualifiers)
{
    QStringList list;
    for (const QString &qualifier : qualifiers)
        list << qualifier.simplified().toUpper();
    return list;
}

QString DefinitionVersion::place(const QString &file, int line, const QString &projectRoot)
{
    QString shown = file;
    if (!projectRoot.isEmpty()) {
        const QString relative = QDir(projectRoot).relativeFilePath(file);
        if (!relative.startsWith(QStringLiteral("..")) && !QDir::isAbsolutePath(relative))
            shown = relative;
    }
    return line > 0 ? QStringLiteral("%1:%2").arg(shown).arg(line) : shown;
}

QString DefinitionVersion::viaName(Via via)
{
    switch (via) {
    case Via::Evaluation: return QStringLiteral("evaluation");
    case Via::File: return QStringLiteral("file");
    case Via::EditForm: return QStringLiteral("edit-form");
    case Via::StageForm: return QStringLiteral("stage-form");
    case Via::Revert: return QStringLiteral("revert");
    case Via::Replay: return QStringLiteral("replay");
    }
    return {};
}

DefinitionVersion::Via DefinitionVersion::viaNamed(const QString &name)
{
    for (const Via via : Vias) {
        if (viaName(via) == name)
            return via;
    }
    return Via::Evaluation;
}

QString DefinitionVersion::byText(const QString &projectRoot) const
{
    if (via == Via::File) {
        const QString from = QStringLiteral("loaded from %1").arg(place(file, line, projectRoot));
        return by.name.isEmpty() ? from : QStringLiteral("%1 by %2").arg(from, by.name);
    }
    if (via == Via::Revert)
        return restores > 0 ? QStringLiteral("%1 (revert to version %2)").arg(by.name).arg(restores)
                            : QStringLiteral("%1 (revert)").arg(by.name);
    if (via == Via::EditForm || via == Via::StageForm || via == Via::Replay)
        return by.name == viaName(via) ? by.name : QStringLiteral("%1 (%2)").arg(by.name, viaName(via));
    return by.name;
}

const DefinitionVersion *DefinitionLedger::History::version(int number) const
{
    for (const DefinitionVersion &v : versions) {
        if (v.number == number)
            return &v;
    }
    return nullptr;
}

DefinitionLedger::DefinitionLedger(Session *session, QObject *parent)
    : QObject(parent), m_session(session), m_libraryFolders(ProjectRoot::systemSourceFolders())
{
    connect(session, &Session::finished, this, &DefinitionLedger::onFinished);
    connect(session, &Session::engineStatus, this, [this](Session::EngineStatus state) {
        if (state != Session::EngineStatus::Restarting && state != Session::EngineStatus::Failed)
            return;
        // A fresh engine has none of the definitions; their histories stay.
        bool any = false;
        for (History &history : m_histories)
            any |= std::exchange(history.live, false);
        if (any)
            Q_EMIT changed();
    });
}

QList<DefinitionKey> DefinitionLedger::keys() const
{
    return m_order;
}

const DefinitionLedger::History *DefinitionLedger::history(const DefinitionKey &key) const
{
    const auto it = m_histories.constFind(key.id());
    return it == m_histories.constEnd() ? nullptr : &*it;
}

QList<const DefinitionLedger::History *> DefinitionLedger::find(const QString &name, const QString &kind, QString *error) const
{
    const QString space = kind.isEmpty() ? QString() : DefinitionKey::spaceOf(kind);
    if (!kind.isEmpty() && space.isEmpty()) {
        if (error)
            *error = QStringLiteral("'%1' is not a kind of definition the ledger keeps: function, macro, generic-function, method, "
                                    "variable, constant, class, structure, condition or type.").arg(kind);
        return {};
    }
    // Read as view-lisp-file names forms: "area", "shapes:area", "area :around (circle)".
    const FormQuery query = FormQuery::parse(QStringLiteral("function %1").arg(name));
    if (!query.isValid()) {
        if (error)
            *error = QStringLiteral("The name '%1' does not read: %2. Name a definition like \"area\", \"shapes:area\" or "
                                    "\"area :around (circle)\".").arg(name, query.error);
        return {};
    }
    const QStringList qualifiers = DefinitionKey::normalizedQualifiers(query.qualifiers);
    const QStringList specializers = DefinitionKey::normalizedSpecializers(query.specializers);
    const bool method = query.hasSpecializers || !query.qualifiers.isEmpty();
    QList<const History *> found;
    for (const DefinitionKey &key : m_order) {
        if (key.name != query.name || (!query.package.isEmpty() && key.package != query.package))
            continue;
        if (!space.isEmpty() && key.space != space)
            continue;
        if (method && (key.space != QStringLiteral("method") || key.qualifiers != qualifiers
                       || (query.hasSpecializers && key.specializers != specializers)))
            continue;
        found.append(history(key));
    }
    return found;
}

bool DefinitionLedger::isRecordedFile(const QString &path) const
{
    const QString file = QDir::cleanPath(path);
    const QString root = m_session->projectRoot();
    if (!root.isEmpty() && file.startsWith(QDir::cleanPath(root) + QLatin1Char('/')))
        return true;
    for (const QString &folder : m_libraryFolders) {
        if (file.startsWith(QDir::cleanPath(folder) + QLatin1Char('/')))
            return false;
    }
    return true;
}

void DefinitionLedger::onFinished(const JobPtr &job)
{
    const EngineProtocol::LedgerFacts facts(job->result.reply);
    if (facts.defined().isEmpty() && facts.loadedFiles().isEmpty())
        return; // the common case: nothing to record
    m_pending.enqueue(job);
    processPending();
}

void DefinitionLedger::processPending()
{
    while (!m_waiting && !m_pending.isEmpty()) {
        const JobPtr job = m_pending.head();
        if (!recordFiles(job))
            return; // recordFileForms continues
        recordEvaluated(*job);
        m_pending.dequeue();
    }
    if (m_waiting)
        return;
    for (const auto &then : std::exchange(m_whenSettled, {}))
        then();
}

void DefinitionLedger::whenSettled(std::function<void()> then)
{
    if (isBusy())
        m_whenSettled.append(std::move(then));
    else
        then();
}

DefinitionVersion DefinitionLedger::versionFrom(const Job &job) const
{
    DefinitionVersion version;
    version.by = job.request.origin;
    version.via = viaOf(job.request.purpose);
    version.detail = job.request.description;
    version.at = job.finishedAt.isValid() ? job.finishedAt : LocalClock::now();
    version.job = job.id;
    if (version.via == DefinitionVersion::Via::Revert)
        version.restores = job.request.restoresVersion;
    return version;
}

void DefinitionLedger::recordEvaluated(const Job &job)
{
    const EngineProtocol::LedgerFacts facts(job.result.reply);
    for (const EngineProtocol::LedgerFacts::Defined &defined : facts.defined()) {
        if (!isLedgerKind(defined.kind()))
            continue;
        DefinitionVersion version = versionFrom(job);
        version.kind = defined.kind();
        version.operatorName = defined.operatorName();
        version.key = {DefinitionKey::spaceOf(defined.kind()), defined.package(), defined.name(),
                       DefinitionKey::normalizedQualifiers(defined.qualifiers()),
                       DefinitionKey::normalizedSpecializers(defined.specializers())};
        version.source = capped(formText(job.request.code, defined.start(), defined.end()));
        version.readPackage = defined.readPackage().isEmpty() ? job.request.package : defined.readPackage();
        const auto existing = m_histories.constFind(version.key.id());
        if (existing == m_histories.constEnd() && !defined.replacedFile().isEmpty()) {
            // What it replaced was loaded before the ledger saw it: the file says what that was.
            DefinitionVersion before;
            before.key = version.key;
            before.kind = version.kind;
            before.operatorName = version.operatorName;
            before.via = DefinitionVersion::Via::File;
            before.file = defined.replacedFile();
            before.line = defined.replacedLine();
            before.by = Origin{Origin::Kind::System, QString(), QString()};
            before.source = capped(sourceAt(before.file, before.line, before.key, &before.readPackage));
            add(before);
        }
        add(version);
    }
}

bool DefinitionLedger::recordFiles(const JobPtr &job)
{
    const EngineProtocol::LedgerFacts facts(job->result.reply);
    QList<FileForm> forms;
    for (const QString &file : facts.loadedFiles()) {
        if (isRecordedFile(file))
            forms += formsOfFile(file, *job);
    }
    if (forms.isEmpty())
        return true;
    QList<EngineProtocol::NameToResolve> names;
    QStringList conditions;
    for (const FileForm &form : std::as_const(forms)) {
        names.append({form.writtenPackage, form.version.key.name});
        if (!form.condition.isEmpty())
            conditions << form.condition;
    }
    m_waiting = true;
    QPointer<DefinitionLedger> guard(this);
    m_session->query(EngineProtocol::resolveNames(names, conditions), [guard, job, forms](const QJsonObject &reply) {
        if (!guard)
            return;
        guard->recordFileForms(job, forms, reply);
    });
    return false;
}

void DefinitionLedger::recordFileForms(const JobPtr &job, QList<FileForm> forms, const QJsonObject &reply)
{
    const EngineProtocol::ResolveNamesReply resolved(reply);
    const QList<EngineProtocol::ResolveNamesReply::Name> names = resolved.names();
    const QList<bool> holds = resolved.conditions();
    int condition = 0;
    for (int i = 0; i < forms.size(); ++i) {
        FileForm &form = forms[i];
        if (!form.condition.isEmpty()) {
            // Without the engine's answer a conditional form is left out rather than guessed.
            const bool read = condition < holds.size() && holds.at(condition);
            ++condition;
            if (!read)
                continue;
        }
        if (i < names.size() && names.at(i).found)
            form.version.key.package = names.at(i).package;
        add(form.version);
    }
    m_waiting = false;
    recordEvaluated(*job);
    if (!m_pending.isEmpty() && m_pending.head() == job)
        m_pending.dequeue();
    processPending();
}

QList<DefinitionLedger::FileForm> DefinitionLedger::formsOfFile(const QString &path, const Job &job) const
{
    const TextFileContents contents = TextFile::read(path);
    if (!contents.ok())
        return {};
    const LispFile file(contents.text);
    QList<FileForm> forms;
    for (const TopLevelForm &form : file.forms()) {
        const DefinedName &defined = form.definition;
        if (!defined.isValid() || !isLedgerKind(defined.kind) || !form.node.isComplete())
            continue;
        // A definition inside a form that is no group ((let ((cache ...)) (defun f ...)),
        // (unless (fboundp 'f) ...)) is not a version to evaluate alone: it would lose what is
        // around it (a closure's variables, the condition).
        if (form.parent >= 0 && !file.forms().at(form.parent).isGroup())
            continue;
        FileForm entry;
        DefinitionVersion &version = entry.version;
        version = versionFrom(job);
        version.via = DefinitionVersion::Via::File;
        version.detail.clear();
        version.kind = defined.kind;
        version.operatorName = defined.operatorName;
        version.file = QFileInfo(path).absoluteFilePath();
        version.line = form.firstLine;
        version.source = capped(form.body.text().toString());
        version.readPackage = form.package;
        entry.writtenPackage = defined.package.isEmpty() ? form.package : defined.package;
        version.key = {DefinitionKey::spaceOf(defined.kind), entry.writtenPackage, defined.name,
                       DefinitionKey::normalizedQualifiers(defined.qualifiers),
                       DefinitionKey::normalizedSpecializers(defined.specializers)};
        entry.condition = form.condition;
        forms.append(entry);
    }
    return forms;
}

bool DefinitionLedger::add(DefinitionVersion version)
{
    const QString id = version.key.id();
    auto it = m_histories.find(id);
    if (it == m_histories.end()) {
        it = m_histories.insert(id, History{version.key, {}, false});
        m_order.append(version.key);
    }
    History &history = *it;
    const bool timeless = !version.at.isValid(); // known only from its file: it came first
    if (!history.versions.isEmpty() && history.latest().source.trimmed() == version.source.trimmed()) {
        // The same text again (a file loaded anew, a form evaluated twice): not a new version.
        if (!timeless && !std::exchange(history.live, true))
            Q_EMIT changed();
        return false;
    }
    version.number = history.versions.isEmpty() ? 1 : history.latest().number + 1;
    history.versions.append(version);
    if (history.versions.size() > MaxVersions)
        history.versions.removeFirst();
    history.live = !timeless;
    ++m_versionCount;
    Q_EMIT recorded(version);
    Q_EMIT changed();
    return true;
}

QString DefinitionLedger::sourceAt(const QString &file, int line, const DefinitionKey &key, QString *readPackage)
{
    const TextFileContents contents = TextFile::read(file);
    if (!contents.ok())
        return {};
    const LispFile lisp(contents.text);
    const TopLevelForm *best = closestForm(lisp, key, line);
    if (!best)
        return {};
    if (readPackage)
        *readPackage = best->package;
    return best->body.text().toString();
}

DefinitionLedger::RevertPlan DefinitionLedger::planRevert(const DefinitionKey &key, int number, const Origin &by) const
{
    RevertPlan plan;
    const History *found = history(key);
    const DefinitionVersion *version = found ? found->version(number) : nullptr;
    if (!version) {
        plan.error = found ? QStringLiteral("%1 has no version %2; its versions are %3 to %4.")
                                 .arg(key.text()).arg(number).arg(found->versions.first().number).arg(found->latest().number)
                           : QStringLiteral("The ledger has no history of %1.").arg(key.text());
        return plan;
    }
    QString code = version->source;
    QString package = version->readPackage;
    const QString root = m_session->projectRoot();
    if (version->via == DefinitionVersion::Via::File) {
        // A file's version is the form as the file has it now: the file is the source of truth.
        const TextFileContents contents = TextFile::read(version->file);
        const QString place = DefinitionVersion::place(version->file, version->line, root);
        if (!contents.ok()) {
            plan.error = QStringLiteral("Version %1 of %2 came from %3, which cannot be read now: %4")
                             .arg(number).arg(key.text(), place, contents.error);
            return plan;
        }
        const LispFile file(contents.text);
        const TopLevelForm *best = closestForm(file, key, version->line);
        if (!best) {
            plan.error = QStringLiteral("Version %1 of %2 came from %3, but that file no longer defines it; nothing was evaluated.")
                             .arg(number).arg(key.text(), place);
            return plan;
        }
        code = best->body.text().toString();
        package = best->package;
        plan.summary = QStringLiteral("Version %1 came from %2: evaluated that form as the file has it now (%3, lines %4-%5).")
                           .arg(number).arg(place, DefinitionVersion::place(version->file, 0, root))
                           .arg(best->firstLine).arg(best->lastLine);
    } else {
        plan.summary = QStringLiteral("Evaluated the text of version %1 (%2%3) in %4.")
                           .arg(number)
                           .arg(version->byText(root),
                                version->at.isValid() ? QStringLiteral(" at ") + version->at.toString(QStringLiteral("HH:mm:ss")) : QString(),
                                package.isEmpty() ? QStringLiteral("the session's package") : package);
    }
    if (code.trimmed().isEmpty()) {
        plan.error = QStringLiteral("Version %1 of %2 has no text to evaluate.").arg(number).arg(key.text());
        return plan;
    }
    plan.request = EngineProtocol::evaluation(code, package);
    plan.request.origin = by;
    plan.request.purpose = JobPurpose::Revert;
    plan.request.restoresVersion = number;
    plan.request.description = QStringLiteral("revert %1 to version %2").arg(key.text()).arg(number);
    return plan;
}

FileDiff DefinitionLedger::changes(const DefinitionVersion &before, const DefinitionVersion &after)
{
    const auto withNewline = [](const QString &text) { return text.endsWith(u'\n') ? text : text + u'\n'; };
    FileDiff d = UnifiedDiff::between(QStringLiteral("x"), withNewline(before.source), withNewline(after.source));
    if (d.isEmpty())
        return {};
    // The file headers name versions, not files.
    const QString from = QStringLiteral("version %1").arg(before.number), to = QStringLiteral("version %1").arg(after.number);
    QStringList lines = d.text.split(u'\n');
    for (QString &line : lines) {
        if (line.startsWith(QStringLiteral("--- "))) {
            line = QStringLiteral("--- ") + from;
        } else if (line.startsWith(QStringLiteral("+++ "))) {
            line = QStringLiteral("+++ ") + to;
            break;
        }
    }
    d.text = lines.join(u'\n');
    for (DiffLine &line : d.lines) {
        if (line.kind != DiffLine::Kind::Header)
            continue;
        if (line.text.startsWith(QStringLiteral("--- ")))
            line.text = QStringLiteral("--- ") + from;
        else if (line.text.startsWith(QStringLiteral("+++ ")))
            line.text = QStringLiteral("+++ ") + to;
    }
    return d;
}

QString DefinitionLedger::diff(const DefinitionVersion &before, const DefinitionVersion &after)
{
    return changes(before, after).text;
}
