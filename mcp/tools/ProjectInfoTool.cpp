#include "ProjectTools.h"

#include "PersonalSetupInfo.h"
#include "project/ProjectFiles.h"
#include "project/ProjectSystems.h"
#include "native/LibraryCompilation.h"
#include "native/NativeCompilation.h"
#include "ProjectToolKit.h"
#include "schema/JsonSchema.h"
#include "ToolSet.h"

#include <QFileInfo>
#include <QJsonArray>

namespace {
QJsonObject outputProperties()
{
    using namespace Schema;
    const QJsonObject system{{QStringLiteral("file"), string(QStringLiteral("The .asd file, relative to the root"))},
                             {QStringLiteral("systems"), stringArray(QStringLiteral("The systems it defines"))}};
    QJsonObject properties = PersonalSetupInfo::outputProperties();
    const QJsonObject project{{QStringLiteral("root"), nullableString(QStringLiteral("The project root, or null when none is set"))},
            {QStringLiteral("read_only_roots"), stringArray(QStringLiteral("Folders that may be read but not written"))},
            {QStringLiteral("asd_files"), objectArray(QStringLiteral("The .asd files under the root"), system, {QStringLiteral("file"), QStringLiteral("systems")})},
            {QStringLiteral("native"), object({{QStringLiteral("on"), boolean(QStringLiteral("The session's definitions are compiled to native code in the background"))},
                                               {QStringLiteral("reason"), nullableString(QStringLiteral("Why they run interpreted; null while native compilation is on"))},
                                               {QStringLiteral("pending"), integer(QStringLiteral("Definitions queued or compiling now"), 0, 2147483647)}},
                                              {QStringLiteral("on"), QStringLiteral("reason")}, false)},
            {QStringLiteral("libraries"),
             object({{QStringLiteral("available"), boolean(QStringLiteral("Libraries loaded as bytecode are compiled natively in the background"))},
                     {QStringLiteral("reason"), nullableString(QStringLiteral("Why they stay bytecode in this engine; null when they do not"))},
                     {QStringLiteral("compiler_limit"), integer(QStringLiteral("Background compiler processes at most at once"), 0, 2147483647)},
                     {QStringLiteral("systems"), objectArray(QStringLiteral("Each library the session loaded (or warms up): state native, queued, "
                                                                            "compiling, swapping, partial or bytecode; compiled of total files; "
                                                                            "deferred files with why"),
                                                             {{QStringLiteral("system"), string(QStringLiteral("The library"))},
                                                              {QStringLiteral("state"), string(QStringLiteral("What it runs as, or how far its compile is"))},
                                                              {QStringLiteral("sentence"), string(QStringLiteral("The same, said"))}},
                                                             {QStringLiteral("system"), QStringLiteral("state")})}},
                    {QStringLiteral("available"), QStringLiteral("systems")}, false)}};
    for (auto it = project.begin(); it != project.end(); ++it)
        properties.insert(it.key(), it.value());
    return properties;
}

// Issue 30: whether what the session defines becomes native code, and why not. Said here so an
// agent that starts by looking at the project learns it once, as the person does in the window.
void addNative(const NativeCompilation *native, QStringList &lines, QJsonObject &structured)
{
    if (!native || !native->status().known)
        return;
    const QString reason = native->reason();
    lines << QString()
          << (native->isOn() ? QStringLiteral("Native code: on. What the session defines (functions, macros, methods) runs at once, "
                                              "interpreted, and is compiled to native code in the background; time-execution times "
                                              "the native version.")
                             : QStringLiteral("Native code: off. %1").arg(reason));
    structured.insert(QStringLiteral("native"), QJsonObject{{QStringLiteral("on"), native->isOn()},
                                                            {QStringLiteral("reason"), reason.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(reason)},
                                                            {QStringLiteral("pending"), native->status().pending}});
}

// Issue 39: what each library the session loaded runs as, how far their background compile is,
// and which files stay bytecode until the next engine start and why.
void addLibraries(const LibraryCompilation *libraries, QStringList &lines, QJsonObject &structured)
{
    if (!libraries || !libraries->isKnown())
        return;
    lines << QString();
    if (libraries->isAvailable())
        lines << QStringLiteral("Libraries: a first load runs as bytecode at once and is compiled natively in the background "
                                "(at most %1 compiler process%2 at once), then loads natively from ASDF's cache.")
                     .arg(libraries->compilerLimit())
                     .arg(libraries->compilerLimit() == 1 ? QString() : QStringLiteral("es"));
    else
        lines << QStringLiteral("Libraries: a first load runs as bytecode and stays bytecode in this engine: %1").arg(libraries->reason());
    QJsonArray systems;
    const QList<LibraryCompilation::Library> all = libraries->libraries();
    for (const LibraryCompilation::Library &library : all) {
        systems.append(library.toJson());
        lines << QStringLiteral("- ") + library.sentence();
        constexpr int DeferredShown = 10;
        for (const auto &file : library.deferred.mid(0, DeferredShown))
            lines << QStringLiteral("  - %1: %2").arg(QFileInfo(file.file).fileName(), file.reason);
        if (library.deferred.size() > DeferredShown)
            lines << QStringLiteral("  - and %1 more files (structuredContent has them all)").arg(library.deferred.size() - DeferredShown);
    }
    if (all.isEmpty())
        lines << QStringLiteral("- none loaded yet");
    structured.insert(QStringLiteral("libraries"),
                      QJsonObject{{QStringLiteral("available"), libraries->isAvailable()},
                                  {QStringLiteral("reason"), libraries->reason().isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(libraries->reason())},
                                  {QStringLiteral("compiler_limit"), libraries->compilerLimit()},
                                  {QStringLiteral("systems"), systems}});
}

// The person's editor and init files, after the project's own text and fields.
ToolResult withPersonalSetup(ToolResult result, const EditorBridge *editors, const InitFile *initFile)
{
    const QStringList more = PersonalSetupInfo::lines(editors, initFile);
    if (!more.isEmpty())
        result.text += QStringLiteral("\n\n") + more.join(QLatin1Char('\n'));
    const QJsonObject fields = PersonalSetupInfo::fields(editors, initFile);
    for (auto it = fields.begin(); it != fields.end(); ++it)
        result.structured.insert(it.key(), it.value());
    return result;
}
} // namespace

