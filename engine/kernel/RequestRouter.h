#pragma once

#include <QByteArray>
#include <QJsonObject>

#include <optional>

// Reads the host's requests on a C++ thread of its own and hands each one to the queue of
// the Lisp thread that serves its operation (as the kernel registered it with
// DEFINE-OPERATION). An idle Lisp thread waits for its next request here, on a condition
// variable, outside ECL's wait queues: ECL 21.2 wakes a thread waiting in a mailbox with a
// signal, which costs ~50 us per hand-off; this costs a futex wake.
//
// Requests for the supervisor are handed over one at a time, and the reader waits until
// the supervisor has finished one before it reads the next line, so a quick setting
// ("limits") applies to every request after it, as if one thread read them all.
namespace RequestRouter {

enum class Queue { Worker, Service, Supervisor };

// Called while the kernel loads, before start(): where requests with this op go. Ops
// nobody registered go to the supervisor, which answers that they are unknown.
void route(const QByteArray &op, Queue queue);

// Starts the reader thread (once).
void start();

struct Request
{
    std::optional<QJsonObject> object; // nullopt: the host closed its end
    int64_t lineRead = 0;               // StageClock times, when it is on
    int64_t routed = 0;
};

// Queues a request for the worker that the engine makes itself (the swap of native library
// code, lisp/library-swap.lisp), as if the host had sent it. While posts are expected, the
// idle worker reading the pipe is woken for it; otherwise it is taken after the next line.
void postForWorker(QJsonObject object);
void expectPostsForWorker(bool expected);

// Blocks until a request for `queue` arrives; an empty one once the host closed its end
// (only the supervisor is told). A line that is not a JSON object comes as
// {"op":"invalid","error":...} so the supervisor can say what was wrong.
Request next(Queue queue);

} // namespace RequestRouter
