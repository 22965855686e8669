// Issue 38's panel figures: the window's own Agent panel (ui/agent) joined to the app's AgentHost
// (app/core/AgentSetup, as lisp-duet makes them), offscreen, against the scripted mock agent
// (tests/acp/mock-agent.mjs --stream N). Three measures, each printed with the load average:
//
//  (a) the first streamed chunk of a turn: from the mock handing the line to its stdout (its
//      log's `at`, the same CLOCK_REALTIME), to the app's event loop woken by the pipe (the
//      SockAct of the agent's stdout notifier whose call reads the line), to the Conversation having its text, to the ChatDocument having drawn it
//      (its `updated` after that), to the start of the chat view's next paint event;
//  (b) typing at the REPL: key presses posted from another thread every --key-interval ms into
//      the real console input (ConsoleWidget), as the window system would deliver them; a key's
//      latency is from its posting to the start of the input's first paint after the key was
//      handled. Rounds A (no agent output) and B (one turn streaming --chunks chunks, one every
//      --chunk-delay ms) alternate A B A B, each --type-seconds long;
//  (c) the panel's memory over --turns turns of --turn-chunks chunks each: RSS (after
//      malloc_trim), the application's widgets, the panel's QObjects, the chat document's blocks
//      and characters, the conversation's entries.
//
//   QT_QPA_PLATFORM=offscreen build/bin/bench_agent_panel [--first 20] [--chunks 2000]
//       [--chunk-delay 5] [--key-interval 25] [--type-seconds 10] [--turns 200] [--turn-chunks 20]
//       [--skip a,b,c] [--trace]

#include "../agenthost/HostedWindow.h"
#include "../common/ResidentMemory.h"

#include "acp/AgentProcess.h"
#include "acp/AgentSession.h"
#include "agent/AgentChatView.h"
#include "agent/AgentPanel.h"
#include "agent/AgentPromptEdit.h"
#include "agent/ChatDocument.h"
#include "console/ConsoleWidget.h"
#include "console/LispConsole.h"
#include "window/AgentDock.h"
#include "window/MainWindow.h"

#include <QApplication>
#include <QInputDevice>
#include <QKeyEvent>
#include <QSocketNotifier>
#include <QTextDocument>

#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <thread>
#include <vector>

namespace {
double nowMs()
{
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

QString loadAverage()
{
    QFile file(QStringLiteral("/proc/loadavg"));
    return file.open(QIODevice::ReadOnly) ? QString::fromLatin1(file.readAll()).section(QLatin1Char(' '), 0, 2) : QStringLiteral("?");
}

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[std::min(values.size() - 1, size_t(p * double(values.size())))];
}

// Calls `seen` when an event of that type reaches `object`, before it is handled (the event
// filter runs first). On a widget's Paint: the moment the frame that shows a change starts.
class EventWatch : public QObject
{
public:
    EventWatch(QObject *object, QEvent::Type type, std::function<void()> seen) : m_type(type), m_seen(std::move(seen))
    {
        object->installEventFilter(this);
    }
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == m_type)
            m_seen();
        return false;
    }

private:
    QEvent::Type m_type;
    std::function<void()> m_seen;
};

// The person's keys: handled (KeyPress reached the input) and then shown (its viewport painted).
class KeyWatch : public QObject
{
public:
    explicit KeyWatch(ConsoleWidget *input) : m_input(input)
    {
        input->installEventFilter(this);
        m_paint = std::make_unique<EventWatch>(input->viewport(), QEvent::Paint, [this] {
            const double at = nowMs();
            for (int key : std::exchange(m_handled, {}))
                latencies.push_back(at - posted[size_t(key)]);
        });
    }
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::KeyPress)
            m_handled.push_back(m_next++);
        return false;
    }
    void reset(size_t keys)
    {
        posted.assign(keys, 0);
        latencies.clear();
        m_handled.clear();
        m_next = 0;
    }

    std::vector<double> posted; // written by the typist before it posts the key
    std::vector<double> latencies;

private:
    ConsoleWidget *m_input;
    std::unique_ptr<EventWatch> m_paint;
    std::vector<int> m_handled;
    int m_next = 0;
};

