#include "LineBuffer.h"

#include <utility>

LineBuffer::Lines LineBuffer::append(const QByteArray &bytes)
{
    Lines lines;
    qsizetype start = 0;
    for (;;) {
        const qsizetype newline = bytes.indexOf('\n', start);
        if (newline < 0)
            break;
        if (m_dropping) {
            m_dropping = false;
        } else if (m_partial.size() + (newline - start) > m_max) {
            ++lines.oversized;
            m_partial.clear();
        } else if (m_partial.isEmpty()) {
            lines.complete.append(QByteArray(bytes.constData() + start, newline - start));
        } else {
            m_partial.append(bytes.constData() + start, newline - start);
            lines.complete.append(std::exchange(m_partial, {}));
        }
        start = newline + 1;
    }
    if (!m_dropping && start < bytes.size()) {
        if (m_partial.size() + (bytes.size() - start) > m_max) {
            // Counted now, while it still arrives: the owner can answer before the line ends.
            ++lines.oversized;
            m_partial.clear();
            m_partial.squeeze();
            m_dropping = true;
        } else {
            m_partial.append(bytes.constData() + start, bytes.size() - start);
        }
    }
    return lines;
}

QByteArray LineBuffer::takeRest()
{
    m_dropping = false;
    return std::exchange(m_partial, {});
}