Tool projectInfoTool(ProjectFiles *files, const SessionSetup &setup)
{
    ToolSpec spec{
        .name = QStringLiteral("project-info"),
        .title = QStringLiteral("Project info"),
        .description = QStringLiteral(
            "The project root (or how to set one), read-only roots, each .asd file with its systems, and how to load and test "
            "them. File paths are relative to the root. Whether definitions and libraries are compiled to native code, or why "
            "not; where the person's editor connects (Swank); whether their init file loaded."),
        .arguments = {},
        .outputProperties = outputProperties(),
        .outputRequired = {QStringLiteral("root")},
        .hints = Hints::ReadOnly,
    };
    return Tool(spec, [files, native = setup.native, editors = setup.editors, initFile = setup.initFile,
                       libraries = setup.libraries](const ToolCallPtr &call, const ToolArguments &) {
        const ProjectRoot &root = files->root();
        if (!root.isSet()) {
            QStringList lines{ProjectToolKit::noRootMessage()};
            QJsonObject structured{{QStringLiteral("root"), QJsonValue::Null}};
            addNative(native, lines, structured);
            addLibraries(libraries, lines, structured);
            call->finish(withPersonalSetup(ToolResult{lines.join(QLatin1Char('\n')), structured, false}, editors, initFile));
            return;
        }
        QStringList lines{QStringLiteral("Project root: %1").arg(root.path())};
        if (!root.readOnlyRoots().isEmpty())
            lines << QStringLiteral("Read-only roots (readable, never written): %1").arg(root.readOnlyRoots().join(QStringLiteral(", ")));
        QJsonArray asdFiles;
        QList<QPair<QString, bool>> systems; // name, holds tests
        for (const AsdFile &asd : ProjectSystems::scan(root)) {
            asdFiles.append(QJsonObject{{QStringLiteral("file"), asd.relative}, {QStringLiteral("systems"), QJsonArray::fromStringList(asd.systems)}});
            lines << (asd.error.isEmpty() ? QStringLiteral("%1: defines %2").arg(asd.relative, asd.systems.isEmpty() ? QStringLiteral("no system")
                                                                                                                  : QLatin1Char('"') + asd.systems.join(QStringLiteral("\", \"")) + QLatin1Char('"'))
                                          : QStringLiteral("%1: cannot be read: %2").arg(asd.relative, asd.error));
            for (const QString &system : asd.systems)
                systems.append({system, ProjectSystems::isTestSystem(asd, system)});
        }
        if (asdFiles.isEmpty()) {
            lines << QStringLiteral("No .asd file under the root: load its files with evaluate-lisp, e.g. (load \"file.lisp\").");
        } else {
            lines << QString();
            for (const auto &[system, holdsTests] : std::as_const(systems)) {
                if (system.contains(QLatin1Char('/')) && holdsTests)
                    lines << QStringLiteral("- \"%1\": a test system; run its tests with run-tests system \"%2\", or (asdf:test-system \"%2\").")
                                 .arg(system, system.section(QLatin1Char('/'), 0, 0));
                else if (system.contains(QLatin1Char('/')))
                    lines << QStringLiteral("- \"%1\": a secondary system of \"%2\"; load with the load-system tool (system \"%1\").")
                                 .arg(system, system.section(QLatin1Char('/'), 0, 0));
                else
                    lines << QStringLiteral("- \"%1\": load with the load-system tool (system \"%1\") or (asdf:load-system \"%1\"); test with run-tests system \"%1\".")
                                 .arg(system);
            }
        }
        QJsonObject structured{{QStringLiteral("root"), root.path()},
                               {QStringLiteral("read_only_roots"), QJsonArray::fromStringList(root.readOnlyRoots())},
                               {QStringLiteral("asd_files"), asdFiles}};
        addNative(native, lines, structured);
        addLibraries(libraries, lines, structured);
        call->finish(withPersonalSetup(ToolResult{lines.join(QLatin1Char('\n')), structured, false}, editors, initFile));
    });
}
