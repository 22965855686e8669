#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

// The first bytes of a connection to the person's Swank port, judged before Swank reads
// anything (issue 41): SLIME sends the first line of ~/.slime-secret as its first message, six
// hexadecimal digits (the length in bytes) and the bytes, and nothing authenticates the client
// but that. The length is checked from the header, so a client that announces 16 MiB is
// refused before one byte of it is read; the secret is compared in time independent of where
// it differs. Plain functions of bytes: the engine's handshake (EditorSupport.cpp) reads the
// socket with them, tests/fuzz/fuzz_swank_handshake feeds them anything.
namespace SwankHandshake {

constexpr qsizetype HeaderSize = 6;
// A secret's line longer than this is refused as a secret (no client would send it whole).
constexpr qsizetype MaxSecretSize = 4096;

// The secret as SLIME reads it (slime-secret: the text of ~/.slime-secret up to the end of
// its first line, nothing trimmed; Emacs reads a file whose lines end in CR LF as lines, so
// a CR right before the first line feed is not part of it).
QByteArray secretLine(const QByteArray &fileBytes);

struct Verdict
{
    enum class Kind {
        NeedMore, // read `needed` more bytes (exactly: what follows the secret is Swank's)
        Accept,   // the secret, exactly; the connection is the person's
        Refuse    // `reason` says why, for the person's log (control characters escaped)
    };
    Kind kind = Kind::NeedMore;
    qsizetype needed = 0;
    QString reason;
};

// What a client sent so far (`received`, from its first byte) judged against `secret` (not
// empty). Never asks for more than the secret's message: HeaderSize + secret.size() bytes.
Verdict judge(QByteArrayView received, QByteArrayView secret);

// Bytes as a person may read them in a log or a terminal: printable ASCII as it is, every
// other byte as \xNN (no control character, no escape sequence gets through).
QString escaped(QByteArrayView bytes);
// Text as a person may read it in a log or a terminal: every control character (C0, DEL, C1)
// as \xNN, everything else as it is (the host's second line of defence for what the engine
// reports of a refused client).
QString printable(const QString &text);

} // namespace SwankHandshake