struct Options
{
    int first = 20;
    int chunks = 2000;
    int chunkDelay = 5;
    int keyInterval = 25;
    int typeSeconds = 10;
    int turns = 200;
    int turnChunks = 20;
    QStringList skip;
    bool trace = false;
};

// --trace: every event the GUI thread handles, with its time, while `on` (the first turns of
// (a), from the chunk's arrival to the paint): what the wait between them is made of.
class EventTrace : public QObject
{
public:
    EventTrace() { qApp->installEventFilter(this); }
    bool eventFilter(QObject *receiver, QEvent *event) override
    {
        if (on && lines.size() < 200)
            lines << QStringLiteral("    %1 ms  %2 -> %3 %4").arg(nowMs() - since, 0, 'f', 2).arg(int(event->type()))
                           .arg(QString::fromLatin1(receiver->metaObject()->className()), receiver->objectName());
        return false;
    }
    bool on = false;
    double since = 0;
    QStringList lines;
};

class PanelBench
{
public:
    explicit PanelBench(const Options &options) : m_options(options) {}

    bool start()
    {
        if (!m_app.start())
            return false;
        if (!openHostedWindow(m_app, m_window, m_setup, m_agents))
            return false;
        m_window->agentDock()->showPanel();
        QTest::qWait(300);
        return true;
    }
    void stop()
    {
        m_agents->host()->stop();
        (void)QTest::qWaitFor([this] { return m_agents->host()->state() != AgentHost::State::Ready; }, 10000);
        m_agents.reset();
        m_setup.reset();
        m_window.reset();
        m_app.endpoints.reset();
        m_app.services.reset();
    }

    void firstChunk();
    void typing();
    void memory();

private:
    AgentHost *host() const { return m_agents->host(); }
    AgentPanel *panel() const { return m_window->agentPanel(); }
    AgentChatView *chatView() const { return qobject_cast<AgentChatView *>(panel()->chat()->parent()); }
    bool open(const QStringList &flags, bool log)
    {
        if (host()->state() == AgentHost::State::Ready) {
            host()->stop();
            (void)QTest::qWaitFor([this] { return host()->state() != AgentHost::State::Ready; }, 10000);
        }
        AgentCommand command = m_mock.command(flags);
        if (!log)
            command.environment = {};
        host()->start(command);
        return settles(*host()) && host()->state() == AgentHost::State::Ready && panel()->session() == host()->session();
    }
    // Typed in the panel's prompt box and sent with Enter, as the person does.
    void prompt(const QString &text)
    {
        QTest::keyClicks(panel()->promptBox(), text);
        QTest::keyClick(panel()->promptBox(), Qt::Key_Return);
    }
    bool turnEnded(int ms)
    {
        return QTest::qWaitFor([this] { return host()->session() && !host()->session()->isPrompting(); }, ms);
    }
    void report(const char *what, const std::vector<double> &values)
    {
        std::printf("  %-44s median %7.2f ms  p90 %7.2f  p99 %7.2f  max %7.2f  (n=%zu)\n", what, percentile(values, 0.5),
                    percentile(values, 0.9), percentile(values, 0.99), values.empty() ? 0.0 : *std::max_element(values.begin(), values.end()),
                    values.size());
    }
    // Types at the REPL for --type-seconds; `during` runs once the typist has begun.
    std::vector<double> typeFor(const std::function<void()> &during);

    Options m_options;
    HostedApp m_app;
    MockAgent m_mock;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<WindowSetup> m_setup;
    std::unique_ptr<AgentSetup> m_agents;
};

