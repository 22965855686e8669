#include "ServerSentEvents.h"

HttpResponse eventStreamHead()
{
    HttpResponse head;
    head.setHeader("Content-Type", "text/event-stream");
    head.setHeader("Cache-Control", "no-cache, no-transform");
    head.setHeader("X-Accel-Buffering", "no");
    return head;
}

namespace {

QByteArray sseFieldValue(const QByteArray &s)
{
    QByteArray out;
    out.reserve(s.size());
    for (char c : s) {
        if (c != '\r' && c != '\n' && c != '\0')
            out += c;
    }
    return out;
}

// Calls f(line) for each line of text, splitting at CRLF, CR or LF; "a\n" is "a" then "".
template <typename F>
void forEachSseLine(const QByteArray &text, F f)
{
    const char *p = text.constData();
    const qsizetype n = text.size();
    qsizetype start = 0;
    for (qsizetype i = 0; i < n; ++i) {
        if (p[i] != '\r' && p[i] != '\n')
            continue;
        f(QByteArrayView(p + start, i - start));
        if (p[i] == '\r' && i + 1 < n && p[i + 1] == '\n')
            ++i;
        start = i + 1;
    }
    f(QByteArrayView(p + start, n - start));
}

} // namespace

QByteArray formatSseEvent(const QByteArray &data, const QByteArray &event, const QByteArray &id,
                          int retryMs)
{
    QByteArray out;
    out.reserve(data.size() + event.size() + id.size() + 32);
    const QByteArray cleanEvent = sseFieldValue(event);
    if (!cleanEvent.isEmpty())
        out += "event: " + cleanEvent + '\n';
    const QByteArray cleanId = sseFieldValue(id);
    if (!cleanId.isEmpty())
        out += "id: " + cleanId + '\n';
    if (retryMs >= 0)
        out += "retry: " + QByteArray::number(retryMs) + '\n';
    forEachSseLine(data, [&out](QByteArrayView line) {
        // "data:" alone for an empty line: the space would be stripped anyway, and this way no
        // line ends in whitespace.
        if (line.isEmpty()) {
            out += "data:\n";
        } else {
            out += "data: ";
            out += line;
            out += '\n';
        }
    });
    out += '\n';
    return out;
}

QByteArray formatSseComment(const QByteArray &text)
{
    QByteArray out;
    forEachSseLine(text, [&out](QByteArrayView line) {
        out += ':';
        if (!line.isEmpty()) {
            out += ' ';
            out += line;
        }
        out += '\n';
    });
    return out;
}

