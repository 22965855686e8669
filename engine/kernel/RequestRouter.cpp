#include "RequestRouter.h"

#include "Protocol.h"
#include "ProtocolChannel.h"
#include "StageClock.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cfenv>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include <sys/eventfd.h>
#include <unistd.h>

namespace RequestRouter {
namespace {

QHash<QByteArray, Queue> s_routes; // written before start(), only read after

// The queue of the service or the supervisor thread.
class RequestQueue
{
public:
    void push(Request request)
    {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_requests.push_back(std::move(request));
        }
        m_arrived.notify_one();
    }

    Request take()
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        // Taking the next request means the taker finished the one before.
        m_busy = false;
        m_idle.notify_all();
        m_arrived.wait(lock, [this] { return !m_requests.empty(); });
        Request request = std::move(m_requests.front());
        m_requests.pop_front();
        m_busy = true;
        return request;
    }

    // Blocks until every request pushed so far has been taken and finished.
    void waitUntilIdle()
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_idle.wait(lock, [this] { return m_requests.empty() && !m_busy; });
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_arrived;
    std::condition_variable m_idle;
    std::deque<Request> m_requests;
    bool m_busy = false;
};

// The pipe and the worker's queue. Whoever owns the pipe reads it: the idle worker itself
// (so that a request for it needs no hand-off between threads: it is already awake, on the
// right thread), or, while the worker runs a job, the reader thread (so that interrupts,
// pings and service questions are read meanwhile). A request the reader thread reads for the
// worker waits in the queue. When the worker goes idle while the reader thread waits for
// input, it asks the reader (through an eventfd) to give the pipe back.
//
// Waking a sleeping thread costs several microseconds here (a futex wake, an inter-processor
// interrupt on a VM), so the worker does not wake the reader thread when it starts a job:
// the reader looks every few milliseconds while the worker was idle recently, and sleeps
// until woken only after a long idle spell. A request for the supervisor that the idle
// worker reads (ping, limits, interrupt: quick, no user code) runs on the worker itself.
class Pipe
{
public:
    // The worker's next request. Returns with the worker marked busy.
    Request takeForWorker();
    // The reader thread's loop; returns at end of input.
    void readWhileWorkerBusy();
    // A request the engine made for the worker (RequestRouter::postForWorker).
    void post(Request request);
    std::atomic<bool> postsExpected{false};

private:
    enum class Owner { Nobody, Worker, Reader };

    enum class Outcome { ForWorker, Routed, Yielded, End };
    // Reads and routes one line; ForWorker with the request if it is the worker's.
    Outcome readOne(Request &forWorker, int wakeFd, bool byWorker);
    void closed();
    void becomeBusy();
    int yieldFd();
    int postFd();

    std::mutex m_mutex;
    std::condition_variable m_workerWakes; // a request queued, or the pipe free to read
    std::condition_variable m_readerWakes; // the worker busy, or the pipe free
    std::deque<Request> m_workerRequests;
    Owner m_owner = Owner::Nobody;
    bool m_started = false; // start(): the routes are known, "ready" is sent
    bool m_workerIdle = false;
    bool m_readerAsleep = false; // waiting without a timeout: the worker must wake it
    std::chrono::steady_clock::time_point m_idleSince;
    bool m_yieldAsked = false;
    bool m_closed = false;
};

RequestQueue &queueFor(Queue queue)
{
    // Never destroyed: at exit the Lisp threads still wait on them, and destroying a
    // condition variable that has waiters blocks for ever.
    static RequestQueue *const queues = new RequestQueue[2];
    return queues[queue == Queue::Service ? 0 : 1];
}

Pipe &pipe()
{
    static Pipe *const instance = new Pipe; // never destroyed, as above
    return *instance;
}

QJsonObject parse(const QByteArray &line)
{
    // The worker is a Lisp thread, where cl_boot's floating-point traps are on: parsing a
    // number must not raise SIGFPE.
    fenv_t traps;
    feholdexcept(&traps);
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(line, &error);
    fesetenv(&traps);
    if (error.error == QJsonParseError::NoError && document.isObject())
        return document.object();
    return QJsonObject{{QLatin1String(Protocol::op), QLatin1String(Protocol::invalidOp)},
                       {QLatin1String(Protocol::invalidReason), error.errorString()}};
}

int Pipe::yieldFd()
{
    static const int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    return fd;
}

int Pipe::postFd()
{
    static const int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    return fd;
}

void Pipe::post(Request request)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_workerRequests.push_back(std::move(request));
    m_workerWakes.notify_one();
    if (m_owner == Owner::Worker) { // blocked on the pipe: wake it if it listens
        const uint64_t one = 1;
        [[maybe_unused]] const ssize_t n = ::write(postFd(), &one, sizeof one);
    }
}