void PanelBench::firstChunk()
{
    if (!open({QStringLiteral("--stream"), QStringLiteral("7")}, true)) {
        std::fprintf(stderr, "(a) the mock agent did not open a conversation\n");
        return;
    }
    std::vector<double> pipe, read, model, drawn, painted, total;
    for (int turn = 0; turn < m_options.first; ++turn) {
        double readAt = 0, modelAt = 0, drawnAt = 0, paintAt = 0;
        std::unique_ptr<EventTrace> trace;
        if (m_options.trace && turn < 3)
            trace = std::make_unique<EventTrace>();
        // The pipe's notifier wakes the event loop (its SockAct event), and the line is read and
        // handled in that same call: lineReceived reaches us after the client has handled it.
        double wokeAt = 0;
        std::vector<std::unique_ptr<EventWatch>> wakes;
        for (QSocketNotifier *notifier : host()->client()->process()->findChildren<QSocketNotifier *>())
            wakes.push_back(std::make_unique<EventWatch>(notifier, QEvent::SockAct, [&] { wokeAt = nowMs(); }));
        QMetaObject::Connection onLine = QObject::connect(host()->client()->process(), &AgentProcess::lineReceived, [&](const QByteArray &line) {
            if (readAt == 0 && line.contains("agent_message_chunk"))
                readAt = wokeAt;
        });
        QMetaObject::Connection onText = QObject::connect(host()->session()->conversation(), &Conversation::textAppended, [&] {
            if (modelAt == 0)
                modelAt = nowMs();
        });
        QMetaObject::Connection onDrawn = QObject::connect(panel()->chat(), &ChatDocument::updated, [&] {
            if (modelAt != 0 && drawnAt == 0)
                drawnAt = nowMs();
        });
        EventWatch paint(chatView()->viewport(), QEvent::Paint, [&] {
            if (drawnAt != 0 && paintAt == 0) {
                paintAt = nowMs();
                if (trace)
                    trace->on = false;
            }
        });
        QMetaObject::Connection onTrace = QObject::connect(host()->session()->conversation(), &Conversation::textAppended, [&] {
            if (trace && !trace->on && paintAt == 0) {
                trace->on = true;
                trace->since = wokeAt;
            }
        });
        const int sentBefore = m_mock.received(QStringLiteral("session/prompt")).size();
        prompt(QStringLiteral("square %1").arg(turn));
        const bool ended = turnEnded(30000) && QTest::qWaitFor([&] { return paintAt != 0; }, 5000);
        QObject::disconnect(onLine);
        QObject::disconnect(onText);
        QObject::disconnect(onDrawn);
        QObject::disconnect(onTrace);
        if (trace)
            std::printf("  turn %d, from the chunk's arrival to the paint (event type -> receiver):\n%s\n", turn + 1,
                        qPrintable(trace->lines.join(QLatin1Char('\n'))));        if (!ended) {
            std::fprintf(stderr, "(a) turn %d: no paint after the first chunk\n", turn + 1);
            continue;
        }
        // The mock's own time of writing the turn's first chunk: the first one it sent after
        // this turn's prompt arrived.
        double writtenAt = 0;
        int prompts = 0;
        for (const QJsonObject &entry : m_mock.log()) {
            const QJsonObject message = entry.value(QStringLiteral("message")).toObject();
            const QString dir = entry.value(QStringLiteral("dir")).toString();
            if (dir == QLatin1String("recv") && message.value(QStringLiteral("method")).toString() == QLatin1String("session/prompt"))
                ++prompts;
            else if (dir == QLatin1String("sent") && prompts == sentBefore + 1
                     && message.value(QStringLiteral("params")).toObject().value(QStringLiteral("update")).toObject()
                                .value(QStringLiteral("sessionUpdate")).toString() == QLatin1String("agent_message_chunk")) {
                writtenAt = entry.value(QStringLiteral("at")).toDouble();
                break;
            }
        }
        pipe.push_back(readAt - writtenAt);
        read.push_back(modelAt - readAt);
        model.push_back(drawnAt - modelAt);
        drawn.push_back(paintAt - drawnAt);
        painted.push_back(paintAt - readAt);
        total.push_back(paintAt - writtenAt);
    }
    const bool shown = panel()->chat()->document()->toPlainText().contains(QStringLiteral("Try (square 12)"));
    std::printf("(a) the first streamed chunk of a turn, %d turns (chunk in the chat: %s) (load %s)\n", m_options.first,
                shown ? "yes" : "NO", qPrintable(loadAverage()));
    report("mock writes -> pipe wakes the app", pipe);
    report("pipe wakes the app -> Conversation has it", read);
    report("Conversation -> ChatDocument drew it", model);
    report("ChatDocument drew -> view's paint starts", drawn);
    report("ARRIVAL (pipe wakes the app) -> PAINT", painted);
    report("mock writes -> paint", total);
}

