#include "ProjectTools.h"

#include "client/EngineProtocol.h"
#include "EvalFormatter.h"
#include "FileChangeResult.h"
#include "lispsource/FeatureReading.h"
#include "lispsource/FormSplice.h"
#include "lispsource/LispFile.h"
#include "project/ProjectFiles.h"
#include "ProjectToolKit.h"
#include "schema/JsonSchema.h"
#include "session/Session.h"
#include "ToolKit.h"

#include <QSharedPointer>

namespace {
const auto Path = Arg::string(QStringLiteral("path"), QStringLiteral("Relative to the project root"))
                      .required(QStringLiteral("the file to edit"))
                      .notBlank(QStringLiteral("is empty; give a file path relative to the project root"));
const auto Form = Arg::string(QStringLiteral("form"),
                              QStringLiteral("Its label as view-lisp-file lists it (or give lines)"));
const auto Lines = Arg::string(QStringLiteral("lines"),
                               QStringLiteral("Its line range as you last read it, e.g. \"12-18\""));
const auto Action = Arg::choice(QStringLiteral("action"), QStringLiteral("replace (default), insert-before, insert-after, delete"),
                                {QStringLiteral("replace"), QStringLiteral("insert-before"), QStringLiteral("insert-after"), QStringLiteral("delete")});
const auto Text = Arg::string(QStringLiteral("text"),
                              QStringLiteral("The new form(s) (not for delete)"));
const auto Evaluate = Arg::boolean(QStringLiteral("evaluate"),
                                   QStringLiteral("Then evaluate it in its package"));
const auto Description = Arg::string(QStringLiteral("description"), QStringLiteral("Why: the person sees it"));

FormSplice::Action actionNamed(const QString &name)
{
    if (name == QLatin1String("insert-before"))
        return FormSplice::Action::InsertBefore;
    if (name == QLatin1String("insert-after"))
        return FormSplice::Action::InsertAfter;
    if (name == QLatin1String("delete"))
        return FormSplice::Action::Delete;
    return FormSplice::Action::Replace;
}

QString pastTense(FormSplice::Action action)
{
    switch (action) {
    case FormSplice::Action::Replace: return QStringLiteral("replaced");
    case FormSplice::Action::InsertBefore: return QStringLiteral("inserted before");
    case FormSplice::Action::InsertAfter: return QStringLiteral("inserted after");
    case FormSplice::Action::Delete: return QStringLiteral("deleted");
    }
    return {};
}

// The text must read as complete forms, at least one.
QString problemWithText(const QString &text)
{
    const FormCheck check = LispReader::checkForms(text, 1);
    if (check.ok || (!check.error.isValid() && check.count >= 1))
        return {};
    return QStringLiteral("The new text does not read as complete Lisp forms: %1. Nothing was written.").arg(check.message);
}

// The text as the session's Lisp reads it: what a #+/#- skips there, and character names
// its reader knows. Empty when it reads.
QString problemForTheSession(const QString &text, const EngineProtocol::PackagesReply &reply)
{
    const SyntaxTree tree = SyntaxTree::read(text);
    const QStringList unknown = reply.unknownCharacterNames();
    const ReadError error = FeatureReading::firstProblem(tree, reply.features(), QSet<QString>(unknown.begin(), unknown.end()));
    if (!error.isValid())
        return {};
    return QStringLiteral("The new text does not read in this session: %1. Nothing was written.").arg(error.message);
}

// What the Maker found, for the evaluation after the write.
struct Edited
{
    QString package;
};

QJsonObject outputProperties()
{
    QJsonObject properties = FileChangeResult::outputProperties();
    properties.insert(QStringLiteral("evaluated"), Schema::nullableString(QStringLiteral("With evaluate: the printed value(s) of the new form(s)")));
    properties.insert(QStringLiteral("evaluation_error"), Schema::nullableString(QStringLiteral("With evaluate: the error the evaluation signalled")));
    return properties;
}

ToolResult withEvaluation(ToolResult edit, const Job &job, const QString &package)
{
    const QString evaluation = EvalFormatter::text(job.result);
    const bool failed = EvalFormatter::isErrorResult(job.result);
    edit.text = QStringLiteral("%1\n\n%2 in %3:\n%4")
                    .arg(edit.text, failed ? QStringLiteral("The file was changed, but evaluating the new form failed")
                                           : QStringLiteral("Evaluated"),
                         package, evaluation);
    edit.structured.insert(QStringLiteral("evaluated"), failed ? QJsonValue(QJsonValue::Null) : QJsonValue(job.result.values.join(QLatin1Char('\n'))));
    if (failed)
        edit.structured.insert(QStringLiteral("evaluation_error"), QStringLiteral("%1: %2").arg(job.result.error.type, job.result.error.message));
    return edit;
}
} // namespace

