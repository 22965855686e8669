#pragma once

#include <QString>
#include <QStringList>

class QLocalSocket;

// Finds the running Lisp Duet of this user (RuntimeDirectory's candidates, in order) and, when
// asked to, starts one headless when none runs. Two bridges launching at once start one app:
// the launch happens under a lock in the fallback directory, and the second bridge finds the
// first one's app when it gets the lock.
class AppLocator
{
public:
    explicit AppLocator(const QString &socketName) : m_name(socketName) {}

    // Connects `socket` to a running app; false when none answers.
    bool join(QLocalSocket &socket);
    // Joins a running app, or starts `program --headless --socket NAME` and joins it.
    bool joinOrLaunch(QLocalSocket &socket, const QString &program);

    QString path() const { return m_path; }     // the socket joined
    qint64 appPid() const { return m_pid; }      // the process on its other end
    bool launched() const { return m_launched; } // started by this bridge
    QString error() const { return m_error; }
    QString searched() const;                    // the paths tried, for messages

private:
    bool tryPaths(QLocalSocket &socket);

    QString m_name;
    QString m_path;
    qint64 m_pid = 0;
    bool m_launched = false;
    QString m_error;
    QStringList m_tried;
};
