#include "SwankListener.h"

#include "SocketOwner.h"

#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

SwankListener::~SwankListener()
{
    close();
}

bool SwankListener::open(int port, QString *problem)
{
    close();
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *problem = QStringLiteral("Swank for your editor: no socket could be made: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(quint16(port));
    // No SO_REUSEADDR, no SO_REUSEPORT: nobody may share this port.
    if (::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
        const int error = errno;
        ::close(fd);
        *problem = error == EADDRINUSE ? takenMessage(port)
                                       : QStringLiteral("Swank for your editor cannot listen on 127.0.0.1:%1: %2")
                                             .arg(port).arg(QString::fromLocal8Bit(std::strerror(error)));
        return false;
    }
    socklen_t length = sizeof address;
    if (::listen(fd, 16) != 0 || ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) != 0) {
        *problem = QStringLiteral("Swank for your editor cannot listen on 127.0.0.1:%1: %2")
                       .arg(port).arg(QString::fromLocal8Bit(std::strerror(errno)));
        ::close(fd);
        return false;
    }
    m_fd = fd;
    m_port = ntohs(address.sin_port);
    return true;
}

void SwankListener::close()
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
    m_port = 0;
}

QString SwankListener::takenMessage(int port)
{
    const std::optional<SocketOwner::Process> holder = SocketOwner::listeningOn(port);
    const QString who = holder ? QStringLiteral("(%1, process %2)").arg(holder->command).arg(holder->pid)
                               : QStringLiteral("(a process of another user, or one Lisp Duet cannot see)");
    return QStringLiteral("Another program already listens on 127.0.0.1:%1 %2, so Swank for your editor is not there: "
                          "do not connect an editor to that port, it would send that program your ~/.slime-secret. "
                          "Choose another port, or stop that program and restart Lisp Duet.")
        .arg(port)
        .arg(who);
}
