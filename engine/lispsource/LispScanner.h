#pragma once

// The lexical layer of this folder: the standard reader's syntax types (CLHS 2.1.4) cut into
// lexemes. LispSource colours and checks text with it line by line; LispReader builds its
// syntax tree from the same lexemes, so the two never disagree on where a string, a comment,
// a character literal or a |symbol| starts and ends. Not for use outside engine/lispsource.

#include "LispSource.h" // LexState::Mode

#include <QString>
#include <QStringView>

namespace LispSyntax {
// Whitespace[2] of the standard syntax: Tab, Newline, Linefeed, Page, Return, Space.
bool isWhitespace(QChar c);
bool isAsciiDigit(QChar c);
// A token the reader turns into a number with *read-base* 10: 42, -1/2, 1.5d0, .5, 1.
bool isNumberToken(QStringView token);
// An operator's name as the tables know it: lower case, package prefix dropped. Keywords are
// never operators of code, so they give an empty name.
QString operatorKey(QStringView name);
} // namespace LispSyntax

struct LispLexeme
{
    enum class Kind { Comment, BlockComment, String, Atom, Character, Open, Close, Prefix };

    Kind kind = Kind::Atom;
    int start = 0;
    int end = 0;               // exclusive
    int datums = 0;            // Prefix: datums it applies to (#+ and #- take a feature and a form)
    bool unterminated = false; // the text ended inside it
};

class LispScanner
{
public:
    // brackets: '[' ']' '{' '}' are delimiters (for linters), not constituents.
    LispScanner(QStringView text, LexState::Mode mode, int depth, bool brackets)
        : m_text(text), m_mode(mode), m_depth(depth), m_brackets(brackets) {}

    bool next(LispLexeme &lexeme);
    LexState::Mode mode() const { return m_mode; }
    int depth() const { return m_depth; }

private:
    using Kind = LispLexeme::Kind;
    LispLexeme make(Kind kind, int start, int end) const { return LispLexeme{kind, start, end, 0, false}; }
    bool terminates(QChar c) const;
    LispLexeme scanString(int start, int from);
    LispLexeme scanComment(int start, int from, int depth);
    LispLexeme scanAtom(int start, int from, bool insideBars);
    LispLexeme scanDispatch(int start);

    QStringView m_text;
    int m_pos = 0;
    LexState::Mode m_mode;
    int m_depth;
    bool m_brackets;
};
