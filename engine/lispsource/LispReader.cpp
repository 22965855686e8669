#include "LispReader.h"

#include "SyntaxTreeData.h"

// The reader: one loop over the scanner's lexemes with a stack of open lists, filling the
// flat node array of SyntaxTreeData.h. The accessors are in SyntaxTree.cpp.

using namespace LispReaderDetail;
using LispSyntax::isAsciiDigit;
using LispSyntax::isWhitespace;

namespace {

QChar closerFor(QChar opener)
{
    return opener == u'[' ? QChar(u']') : opener == u'{' ? QChar(u'}') : QChar(u')');
}

bool isContainer(SyntaxKind kind)
{
    return kind == SyntaxKind::List || kind == SyntaxKind::Vector;
}

// The length of the reader prefix at start: ' ` , ,@ ,. or # digits* char.
int prefixLength(QStringView text, int start)
{
    if (text[start] == u',')
        return start + 1 < text.size() && (text[start + 1] == u'@' || text[start + 1] == u'.') ? 2 : 1;
    if (text[start] != u'#')
        return 1;
    int k = start + 1;
    while (k < text.size() && isAsciiDigit(text[k]))
        ++k;
    return qMin(k + 1, int(text.size())) - start;
}

SyntaxKind prefixKind(QStringView token)
{
    if (token == u"'")
        return SyntaxKind::Quote;
    if (token == u"`")
        return SyntaxKind::Backquote;
    if (token == u",")
        return SyntaxKind::Unquote;
    if (token.front() == u',')
        return SyntaxKind::UnquoteSplicing;
    switch (token.back().toLower().unicode()) {
    case u'\'': return SyntaxKind::Function;
    case u'+': case u'-': return SyntaxKind::FeatureConditional;
    case u'.': return SyntaxKind::ReadEval;
    case u'p': return SyntaxKind::Pathname;
    case u'c': return SyntaxKind::Complex;
    case u'a': return SyntaxKind::Array;
    case u's': return SyntaxKind::Structure;
    case u'=': return SyntaxKind::Label;
    default: return SyntaxKind::Dispatch;
    }
}

int digitValue(QChar c)
{
    const char16_t u = c.toLower().unicode();
    if (u >= u'0' && u <= u'9')
        return u - u'0';
    if (u >= u'a' && u <= u'z')
        return u - u'a' + 10;
    return 99;
}

// [+-]?digits+(/digits+)? in the radix, the whole of body.
bool isRational(QStringView body, int radix)
{
    int i = 0;
    if (i < body.size() && (body[i] == u'+' || body[i] == u'-'))
        ++i;
    auto digits = [&] {
        const int from = i;
        while (i < body.size() && digitValue(body[i]) < radix)
            ++i;
        return i > from;
    };
    if (!digits())
        return false;
    if (i < body.size() && body[i] == u'/') {
        ++i;
        if (!digits())
            return false;
    }
    return i == body.size();
}

class Builder
{
public:
    Builder(TreeData &tree, const ReadOptions &options) : m_tree(tree), m_options(options) {}
    void run();

private:
    struct Frame
    {
        int list = -1;            // the open list, -1 at top level
        std::vector<int> pending; // prefixes waiting for datums, innermost last
    };

    QStringView text() const { return m_tree.text; }
    NodeData &at(int index) { return m_tree.nodes[size_t(index)]; }
    int add(SyntaxKind kind, int start, int end);
    void completeDatum(int index);
    void closePending(Frame &frame, int at);
    void addAtom(const LispLexeme &lexeme, bool insideBars);
    SyntaxKind classifyAtom(QStringView token);
    void closeList(const LispLexeme &closer);
    void checkDots(int list);
    bool isInConditionalDatum(int index);
    void finish(int textEnd);
    int error(const QString &kind, int offset, const QString &message, int node = -1);