Tool editFormTool(ProjectFiles *files, Session *session, JobHandles *jobs)
{
    ToolSpec spec{
        .name = QStringLiteral("edit-form"),
        .title = QStringLiteral("Edit form"),
        .description = QStringLiteral(
            "Replace, delete, or insert before/after one top-level form of a Lisp file, named by its view-lisp-file label "
            "(\"defmethod area (circle)\") or lines. The rest stays byte for byte; the new text must read. Returns the diff."),
        .arguments = {Path, Form, Lines, Action, Text, Evaluate, Description},
        .outputProperties = outputProperties(),
        .outputRequired = FileChangeResult::outputRequired(),
        .hints = Hints::Destructive,
        .changesFiles = true,
    };
    return Tool(spec, [files, session, jobs](const ToolCallPtr &call, const ToolArguments &arguments) {
        const FormSplice::Action action = actionNamed(arguments.value(Action, QStringLiteral("replace")));
        const QString text = arguments.text(Text);
        const QString query = arguments.text(Form).trimmed();
        const QString lines = arguments.text(Lines).trimmed();
        if (query.isEmpty() == lines.isEmpty()) {
            call->finish(ToolResult::error(query.isEmpty()
                                               ? QStringLiteral("Invalid arguments: give 'form' (the label view-lisp-file lists, e.g. \"defun area\") "
                                                                "or 'lines' (its line range, e.g. \"12-18\").")
                                               : QStringLiteral("Invalid arguments: give 'form' or 'lines', not both.")));
            return;
        }
        if (action != FormSplice::Action::Delete) {
            if (text.trimmed().isEmpty()) {
                call->finish(ToolResult::error(QStringLiteral("Invalid arguments: 'text' is required for %1: the new form(s).")
                                                   .arg(arguments.value(Action, QStringLiteral("replace")))));
                return;
            }
            if (const QString problem = problemWithText(text); !problem.isEmpty()) {
                call->finish(ToolResult::error(problem));
                return;
            }
        }
        const auto resolved = ProjectToolKit::resolve(files, call, arguments.text(Path), ProjectRoot::Access::Write);
        if (!resolved)
            return;
        const QString description = arguments.text(Description);
        const QString clientKey = call->origin().clientKey;
        const QString absolute = resolved->absolute;
        const QString relative = resolved->relative;
        auto edited = QSharedPointer<Edited>::create();
        const bool evaluate = arguments.value(Evaluate, false) && action != FormSplice::Action::Delete;
        auto make = [=](const TextFileContents &current, bool exists, QString *error) -> std::optional<FileChange> {
            if (!exists) {
                *error = QStringLiteral("%1 does not exist; create it with write-file.").arg(relative);
                return std::nullopt;
            }
            if (!lines.isEmpty() && files->readBy(clientKey, absolute) != current.digest) {
                *error = QStringLiteral("Lines name a form of %1 as you last read it, and you have not read it as it is now (line numbers move "
                                        "with every edit, yours too). View it with view-lisp-file, then give the lines it shows, or name "
                                        "the form by its label. Nothing was changed.").arg(relative);
                return std::nullopt;
            }
            const LispFile file(current.text);
            const FormMatches matches = lines.isEmpty() ? file.find(query) : file.findLines(lines);
            if (!matches.isUnique()) {
                *error = QStringLiteral("%1 Nothing was changed in %2.").arg(matches.message(), relative);
                return std::nullopt;
            }
            const TopLevelForm &form = matches.forms.first();
            if (!form.node.isComplete() || form.node.hasError()) {
                *error = QStringLiteral("The form %1 at lines %2-%3 of %4 does not read (%5); fix the file with write-file.")
                             .arg(form.label).arg(form.firstLine).arg(form.lastLine).arg(relative, file.tree().firstError().message);
                return std::nullopt;
            }
            const FormSplice splice = FormSplice::apply(file, form, action, text);
            edited->package = form.package;
            FileChange change;
            change.kind = FileChange::Kind::Edit;
            change.tool = QStringLiteral("edit-form");
            change.description = description;
            change.after = splice.text;
            change.firstLine = splice.firstLine;
            change.lastLine = splice.lastLine;
            change.summary = QStringLiteral("%1 (%2) at lines %3-%4").arg(pastTense(action), form.label).arg(form.firstLine).arg(form.lastLine);
            if (evaluate)
                change.followUp = form.package.isEmpty() ? QStringLiteral("then evaluates the new text in the session")
                                                         : QStringLiteral("then evaluates the new text in the session (in %1)").arg(form.package);
            return change;
        };
        auto done = [=](const FileChange &applied, const QString &error) {
            const ToolResult result = FileChangeResult::result(applied, error);
            if (!evaluate || result.isError) {
                call->finish(result);
                return;
            }
            JobRequest request = EngineProtocol::evaluation(text, edited->package);
            request.purpose = JobPurpose::FormEdit; // the ledger records what it defines as edit-form's
            request.description = description.isEmpty() ? QStringLiteral("evaluate the form edit-form wrote to %1").arg(relative) : description;
            const QString package = edited->package;
            ToolKit::submit(session, jobs, call, request, [result, package](const Job &job) { return withEvaluation(result, job, package); });
        };
        if (action == FormSplice::Action::Delete) {
            files->propose(absolute, call->origin(), make, done, call.data());
            return;
        }
        // What #+/#- skip, and which character names exist, is the session's Lisp's to say.
        const QStringList characterNames = FeatureReading::characterNames(SyntaxTree::read(text));
        session->query(EngineProtocol::packages({}, characterNames), [=](const QJsonObject &json) {
            const EngineProtocol::PackagesReply reply(json);
            if (reply.ok()) {
                if (const QString problem = problemForTheSession(text, reply); !problem.isEmpty()) {
                    call->finish(ToolResult::error(problem));
                    return;
                }
            }
            files->propose(absolute, call->origin(), make, done, call.data());
        });
    });
}
