#include "FormSplice.h"

namespace {
bool isBlank(QChar c)
{
    return c == QLatin1Char(' ') || c == QLatin1Char('\t');
}

// Where offset's line starts, when only blanks precede offset on it; else -1.
int lineStartBefore(const QString &text, int offset)
{
    int i = offset;
    while (i > 0 && isBlank(text[i - 1]))
        --i;
    return (i == 0 || text[i - 1] == QLatin1Char('\n')) ? i : -1;
}

// Past the line ending after offset, when only blanks follow on the line (or the text ends);
// else -1.
int lineEndAfter(const QString &text, int offset)
{
    int i = offset;
    while (i < text.size() && (isBlank(text[i]) || text[i] == QLatin1Char('\r')))
        ++i;
    if (i == text.size())
        return i;
    return text[i] == QLatin1Char('\n') ? i + 1 : -1;
}

// The end of the blank line that starts at pos (past its '\n'), or -1 when it is not blank.
int blankLineEnd(const QString &text, int pos)
{
    int i = pos;
    while (i < text.size() && (isBlank(text[i]) || text[i] == QLatin1Char('\r')))
        ++i;
    return i < text.size() && text[i] == QLatin1Char('\n') ? i + 1 : -1;
}

// The start of the line before the one that starts at pos (pos > 0).
int previousLineStart(const QString &text, int pos)
{
    return int(text.lastIndexOf(QLatin1Char('\n'), pos - 2)) + 1;
}

// Where to put a form after the one ending at `end`: the end of its line (before the line
// ending) when only blanks or a comment follow it there, else right after it.
int insertionPointAfter(const QString &text, int end)
{
    int i = end;
    while (i < text.size() && isBlank(text[i]))
        ++i;
    if (i < text.size() && text[i] == QLatin1Char(';')) {
        while (i < text.size() && text[i] != QLatin1Char('\n'))
            ++i;
        if (i < text.size() && text[i - 1] == QLatin1Char('\r'))
            --i;
    }
    if (i == text.size() || text[i] == QLatin1Char('\n') || text[i] == QLatin1Char('\r'))
        return i;
    return end; // another form on the same line
}

int lineOf(const QString &text, int offset)
{
    return int(QStringView(text).first(offset).count(QLatin1Char('\n'))) + 1;
}

QString withLineEndings(QString text, const QString &eol)
{
    text.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    if (eol != QLatin1String("\n"))
        text.replace(QLatin1Char('\n'), eol);
    return text;
}
} // namespace

QString FormSplice::lineEnding(const QString &text)
{
    const qsizetype newline = text.indexOf(QLatin1Char('\n'));
    return newline > 0 && text[newline - 1] == QLatin1Char('\r') ? QStringLiteral("\r\n") : QStringLiteral("\n");
}

FormSplice FormSplice::apply(const LispFile &file, const TopLevelForm &form, Action action, const QString &newText)
{
    const QString &text = file.text();
    const QString eol = lineEnding(text);
    const QString insert = withLineEndings(newText.trimmed(), eol);
    FormSplice splice;
    int at = 0; // where the new form starts in the result
    switch (action) {
    case Action::Replace:
        splice.text = text.left(form.start) + insert + text.mid(form.end);
        at = form.start;
        break;
    case Action::InsertBefore: {
        // Above the comments that belong to the form, so that they stay with it.
        const QList<SyntaxComment> comments = file.tree().leadingComments(form.node);
        const int start = comments.isEmpty() ? form.start : qMin(form.start, comments.first().start);
        const int lineStart = lineStartBefore(text, start);
        at = lineStart >= 0 ? lineStart : start;
        splice.text = text.left(at) + insert + eol + eol + text.mid(at);
        break;
    }
    case Action::InsertAfter: {
        const int point = insertionPointAfter(text, form.end);
        splice.text = text.left(point) + eol + eol + insert + text.mid(point);
        at = point + int(2 * eol.size());
        break;
    }
    case Action::Delete: {
        int from = lineStartBefore(text, form.start);
        int to = lineEndAfter(text, form.end);
        if (from < 0 || to < 0) {
            // The form shares its line with something else: only the form goes.
            splice.text = text.left(form.start) + text.mid(form.end);
            return splice;
        }
        // Whole lines go; of the blank lines around them, one stays.
        if (from == 0 || blankLineEnd(text, previousLineStart(text, from)) == from) {
            const int blank = blankLineEnd(text, to);
            if (blank > 0)
                to = blank;
            else if (to == text.size() && from > 0)
                from = previousLineStart(text, from);
        }
        splice.text = text.left(from) + text.mid(to);
        return splice;
    }
    }
    splice.firstLine = lineOf(splice.text, at);
    splice.lastLine = splice.firstLine + int(insert.count(QLatin1Char('\n')));
    return splice;
}