Pipe::Outcome Pipe::readOne(Request &forWorker, int wakeFd, bool byWorker)
{
    QByteArray line;
    switch (ProtocolChannel::readLine(line, wakeFd)) {
    case ProtocolChannel::Read::Yielded:
        return Outcome::Yielded;
    case ProtocolChannel::Read::End:
        closed();
        return Outcome::End;
    case ProtocolChannel::Read::Line:
        break;
    }
    const bool timed = StageClock::enabled();
    Request request;
    request.lineRead = timed ? StageClock::now() : 0;
    request.object = parse(line);
    const QByteArray op = request.object->value(QLatin1String(Protocol::op)).toString().toUtf8();
    const Queue queue = s_routes.value(op, Queue::Supervisor);
    request.routed = timed ? StageClock::now() : 0;
    if (queue == Queue::Worker || (byWorker && queue == Queue::Supervisor)) {
        forWorker = std::move(request);
        return Outcome::ForWorker;
    }
    queueFor(queue).push(std::move(request));
    if (queue == Queue::Supervisor) // a quick setting applies before the next line is read
        queueFor(queue).waitUntilIdle();
    return Outcome::Routed;
}

void Pipe::closed()
{
    queueFor(Queue::Supervisor).push(Request{});
    std::lock_guard<std::mutex> lock(m_mutex);
    m_closed = true;
    m_readerWakes.notify_all();
}

Request Pipe::takeForWorker()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    m_workerIdle = true;
    m_idleSince = std::chrono::steady_clock::now();
    for (;;) {
        if (!m_workerRequests.empty()) {
            Request request = std::move(m_workerRequests.front());
            m_workerRequests.pop_front();
            becomeBusy();
            return request;
        }
        if (m_owner == Owner::Reader && !m_yieldAsked && !m_closed) {
            m_yieldAsked = true;
            const uint64_t one = 1;
            [[maybe_unused]] const ssize_t n = ::write(yieldFd(), &one, sizeof one);
        }
        if (m_owner != Owner::Nobody || m_closed || !m_started) {
            m_workerWakes.wait(lock);
            continue;
        }
        m_owner = Owner::Worker;
        lock.unlock();
        Request request;
        // Listening for posts costs a poll(2) per line: only while the kernel expects some.
        const Outcome outcome = readOne(request, postsExpected.load(std::memory_order_relaxed) ? postFd() : -1, true);
        const bool moreRead = ProtocolChannel::hasBufferedInput(); // still the pipe's owner
        lock.lock();
        m_owner = Owner::Nobody;
        if (outcome == Outcome::ForWorker) {
            becomeBusy();
            if (moreRead) // a pipelined request (an interrupt for this job?) is waiting: now
                m_readerWakes.notify_one();
            return request;
        }
    }
}

void Pipe::becomeBusy()
{
    // With m_mutex held. The reader thread takes the pipe while this job runs: at its next
    // look, or now if it sleeps without a timeout.
    m_workerIdle = false;
    if (m_readerAsleep)
        m_readerWakes.notify_one();
}

void Pipe::readWhileWorkerBusy()
{
    using namespace std::chrono_literals;
    // Threads inherit the booting thread's floating-point traps; none are wanted here.
    fedisableexcept(FE_ALL_EXCEPT);
    std::unique_lock<std::mutex> lock(m_mutex);
    m_started = true;
    m_workerWakes.notify_one();
    for (;;) {
        if (m_closed)
            return;
        if (m_owner != Owner::Nobody || m_workerIdle) {
            // How often it looks bounds how late a ping or an interrupt is read during a job.
            if (m_workerIdle && std::chrono::steady_clock::now() - m_idleSince > 1s) {
                m_readerAsleep = true;
                m_readerWakes.wait(lock);
                m_readerAsleep = false;
            } else {
                m_readerWakes.wait_for(lock, 2ms);
            }
            continue;
        }
        m_owner = Owner::Reader;
        m_yieldAsked = false;
        uint64_t stale = 0; // a request to yield from an earlier idle spell
        [[maybe_unused]] const ssize_t drained = ::read(yieldFd(), &stale, sizeof stale);
        lock.unlock();
        Request request;
        const Outcome outcome = readOne(request, yieldFd(), false);
        lock.lock();
        m_owner = Owner::Nobody;
        if (outcome == Outcome::ForWorker)
            m_workerRequests.push_back(std::move(request));
        m_workerWakes.notify_one(); // a request, or the pipe is free for an idle worker
    }
}

} // namespace

void route(const QByteArray &op, Queue queue)
{
    s_routes.insert(op, queue);
}

void start()
{
    static std::once_flag started;
    std::call_once(started, [] { std::thread([] { pipe().readWhileWorkerBusy(); }).detach(); });
}

void postForWorker(QJsonObject object)
{
    Request request;
    request.object = std::move(object);
    pipe().post(std::move(request));
}

void expectPostsForWorker(bool expected)
{
    pipe().postsExpected.store(expected, std::memory_order_relaxed);
}

Request next(Queue queue)
{
    if (queue == Queue::Worker)
        return pipe().takeForWorker();
    return queueFor(queue).take();
}

} // namespace RequestRouter
