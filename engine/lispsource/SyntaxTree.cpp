#include "SyntaxTree.h"

#include "SyntaxTreeData.h"

// What a SyntaxTree and its nodes answer: reading the flat node array the reader filled.

using namespace LispReaderDetail;
using LispSyntax::isWhitespace;

// --- SymbolName --------------------------------------------------------------------------------

namespace {
QString printedPart(const QString &part)
{
    bool bars = part.isEmpty() || LispSyntax::isNumberToken(part);
    bool onlyDots = true;
    for (QChar c : part) {
        onlyDots = onlyDots && c == u'.';
        bars = bars || c.isLower() || isWhitespace(c) || QStringView(u"()'\"`,;|\\:#").contains(c);
    }
    if (!bars && !onlyDots)
        return part.toLower();
    QString escaped = part;
    escaped.replace(u'\\', QStringLiteral("\\\\")).replace(u'|', QStringLiteral("\\|"));
    return u'|' + escaped + u'|';
}
} // namespace

QString SymbolName::printed() const
{
    switch (marker) {
    case Marker::Keyword: return u':' + printedPart(name);
    case Marker::Uninterned: return QStringLiteral("#:") + printedPart(name);
    case Marker::External: return printedPart(package) + u':' + printedPart(name);
    case Marker::Internal: return printedPart(package) + QStringLiteral("::") + printedPart(name);
    case Marker::None: break;
    }
    return printedPart(name);
}

// --- ReadError ---------------------------------------------------------------------------------

bool ReadError::isDelimiterProblem() const
{
    return kind == QLatin1String("extra-close") || kind == QLatin1String("mismatch") || kind == QLatin1String("unclosed")
        || kind.startsWith(QLatin1String("unterminated-"));
}

// --- SyntaxNode --------------------------------------------------------------------------------

const NodeData &SyntaxNode::data() const
{
    return m_data->nodes[size_t(m_index)];
}

SyntaxKind SyntaxNode::kind() const
{
    return isValid() ? data().kind : SyntaxKind::Error;
}

bool SyntaxNode::isPrefix() const
{
    return isValid() && data().kind >= SyntaxKind::Quote;
}

int SyntaxNode::start() const
{
    return isValid() ? data().start : -1;
}

int SyntaxNode::end() const
{
    return isValid() ? data().end : -1;
}

int SyntaxNode::line() const
{
    return isValid() ? m_data->lineAt(data().start) : 0;
}

int SyntaxNode::column() const
{
    return isValid() ? m_data->columnAt(data().start) : 0;
}

int SyntaxNode::lastLine() const
{
    return isValid() ? m_data->lineAt(qMax(data().start, data().end - 1)) : 0;
}

QStringView SyntaxNode::text() const
{
    if (!isValid())
        return {};
    return QStringView(m_data->text).mid(data().start, data().end - data().start);
}

QString SyntaxNode::plainText() const
{
    if (!isValid())
        return {};
    const QStringView source = m_data->text;
    const int end = data().end;
    QString plain;
    plain.reserve(end - data().start);
    auto comment = std::lower_bound(m_data->comments.begin(), m_data->comments.end(), data().start,
                                    [](const SyntaxComment &c, int offset) { return c.end <= offset; });
    int leaf = m_index;
    const int last = data().subtreeEnd;
    bool gap = false; // whitespace or a comment since the last character written
    for (int p = data().start; p < end;) {
        // The next token: a node without children that is not an empty list.
        auto isToken = [](const NodeData &node) {
            return node.childCount == 0 && node.kind != SyntaxKind::List && node.kind != SyntaxKind::Vector;
        };
        while (leaf < last && (!isToken(m_data->nodes[size_t(leaf)]) || m_data->nodes[size_t(leaf)].end <= p))
            ++leaf;
        if (leaf < last && m_data->nodes[size_t(leaf)].start <= p) {
            // A token: copied as it is, spaces in strings and |symbols| included.
            const NodeData &token = m_data->nodes[size_t(leaf)];
            if (gap && !plain.isEmpty() && plain.back() != u'(')
                plain += u' ';
            gap = false;
            plain += source.mid(p, token.end - p);
            p = token.end;
            continue;
        }
        while (comment != m_data->comments.end() && comment->end <= p)
            ++comment;
        if (comment != m_data->comments.end() && comment->start <= p) {
            gap = true;
            p = qMin(end, comment->end);
            continue;
        }
        const QChar c = source[p++];
        if (isWhitespace(c)) {
            gap = true;
            continue;
        }
        if (gap && !plain.isEmpty() && plain.back() != u'(' && c != u')')
            plain += u' ';
        gap = false;
        plain += c;
    }
    return plain;
}

bool SyntaxNode::isComplete() const
{
    return isValid() && !(data().flags & Incomplete);
}

bool SyntaxNode::hasError() const
{
    return isValid() && (data().flags & HasError);
}

bool SyntaxNode::readsOnlySuppressed() const
{
    return isValid() && (data().flags & SuppressedOnly);
}

int SyntaxNode::childCount() const
{
    return isValid() ? data().childCount : 0;
}

