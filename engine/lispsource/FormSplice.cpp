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
    return (i == 0 || text[i - 1] == QLatin1Char('\n') || text[i - 1] == QLatin1Char('\r')) ? i : -1;
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

// Whether the line that starts at pos has nothing before its line ending.
bool isEmptyLine(const QString &text, int pos)
{
    return pos < text.size() && (text[pos] == QLatin1Char('\n') || (text[pos] == QLatin1Char('\r') && pos + 1 < text.size() && text[pos + 1] == QLatin1Char('\n')));
}

// The start of the line before the one that starts at pos (pos > 0).
int previousLineStart(const QString &text, int pos)
{
    return pos < 2 ? 0 : int(text.lastIndexOf(QLatin1Char('\n'), pos - 2)) + 1;
}

// Where the line break before the line that starts at pos begins ("\r\n" or "\n").
int lineBreakBefore(const QString &text, int pos)
{
    int i = pos - 1;
    if (i > 0 && text[i] == QLatin1Char('\n') && text[i - 1] == QLatin1Char('\r'))
        --i;
    return i;
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

// The text without the whitespace around it, but an escaped last character (`foo\ `) kept.
QString trimmedForm(const QString &text)
{
    qsizetype begin = 0, end = text.size();
    while (begin < end && text[begin].isSpace())
        ++begin;
    while (end > begin && text[end - 1].isSpace() && !(end - 2 >= begin && text[end - 2] == QLatin1Char('\\')))
        --end;
    return text.mid(begin, end - begin);
}

// The indentation a form inside a group has: the blanks before it on its line, or as many
// spaces as its column when something else comes first there.
QString indentationOf(const QString &text, int start)
{
    const int lineStart = start == 0 ? 0 : int(text.lastIndexOf(QLatin1Char('\n'), start - 1)) + 1;
    const QStringView before = QStringView(text).mid(lineStart, start - lineStart);
    for (const QChar c : before) {
        if (!isBlank(c))
            return QString(before.size(), QLatin1Char(' '));
    }
    return before.toString();
}

// The lines after the first of a form inserted inside a group, moved right by the group's
// indentation as the first is (the text comes indented as at the top level); empty lines stay
// empty.
QString indentedBy(const QString &form, const QString &indentation, const QString &eol)
{
    if (indentation.isEmpty())
        return form;
    QStringList lines = form.split(eol);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        if (!lines[i].trimmed().isEmpty())
            lines[i].prepend(indentation);
    }
    return lines.join(eol);
}

// Where the closing parentheses after a group's last form `node` may join the code before it:
// the line break after the code that precedes it (its previous sibling, or the group's opening);
// -1 when a comment comes between, whose line the parentheses would end up in.
int closersJoinAt(const LispFile &file, const SyntaxNode &node)
{
    const SyntaxNode group = node.parent();
    if (!group.isValid())
        return -1;
    int codeEnd = group.start() + 1;
    for (const SyntaxNode &child : group.children()) {
        if (child == node)
            break;
        codeEnd = child.end();
    }
    for (const SyntaxComment &comment : file.tree().comments()) {
        if (comment.end > codeEnd && comment.start < node.start())
            return -1;
    }
    const QString &text = file.text();
    int lineBreak = int(text.indexOf(QLatin1Char('\n'), codeEnd));
    if (lineBreak < 0 || lineBreak > node.start())
        return -1;
    if (lineBreak > 0 && text[lineBreak - 1] == QLatin1Char('\r'))
        --lineBreak;
    return lineBreak;
}

