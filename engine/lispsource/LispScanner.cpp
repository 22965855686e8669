#include "LispScanner.h"

#include <QChar>

using LispSyntax::isAsciiDigit;
using LispSyntax::isWhitespace;

bool LispSyntax::isWhitespace(QChar c)
{
    return c == u' ' || c == u'\n' || c == u'\t' || c == u'\r' || c == u'\f';
}

bool LispSyntax::isAsciiDigit(QChar c)
{
    return c >= u'0' && c <= u'9';
}

namespace {
int skipDigits(QStringView token, int i)
{
    while (i < token.size() && isAsciiDigit(token[i]))
        ++i;
    return i;
}

bool isExponentMarker(QChar c)
{
    switch (c.toLower().unicode()) {
    case u'e': case u's': case u'f': case u'd': case u'l':
        return true;
    default:
        return false;
    }
}

// [esfdl][+-]?[0-9]+ up to the end of the token.
bool isExponent(QStringView token, int i)
{
    if (i >= token.size() || !isExponentMarker(token[i]))
        return false;
    ++i;
    if (i < token.size() && (token[i] == u'+' || token[i] == u'-'))
        ++i;
    const int digits = skipDigits(token, i);
    return digits > i && digits == token.size();
}
} // namespace

bool LispSyntax::isNumberToken(QStringView token)
{
    // By hand rather than with a regular expression: every atom of a file goes through here.
    // integer: [+-]?[0-9]+\.?   ratio: [+-]?[0-9]+/[0-9]+
    // float:   [+-]?[0-9]*\.[0-9]+(exponent)?  or  [+-]?[0-9]+(\.[0-9]*)?exponent
    int i = 0;
    if (i < token.size() && (token[i] == u'+' || token[i] == u'-'))
        ++i;
    const int afterInteger = skipDigits(token, i);
    const bool integerDigits = afterInteger > i;
    i = afterInteger;
    if (i == token.size())
        return integerDigits;
    if (token[i] == u'/') {
        const int afterDenominator = skipDigits(token, i + 1);
        return integerDigits && afterDenominator > i + 1 && afterDenominator == token.size();
    }
    if (token[i] == u'.') {
        const int afterFraction = skipDigits(token, i + 1);
        const bool fractionDigits = afterFraction > i + 1;
        if (afterFraction == token.size())
            return integerDigits || fractionDigits;
        return (integerDigits || fractionDigits) && isExponent(token, afterFraction);
    }
    return integerDigits && isExponent(token, i);
}

QString LispSyntax::operatorKey(QStringView name)
{
    if (name.isEmpty() || name.front() == u':')
        return {};
    return name.mid(name.lastIndexOf(u':') + 1).toString().toLower();
}

// --- LispScanner ---------------------------------------------------------------------------------

bool LispScanner::terminates(QChar c) const
{
    // Terminating macro characters end a token; '#' is non-terminating (foo#bar is one symbol).
    switch (c.unicode()) {
    case u'"': case u'\'': case u'(': case u')': case u',': case u';': case u'`':
        return true;
    case u'[': case u']': case u'{': case u'}':
        return m_brackets;
    default:
        return isWhitespace(c);
    }
}

bool LispScanner::next(LispLexeme &lexeme)
{
    const int n = int(m_text.size());
    if (m_mode != LexState::Mode::Code) {
        // The previous line ended inside a token; this line starts by finishing it.
        if (m_pos >= n)
            return false;
        const LexState::Mode mode = m_mode;
        m_mode = LexState::Mode::Code;
        if (mode == LexState::Mode::String)
            lexeme = scanString(m_pos, m_pos);
        else if (mode == LexState::Mode::BlockComment)
            lexeme = scanComment(m_pos, m_pos, m_depth);
        else
            lexeme = scanAtom(m_pos, m_pos, true);
        m_pos = lexeme.end;
        return true;
    }
    while (m_pos < n && isWhitespace(m_text[m_pos]))
        ++m_pos;
    if (m_pos >= n)
        return false;

    const int s = m_pos;
    const QChar c = m_text[s];
    switch (c.unicode()) {
    case u';': {
        const qsizetype eol = m_text.indexOf(u'\n', s);
        lexeme = make(Kind::Comment, s, eol < 0 ? n : int(eol));
        break;
    }
    case u'"':
        lexeme = scanString(s, s + 1);
        break;
    case u'(': case u'[': case u'{':
        lexeme = (c == u'(' || m_brackets) ? make(Kind::Open, s, s + 1) : scanAtom(s, s, false);
        break;
    case u')': case u']': case u'}':
        lexeme = (c == u')' || m_brackets) ? make(Kind::Close, s, s + 1) : scanAtom(s, s, false);
        break;
    case u'\'': case u'`':
        lexeme = make(Kind::Prefix, s, s + 1);
        lexeme.datums = 1;
        break;
    case u',': {
        const bool splice = s + 1 < n && (m_text[s + 1] == u'@' || m_text[s + 1] == u'.');
        lexeme = make(Kind::Prefix, s, splice ? s + 2 : s + 1);
        lexeme.datums = 1;
        break;
    }
    case u'#':
        lexeme = scanDispatch(s);
        break;
    default:
        lexeme = scanAtom(s, s, false);
    }
    m_pos = lexeme.end;
    return true;
}

