#pragma once

#include "HttpResponse.h"

#include <QByteArray>

// Server-Sent Events framing (text/event-stream), as the Streamable HTTP transport streams it.

// The head of an event-stream response: its media type, and no caching or proxy buffering.
HttpResponse eventStreamHead();

// One event, terminated by its blank line. data is split at CRLF, CR and LF (every SSE line
// ending), one "data:" line per line, so a client rebuilds it with LF between lines. Empty
// event/id are omitted; CR, LF and NUL in event and id are dropped (they would end the field,
// or make the client ignore the id). retryMs < 0 omits "retry:".
QByteArray formatSseEvent(const QByteArray &data, const QByteArray &event = QByteArray(),
                          const QByteArray &id = QByteArray(), int retryMs = -1);
// A comment line (": text"), e.g. a keep-alive ping that clients ignore.
QByteArray formatSseComment(const QByteArray &text);
