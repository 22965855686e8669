#pragma once

#include <QString>

// The person's Swank port, held by the host for as long as Lisp Duet runs (issue 41): a
// listening socket on 127.0.0.1 that every engine inherits and accepts on (EngineClient passes
// it at each start; editor-listen's "fd"). The port never closes while engines come and go, so
// no other local program can take it in the gap of a restart and be sent the secret by an
// editor that reconnects; a client that connects in the gap waits in the backlog for the next
// engine. The descriptor is close-on-exec here: only the engine gets it.
class SwankListener
{
public:
    SwankListener() = default;
    ~SwankListener();
    SwankListener(const SwankListener &) = delete;
    SwankListener &operator=(const SwankListener &) = delete;

    // Listens on 127.0.0.1:`port` (0: any free one); false with the reason (takenMessage when
    // another program holds it).
    bool open(int port, QString *problem);
    void close();
    bool isOpen() const { return m_fd >= 0; }
    int descriptor() const { return m_fd; }
    int port() const { return m_port; }

    // What the person must know when another program holds `port`: which one, when it is this
    // user's, and that an editor connecting there would send it ~/.slime-secret.
    static QString takenMessage(int port);

private:
    int m_fd = -1;
    int m_port = 0;
};