SyntaxNode SyntaxNode::child(int i) const
{
    if (!isValid() || i < 0 || i >= data().childCount)
        return {};
    int child = data().firstChild;
    while (i-- > 0)
        child = m_data->nodes[size_t(child)].nextSibling;
    return SyntaxNode(m_data, child);
}

QList<SyntaxNode> SyntaxNode::children() const
{
    QList<SyntaxNode> list;
    if (!isValid())
        return list;
    list.reserve(data().childCount);
    for (int child = data().firstChild; child >= 0; child = m_data->nodes[size_t(child)].nextSibling)
        list.append(SyntaxNode(m_data, child));
    return list;
}

SyntaxNode SyntaxNode::parent() const
{
    if (!isValid() || data().parent < 0)
        return {};
    return SyntaxNode(m_data, data().parent);
}

SyntaxNode SyntaxNode::nextSibling() const
{
    if (!isValid())
        return {};
    if (data().parent >= 0)
        return data().nextSibling >= 0 ? SyntaxNode(m_data, data().nextSibling) : SyntaxNode();
    const auto &top = m_data->topLevel;
    const auto it = std::upper_bound(top.begin(), top.end(), m_index);
    return it == top.end() ? SyntaxNode() : SyntaxNode(m_data, *it);
}

int SyntaxNode::subtreeEnd() const
{
    return isValid() ? data().subtreeEnd : -1;
}

SyntaxNode SyntaxNode::next() const
{
    if (!isValid() || m_index + 1 >= int(m_data->nodes.size()))
        return {};
    return SyntaxNode(m_data, m_index + 1);
}

SyntaxNode SyntaxNode::following() const
{
    if (!isValid() || data().subtreeEnd >= int(m_data->nodes.size()))
        return {};
    return SyntaxNode(m_data, data().subtreeEnd);
}

bool SyntaxNode::isDotted() const
{
    if (!is(SyntaxKind::List))
        return false;
    for (int child = data().firstChild; child >= 0; child = m_data->nodes[size_t(child)].nextSibling) {
        if (m_data->nodes[size_t(child)].kind == SyntaxKind::Dot)
            return true;
    }
    return false;
}

SyntaxNode SyntaxNode::datum() const
{
    if (!isPrefix())
        return {};
    return child(data().kind == SyntaxKind::FeatureConditional ? 1 : 0);
}

SyntaxNode SyntaxNode::feature() const
{
    return is(SyntaxKind::FeatureConditional) ? child(0) : SyntaxNode();
}

bool SyntaxNode::featureIsPositive() const
{
    return is(SyntaxKind::FeatureConditional) && !(data().flags & Negative);
}

int SyntaxNode::dispatchArgument() const
{
    const QStringView token = text();
    if (token.size() < 2 || token.front() != u'#')
        return -1;
    int argument = -1;
    dispatchDigits(token, &argument);
    return argument;
}

SymbolName SyntaxNode::symbol() const
{
    SymbolName result;
    if (!is(SyntaxKind::Symbol))
        return result;
    QStringView token = text();
    if (token.startsWith(u"#:")) {
        result.marker = SymbolName::Marker::Uninterned;
        token = token.mid(2);
    }
    QString part;
    part.reserve(token.size());
    bool bars = false;
    bool markerSeen = result.marker != SymbolName::Marker::None;
    for (int i = 0; i < token.size(); ++i) {
        const QChar c = token[i];
        if (c == u'\\') {
            result.escaped = true;
            if (++i < token.size())
                part += token[i];
        } else if (c == u'|') {
            result.escaped = true;
            bars = !bars;
        } else if (bars) {
            part += c;
        } else if (c == u':' && !markerSeen) {
            markerSeen = true;
            const bool internal = i + 1 < token.size() && token[i + 1] == u':';
            if (internal)
                ++i;
            if (i == (internal ? 1 : 0)) {
                result.marker = SymbolName::Marker::Keyword;
            } else {
                result.marker = internal ? SymbolName::Marker::Internal : SymbolName::Marker::External;
                result.package = part;
            }
            part.clear();
        } else {
            part += c.toUpper();
        }
    }
    result.name = part;
    return result;
}

QString SyntaxNode::stringValue() const
{
    if (!is(SyntaxKind::String))
        return {};
    const QStringView token = text();
    const int last = isComplete() ? int(token.size()) - 1 : int(token.size());
    QString value;
    value.reserve(last);
    for (int i = 1; i < last; ++i) {
        if (token[i] == u'\\' && i + 1 < last)
            ++i;
        value += token[i];
    }
    return value;
}

QString SyntaxNode::operatorName() const
{
    if (!is(SyntaxKind::List))
        return {};
    const SyntaxNode head = child(0);
    const SymbolName name = head.symbol();
    if (name.name.isEmpty() || name.marker == SymbolName::Marker::Keyword || name.marker == SymbolName::Marker::Uninterned)
        return {};
    // |defun| is not DEFUN: a name with lower-case letters matches no table.
    return name.name == name.name.toUpper() ? name.name.toLower() : QLatin1Char('|') + name.name + QLatin1Char('|');
}

// --- SyntaxTree --------------------------------------------------------------------------------