std::vector<double> PanelBench::typeFor(const std::function<void()> &during)
{
    ConsoleWidget *input = m_window->console()->input();
    input->clear();
    input->setFocus();
    KeyWatch watch(input);
    const int interval = m_options.keyInterval;
    const size_t keys = size_t(m_options.typeSeconds * 1000 / interval);
    watch.reset(keys);
    std::atomic<bool> done = false;
    (void)QInputDevice::primaryKeyboard(); // made here, in the GUI thread, not by the typist's first key
    std::thread typist([&] {
        const auto begin = std::chrono::steady_clock::now();
        for (size_t key = 0; key < keys; ++key) {
            std::this_thread::sleep_until(begin + std::chrono::milliseconds(interval * int(key)));
            const Qt::Key code = key % 6 == 5 ? Qt::Key_Space : Qt::Key(Qt::Key_1 + int(key % 6));
            const QString text = code == Qt::Key_Space ? QStringLiteral(" ") : QString::number(key % 6 + 1);
            watch.posted[key] = nowMs();
            QCoreApplication::postEvent(input, new QKeyEvent(QEvent::KeyPress, code, Qt::NoModifier, text));
            QCoreApplication::postEvent(input, new QKeyEvent(QEvent::KeyRelease, code, Qt::NoModifier, text));
        }
        done = true;
    });
    QTest::qWait(50);
    during();
    while (!done || watch.latencies.size() < keys) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (input->document()->characterCount() > 120)
            input->clear(); // the line does not grow without end
        if (done && nowMs() - watch.posted.back() > 10000)
            break;
    }
    typist.join();
    return watch.latencies;
}

void PanelBench::typing()
{
    const QStringList flags{QStringLiteral("--stream"), QString::number(m_options.chunks), QStringLiteral("--chunk-delay"),
                            QString::number(m_options.chunkDelay)};
    if (!open(flags, false)) {
        std::fprintf(stderr, "(b) the mock agent did not open a conversation\n");
        return;
    }
    std::printf("(b) typing at the REPL, a key every %d ms for %d s; B: one turn of %d chunks, one every %d ms\n",
                m_options.keyInterval, m_options.typeSeconds, m_options.chunks, m_options.chunkDelay);
    std::vector<double> all[2];
    for (int round = 0; round < 4; ++round) {
        const bool stream = round % 2 == 1;
        int chunks = 0;
        double began = 0, endedAt = 0;
        QMetaObject::Connection counter, ended;
        const std::vector<double> latencies = typeFor([&] {
            if (!stream)
                return;
            counter = QObject::connect(host()->session()->conversation(), &Conversation::textAppended, [&] { ++chunks; });
            ended = QObject::connect(host()->session(), &AgentSession::turnEnded, [&] { endedAt = nowMs(); });
            began = nowMs();
            prompt(QStringLiteral("stream"));
        });
        if (stream) {
            const int typedChunks = chunks;
            (void)turnEnded(120000);
            QObject::disconnect(counter);
            QObject::disconnect(ended);
            std::printf("  round %d B: %d of %d chunks arrived while typing (the turn took %.0f ms)\n", round + 1, typedChunks,
                        chunks, endedAt - began);
        }
        all[stream].insert(all[stream].end(), latencies.begin(), latencies.end());
        std::printf("  round %d %s: key -> shown median %.2f ms, p99 %.2f ms, max %.2f ms, n=%zu (load %s)\n", round + 1,
                    stream ? "B (streaming)" : "A (quiet)    ", percentile(latencies, 0.5), percentile(latencies, 0.99),
                    latencies.empty() ? 0.0 : *std::max_element(latencies.begin(), latencies.end()), latencies.size(),
                    qPrintable(loadAverage()));
    }
    report("A, no stream: key posted -> input paints", all[0]);
    report("B, streaming: key posted -> input paints", all[1]);
    std::printf("  p99 ratio B/A %.2f (load %s)\n", percentile(all[1], 0.99) / std::max(0.001, percentile(all[0], 0.99)),
                qPrintable(loadAverage()));
}

