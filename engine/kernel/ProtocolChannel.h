#pragma once

#include <QByteArray>
#include <mutex>

// The engine's end of the host protocol: newline-delimited JSON over two private file
// descriptors. fd 0/1/2 are taken away from this channel at start-up, so user code (or a
// program it runs) that writes to stdout cannot corrupt it.
class ProtocolChannel
{
public:
    // Moves the protocol onto private descriptors: requests come from the old stdin, replies go
    // to the old stdout; afterwards stdin reads /dev/null and stdout goes where stderr goes.
    static bool takeOverStandardDescriptors();

    // Blocks until a whole line arrives; false at end of input (the host went away).
    static bool readLine(QByteArray &line);

    // Writes one line atomically with respect to other writers.
    static void writeLine(const QByteArray &json);

private:
    static int s_in;
    static int s_out;
    static std::mutex s_writeMutex;
    static QByteArray s_pending;
};
