// libFuzzer target: the Lisp reader (engine/lispsource) on the bytes of a file from a
// person's project, read as UTF-8 (invalid sequences become U+FFFD, as QString::fromUtf8 makes
// them). It checks the tree's shape (spans nested and in order, every non-blank character in a
// top-level node or a comment, lines and columns in range), that check-parens and the reader
// agree, that every definition's label finds its form again, that a form put back as the
// tools show it (FormSplice) leaves the text as it was, and LispSource's editor
// questions at a few cursors. Also the ASan/UBSan checks: no crash, no overflow, whatever
// the nesting (there is no recursion to overflow).
//
// FUZZ_CORPUS: lispreader
// FUZZ_DICT: lisp.dict

#include "lispsource/FormSplice.h"
#include "lispsource/LispFile.h"
#include "lispsource/LispReader.h"
#include "lispsource/LispSource.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {
[[noreturn]] void fail(const char *what, const QString &text)
{
    std::fprintf(stderr, "broken invariant: %s\ninput: %s\n", what, text.left(400).toUtf8().constData());
    std::abort();
}

void check(bool ok, const char *what, const QString &text)
{
    if (!ok)
        fail(what, text);
}

bool isBlank(QChar c)
{
    return c == u' ' || c == u'\n' || c == u'\t' || c == u'\r' || c == u'\f';
}

void checkTree(const SyntaxTree &tree, const QString &text)
{
    const int size = int(text.size());
    int previousStart = 0;
    for (int i = 0; i < tree.nodeCount(); ++i) {
        const SyntaxNode node = tree.node(i);
        check(node.index() == i, "index", text);
        check(0 <= node.start() && node.start() <= node.end() && node.end() <= size, "span in the text", text);
        check(node.start() >= previousStart, "document order", text);
        previousStart = node.start();
        check(node.subtreeEnd() > i && node.subtreeEnd() <= tree.nodeCount(), "subtree range", text);
        const SyntaxNode parent = node.parent();
        if (parent.isValid()) {
            check(parent.index() < i && i < parent.subtreeEnd(), "parent before child", text);
            check(parent.start() <= node.start() && node.end() <= parent.end(), "child inside parent", text);
            if (!node.isComplete())
                check(!parent.isComplete(), "an incomplete node makes its parent incomplete", text);
        }
        const SyntaxNode next = node.nextSibling();
        if (next.isValid())
            check(node.end() <= next.start() && next.index() == node.subtreeEnd(), "siblings in order", text);
        check(node.line() >= 1 && node.line() <= tree.lineCount() && node.lastLine() >= node.line(), "lines", text);
        check(node.column() >= 1, "column", text);
        if (node.is(SyntaxKind::Symbol))
            (void)node.symbol();
        if (node.is(SyntaxKind::String))
            check(node.stringValue().size() <= node.text().size(), "string value", text);
        (void)node.plainText();
        (void)node.dispatchArgument();
    }

    // Every character that is not whitespace belongs to a top-level node or a comment: an
    // edit that replaces one form can keep every byte outside it.
    std::vector<char> covered(size_t(size), 0);
    for (const SyntaxNode &node : tree.topLevel())
        std::fill(covered.begin() + node.start(), covered.begin() + node.end(), 1);
    int previousEnd = 0;
    for (const SyntaxComment &c : tree.comments()) {
        check(c.start >= previousEnd && c.start < c.end && c.end <= size, "comments in order", text);
        previousEnd = c.end;
        std::fill(covered.begin() + c.start, covered.begin() + c.end, 1);
    }
    for (int i = 0; i < size; ++i)
        check(covered[size_t(i)] || isBlank(text[i]), "a character outside every node and comment", text);

    for (const ReadError &e : tree.errors())
        check(e.offset >= 0 && e.offset <= size && e.line >= 1 && e.column >= 1 && !e.message.isEmpty(), "error position", text);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    const LispFile file(text);
    const SyntaxTree &tree = file.tree();
    checkTree(tree, text);

    // check-parens is the reader's delimiter problem, message for message.
    const ParenCheck parens = LispSource::checkParens(text, LispSource::Brackets::Parentheses);
    const ReadError delimiter = tree.delimiterError();
    check(parens.ok == !delimiter.isValid() && parens.message == delimiter.message, "check-parens and the reader", text);
    (void)LispSource::checkParens(text); // brackets too
    check(LispSource::isComplete(text) == tree.isComplete(), "isComplete", text);

    // A complete form put back as the tools show it leaves the text as it was.
    for (const TopLevelForm &form : file.forms()) {
        if (form.node.isComplete())
            check(FormSplice::apply(file, form, FormSplice::Action::Replace, text.mid(form.start, form.end - form.start)).text == text,
                  "a form put back as shown changed the text", text);
        check(form.start <= form.node.start() && form.end >= form.node.end() && form.firstLine <= form.lastLine, "form span", text);
    }
    // A definition that reads without error is found again by the label the file view shows.
    for (const TopLevelForm &form : file.forms()) {
        bool readsCleanly = form.node.isComplete();
        for (int i = form.node.index(); readsCleanly && i < form.node.subtreeEnd(); ++i)
            readsCleanly = !tree.node(i).hasError();
        // CLOS specializers are class names or (eql x); another list is no method's.
        for (const QString &specializer : form.definition.specializers)
            readsCleanly = readsCleanly && (!specializer.startsWith(u'(') || specializer.startsWith(QLatin1String("(eql ")));
        if (!form.definition.isValid() || !readsCleanly)
            continue;
        bool found = false;
        for (const TopLevelForm &match : file.find(form.label).forms)
            found = found || match.index == form.index;
        check(found, "a label that does not find its form", form.label);
        (void)file.tree().leadingComments(form.node);
        for (const SyntaxNode &symbol : LispFile::symbolsIn(form.node))
            check(symbol.is(SyntaxKind::Symbol), "symbolsIn", text);
    }
    (void)file.occurrences(QStringLiteral("foo"));
    (void)LispReader::checkForms(text, 1);
    (void)LispSource::splitTopLevelForms(text);
    for (int cursor : {0, int(text.size()) / 2, int(text.size())}) {
        (void)LispSource::indentationForNewLine(text.left(cursor));
        (void)LispSource::enclosingOperator(text, cursor);
        (void)tree.nodeAt(cursor);
    }
    return 0;
}