// Deletes [start, end) from a line that holds other text too, with the blanks that separate it.
QString withoutPart(const LispFile &file, const SyntaxNode &node, int start, int end)
{
    const QString &text = file.text();
    int from = start;
    while (from > 0 && isBlank(text[from - 1]))
        --from;
    int to = end;
    if (lineEndAfter(text, end) >= 0) {
        // "(progn (a)\n": the rest of the line goes, its line break stays.
        while (to < text.size() && isBlank(text[to]))
            ++to;
        return text.left(from) + text.mid(to);
    }
    while (to < text.size() && isBlank(text[to]))
        ++to;
    const bool closersFollow = to < text.size() && text[to] == QLatin1Char(')');
    if (closersFollow && lineStartBefore(text, start) > 0) {
        // "  (b))": the form leaves with its line (and the blank lines that separated it), the
        // closing parentheses join the code before it; after a comment they stay on the form's
        // line, out of the comment.
        const int joinAt = closersJoinAt(file, node);
        return joinAt >= 0 ? text.left(joinAt) + text.mid(end) : text.left(start) + text.mid(end);
    }
    if (closersFollow || lineStartBefore(text, start) < 0)
        return text.left(from) + text.mid(end); // (a) (b) (c): b and the blanks before it
    return text.left(start) + text.mid(to); // at the line's start: the blanks after it go
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
    const QStringView region = QStringView(text).mid(form.start, form.end - form.start);
    // The form's own line endings when it spans lines, so that text shown with them comes back
    // the same; else the file's.
    const QString eol = region.contains(QLatin1Char('\n')) ? lineEnding(region.toString()) : lineEnding(text);
    QString insert = withLineEndings(trimmedForm(newText), eol);
    const bool nested = form.depth > 0;
    FormSplice splice;
    int at = 0; // where the new form starts in the result
    switch (action) {
    case Action::Replace:
        // The text it was shown with changes nothing, whatever its line endings.
        if (withLineEndings(insert, QStringLiteral("\n")) == withLineEndings(trimmedForm(region.toString()), QStringLiteral("\n"))) {
            splice.text = text;
            splice.firstLine = form.firstLine;
            splice.lastLine = form.lastLine;
            return splice;
        }
        splice.text = text.left(form.start) + insert + text.mid(form.end);
        at = form.start;
        break;
    case Action::InsertBefore: {
        // Above the comments that belong to the form, so that they stay with it.
        const QList<SyntaxComment> comments = file.tree().leadingComments(form.node);
        const int start = comments.isEmpty() ? form.start : qMin(form.start, comments.first().start);
        if (nested) {
            // Inside a group: on a line of its own with the form's indentation, no blank line.
            at = start;
            const int lineStart = lineStartBefore(text, start);
            const bool ownLine = lineStart >= 0;
            const QString indentation = indentationOf(text, start);
            const QString formIndentation = indentationOf(text, form.start);
            if (ownLine && indentation != formIndentation && lineStartBefore(text, form.start) >= 0) {
                // Its comment starts elsewhere (";;;" at column 0): the new form takes the
                // form's indentation on a line of its own above the comment's line.
                insert = indentedBy(insert, formIndentation, eol);
                splice.text = text.left(lineStart) + formIndentation + insert + eol + text.mid(lineStart);
                at = lineStart + int(formIndentation.size());
                break;
            }
            insert = indentedBy(insert, indentation, eol);
            splice.text = text.left(at) + insert + (ownLine ? eol + indentation : QStringLiteral(" ")) + text.mid(at);
            break;
        }
        const int lineStart = lineStartBefore(text, start);
        at = lineStart >= 0 ? lineStart : start;
        splice.text = text.left(at) + insert + eol + eol + text.mid(at);
        break;
    }
    case Action::InsertAfter: {
        const int point = insertionPointAfter(text, form.end);
        const QString separator = nested ? eol + indentationOf(text, form.start) : eol + eol;
        if (nested)
            insert = indentedBy(insert, indentationOf(text, form.start), eol);
        splice.text = text.left(point) + separator + insert + text.mid(point);
        at = point + int(separator.size());
        break;
    }
    case Action::Delete: {
        int from = lineStartBefore(text, form.start);
        int to = lineEndAfter(text, form.end);
        if (from < 0 || to < 0) {
            // The form shares a line with something else: the form goes, the other text stays.
            splice.text = withoutPart(file, form.node, form.start, form.end);
            return splice;
        }
        // Whole lines go. At the top level, where an insert adds a blank line, so does a blank
        // line beside them when only one side has one (an insert and a delete leave the file as
        // it was); of blank lines on both sides, one stays. Inside a group, where an insert adds
        // none, a blank line goes only when there is one on each side.
        const bool blankBefore = from > 0 && blankLineEnd(text, previousLineStart(text, from)) == from;
        const int blankAfter = blankLineEnd(text, to);
        // Of blank lines on both sides, an empty one goes rather than one holding blanks (the
        // empty one is what an insert added; the blanks are the file's own bytes).
        const bool keepAfter = blankBefore && blankAfter > 0 && !isEmptyLine(text, to) && isEmptyLine(text, previousLineStart(text, from));
        if (keepAfter)
            from = previousLineStart(text, from);
        else if (blankAfter > 0 && (!nested || blankBefore))
            to = blankAfter;
        else if (blankBefore && !nested)
            from = previousLineStart(text, from);
        if (to == text.size() && from > 0 && !text.endsWith(QLatin1Char('\n')))
            from = lineBreakBefore(text, from); // the last line had no line break: nor has the new one
        splice.text = text.left(from) + text.mid(to);
        return splice;
    }
    }
    splice.firstLine = lineOf(splice.text, at);
    splice.lastLine = splice.firstLine + int(insert.count(QLatin1Char('\n')));
    return splice;
}
