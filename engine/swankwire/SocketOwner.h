#pragma once

#include <QString>

#include <optional>

// Which local process holds one end of a TCP socket on 127.0.0.1, read from /proc (issue 41):
// the editor that connected to the Swank port ("emacs", for the window's list), or the program
// that holds the port the person asked for (said plainly: an editor connecting there would
// send it the secret). Only this user's processes can be seen; another user's answer nothing.
namespace SocketOwner {

struct Process
{
    qint64 pid = 0;
    QString command; // /proc/PID/comm: "emacs", at most 15 characters
};

// The process at the other end of one of our connections: its own port `localPort`, ours
// `remotePort`.
std::optional<Process> connectedTo(int localPort, int remotePort);
// The process listening on 127.0.0.1:`port` (or any address), other than this one.
std::optional<Process> listeningOn(int port);

} // namespace SocketOwner
