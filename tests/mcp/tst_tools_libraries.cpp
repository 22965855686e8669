// Libraries at once (issue 39) as agents see it, through McpServer against the real engine and
// its real background compiler processes (small libraries of tests/data/libraries, an empty
// ASDF cache of this suite's own): load-system answers at once with the library running as
// bytecode, says it becomes native in the background and with how many files, in its text
// and structuredContent; with until_native the call waits for the native code, sending
// progress notifications (k of n files) to a client that asked for them, and says what came
// of it (a file gcc refuses keeps its bytecode, and why); project-info tells each library's
// state and the files that stay bytecode until the next engine start, and why; a client hears
// a library's end as a log message; and with background compiles off, the answers say so.

#include "ToolHarness.h"

#include "project/ProjectFiles.h"
#include "tools/ProjectTools.h"

#include <QRegularExpression>
#include <QTemporaryDir>

#include <csignal>

namespace {
const QString LibraryData = QStringLiteral(DUET_SOURCE_DIR "/tests/data/libraries");

QJsonObject libraryIn(const QJsonArray &libraries, const QString &system)
{
    for (const QJsonValue &v : libraries)
        if (v.toObject().value(QStringLiteral("system")).toString() == system)
            return v.toObject();
    return {};
}
} // namespace

class TestToolsLibraries : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_cache;
    std::unique_ptr<ToolHarness> m_h;
    std::unique_ptr<ProjectFiles> m_files;

    static QString text(const QJsonObject &result) { return ToolHarness::text(result); }
    QStringList notifications(const QString &method, const QString &token = {}) const
    {
        QStringList found;
        for (const QJsonObject &m : std::as_const(m_h->m_messages)) {
            const QJsonObject params = m.value(QStringLiteral("params")).toObject();
            if (m.value(QStringLiteral("method")).toString() != method)
                continue;
            if (!token.isEmpty() && params.value(QStringLiteral("progressToken")).toString() != token)
                continue;
            found << (params.contains(QStringLiteral("message")) ? params.value(QStringLiteral("message")).toString()
                                                                 : params.value(QStringLiteral("data")).toString());
        }
        return found;
    }
    // The engine's word on a library, as the host keeps it.
    QString stateOf(const QString &system) const
    {
        const LibraryCompilation::Library *library = m_h->m_rooms.libraries.find(system);
        return library ? library->stateName() : QString();
    }
    std::unique_ptr<ToolHarness> harness(bool native)
    {
        qputenv("XDG_CACHE_HOME", m_cache.path().toUtf8());
        qputenv("LISP_DUET_SYSTEM_PATHS", LibraryData.toUtf8());
        qputenv("LISP_DUET_LIBRARY_NATIVE", native ? "1" : "0");
        auto h = std::make_unique<ToolHarness>();
        [&] { QVERIFY(h->waitUntilReady()); }();
        return h;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid());
        m_h = harness(true);
        m_files = std::make_unique<ProjectFiles>();
        m_h->m_tools.add(projectInfoTool(m_files.get(), m_h->setup()));
        QVERIFY(QTest::qWaitFor([this] { return m_h->m_rooms.libraries.isKnown(); }, 30000));
        QVERIFY2(m_h->m_rooms.libraries.isAvailable(), qPrintable(m_h->m_rooms.libraries.reason()));
    }
    void cleanupTestCase()
    {
        m_h.reset();
        qunsetenv("XDG_CACHE_HOME");
        qunsetenv("LISP_DUET_SYSTEM_PATHS");
        qunsetenv("LISP_DUET_LIBRARY_NATIVE");
    }

    void aFirstLoadAnswersAtOnceAsBytecodeWithTheCountsAndProjectInfoFollowsItToNative()
    {
        const QJsonObject loaded = m_h->call(QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("duet-swaplib")}}, 120000);
        QVERIFY2(!ToolHarness::isError(loaded), qPrintable(text(loaded)));
        const QString said = text(loaded);
        QVERIFY2(said.contains(QStringLiteral("Libraries:\n- duet-swaplib runs as bytecode for now (4 files): ")), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("Bytecode works now, only slower; it becomes native in the background without a restart")),
                 qPrintable(said));
        const QJsonObject entry = libraryIn(ToolHarness::structured(loaded).value(QStringLiteral("libraries")).toArray(), QStringLiteral("duet-swaplib"));
        QVERIFY2(QStringList({QStringLiteral("queued"), QStringLiteral("compiling")}).contains(entry.value(QStringLiteral("state")).toString()),
                 qPrintable(entry.value(QStringLiteral("state")).toString()));
        QCOMPARE(entry.value(QStringLiteral("bytecode_files")).toInt(), 4);
        QCOMPARE(entry.value(QStringLiteral("native_files")).toInt(), 0);
        QVERIFY(entry.value(QStringLiteral("sentence")).toString().startsWith(QStringLiteral("duet-swaplib runs as bytecode for now (4 files)")));

        // project-info while it compiles (or once it is done, on a fast machine), then done.
        const QString during = text(m_h->call(QStringLiteral("project-info")));
        QVERIFY2(during.contains(QStringLiteral("Libraries: a first load runs as bytecode at once and is compiled natively in the background")),
                 qPrintable(during));
        QVERIFY2(during.contains(QStringLiteral("- duet-swaplib ")), qPrintable(during));
        QVERIFY(QTest::qWaitFor([this] { return stateOf(QStringLiteral("duet-swaplib")) == QStringLiteral("partial"); }, 240000));
        const QJsonObject info = m_h->call(QStringLiteral("project-info"));
        const QString after = text(info);
        QVERIFY2(after.contains(QStringLiteral("- duet-swaplib runs partly native: 3 of 4 files run natively; 1 stays bytecode until the next engine start")),
                 qPrintable(after));
        static const QRegularExpression deferred(QStringLiteral("\n  - counter\\.lisp: Its top-level form \\(LET \\.\\.\\.\\) at line 5 would run again: "
                                                                "native from the next engine start\\."));
        QVERIFY2(deferred.match(after).hasMatch(), qPrintable(after));
        const QJsonObject libraries = ToolHarness::structured(info).value(QStringLiteral("libraries")).toObject();
        QCOMPARE(libraries.value(QStringLiteral("available")).toBool(), true);
        const QJsonObject swaplib = libraryIn(libraries.value(QStringLiteral("systems")).toArray(), QStringLiteral("duet-swaplib"));
        QCOMPARE(swaplib.value(QStringLiteral("state")).toString(), QStringLiteral("partial"));
        QCOMPARE(swaplib.value(QStringLiteral("native_files")).toInt(), 3);
        QCOMPARE(swaplib.value(QStringLiteral("deferred")).toArray().size(), 1);
        // The client heard the end as a log message (notifications/message, logger "libraries").
        QVERIFY(QTest::qWaitFor([this] { return !notifications(QStringLiteral("notifications/message")).filter(QStringLiteral("duet-swaplib runs partly native")).isEmpty(); }, 5000));

        // Loaded again: nothing to compile, the same state, said at once.
        const QString again = text(m_h->call(QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("duet-swaplib")}}));
        QVERIFY2(again.contains(QStringLiteral("- duet-swaplib runs partly native: 3 of 4 files run natively")), qPrintable(again));
        QVERIFY2(!again.contains(QStringLiteral("Bytecode works now")), qPrintable(again));
    }

    void untilNativeWaitsWithProgressAndSaysWhatStaysBytecodeAndWhy()
    {
        m_h->m_messages.clear();
        const QJsonObject response = m_h->request(QStringLiteral("tools/call"),
                                                  {{QStringLiteral("name"), QStringLiteral("load-system")},
                                                   {QStringLiteral("arguments"), QJsonObject{{QStringLiteral("system"), QStringLiteral("duet-badlib")},
                                                                                             {QStringLiteral("until_native"), true}}},
                                                   {QStringLiteral("_meta"), QJsonObject{{QStringLiteral("progressToken"), QStringLiteral("native-1")}}}},
                                                  240000);
        const QJsonObject result = response.value(QStringLiteral("result")).toObject();
        QVERIFY2(!ToolHarness::isError(result), qPrintable(text(result)));
        // It answered once the background compile was over: bad.lisp stays bytecode, and why.
        QCOMPARE(stateOf(QStringLiteral("duet-badlib")), QStringLiteral("bytecode"));
        const QString said = text(result);
        QVERIFY2(said.contains(QStringLiteral("- duet-badlib runs as bytecode (3 files): bad.lisp does not compile natively")), qPrintable(said));
        QVERIFY2(!said.contains(QStringLiteral("Still compiling")), qPrintable(said));
        const QJsonObject entry = libraryIn(ToolHarness::structured(result).value(QStringLiteral("libraries")).toArray(), QStringLiteral("duet-badlib"));
        QCOMPARE(entry.value(QStringLiteral("state")).toString(), QStringLiteral("bytecode"));
        // Meanwhile the client heard how far the compile was.
        const QStringList progress = notifications(QStringLiteral("notifications/progress"), QStringLiteral("native-1"));
        static const QRegularExpression compiling(QStringLiteral("^Compiling natively in the background: duet-badlib (queued|starting|[0-3] of 3 files)$"));
        QVERIFY2(!progress.filter(compiling).isEmpty(), qPrintable(progress.join(QStringLiteral(" | "))));
        QVERIFY(!notifications(QStringLiteral("notifications/message")).filter(QStringLiteral("bad.lisp does not compile natively")).isEmpty());
    }

    void untilNativeAnswersWhenWaitSecondsRunOut()
    {
        // A library never compiled here (an empty cache of its own), whose compiler process is
        // stopped (SIGSTOP) while the call waits 8 s for it.
        QTemporaryDir cache;
        qputenv("XDG_CACHE_HOME", cache.path().toUtf8());
        auto h = std::make_unique<ToolHarness>();
        QVERIFY(h->waitUntilReady());
        h->send({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), 900}, {QStringLiteral("method"), QStringLiteral("tools/call")},
                 {QStringLiteral("params"), QJsonObject{{QStringLiteral("name"), QStringLiteral("load-system")},
                                                        {QStringLiteral("arguments"), QJsonObject{{QStringLiteral("system"), QStringLiteral("duet-swaplib")},
                                                                                                  {QStringLiteral("until_native"), true},
                                                                                                  {QStringLiteral("wait_seconds"), 8}}}}}});
        qint64 pid = 0;
        QVERIFY(QTest::qWaitFor([&] {
            const LibraryCompilation::Library *library = h->m_rooms.libraries.find(QStringLiteral("duet-swaplib"));
            pid = library && library->state == LibraryCompilation::State::Compiling ? library->pid : 0;
            return pid > 0;
        }, 60000));
        QVERIFY(::kill(pid_t(pid), SIGSTOP) == 0);
        QJsonObject result;
        QVERIFY(QTest::qWaitFor([&] {
            for (const QJsonObject &m : std::as_const(h->m_messages))
                if (m.value(QStringLiteral("id")).toInt() == 900)
                    result = m.value(QStringLiteral("result")).toObject();
            return !result.isEmpty();
        }, 60000));
        ::kill(pid_t(pid), SIGKILL);
        QVERIFY2(!ToolHarness::isError(result), qPrintable(text(result)));
        QCOMPARE(ToolHarness::structured(result).value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
        QVERIFY2(text(result).contains(QStringLiteral("- duet-swaplib runs as bytecode for now (4 files): compiling natively in the background")),
                 qPrintable(text(result)));
        QVERIFY2(text(result).endsWith(QStringLiteral("Still compiling when wait_seconds ran out; the libraries keep working as bytecode meanwhile.")),
                 qPrintable(text(result)));
        qputenv("XDG_CACHE_HOME", m_cache.path().toUtf8());
    }

    void withBackgroundCompilesOffTheAnswersSayItStaysBytecodeAndWhy()
    {
        QTemporaryDir cache;
        qputenv("XDG_CACHE_HOME", cache.path().toUtf8());
        qputenv("LISP_DUET_LIBRARY_NATIVE", "0");
        auto h = std::make_unique<ToolHarness>();
        QVERIFY(h->waitUntilReady());
        ProjectFiles files;
        h->m_tools.add(projectInfoTool(&files, h->setup()));
        const QString said = text(h->call(QStringLiteral("load-system"), {{QStringLiteral("system"), QStringLiteral("duet-swaplib")}}, 120000));
        QVERIFY2(said.contains(QStringLiteral("- duet-swaplib runs as bytecode (4 files): Compiling libraries in the background is off "
                                              "(LISP_DUET_LIBRARY_NATIVE=0)")),
                 qPrintable(said));
        QVERIFY2(!said.contains(QStringLiteral("becomes native")), qPrintable(said));
        const QString info = text(h->call(QStringLiteral("project-info")));
        QVERIFY2(info.contains(QStringLiteral("Libraries: a first load runs as bytecode and stays bytecode in this engine: Compiling libraries "
                                              "in the background is off")),
                 qPrintable(info));
        qputenv("XDG_CACHE_HOME", m_cache.path().toUtf8());
        qputenv("LISP_DUET_LIBRARY_NATIVE", "1");
    }
};

QTEST_GUILESS_MAIN(TestToolsLibraries)
#include "tst_tools_libraries.moc"
