#pragma once

#include <QByteArray>
#include <QList>

// Splits a byte stream into newline-ended lines, for every line protocol the project reads:
// MCP over stdio and over the local socket, the engine's pipe, the bridge. One oversize
// policy for all of them: a line longer than the cap is dropped whole (the bytes already
// buffered and the rest of it as it arrives, up to its newline), it is counted once, and the
// lines after it are read as usual. So memory stays bounded by the cap, and the reader stays
// in step with the writer's messages.
class LineBuffer
{
public:
    explicit LineBuffer(qsizetype maxLineBytes) : m_max(maxLineBytes) {}

    struct Lines
    {
        QList<QByteArray> complete; // without their '\n'
        int oversized = 0;          // lines dropped since the last append
    };
    Lines append(const QByteArray &bytes);
    Lines append(const char *bytes, qsizetype size) { return append(QByteArray::fromRawData(bytes, size)); }

    // At end of input: what is left of an unfinished line (empty when it was being dropped).
    QByteArray takeRest();
    qsizetype maxLineBytes() const { return m_max; }

private:
    QByteArray m_partial;
    bool m_dropping = false; // inside a line that was too long: skip to its newline
    qsizetype m_max;
};
