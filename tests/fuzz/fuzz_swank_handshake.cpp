// libFuzzer target: the first bytes a client sends to the person's Swank port, judged by
// engine/swankwire/SwankHandshake as the engine's handshake reads them (issue 41). Input: one
// byte N, N bytes of the secret (non-empty: a file's first line), then what the client sent;
// the bytes also stand for a secret file's text. Checks: the engine's read loop (asking for
// `needed` bytes at a time, in pieces whose sizes the input draws) reaches the same verdict
// as judging the bytes whole; it never reads past the secret's message; it accepts exactly
// the six hexadecimal digits of the secret's length followed by the secret; every reason is
// printable ASCII; the secret's line is the first line, less the CR of a CRLF.
//
// FUZZ_CORPUS: swank
// FUZZ_DICT: swank.dict

#include "swankwire/SwankHandshake.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

void check(bool ok, const char *what)
{
    if (!ok) {
        std::fprintf(stderr, "broken: %s\n", what);
        std::abort();
    }
}

bool printable(const QString &text)
{
    for (const QChar c : text)
        if (c.unicode() < 0x20 || c.unicode() >= 0x7f)
            return false;
    return true;
}

bool isExactMessage(QByteArrayView received, QByteArrayView secret)
{
    if (received.size() < SwankHandshake::HeaderSize + secret.size())
        return false;
    bool ok = false;
    const qsizetype length = QByteArray(received.first(SwankHandshake::HeaderSize).data(), SwankHandshake::HeaderSize).toLongLong(&ok, 16);
    for (qsizetype i = 0; i < SwankHandshake::HeaderSize; ++i)
        ok = ok && std::isxdigit(static_cast<unsigned char>(received[i]));
    return ok && length == secret.size() && received.sliced(SwankHandshake::HeaderSize, secret.size()) == secret;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    const QByteArray line = SwankHandshake::secretLine(input);
    const qsizetype end = input.indexOf('\n');
    check(!line.contains('\n') && input.startsWith(line), "the secret's line is not the start of the first line");
    check(end < 0 ? line == input : (line.size() == end || (line.size() == end - 1 && input[end - 1] == '\r')),
          "the secret's line is not the first line (less a CRLF's CR)");

    if (input.isEmpty())
        return 0;
    const qsizetype secretSize = std::min<qsizetype>(1 + static_cast<unsigned char>(input[0]) % 64, input.size() - 1);
    if (secretSize < 1)
        return 0;
    const QByteArray secret = input.mid(1, secretSize);
    const QByteArray sent = input.mid(1 + secretSize);

    // The engine's loop: read what is asked, in pieces of the sizes the sent bytes suggest.
    QByteArray received;
    qsizetype offered = 0;
    SwankHandshake::Verdict verdict = SwankHandshake::judge(received, secret);
    while (verdict.kind == SwankHandshake::Verdict::Kind::NeedMore && offered < sent.size()) {
        check(verdict.needed > 0, "NeedMore asks for nothing");
        const qsizetype piece = std::min<qsizetype>({verdict.needed, sent.size() - offered,
                                                     1 + static_cast<unsigned char>(sent[offered]) % 7});
        received.append(sent.mid(offered, piece));
        offered += piece;
        check(received.size() <= SwankHandshake::HeaderSize + secret.size(), "read past the secret's message");
        verdict = SwankHandshake::judge(received, secret);
    }
    const SwankHandshake::Verdict whole = SwankHandshake::judge(received, secret);
    check(whole.kind == verdict.kind && whole.reason == verdict.reason, "the verdict depends on how the bytes came");
    check(printable(verdict.reason), "a reason holds a control character");
    const bool accepted = verdict.kind == SwankHandshake::Verdict::Kind::Accept;
    check(accepted == isExactMessage(sent, secret), "accepted other than the secret's exact message");
    check(printable(SwankHandshake::escaped(sent)), "escaped text holds a control character");
    return 0;
}