    TreeData &m_tree;
    ReadOptions m_options;
    std::vector<Frame> m_stack{Frame{}};
    ReadError m_closerProblem;
    bool m_unterminated = false;
};

int Builder::error(const QString &kind, int offset, const QString &message, int node)
{
    ReadError e;
    e.kind = kind;
    e.offset = offset;
    e.line = m_tree.lineAt(offset);
    e.column = m_tree.columnAt(offset);
    e.message = message;
    m_tree.errors.append(e);
    if (node >= 0)
        at(node).flags |= HasError;
    return int(m_tree.errors.size()) - 1;
}

int Builder::add(SyntaxKind kind, int start, int end)
{
    const int index = int(m_tree.nodes.size());
    NodeData node;
    node.kind = kind;
    node.start = start;
    node.end = end;
    node.subtreeEnd = index + 1; // a list or a prefix grows it when it is completed
    Frame &frame = m_stack.back();
    node.parent = frame.pending.empty() ? frame.list : frame.pending.back();
    m_tree.nodes.push_back(node);
    if (node.parent < 0) {
        m_tree.topLevel.push_back(index);
    } else {
        NodeData &parent = at(node.parent);
        // Known at once, so no question about it walks up the parents (deep nesting stays linear).
        if ((parent.flags & InConditionalDatum) || (parent.kind == SyntaxKind::FeatureConditional && parent.firstChild >= 0))
            at(index).flags |= InConditionalDatum;
        if (parent.lastChild >= 0)
            at(parent.lastChild).nextSibling = index;
        else
            parent.firstChild = index;
        parent.lastChild = index;
        ++parent.childCount;
    }
    return index;
}

void Builder::completeDatum(int index)
{
    // A datum satisfies the innermost pending prefix; a prefix that has read all its datums is
    // itself a datum for the next one out: '#'f, #+sbcl (foo).
    at(index).subtreeEnd = int(m_tree.nodes.size());
    const int end = at(index).end;
    Frame &frame = m_stack.back();
    while (!frame.pending.empty()) {
        NodeData &prefix = at(frame.pending.back());
        prefix.end = end;
        if (--prefix.owed > 0)
            return;
        prefix.subtreeEnd = int(m_tree.nodes.size());
        frame.pending.pop_back();
    }
}

void Builder::closePending(Frame &frame, int offset)
{
    // The reader meets a ')' (or a stray one) where a prefix wanted its datum. Each prefix
    // still reaches over the ones inside it (''): innermost first.
    int reach = 0;
    while (!frame.pending.empty()) {
        const int index = frame.pending.back();
        frame.pending.pop_back();
        NodeData &prefix = at(index);
        prefix.end = qMax(prefix.end, reach);
        reach = prefix.end;
        prefix.flags |= MissingDatum;
        prefix.subtreeEnd = int(m_tree.nodes.size());
        const QStringView token = text().mid(prefix.start, prefixLength(text(), prefix.start));
        error(QStringLiteral("missing-datum"), prefix.start,
              QStringLiteral("'%1' at %2 has no form after it (a ')' at %3 comes first)")
                  .arg(token, m_tree.at(prefix.start), m_tree.at(offset)),
              index);
    }
}

SyntaxKind Builder::classifyAtom(QStringView token)
{
    if (token.front() != u'#') {
        bool onlyDots = true;
        for (QChar c : token)
            onlyDots = onlyDots && c == u'.';
        if (onlyDots)
            return token.size() == 1 ? SyntaxKind::Dot : SyntaxKind::Error;
        return LispSyntax::isNumberToken(token) ? SyntaxKind::Number : SyntaxKind::Symbol;
    }
    int argument = -1;
    const int k = dispatchDigits(token, &argument);
    if (k >= token.size())
        return SyntaxKind::Error; // a lone '#' (or '#12') before a delimiter
    switch (token[k].toLower().unicode()) {
    case u':': return SyntaxKind::Symbol;
    case u'#': return argument >= 0 ? SyntaxKind::LabelReference : SyntaxKind::Error;
    case u'*':
        for (QChar c : token.mid(k + 1)) {
            if (c != u'0' && c != u'1')
                return SyntaxKind::Error;
        }
        return SyntaxKind::BitVector;
    case u'x': return isRational(token.mid(k + 1), 16) ? SyntaxKind::Number : SyntaxKind::Error;
    case u'b': return isRational(token.mid(k + 1), 2) ? SyntaxKind::Number : SyntaxKind::Error;
    case u'o': return isRational(token.mid(k + 1), 8) ? SyntaxKind::Number : SyntaxKind::Error;
    case u'r':
        return argument >= 2 && argument <= 36 && isRational(token.mid(k + 1), argument) ? SyntaxKind::Number
                                                                                          : SyntaxKind::Error;
    default:
        return SyntaxKind::Error; // #<...>
    }
}

void Builder::addAtom(const LispLexeme &lexeme, bool insideBars)
{
    const QStringView token = text().mid(lexeme.start, lexeme.end - lexeme.start);
    SyntaxKind kind = SyntaxKind::Error;
    switch (lexeme.kind) {
    case LispLexeme::Kind::String: kind = SyntaxKind::String; break;
    case LispLexeme::Kind::Character: kind = SyntaxKind::Character; break;
    default: kind = lexeme.unterminated && token.front() != u'#' ? SyntaxKind::Symbol : classifyAtom(token);
    }
    const int index = add(kind, lexeme.start, lexeme.end);
    const auto where = [&] { return m_tree.at(lexeme.start); }; // only for errors
    if (lexeme.unterminated) {
        m_unterminated = true;
        at(index).flags |= Incomplete;
        if (kind == SyntaxKind::String)
            m_tree.errors[error(QStringLiteral("unterminated-string"), lexeme.start,
                                QStringLiteral("Unterminated string starting at %1").arg(where()), index)]
                .expected = u'"';
        else if (insideBars)
            m_tree.errors[error(QStringLiteral("unterminated-symbol"), lexeme.start,
                                QStringLiteral("Unterminated |escaped| symbol starting at %1").arg(where()), index)]
                .expected = u'|';
        else
            error(QStringLiteral("incomplete-token"), lexeme.start,
                  QStringLiteral("The text ends inside '%1' at %2").arg(token, where()), index);
        return; // the text ended inside it: not a datum yet
    }
    switch (kind) {
    case SyntaxKind::Error: {
        int argument = -1;
        const int k = token.front() == u'#' ? dispatchDigits(token, &argument) : 0;
        const QChar sub = k < token.size() ? token[k].toLower() : QChar();
        // Where the feature does not hold, the reader reads with *read-suppress* true and takes
        // such tokens as they come ("..." in a #+sbcl branch reads everywhere but on SBCL).
        if (k < token.size() && sub != u'<' && isInConditionalDatum(index)) {
            at(index).kind = token.front() == u'#' ? SyntaxKind::Number : SyntaxKind::Symbol;
            at(index).flags |= SuppressedOnly;
            break;
        }
        if (token.front() != u'#')
            error(QStringLiteral("dots"), lexeme.start,
                  QStringLiteral("'%1' at %2: a token of dots only cannot be read").arg(token, where()), index);
        else if (k >= token.size())
            error(QStringLiteral("dispatch"), lexeme.start,
                  QStringLiteral("'%1' at %2 is not followed by a dispatch character").arg(token, where()), index);
        else if (sub == u'<')
            error(QStringLiteral("unreadable"), lexeme.start,
                  QStringLiteral("'#<' at %1 starts an object that cannot be read back").arg(where()), index);
        else if (sub == u'#')
            error(QStringLiteral("label"), lexeme.start,
                  QStringLiteral("'##' at %1 needs a label number, as in #1#").arg(where()), index);
        else if (sub == u'*')
            error(QStringLiteral("invalid-number"), lexeme.start,
                  QStringLiteral("'%1' at %2: only 0 and 1 may follow #*").arg(token, where()), index);
        else
            error(QStringLiteral("invalid-number"), lexeme.start,
                  QStringLiteral("'%1' at %2 is not a number in its radix").arg(token, where()), index);
        break;
    }
    case SyntaxKind::Dot: {
        const NodeData &self = at(index);
        // (defun f () #-ecl . 43): on ECL the suppressed datum is the dot, read as nothing (ECL
        // reads (DEFUN F NIL 43)); where the feature lets it be read, it is misplaced.
        if (self.parent >= 0 && at(self.parent).kind == SyntaxKind::FeatureConditional && isInConditionalDatum(index))
            at(index).flags |= SuppressedOnly;
        else if (self.parent < 0 || at(self.parent).kind != SyntaxKind::List)
            error(QStringLiteral("dot"), lexeme.start,
                  QStringLiteral("A consing dot at %1 stands outside a list").arg(where()), index);
        break;
    }
    default:
        break;
    }
    completeDatum(index);
}

bool Builder::isInConditionalDatum(int index)
{
    // Inside a #+/#- whose first child (the feature expression) is not on the way up (add()).
    return at(index).flags & InConditionalDatum;
}

void Builder::checkDots(int list)
{
    // (a . b): one dot, after at least one element, before exactly one. With a #+/#- among the
    // elements, which are elements depends on the features ((a . #-ecl b c) is (A . C) on ECL):
    // the dot is marked for FeatureReading to judge. So is a list a #+/#- may skip: under
    // *read-suppress* ECL reads #-ecl (a . b . c) as nothing.
    const bool mayBeSkipped = isInConditionalDatum(list);
    for (int child = at(list).firstChild; child >= 0; child = at(child).nextSibling) {
        if (!mayBeSkipped && at(child).kind != SyntaxKind::FeatureConditional)
            continue;
        for (int dot = at(list).firstChild; dot >= 0; dot = at(dot).nextSibling) {
            if (at(dot).kind == SyntaxKind::Dot)
                at(dot).flags |= SuppressedOnly;
        }
        return;
    }
    int position = 0;
    int dotAt = -1;
    int dot = -1;
    for (int child = at(list).firstChild; child >= 0; child = at(child).nextSibling, ++position) {
        if (at(child).kind != SyntaxKind::Dot || (at(child).flags & HasError))
            continue;
        if (dot >= 0 || position == 0) {
            dot = child;
            dotAt = -1; // misplaced
            break;
        }
        dot = child;
        dotAt = position;
    }
    if (dot < 0)
        return;
    if (dotAt > 0 && dotAt == at(list).childCount - 2)
        return;
    error(QStringLiteral("dot"), at(dot).start,
          QStringLiteral("A consing dot at %1 must stand between a list's elements and its last element")
              .arg(m_tree.at(at(dot).start)),
          dot);
}

void Builder::closeList(const LispLexeme &closer)
{
    const QChar found = text()[closer.start];
    if (m_stack.size() == 1) {
        closePending(m_stack.back(), closer.start);
        const int index = add(SyntaxKind::Error, closer.start, closer.end);
        at(index).subtreeEnd = index + 1;
        at(index).flags |= StrayCloser;
        const int e = error(QStringLiteral("extra-close"), closer.start,
                            QStringLiteral("Extra '%1' at %2").arg(found, m_tree.at(closer.start)), index);
        m_tree.errors[e].found = found;
        if (!m_closerProblem.isValid())
            m_closerProblem = m_tree.errors[e];
        return; // read on, as if it were not there
    }
    closePending(m_stack.back(), closer.start);
    const int list = m_stack.back().list;
    m_stack.pop_back();
    NodeData &node = at(list);
    node.end = closer.end;
    const int open = node.kind == SyntaxKind::Vector ? node.start + 1 : node.start;
    const QChar opener = text()[open];
    if (closerFor(opener) != found) {
        const int e = error(QStringLiteral("mismatch"), closer.start,
                            QStringLiteral("Mismatched '%1' at %2: expected '%3' to close '%4' opened at %5")
                                .arg(found, m_tree.at(closer.start), closerFor(opener), opener, m_tree.at(open)),
                            list);
        ReadError &mismatch = m_tree.errors[e];
        mismatch.expected = closerFor(opener);
        mismatch.found = found;
        mismatch.relatedOffset = open;
        if (!m_closerProblem.isValid())
            m_closerProblem = mismatch;
    }
    if (node.kind == SyntaxKind::List)
        checkDots(list);
    completeDatum(list);
}

void Builder::finish(int textEnd)
{
    // Whatever is still open contains the end of the text.
    const int count = int(m_tree.nodes.size());
    for (auto frame = m_stack.rbegin(); frame != m_stack.rend(); ++frame) {
        for (auto pending = frame->pending.rbegin(); pending != frame->pending.rend(); ++pending) {
            NodeData &prefix = at(*pending);
            prefix.flags |= Incomplete;
            prefix.end = textEnd;
            prefix.subtreeEnd = count;
        }
        if (frame->list >= 0) {
            NodeData &list = at(frame->list);
            list.flags |= Incomplete;
            list.end = textEnd;
            list.subtreeEnd = count;
        }
    }
    if (m_stack.size() > 1) {
        // The outermost list never closed; inner ones are only consequences.
        const int outer = m_stack[1].list;
        const int openStart = at(outer).start;
        const int open = at(outer).kind == SyntaxKind::Vector ? openStart + 1 : openStart;
        int columnOneOpen = -1;
        for (int i = outer + 1; i < count && columnOneOpen < 0; ++i) {
            const NodeData &node = at(i);
            if (isContainer(node.kind) && (node.start == 0 || text()[node.start - 1] == u'\n'))
                columnOneOpen = node.start;
        }
        QString message = QStringLiteral("Unclosed '%1' opened at %2")
                              .arg(text().mid(openStart, open - openStart + 1), m_tree.at(openStart));
        if (columnOneOpen >= 0)
            message += QStringLiteral(" (the form at %1 is read inside it)").arg(m_tree.at(columnOneOpen));
        const int e = error(QStringLiteral("unclosed"), openStart, message, outer);
        m_tree.errors[e].expected = closerFor(text()[open]);
        m_tree.errors[e].relatedOffset = columnOneOpen;
    } else if (!m_stack[0].pending.empty() && !m_unterminated) {
        const int outer = m_stack[0].pending.front();
        const int start = at(outer).start;
        error(QStringLiteral("missing-datum"), start,
              QStringLiteral("The text ends before the form that '%1' at %2 applies to")
                  .arg(text().mid(start, prefixLength(text(), start)), m_tree.at(start)),
              outer);
    }

    std::stable_sort(m_tree.errors.begin(), m_tree.errors.end(),
                     [](const ReadError &a, const ReadError &b) { return a.offset < b.offset; });
    if (m_closerProblem.isValid()) {
        m_tree.delimiterError = m_closerProblem;
    } else {
        for (const ReadError &e : std::as_const(m_tree.errors)) {
            if (e.kind.startsWith(QLatin1String("unterminated-")))
                m_tree.delimiterError = e;
        }
        if (!m_tree.delimiterError.isValid()) {
            for (const ReadError &e : std::as_const(m_tree.errors)) {
                if (e.kind == QLatin1String("unclosed"))
                    m_tree.delimiterError = e;
            }
        }
    }
    m_tree.complete = m_closerProblem.isValid()
        || (!m_unterminated && m_stack.size() == 1 && m_stack[0].pending.empty());
}

void Builder::run()
{
    const QStringView source = text();
    for (int i = 0; i < source.size(); ++i) {
        if (source[i] == u'\n')
            m_tree.lineStarts.push_back(i + 1);
    }
    LispScanner scanner(source, LexState::Mode::Code, 0, m_options.brackets);
    LispLexeme lexeme;
    while (scanner.next(lexeme)) {
        if (lexeme.start >= m_options.stopAt)
            break;
        switch (lexeme.kind) {
        case LispLexeme::Kind::Comment:
            m_tree.comments.append(SyntaxComment{lexeme.start, lexeme.end, false});
            break;
        case LispLexeme::Kind::BlockComment:
            m_tree.comments.append(SyntaxComment{lexeme.start, lexeme.end, true});
            if (lexeme.unterminated) {
                m_unterminated = true;
                error(QStringLiteral("unterminated-comment"), lexeme.start,
                                            QStringLiteral("Unterminated block comment '#|' starting at %1")
                                                .arg(m_tree.at(lexeme.start)));
            }
            break;
        case LispLexeme::Kind::Prefix: {
            const QStringView token = source.mid(lexeme.start, lexeme.end - lexeme.start);
            const int index = add(prefixKind(token), lexeme.start, lexeme.end);
            NodeData &prefix = at(index);
            prefix.owed = lexeme.datums;
            if (prefix.kind == SyntaxKind::FeatureConditional && token.back() == u'-')
                prefix.flags |= Negative;
            if (prefix.kind == SyntaxKind::Label && token.size() < 3)
                error(QStringLiteral("label"), lexeme.start,
                      QStringLiteral("'#=' at %1 needs a label number, as in #1=").arg(m_tree.at(lexeme.start)), index);
            m_stack.back().pending.push_back(index);
            break;
        }
        case LispLexeme::Kind::Open: {
            const bool vector = source[lexeme.start] == u'#';
            const int index = add(vector ? SyntaxKind::Vector : SyntaxKind::List, lexeme.start, lexeme.end);
            m_stack.push_back(Frame{index, {}});
            break;
        }
        case LispLexeme::Kind::Close:
            closeList(lexeme);
            break;
        case LispLexeme::Kind::String:
        case LispLexeme::Kind::Character:
        case LispLexeme::Kind::Atom:
            // An unterminated token is always the last: the scanner's mode is the one it ended in.
            addAtom(lexeme, scanner.mode() == LexState::Mode::EscapedSymbol);
            break;
        }
    }
    finish(int(source.size()));
}

} // namespace