LispLexeme LispScanner::scanString(int start, int from)
{
    const int n = int(m_text.size());
    for (int k = from; k < n; ++k) {
        if (m_text[k] == u'\\')
            ++k;
        else if (m_text[k] == u'"')
            return make(Kind::String, start, k + 1);
    }
    LispLexeme lexeme = make(Kind::String, start, n);
    lexeme.unterminated = true;
    m_mode = LexState::Mode::String;
    return lexeme;
}

LispLexeme LispScanner::scanComment(int start, int from, int depth)
{
    const int n = int(m_text.size());
    int k = from;
    while (k < n) {
        const bool hasNext = k + 1 < n;
        if (m_text[k] == u'|' && hasNext && m_text[k + 1] == u'#') {
            k += 2;
            if (--depth == 0)
                return make(Kind::BlockComment, start, k);
        } else if (m_text[k] == u'#' && hasNext && m_text[k + 1] == u'|') {
            k += 2;
            ++depth;
        } else {
            ++k;
        }
    }
    LispLexeme lexeme = make(Kind::BlockComment, start, n);
    lexeme.unterminated = true;
    m_mode = LexState::Mode::BlockComment;
    m_depth = depth;
    return lexeme;
}

LispLexeme LispScanner::scanAtom(int start, int from, bool insideBars)
{
    const int n = int(m_text.size());
    bool bars = insideBars;
    bool danglingEscape = false;
    int k = from;
    while (k < n) {
        const QChar c = m_text[k];
        if (c == u'\\') {            // single escape, inside or outside bars
            danglingEscape = k + 1 >= n;
            k += 2;
        } else if (c == u'|') {      // multiple escape toggles
            bars = !bars;
            ++k;
        } else if (!bars && terminates(c)) {
            break;
        } else {
            ++k;
        }
    }
    LispLexeme lexeme = make(Kind::Atom, start, qMin(k, n));
    lexeme.unterminated = bars || danglingEscape;
    if (bars)
        m_mode = LexState::Mode::EscapedSymbol;
    return lexeme;
}

LispLexeme LispScanner::scanDispatch(int s)
{
    const int n = int(m_text.size());
    int j = s + 1;
    while (j < n && isAsciiDigit(m_text[j])) // numeric argument: #2A, #1=, #36r
        ++j;
    if (j >= n) {
        LispLexeme lexeme = make(Kind::Atom, s, n);
        lexeme.unterminated = true; // the reader still waits for the sub-character
        return lexeme;
    }
    auto prefix = [&](int datums) {
        LispLexeme lexeme = make(Kind::Prefix, s, j + 1);
        lexeme.datums = datums;
        return lexeme;
    };
    const QChar d = m_text[j];
    switch (d.toLower().unicode()) {
    case u'\\': {
        // #\x takes any one character, then the constituents after it: #\( #\; #\Space #\U+41.
        if (j + 1 >= n) {
            LispLexeme lexeme = make(Kind::Character, s, n);
            lexeme.unterminated = true;
            return lexeme;
        }
        int k = j + 2;
        while (k < n && !terminates(m_text[k]))
            ++k;
        return make(Kind::Character, s, k);
    }
    case u'(':
        return make(Kind::Open, s, j + 1);
    case u'\'':
        return prefix(1);
    case u'|':
        return scanComment(s, j + 1, 1);
    case u'+': case u'-':
        return prefix(2);
    case u':': case u'*': case u'x': case u'b': case u'o': case u'r':
        return scanAtom(s, j + 1, false); // #:sym, #*1011, #x1F, #b101, #o17, #36rZZ
    case u'#':
        return make(Kind::Atom, s, j + 1); // #1# refers to a labelled object
    case u'<':
        return make(Kind::Atom, s, j + 1); // an unreadable object; the reader signals an error
    default:
        if (terminates(d))
            return make(Kind::Atom, s, j); // a lone '#': a reader error, but not a delimiter
        // #' #. #= #p #c #a #s, and user dispatch macros, which we assume read one object.
        return prefix(1);
    }
}
