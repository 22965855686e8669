#pragma once

#include <QObject>

class QSocketNotifier;

// Turns SIGTERM and SIGINT into a Qt signal: the handler only writes a byte to a pipe (nothing
// else is safe there); the event loop reads it and emits stopRequested().
class HeadlessSignals : public QObject
{
    Q_OBJECT
public:
    explicit HeadlessSignals(QObject *parent = nullptr);
    ~HeadlessSignals() override;

Q_SIGNALS:
    void stopRequested();

private:
    QSocketNotifier *m_notifier = nullptr;
};