SyntaxTree::SyntaxTree() : m_data(std::make_shared<TreeData>()) {}

const QString &SyntaxTree::text() const
{
    return m_data->text;
}

QList<SyntaxNode> SyntaxTree::topLevel() const
{
    QList<SyntaxNode> list;
    list.reserve(qsizetype(m_data->topLevel.size()));
    for (int index : m_data->topLevel)
        list.append(SyntaxNode(m_data, index));
    return list;
}

QList<SyntaxNode> SyntaxTree::forms() const
{
    QList<SyntaxNode> list;
    list.reserve(qsizetype(m_data->topLevel.size()));
    for (int index : m_data->topLevel) {
        if (!(m_data->nodes[size_t(index)].flags & (StrayCloser | MissingDatum)))
            list.append(SyntaxNode(m_data, index));
    }
    return list;
}

int SyntaxTree::nodeCount() const
{
    return int(m_data->nodes.size());
}

SyntaxNode SyntaxTree::node(int index) const
{
    if (index < 0 || index >= nodeCount())
        return {};
    return SyntaxNode(m_data, index);
}

SyntaxNode SyntaxTree::nodeAt(int offset) const
{
    const auto &top = m_data->topLevel;
    // The last top-level node starting at or before offset.
    auto it = std::upper_bound(top.begin(), top.end(), offset,
                               [this](int value, int index) { return value < m_data->nodes[size_t(index)].start; });
    if (it == top.begin())
        return {};
    int current = *(it - 1);
    if (offset >= m_data->nodes[size_t(current)].end)
        return {};
    for (;;) {
        int inside = -1;
        for (int child = m_data->nodes[size_t(current)].firstChild; child >= 0; child = m_data->nodes[size_t(child)].nextSibling) {
            const NodeData &c = m_data->nodes[size_t(child)];
            if (c.start > offset)
                break;
            if (offset < c.end)
                inside = child;
        }
        if (inside < 0)
            return SyntaxNode(m_data, current);
        current = inside;
    }
}

const QList<SyntaxComment> &SyntaxTree::comments() const
{
    return m_data->comments;
}

QList<SyntaxComment> SyntaxTree::leadingComments(const SyntaxNode &node) const
{
    QList<SyntaxComment> result;
    if (!node.isValid())
        return result;
    const QStringView text = m_data->text;
    // Comments after whatever comes before the node: its previous sibling, or its parent's
    // opening, or the start of the text.
    int floor = 0;
    const SyntaxNode parent = node.parent();
    for (const SyntaxNode &sibling : parent.isValid() ? parent.children() : QList<SyntaxNode>{}) {
        if (sibling.start() >= node.start())
            break;
        floor = sibling.end();
    }
    if (!parent.isValid()) {
        const auto &top = m_data->topLevel;
        const auto it = std::lower_bound(top.begin(), top.end(), node.index());
        if (it != top.begin())
            floor = m_data->nodes[size_t(*(it - 1))].end;
    } else if (floor == 0) {
        floor = parent.start() + 1;
    }
    const auto &comments = m_data->comments;
    auto it = std::lower_bound(comments.begin(), comments.end(), node.start(),
                               [](const SyntaxComment &c, int offset) { return c.end <= offset; });
    int top = node.start();
    while (it != comments.begin()) {
        const SyntaxComment &c = *(it - 1);
        if (c.start < floor)
            break;
        // Only whitespace, and at most one line break, between the comment and what it is above.
        const QStringView gap = text.mid(c.end, top - c.end);
        bool blank = false;
        int breaks = 0;
        for (QChar ch : gap) {
            blank = blank || !isWhitespace(ch);
            breaks += ch == u'\n';
        }
        // A ';' comment stops before its newline, which the gap then holds.
        if (blank || breaks > 1)
            break;
        // The comment must begin its line: "(a) ; about a" is a's, not the next form's.
        int lineStart = c.start;
        while (lineStart > 0 && text[lineStart - 1] != u'\n')
            --lineStart;
        bool beginsLine = true;
        for (QChar ch : text.mid(lineStart, c.start - lineStart))
            beginsLine = beginsLine && isWhitespace(ch);
        if (!beginsLine)
            break;
        result.prepend(c);
        top = c.start;
        --it;
    }
    return result;
}

const QList<ReadError> &SyntaxTree::errors() const
{
    return m_data->errors;
}

ReadError SyntaxTree::delimiterError() const
{
    return m_data->delimiterError;
}

ReadError SyntaxTree::firstError() const
{
    if (m_data->delimiterError.isValid())
        return m_data->delimiterError;
    return m_data->errors.isEmpty() ? ReadError() : m_data->errors.first();
}

bool SyntaxTree::isComplete() const
{
    return m_data->complete;
}

int SyntaxTree::lineAt(int offset) const
{
    return m_data->lineAt(qBound(0, offset, int(m_data->text.size())));
}

int SyntaxTree::columnAt(int offset) const
{
    return m_data->columnAt(qBound(0, offset, int(m_data->text.size())));
}

int SyntaxTree::lineCount() const
{
    return int(m_data->lineStarts.size());
}