void PanelBench::memory()
{
    if (!open({QStringLiteral("--stream"), QString::number(m_options.turnChunks)}, false)) {
        std::fprintf(stderr, "(c) the mock agent did not open a conversation\n");
        return;
    }
    auto sample = [this](int turn) {
        QTest::qWait(200);
        malloc_trim(0);
        QTextDocument *document = panel()->chat()->document();
        std::printf("  after %3d turns: RSS %7.1f MiB, widgets %d, panel QObjects %lld, chat blocks %d, characters %d, "
                    "entries %d, turns hidden %d (load %s)\n",
                    turn, residentKiB() / 1024.0, int(QApplication::allWidgets().size()),
                    qint64(panel()->findChildren<QObject *>().size()), document->blockCount(), document->characterCount(),
                    host()->session()->conversation()->count(), panel()->chat()->hiddenTurns(), qPrintable(loadAverage()));
        return residentKiB() / 1024.0;
    };
    std::printf("(c) the panel's memory over %d turns of %d streamed chunks\n", m_options.turns, m_options.turnChunks);
    const double before = sample(0);
    double half = before;
    for (int turn = 1; turn <= m_options.turns; ++turn) {
        prompt(QStringLiteral("turn %1").arg(turn));
        if (!turnEnded(30000)) {
            std::fprintf(stderr, "(c) turn %d did not end\n", turn);
            return;
        }
        if (turn % 25 == 0) {
            const double rss = sample(turn);
            if (turn == m_options.turns / 2)
                half = rss;
            if (turn == m_options.turns)
                std::printf("  RSS delta: %.1f MiB over %d turns; the last %d turns %.1f KiB a turn\n", rss - before, turn,
                            turn - turn / 2, (rss - half) * 1024 / (turn - turn / 2));
        }
    }
}
} // namespace

int main(int argc, char **argv)
{
    isolateFolders();
    useBuiltEngine();
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("lisp-duet"));
    QCoreApplication::setApplicationName(QStringLiteral("lisp-duet-bench"));
    const QStringList args = app.arguments();
    auto number = [&](const char *flag, int fallback) {
        const int at = args.indexOf(QLatin1String(flag));
        return at >= 0 ? args.value(at + 1).toInt() : fallback;
    };
    Options options;
    options.first = number("--first", options.first);
    options.chunks = number("--chunks", options.chunks);
    options.chunkDelay = number("--chunk-delay", options.chunkDelay);
    options.keyInterval = std::max(1, number("--key-interval", options.keyInterval));
    options.typeSeconds = std::max(1, number("--type-seconds", options.typeSeconds));
    options.turns = number("--turns", options.turns);
    options.turnChunks = number("--turn-chunks", options.turnChunks);
    options.trace = args.contains(QStringLiteral("--trace"));
    if (args.contains(QStringLiteral("--skip")))
        options.skip = args.value(args.indexOf(QStringLiteral("--skip")) + 1).split(QLatin1Char(','));
    if (!MockAgent::unavailable().isEmpty()) {
        std::fprintf(stderr, "bench_agent_panel: %s\n", qPrintable(MockAgent::unavailable()));
        return 1;
    }
    PanelBench bench(options);
    if (!bench.start()) {
        std::fprintf(stderr, "bench_agent_panel: the app's services or the window did not start\n");
        return 1;
    }
    std::printf("bench_agent_panel: the window's Agent panel and AgentHost, offscreen, the mock agent (load %s)\n",
                qPrintable(loadAverage()));
    if (!options.skip.contains(QStringLiteral("a")))
        bench.firstChunk();
    if (!options.skip.contains(QStringLiteral("b")))
        bench.typing();
    if (!options.skip.contains(QStringLiteral("c")))
        bench.memory();
    bench.stop();
    return 0;
}
