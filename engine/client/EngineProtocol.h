#pragma once

#include "EngineJob.h"
#include "EngineMessages.h"

#include <QJsonArray>
#include <QJsonObject>

#include <optional>

// The line protocol between the host and lisp-duet-engine as the host speaks it (the table is
// engine/README.md, "Protocol"): a builder per operation and the defaults of the session's
// limits; EngineMessages.h has the views over what the engine sends. The host spells the
// protocol's field names in these two and nowhere else.
namespace EngineProtocol {

// The engine's descriptor channel: a socket pair whose end the engine has as this descriptor,
// over which the app hands it descriptors (SCM_RIGHTS), each tagged with a token a request
// names: the Swank port's listening socket the app holds (EngineClient::passDescriptor).
constexpr int DescriptorChannel = 3;

// The defaults of the limits, in one place. The kernel has the same ones until the host sends
// its own, which the Session does at every engine start.
constexpr int DefaultPrintLength = 100;
constexpr int DefaultPrintLevel = 10;
constexpr int DefaultMaxOutputChars = 100000;
// The host's: the Session interrupts code that runs longer. Above the 100 s an agent's call
// waits before its work goes on as a job (wait_seconds), so that long work can become a job at
// all, and long enough for a 150 s test run; the running answer and the job bar say when the
// limit will stop it (issue 32).
constexpr int DefaultTimeoutMs = 300000;
constexpr int DefaultTestRunTimeoutMs = 300000; // a test run's: the first one compiles FiveAM

struct Limits
{
    int timeoutMs = DefaultTimeoutMs; // 0: none
    int printLength = DefaultPrintLength;
    int printLevel = DefaultPrintLevel;
    int maxOutputChars = DefaultMaxOutputChars;
    qint64 heapLimitBytes = 0; // 0: the engine's own
};

// ---- Jobs: work for the worker thread, queued one at a time by the Session.
EngineJob evaluation(const QString &code, const QString &package = {}, const EvalOptions &options = {});
// `asTyped`: time the code as typed (ECL's bytecodes), not the native version of what it
// calls (the default; compile time reported apart).
EngineJob timedEvaluation(const QString &code, const QString &package = {}, bool asTyped = false);
EngineJob compilation(const QString &code, const QString &package = {});
EngineJob macroexpansion(const QString &code, bool full, const QString &package = {});
EngineJob systemLoad(const QString &system, bool force, bool verbose);
// A system's tests (issue 11): FiveAM when the system's tests use it, else ASDF's test-op;
// `test` names one FiveAM test (or suite) to run alone. Reply: TestRunReply.
EngineJob testRun(const QString &system, const QString &test = {}); // time limit: DefaultTestRunTimeoutMs
// The shared debugger (issue 20). A parked job is named by its id (`target`) and its level;
// `restart` is the restart's name; `arguments` are Lisp texts the engine reads in the package
// the job parked in. The reply of an invocation says "continuing" (RestartReply); the job's
// own reply, or its next parking, follows.
EngineJob restartInvocation(quint64 target, int level, const QString &restart, const QStringList &arguments);
// Evaluates in frame `frame` of the parked job: its lexical environment where ECL keeps one.
EngineJob frameEvaluation(quint64 target, int level, int frame, const QString &code);
// A look at frame `frame` of a parked job, as the session records it (not sent: the look
// itself is frameInspection, a query).
EngineJob frameLook(int frame);
// The person's editor (issue 31): Swank listening on 127.0.0.1:`port` (0: any free one) for
// editors that send the secret in `secretFile` (empty: ~/.slime-secret). Reply: listening,
// port, address...
// `descriptorToken`: listen on the socket passed with it (EngineClient::passDescriptor), the
// port the app holds, rather than on one of the engine's own.
EngineJob editorListen(int port, const QString &secretFile = {}, const QString &descriptorToken = {});
EngineJob editorClose();
// The person's init file, loaded within `timeLimitMs`; an eval-shaped reply plus file, loaded,
// timed_out.
EngineJob initFileLoad(const QString &file, int timeLimitMs);
// Native code for the session's definitions (issue 30): waits, up to `timeoutMs`, until the
// background compiler has nothing left; its reply lists the definitions from `sinceSerial` on.
EngineJob nativeSettling(int timeoutMs, qint64 sinceSerial = 0);
// Libraries at once (issue 39): compiles `systems` and the systems `dependenciesOf` depend on
// (not those, nor the project's own) natively in the background at idle priority, loading
// nothing into the session. Reply: LibraryWarmUpReply (LibraryMessages.h).
EngineJob libraryWarmUp(const QStringList &systems, const QStringList &dependenciesOf);
// The job an `editor-request` event asks for (its "request" object: op eval or debugger-eval,
// code, package, target/level/frame, editor_request); nullopt for anything else.
std::optional<EngineJob> editorJob(const QJsonObject &request);
// The line that starts job `id`; `origin`, who asked ("claude-code"), goes with a job that
// may park in the debugger (the person's editor lists it so: lisp-duet-debuggers).
QByteArray jobLine(quint64 id, const EngineJob &job, const QString &origin = {});
// The protocol's word for a kind of job ("eval", "load-system"...), which the journal keeps too.
QString operationName(EngineJob::Kind kind);
// A job's fields beyond op, code and package, as the line sends them (and the journal keeps
// them): {"system": "shapes", "force": false, ...}.
QJsonObject jobFields(const EngineJob &job);
// The job a journal recorded (its op, code, package and jobFields); nullopt for an op this
// version does not know.
std::optional<EngineJob> recordedJob(const QString &op, const QString &code, const QString &package, const QJsonObject &fields);

// ---- Queries: questions that run no user code, answered even while a job runs.
struct Query
{
    QString op;
    QJsonObject fields;
};
Query completion(const QString &prefix, std::optional<int> limit = std::nullopt);
// The same operation over package names and nicknames; the reply is a CompletionReply too.
Query packageCompletion(const QString &prefix, std::optional<int> limit = std::nullopt);
Query arglist(const QString &name);
Query definitions(const QString &package = {}, const QString &pattern = {});
Query description(const QString &name, const QString &package = {});
Query apropos(const QString &text, const QString &package, int limit);
Query inspection(const QString &resultId, int offset, int limit);
Query limits(const Limits &limits); // the engine's part of them: printing, output cap, heap
// Every docstring of a symbol (or package) with its kinds and lambda list. Reply: DocumentationReply.
Query documentation(const QString &name, const QString &package = {});
// The project's root directory (absolute): the engine's *default-pathname-defaults* and ASDF's
// source registry follow it. Runs on the worker, after the jobs queued before it.
Query projectRoot(const QString &directory);
// One frame of a parked job: function, arguments, locals, source. Reply: FrameReply.
Query frameInspection(quint64 target, int level, int frame);
// Names read in a file, resolved as the image has them (the symbol's home package), and
// whether #+/#- conditionals as written ("#+ecl", "#+sbcl #-x86-64") hold in this image.
// Reply: ResolveNamesReply. The ledger (DefinitionLedger) asks it for definitions loaded from files.
struct NameToResolve
{
    QString package; // the package in force where the name is read
    QString name;    // as the reader interns it: "AREA", "(SETF FOO)"
};
Query resolveNames(const QList<NameToResolve> &names, const QStringList &conditions = {});
// The session's *features* and what it has of these packages (names as the reader interns
// them). Reply: PackagesReply. The project tools read names with it (LispPackages).
// `characterNames` (#\Name as written, without #\): which of them ECL's reader refuses.
Query packages(const QStringList &names, const QStringList &characterNames = {});
// The person's editor: a queued request that will not run (`reason` is told to the editor),
// a line for the editors' echo areas (`editor` 0: every one), Swank stopped.
Query editorDrop(qint64 editorRequest, const QString &reason);
// Native compilation of the definitions made from now on: turned on or off (nullopt: only
// asked). Reply: enabled, available, reason, pending.
Query nativeCompilation(std::optional<bool> enabled = std::nullopt);
Query editorMessage(const QString &text, qint64 editor = 0);
// What each library this engine loaded runs as (issue 39). Reply: LibrariesReply.
Query libraries();
QJsonObject queryLine(quint64 id, const Query &query);
// Stops the running job; with `breakIn`, a job with debugging on parks where it is instead
// (a break with a CONTINUE restart; `by` names who asked, for its message).
QJsonObject interruptLine(quint64 runningJob, bool breakIn = false, const QString &by = {});

} // namespace EngineProtocol
