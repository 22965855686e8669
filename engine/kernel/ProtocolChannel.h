#pragma once

#include <QByteArray>
#include <mutex>
#include <string_view>

// The engine's end of the host protocol: newline-delimited JSON over two private file
// descriptors. fd 0/1/2 are taken away from this channel at start-up, so user code (or a
// program it runs) that writes to stdout cannot corrupt it.
class ProtocolChannel
{
public:
    // Moves the protocol onto private descriptors: requests come from the old stdin, replies go
    // to the old stdout; afterwards stdin reads /dev/null and stdout goes where stderr goes.
    // Every other inherited descriptor becomes close-on-exec.
    static bool takeOverStandardDescriptors();

    enum class Read { Line, End, Yielded };

    // Blocks until a whole line arrives (Line), the input ends (End: the host went away), or,
    // with a wake descriptor (an eventfd), until that becomes readable first (Yielded: it is
    // drained and nothing is read). One thread reads at a time (RequestRouter's rule).
    static Read readLine(QByteArray &line, int wakeFd = -1);

    // Whether bytes already read wait in the buffer (only for the thread that reads).
    static bool hasBufferedInput() { return !s_pending.isEmpty(); }

    // Writes one line (the newline is added) atomically with respect to other writers.
    static void writeLine(std::string_view json);

private:
    static int s_in;
    static int s_out;
    static std::mutex s_writeMutex;
    static QByteArray s_pending;
    static qsizetype s_scanned; // s_pending's first bytes already searched for a newline
    static constexpr qsizetype readChunk = 65536;
};