// --- SyntaxTree::read ---------------------------------------------------------------------------

SyntaxTree SyntaxTree::read(const QString &text, const ReadOptions &options)
{
    auto data = std::make_shared<TreeData>();
    data->text = text;
    Builder(*data, options).run();
    return SyntaxTree(std::move(data));
}

// --- LispReader --------------------------------------------------------------------------------

FormCheck LispReader::checkForms(const QString &text, int expected)
{
    const SyntaxTree tree = SyntaxTree::read(text);
    FormCheck check;
    const QList<SyntaxNode> forms = tree.forms();
    for (const SyntaxNode &form : forms)
        check.count += form.isComplete() ? 1 : 0;
    check.error = tree.firstError();
    if (check.error.isValid()) {
        check.message = check.error.message;
        return check;
    }
    if (check.count != expected) {
        if (check.count == 0)
            check.message = QStringLiteral("The text holds no form (only whitespace and comments); %1 expected").arg(expected);
        else if (check.count > expected && expected >= 0)
            check.message = QStringLiteral("The text reads as %1 forms, not %2: form %3 starts at line %4, column %5")
                                .arg(check.count).arg(expected).arg(expected + 1)
                                .arg(forms[expected].line()).arg(forms[expected].column());
        else
            check.message = QStringLiteral("The text reads as %1 form%2, not %3").arg(check.count)
                                .arg(check.count == 1 ? QString() : QStringLiteral("s")).arg(expected);
        return check;
    }
    check.ok = true;
    return check;
}

