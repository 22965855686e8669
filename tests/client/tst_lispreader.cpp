// LispReader: Common Lisp text as a concrete syntax tree. The golden tests print the tree and
// the outline of data/lispreader/*.lisp beside their .tree and .outline references
// (tests/refresh-golden.sh rewrites them); the rows pin one construct each; the hostile
// inputs must be read in bounded time without a crash.

#include "lispsource/LispFile.h"
#include "lispsource/LispReader.h"
#include "lispsource/LispSource.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include <vector>

#include "../common/GoldenFile.h"

namespace {

QString kindName(SyntaxKind kind)
{
    static const char *const names[] = {
        "Symbol", "Number", "String", "Character", "BitVector", "LabelReference", "Dot", "Error", "List", "Vector",
        "Quote", "Backquote", "Unquote", "UnquoteSplicing", "Function", "ReadEval", "Pathname", "Complex", "Array",
        "Structure", "Label", "Dispatch", "FeatureConditional"};
    return QString::fromLatin1(names[int(kind)]);
}

QString markerName(SymbolName::Marker marker)
{
    switch (marker) {
    case SymbolName::Marker::None: return QStringLiteral("");
    case SymbolName::Marker::External: return QStringLiteral(" external");
    case SymbolName::Marker::Internal: return QStringLiteral(" internal");
    case SymbolName::Marker::Keyword: return QStringLiteral(" keyword");
    case SymbolName::Marker::Uninterned: return QStringLiteral(" uninterned");
    }
    return {};
}

QString quoted(QStringView text, int limit = 48)
{
    QString shown = text.toString();
    shown.replace(u'\\', QStringLiteral("\\\\")).replace(u'\n', QStringLiteral("\\n")).replace(u'"', QStringLiteral("\\\""));
    if (shown.size() > limit)
        shown = shown.left(limit - 3) + QStringLiteral("...");
    return u'"' + shown + u'"';
}

QString position(const SyntaxTree &tree, int offset)
{
    return QStringLiteral("%1:%2").arg(tree.lineAt(offset)).arg(tree.columnAt(offset));
}

// One line a node, indented by depth (a loop over indices: depth[parent] + 1), then the
// comments and the errors.
QString printTree(const SyntaxTree &tree)
{
    QString out;
    std::vector<int> depth(size_t(tree.nodeCount()), 0);
    for (int i = 0; i < tree.nodeCount(); ++i) {
        const SyntaxNode node = tree.node(i);
        const SyntaxNode parent = node.parent();
        depth[size_t(i)] = parent.isValid() ? depth[size_t(parent.index())] + 1 : 0;
        QString line = QString(depth[size_t(i)] * 2, u' ') + kindName(node.kind())
            + QStringLiteral(" %1-%2").arg(position(tree, node.start()), position(tree, node.end()));
        if (node.childCount() == 0 || node.is(SyntaxKind::Error))
            line += u' ' + quoted(node.text());
        if (node.is(SyntaxKind::Symbol)) {
            const SymbolName symbol = node.symbol();
            line += QStringLiteral(" [%1%2%3]").arg(symbol.package.isEmpty() ? QString() : symbol.package + u' ',
                                                   quoted(symbol.name), markerName(symbol.marker));
        }
        if (node.is(SyntaxKind::String))
            line += QStringLiteral(" value=") + quoted(node.stringValue());
        if (node.dispatchArgument() >= 0)
            line += QStringLiteral(" argument=%1").arg(node.dispatchArgument());
        if (node.is(SyntaxKind::FeatureConditional))
            line += node.featureIsPositive() ? QStringLiteral(" #+") : QStringLiteral(" #-");
        if (node.isDotted())
            line += QStringLiteral(" dotted");
        if (!node.isComplete())
            line += QStringLiteral(" INCOMPLETE");
        if (node.hasError())
            line += QStringLiteral(" ERROR");
        out += line + u'\n';
    }
    for (const SyntaxComment &c : tree.comments())
        out += QStringLiteral("comment %1-%2 %3 %4\n")
                   .arg(position(tree, c.start), position(tree, c.end), c.block ? QStringLiteral("block") : QStringLiteral("line"),
                        quoted(QStringView(tree.text()).mid(c.start, c.end - c.start), 30));
    for (const ReadError &e : tree.errors())
        out += QStringLiteral("error %1 %2:%3 %4\n").arg(e.kind).arg(e.line).arg(e.column).arg(e.message);
    out += QStringLiteral("complete: %1\n").arg(tree.isComplete() ? QStringLiteral("yes") : QStringLiteral("no"));
    out += QStringLiteral("first error: %1\n").arg(tree.firstError().isValid() ? tree.firstError().message : QStringLiteral("none"));
    return out;
}

// One line a top-level form: lines, package in force, label, then what it defines.
QString printOutline(const LispFile &file)
{
    QString out;
    for (const TopLevelForm &form : file.forms()) {
        QString line = QStringLiteral("%1-%2 [%3] %4").arg(form.firstLine, 3).arg(form.lastLine, 3).arg(form.package, form.label);
        const DefinedName &d = form.definition;
        if (d.isValid()) {
            line += QStringLiteral(" | %1 %2%3").arg(d.kind, d.package.isEmpty() ? QString() : d.package + QStringLiteral("::"), d.name);
            if (!d.lambdaList.isEmpty())
                line += QStringLiteral(" lambda-list=") + d.lambdaList;
            if (!d.initForm.isEmpty())
                line += QStringLiteral(" init=") + d.initForm;
            if (!d.qualifiers.isEmpty())
                line += QStringLiteral(" qualifiers=") + d.qualifiers.join(u',');
            if (!d.specializers.isEmpty())
                line += QStringLiteral(" specializers=") + d.specializers.join(u',');
            if (!d.documentation.isEmpty())
                line += QStringLiteral(" doc=") + quoted(d.documentation, 60);
            const QList<SyntaxComment> comments = file.tree().leadingComments(form.node);
            if (!comments.isEmpty())
                line += QStringLiteral(" comment=") + quoted(QStringView(file.text()).mid(comments.first().start,
                                                                                          comments.last().end - comments.first().start), 40);
        }
        if (!form.node.isComplete())
            line += QStringLiteral(" INCOMPLETE");
        out += line + u'\n';
    }
    return out;
}

QString nested(int depth, const QString &inside = QStringLiteral("x"))
{
    return QString(depth, u'(') + inside + QString(depth, u')');
}

} // namespace

class TestLispReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void treesOfSampleFilesMatchTheirReferences_data();
    void treesOfSampleFilesMatchTheirReferences();

    void readsEachConstructAsItsKind_data();
    void readsEachConstructAsItsKind();
    void offsetsLinesAndColumnsAreExact();
    void symbolNamesAreTheReadersNames_data();
    void symbolNamesAreTheReadersNames();
    void printedNamesReadBackAsTheSameName_data();
    void printedNamesReadBackAsTheSameName();
    void prefixesHoldTheirDatum();
    void stringsAndCharactersHideDelimiters();
    void commentsAreTriviaWithPositions();
    void leadingCommentsAreTheCommentLinesDirectlyAbove();
    void nodeAtFindsTheInnermostNode();

    void errorsSayWhatAndWhere_data();
    void errorsSayWhatAndWhere();
    void delimiterErrorsAreCheckParensExactly_data();
    void delimiterErrorsAreCheckParensExactly();
    void checksThatATextReadsAsExactlyNForms_data();
    void checksThatATextReadsAsExactlyNForms();

    void deepNestingIsReadWithoutRecursion();
    void handlesInputsTheFuzzerFound_data();
    void handlesInputsTheFuzzerFound();
    void hostileInputsAreBounded_data();
    void hostileInputsAreBounded();

    void outlinesTopLevelFormsWithThePackageInForce();
    void findsAFormByKindAndName_data();
    void findsAFormByKindAndName();
    void findsFormsBehindReaderConditionals();
    void explainsAMissingOrAmbiguousForm();
    void findsSymbolOccurrencesOutsideStringsAndComments();
};

// --- golden files -----------------------------------------------------------------------------

void TestLispReader::treesOfSampleFilesMatchTheirReferences_data()
{
    QTest::addColumn<QString>("input");
    const QDir dir(QStringLiteral(DUET_SOURCE_DIR "/tests/client/data/lispreader"));
    const QStringList inputs = dir.entryList({QStringLiteral("*.lisp")}, QDir::Files, QDir::Name);
    QVERIFY(!inputs.isEmpty());
    for (const QString &name : inputs)
        QTest::newRow(qPrintable(name)) << dir.filePath(name);
}

void TestLispReader::treesOfSampleFilesMatchTheirReferences()
{
    QFETCH(QString, input);
    QFile in(input);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(in.readAll());
    const LispFile file(text);
    DUET_COMPARE_GOLDEN(printTree(file.tree()), input + QStringLiteral(".tree"));
    DUET_COMPARE_GOLDEN(printOutline(file), input + QStringLiteral(".outline"));
}

// --- constructs --------------------------------------------------------------------------------

void TestLispReader::readsEachConstructAsItsKind_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("kinds"); // of every node, in document order
    QTest::newRow("list") << "(a b)" << "List Symbol Symbol";
    QTest::newRow("dotted list") << "(a . b)" << "List Symbol Dot Symbol";
    QTest::newRow("vector") << "#(1 x)" << "Vector Number Symbol";
    QTest::newRow("numbers") << "1 -2 3/4 5.0 .5 1. 6d0 #x1F #b-101 #o17 #36rZZ #3r12/21"
                             << "Number Number Number Number Number Number Number Number Number Number Number Number";
    QTest::newRow("potential numbers are symbols") << "1+ +. - 1e 1/ 1.2.3" << "Symbol Symbol Symbol Symbol Symbol Symbol";
    QTest::newRow("characters") << "#\\( #\\) #\\Space #\\\" #\\; #\\a" << "Character Character Character Character Character Character";
    QTest::newRow("strings") << "\"a (b\" \"\\\"\"" << "String String";
    QTest::newRow("quote family") << "'a `(b ,c ,@d ,.e) #'f"
                                  << "Quote Symbol Backquote List Symbol Unquote Symbol UnquoteSplicing Symbol UnquoteSplicing Symbol Function Symbol";
    QTest::newRow("feature expressions") << "#+sbcl a #-(or ecl abcl) (b)"
                                         << "FeatureConditional Symbol Symbol FeatureConditional List Symbol Symbol Symbol List Symbol";
    QTest::newRow("read-time forms") << "#.(+ 1 2) #p\"/tmp\" #c(1 2) #2A((1)) #s(p :x 1)"
                                     << "ReadEval List Symbol Number Number Pathname String Complex List Number Number "
                                        "Array List List Number Structure List Symbol Symbol Number";
    QTest::newRow("labels") << "#1=(a . #1#)" << "Label List Symbol Dot LabelReference";
    QTest::newRow("bit vector and uninterned") << "#*1011 #:foo" << "BitVector Symbol";
    QTest::newRow("user dispatch macro") << "#?\"x\"" << "Dispatch String";
    QTest::newRow("brackets are constituents") << "[a]" << "Symbol";
    QTest::newRow("comments are not nodes") << "; (a)\n#| (b) |# c" << "Symbol";
}

void TestLispReader::readsEachConstructAsItsKind()
{
    QFETCH(QString, text);
    QFETCH(QString, kinds);
    const SyntaxTree tree = SyntaxTree::read(text);
    QStringList actual;
    for (int i = 0; i < tree.nodeCount(); ++i)
        actual << kindName(tree.node(i).kind());
    QCOMPARE(actual.join(u' '), kinds);
    QVERIFY2(tree.errors().isEmpty(), qPrintable(tree.firstError().message));
}

void TestLispReader::offsetsLinesAndColumnsAreExact()
{
    const QString text = QStringLiteral("(defun f (x)\n  ;; twice\n  (* x 2))\n\n'sym");
    const SyntaxTree tree = SyntaxTree::read(text);
    const QList<SyntaxNode> forms = tree.forms();
    QCOMPARE(forms.size(), 2);
    const SyntaxNode defun = forms[0];
    QCOMPARE(defun.start(), 0);
    QCOMPARE(defun.end(), int(text.indexOf(QStringLiteral("2))")) + 3));
    QCOMPARE(defun.line(), 1);
    QCOMPARE(defun.lastLine(), 3);
    const SyntaxNode body = defun.child(3);
    QCOMPARE(body.text(), u"(* x 2)");
    QCOMPARE(body.line(), 3);
    QCOMPARE(body.column(), 3);
    QCOMPARE(body.parent(), defun);
    QCOMPARE(body.nextSibling(), SyntaxNode());
    QCOMPARE(defun.nextSibling(), forms[1]);
    QCOMPARE(forms[1].text(), u"'sym");
    QCOMPARE(forms[1].line(), 5);
    QCOMPARE(forms[1].datum().column(), 2);
    QCOMPARE(tree.lineCount(), 5);
    // The subtree is an index range.
    QCOMPARE(defun.subtreeEnd(), forms[1].index());
    QCOMPARE(defun.following(), forms[1]);
}

void TestLispReader::symbolNamesAreTheReadersNames_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("package");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("marker");
    using M = SymbolName::Marker;
    QTest::newRow("plain") << "foo" << "" << "FOO" << int(M::None);
    QTest::newRow("external") << "pkg:x" << "PKG" << "X" << int(M::External);
    QTest::newRow("internal") << "cl-user::x" << "CL-USER" << "X" << int(M::Internal);
    QTest::newRow("keyword") << ":kw" << "" << "KW" << int(M::Keyword);
    QTest::newRow("uninterned") << "#:Foo" << "" << "FOO" << int(M::Uninterned);
    QTest::newRow("bars keep case and spaces") << "|Mixed Case|" << "" << "Mixed Case" << int(M::None);
    QTest::newRow("bars in the middle") << "ab|cD|e" << "" << "ABcDE" << int(M::None);
    QTest::newRow("backslash") << "a\\ b\\c" << "" << "A Bc" << int(M::None);
    QTest::newRow("escaped colon is no package") << "a\\:b" << "" << "A:B" << int(M::None);
    QTest::newRow("escaped package and name") << "|my pkg|::|x|" << "my pkg" << "x" << int(M::Internal);
    QTest::newRow("escaped digits make a symbol") << "\\1" << "" << "1" << int(M::None);
}

void TestLispReader::symbolNamesAreTheReadersNames()
{
    QFETCH(QString, text);
    QFETCH(QString, package);
    QFETCH(QString, name);
    QFETCH(int, marker);
    const SyntaxTree tree = SyntaxTree::read(text);
    QCOMPARE(tree.nodeCount(), 1);
    QVERIFY(tree.node(0).is(SyntaxKind::Symbol));
    const SymbolName symbol = tree.node(0).symbol();
    QCOMPARE(symbol.package, package);
    QCOMPARE(symbol.name, name);
    QCOMPARE(int(symbol.marker), marker);
}

void TestLispReader::printedNamesReadBackAsTheSameName_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("printed");
    QTest::newRow("plain") << "Area" << "area";
    QTest::newRow("keyword") << ":AROUND" << ":around";
    QTest::newRow("package") << "Geom::Circle" << "geom::circle";
    QTest::newRow("mixed case") << "|Mixed Case|" << "|Mixed Case|";
    QTest::newRow("escapes inside bars") << "|a\\|b\\\\c|" << "|a\\|b\\\\c|";
    QTest::newRow("looks like a number") << "\\12" << "|12|";
    QTest::newRow("dots") << "\\.." << "|..|";
    QTest::newRow("colon in the name") << "a\\:b" << "|A:B|";
    QTest::newRow("uninterned") << "#:foo" << "#:foo";
}

void TestLispReader::printedNamesReadBackAsTheSameName()
{
    QFETCH(QString, text);
    QFETCH(QString, printed);
    const SymbolName symbol = SyntaxTree::read(text).node(0).symbol();
    QCOMPARE(symbol.printed(), printed);
    const SymbolName again = SyntaxTree::read(printed).node(0).symbol();
    QCOMPARE(again.name, symbol.name);
    QCOMPARE(again.package, symbol.package);
    QCOMPARE(int(again.marker), int(symbol.marker));
}

void TestLispReader::prefixesHoldTheirDatum()
{
    const SyntaxTree tree = SyntaxTree::read(QStringLiteral("'#'f #-(and x y) #+ecl z #2A((1))"));
    const QList<SyntaxNode> forms = tree.forms();
    QCOMPARE(forms.size(), 3);
    QVERIFY(forms[0].is(SyntaxKind::Quote));
    QCOMPARE(forms[0].datum().kind(), SyntaxKind::Function);
    QCOMPARE(forms[0].datum().datum().text(), u"f");
    const SyntaxNode feature = forms[1];
    QVERIFY(!feature.featureIsPositive());
    QCOMPARE(feature.feature().text(), u"(and x y)");
    QVERIFY(feature.datum().is(SyntaxKind::FeatureConditional)); // #+ecl z guarded by #-(and x y)
    QVERIFY(feature.datum().featureIsPositive());
    QCOMPARE(feature.datum().datum().text(), u"z");
    QCOMPARE(forms[2].dispatchArgument(), 2);
    QCOMPARE(forms[2].datum().text(), u"((1))");
}

void TestLispReader::stringsAndCharactersHideDelimiters()
{
    const SyntaxTree tree = SyntaxTree::read(QStringLiteral("(list \"a) ; |\" #\\) #\\( #\\\" #\\; |x)y|)"));
    QVERIFY(tree.errors().isEmpty());
    const QList<SyntaxNode> forms = tree.forms();
    QCOMPARE(forms.size(), 1);
    QCOMPARE(forms[0].childCount(), 7);
    QCOMPARE(forms[0].child(1).stringValue(), u"a) ; |");
    QCOMPARE(forms[0].child(6).symbol().name, u"x)y");
    QVERIFY(tree.comments().isEmpty());
}

void TestLispReader::commentsAreTriviaWithPositions()
{
    const QString text = QStringLiteral("a ; one\n#| two #| nested |# |#b");
    const SyntaxTree tree = SyntaxTree::read(text);
    QCOMPARE(tree.comments().size(), 2);
    QCOMPARE(tree.comments()[0], (SyntaxComment{2, 7, false}));
    QCOMPARE(tree.comments()[1], (SyntaxComment{8, int(text.size()) - 1, true}));
    // Every byte is a node, a comment or whitespace between them.
    QCOMPARE(tree.forms().size(), 2);
    QCOMPARE(tree.forms()[1].start(), int(text.size()) - 1);
}

void TestLispReader::leadingCommentsAreTheCommentLinesDirectlyAbove()
{
    const QString text = QStringLiteral("(a) ; a's own\n;; about b\n;; still b\n(b)\n\n;; separated by a blank line\n\n(c)\n"
                                        "#| block |# (d)");
    const SyntaxTree tree = SyntaxTree::read(text);
    const QList<SyntaxNode> forms = tree.forms();
    QCOMPARE(forms.size(), 4);
    QVERIFY(tree.leadingComments(forms[0]).isEmpty());
    const QList<SyntaxComment> aboveB = tree.leadingComments(forms[1]);
    QCOMPARE(aboveB.size(), 2);
    QCOMPARE(QStringView(text).mid(aboveB[0].start, aboveB[1].end - aboveB[0].start), u";; about b\n;; still b");
    QVERIFY(tree.leadingComments(forms[2]).isEmpty());
    QCOMPARE(tree.leadingComments(forms[3]).size(), 1);
}

void TestLispReader::nodeAtFindsTheInnermostNode()
{
    const QString text = QStringLiteral("(a (b \"c\") 'd)  e");
    const SyntaxTree tree = SyntaxTree::read(text);
    QCOMPARE(tree.nodeAt(int(text.indexOf(u'c'))).kind(), SyntaxKind::String);
    QCOMPARE(tree.nodeAt(int(text.indexOf(u'b'))).text(), u"b");
    QCOMPARE(tree.nodeAt(int(text.indexOf(u' '))).text(), text.left(text.indexOf(u')', 10) + 1));
    QCOMPARE(tree.nodeAt(int(text.indexOf(u'\''))).kind(), SyntaxKind::Quote);
    QVERIFY(!tree.nodeAt(int(text.indexOf(QStringLiteral("  ")))).isValid());
    QCOMPARE(tree.nodeAt(int(text.size()) - 1).text(), u"e");
}

// --- errors ------------------------------------------------------------------------------------

void TestLispReader::errorsSayWhatAndWhere_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");
    QTest::newRow("extra close") << "(a))" << "extra-close" << 1 << 4 << "Extra ')' at line 1, column 4";
    QTest::newRow("unclosed") << "(a\n(b)" << "unclosed" << 1 << 1
                              << "Unclosed '(' opened at line 1, column 1 (the form at line 2, column 1 is read inside it)";
    QTest::newRow("string") << "(a \"b" << "unterminated-string" << 1 << 4 << "Unterminated string starting at line 1, column 4";
    QTest::newRow("block comment") << "#| a" << "unterminated-comment" << 1 << 1
                                   << "Unterminated block comment '#|' starting at line 1, column 1";
    QTest::newRow("escaped symbol") << "|ab" << "unterminated-symbol" << 1 << 1
                                    << "Unterminated |escaped| symbol starting at line 1, column 1";
    QTest::newRow("dangling character") << "#\\" << "incomplete-token" << 1 << 1 << "The text ends inside '#\\' at line 1, column 1";
    QTest::newRow("prefix before a close") << "(a ')" << "missing-datum" << 1 << 4
                                           << "''' at line 1, column 4 has no form after it (a ')' at line 1, column 5 comes first)";
    QTest::newRow("prefix at the end") << "#+sbcl" << "missing-datum" << 1 << 1
                                       << "The text ends before the form that '#+' at line 1, column 1 applies to";
    QTest::newRow("dot first") << "(. a)" << "dot" << 1 << 2
                               << "A consing dot at line 1, column 2 must stand between a list's elements and its last element";
    QTest::newRow("two after the dot") << "(a . b c)" << "dot" << 1 << 4
                                       << "A consing dot at line 1, column 4 must stand between a list's elements and its last element";
    QTest::newRow("dot in a vector") << "#(a . b)" << "dot" << 1 << 5 << "A consing dot at line 1, column 5 stands outside a list";
    QTest::newRow("dot at top level") << "." << "dot" << 1 << 1 << "A consing dot at line 1, column 1 stands outside a list";
    QTest::newRow("unreadable") << "#<foo>" << "unreadable" << 1 << 1 << "'#<' at line 1, column 1 starts an object that cannot be read back";
    QTest::newRow("lone sharp") << "(# a)" << "dispatch" << 1 << 2 << "'#' at line 1, column 2 is not followed by a dispatch character";
    QTest::newRow("dots") << ".." << "dots" << 1 << 1 << "'..' at line 1, column 1: a token of dots only cannot be read";
    QTest::newRow("hex digit") << "#x1G" << "invalid-number" << 1 << 1 << "'#x1G' at line 1, column 1 is not a number in its radix";
    QTest::newRow("bit") << "#*012" << "invalid-number" << 1 << 1 << "'#*012' at line 1, column 1: only 0 and 1 may follow #*";
    QTest::newRow("radix out of range") << "#37r1" << "invalid-number" << 1 << 1 << "'#37r1' at line 1, column 1 is not a number in its radix";
    QTest::newRow("label without number") << "#=x" << "label" << 1 << 1 << "'#=' at line 1, column 1 needs a label number, as in #1=";
}

void TestLispReader::errorsSayWhatAndWhere()
{
    QFETCH(QString, text);
    QFETCH(QString, kind);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, message);
    const ReadError error = SyntaxTree::read(text).firstError();
    QVERIFY(error.isValid());
    QCOMPARE(error.kind, kind);
    QCOMPARE(error.line, line);
    QCOMPARE(error.column, column);
    QCOMPARE(error.message, message);
}

void TestLispReader::delimiterErrorsAreCheckParensExactly_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("balanced") << "(a \"(\" #\\( |(|)";
    QTest::newRow("extra") << "(a))";
    QTest::newRow("unclosed with column-one form") << "(defun a ()\n(defun b ())";
    QTest::newRow("string wins over unclosed") << "(a \"b";
    QTest::newRow("extra wins over string") << ") \"b";
    QTest::newRow("comment") << "(a #| b";
    QTest::newRow("symbol") << "(a |b";
    QTest::newRow("vector") << "#(a (b)";
    QTest::newRow("other errors are not delimiter problems") << "(a . b c) #<x> (x ')";
}

void TestLispReader::delimiterErrorsAreCheckParensExactly()
{
    QFETCH(QString, text);
    const ReadError error = SyntaxTree::read(text).delimiterError();
    const ParenCheck check = LispSource::checkParens(text, LispSource::Brackets::Parentheses);
    QCOMPARE(check.ok, !error.isValid());
    QCOMPARE(check.kind, error.kind);
    QCOMPARE(check.message, error.message);
    QCOMPARE(check.offset, error.offset);
}

void TestLispReader::checksThatATextReadsAsExactlyNForms_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("expected");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("message");
    QTest::newRow("one defun") << ";; new version\n(defun f (x)\n  (1+ x))\n" << 1 << true << "";
    QTest::newRow("two forms") << "(defun f ())\n(defun g ())" << 2 << true << "";
    QTest::newRow("one more than claimed") << "(defun f ())\n(defun g ())" << 1 << false
                                           << "The text reads as 2 forms, not 1: form 2 starts at line 2, column 1";
    QTest::newRow("fewer") << "(defun f ())" << 2 << false << "The text reads as 1 form, not 2";
    QTest::newRow("nothing") << "; only a comment" << 1 << false << "The text holds no form (only whitespace and comments); 1 expected";
    QTest::newRow("unclosed") << "(defun f (x)\n  (1+ x)" << 1 << false << "Unclosed '(' opened at line 1, column 1";
    QTest::newRow("extra close") << "(defun f ()))" << 1 << false << "Extra ')' at line 1, column 13";
    QTest::newRow("misplaced dot") << "(f . a b)" << 1 << false
                                   << "A consing dot at line 1, column 4 must stand between a list's elements and its last element";
    QTest::newRow("reader conditional counts once") << "#+sbcl (f) #-sbcl (g)" << 2 << true << "";
}

void TestLispReader::checksThatATextReadsAsExactlyNForms()
{
    QFETCH(QString, text);
    QFETCH(int, expected);
    QFETCH(bool, ok);
    QFETCH(QString, message);
    const FormCheck check = LispReader::checkForms(text, expected);
    QCOMPARE(check.ok, ok);
    QCOMPARE(check.message, message);
}

// --- hostile input -----------------------------------------------------------------------------

void TestLispReader::deepNestingIsReadWithoutRecursion()
{
    const int depth = 100000;
    const QString closed = nested(depth);
    const SyntaxTree tree = SyntaxTree::read(closed);
    QVERIFY(tree.isComplete());
    QVERIFY(tree.errors().isEmpty());
    QCOMPARE(tree.nodeCount(), depth + 1);
    QCOMPARE(tree.nodeAt(depth).text(), u"x");
    QCOMPARE(tree.nodeAt(depth).line(), 1);
    QCOMPARE(LispFile::symbolsIn(tree.forms().first()).size(), 1);
    QVERIFY(LispSource::checkParens(closed).ok);
    QVERIFY(LispSource::isComplete(closed));
    QCOMPARE(LispSource::splitTopLevelForms(closed).size(), 1);

    const QString open = QString(depth, u'(');
    const SyntaxTree openTree = SyntaxTree::read(open);
    QVERIFY(!openTree.isComplete());
    QCOMPARE(openTree.delimiterError().kind, QStringLiteral("unclosed"));
    QCOMPARE(openTree.delimiterError().offset, 0);
    QVERIFY(!LispSource::isComplete(open));
    QCOMPARE(LispSource::indentationForNewLine(open), depth);
    QCOMPARE(LispSource::enclosingOperator(open + QStringLiteral("foo "), depth + 4).operatorName, QStringLiteral("foo"));

    const LispFile file(QStringLiteral("(defun deep ()\n  '") + nested(depth, QStringLiteral("deep")) + QStringLiteral(")"));
    QCOMPARE(file.forms().size(), 1);
    QCOMPARE(file.find(QStringLiteral("defun deep")).forms.size(), 1);
    QCOMPARE(file.occurrences(QStringLiteral("deep")).size(), 2);
}

// Each row an input fuzz_lisp_reader found (shrunk by hand): the tree keeps its shape, and a
// definition's label finds its form again.
void TestLispReader::handlesInputsTheFuzzerFound_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("unterminated symbol: its subtree range") << "(a |b";
    QTest::newRow("quotes closed by ')': nested spans") << "(a ''' )";
    QTest::newRow("feature conditional as a qualifier") << "(defmethod area #+sbcl :around ((c circle)) 1)";
    QTest::newRow("define- by convention, named by a string") << "(define-thing \"not a shape\" 1)";
    QTest::newRow("escaped qualifier across lines") << "(defmethod area :x |a\nB| ((c circle)) 1)";
    QTest::newRow("dotted definition") << "(defmethod area . b)";
    QTest::newRow("dotted parameter") << "(defmethod area ((c . circle) (s square)) 1)";
    QTest::newRow("dotted lambda list") << "(defmethod area ((c circle) . rest) 1)";
    QTest::newRow("escaped parenthesis in the operator") << "(define-odd\\( thing 1)";
    QTest::newRow("escaped parenthesis in a define- operator named by a string") << "(|DEFINE-ODD(| \"thing\" 1)";
}

void TestLispReader::handlesInputsTheFuzzerFound()
{
    QFETCH(QString, text);
    const LispFile file(text);
    const SyntaxTree &tree = file.tree();
    for (int i = 0; i < tree.nodeCount(); ++i) {
        const SyntaxNode node = tree.node(i);
        QVERIFY(node.subtreeEnd() > i && node.subtreeEnd() <= tree.nodeCount());
        const SyntaxNode parent = node.parent();
        QVERIFY(!parent.isValid() || (parent.start() <= node.start() && node.end() <= parent.end()));
    }
    for (const TopLevelForm &form : file.forms()) {
        if (form.definition.isValid())
            QVERIFY2(file.find(form.label).isUnique(), qPrintable(form.label));
    }
}

void TestLispReader::hostileInputsAreBounded_data()
{
    QTest::addColumn<QString>("text");
    const int n = 200000;
    QTest::newRow("quotes") << QString(n, u'\'') + u'x';
    QTest::newRow("quotes without datum") << QString(n, u'\'');
    QTest::newRow("feature conditionals") << QStringLiteral("#+a ").repeated(n / 4) + u'x';
    QTest::newRow("nested block comments, never closed") << QStringLiteral("#|").repeated(n / 2);
    QTest::newRow("closers only") << QString(n, u')');
    QTest::newRow("vectors") << QStringLiteral("#(").repeated(n / 2);
    QTest::newRow("prefixes before closers") << QStringLiteral("(' ").repeated(n / 3) + QString(n / 3, u')');
    QTest::newRow("dots") << QStringLiteral("(a . . . ").repeated(n / 8);
    QTest::newRow("one huge token") << QString(n, u'a');
    QTest::newRow("one huge line comment") << u';' + QString(n, u'(');
}

void TestLispReader::hostileInputsAreBounded()
{
    QFETCH(QString, text);
    QElapsedTimer clock;
    clock.start();
    const LispFile file(text);
    (void)file.tree().firstError();
    (void)file.occurrences(QStringLiteral("x"));
    (void)LispSource::checkParens(text);
    (void)LispSource::splitTopLevelForms(text);
    // Generous: a debug build on a loaded machine reads these in well under a second. A
    // quadratic walk would take minutes.
    QVERIFY2(clock.elapsed() < 20000, qPrintable(QString::number(clock.elapsed())));
}

// --- LispFile ----------------------------------------------------------------------------------

void TestLispReader::outlinesTopLevelFormsWithThePackageInForce()
{
    const LispFile file(QStringLiteral("(defun a ())\n(in-package :app)\n(defun b ())\n(cl:in-package \"CL-USER\")\n(defun c ())\n"
                                       "(progn (in-package :nope))\n(defun d ())"));
    QStringList packages;
    QStringList labels;
    for (const TopLevelForm &form : file.forms()) {
        packages << form.package;
        labels << form.label;
    }
    // A top-level progn's forms are top-level forms (CLHS 3.2.3.1): its in-package counts.
    QCOMPARE(packages, QStringList({"COMMON-LISP-USER", "COMMON-LISP-USER", "APP", "APP", "COMMON-LISP-USER",
                                    "COMMON-LISP-USER", "COMMON-LISP-USER", "NOPE"}));
    QCOMPARE(labels, QStringList({"defun a", "in-package :app", "defun b", "in-package \"CL-USER\"", "defun c",
                                  "progn", "in-package :nope", "defun d"}));
    QCOMPARE(file.forms()[2].firstLine, 3);
}

void TestLispReader::findsAFormByKindAndName_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<QList<int>>("lines"); // first lines of the matches
    QTest::newRow("defun") << "defun helper" << QList<int>{1};
    QTest::newRow("case does not matter") << "DEFUN Helper" << QList<int>{1};
    QTest::newRow("a kind instead of the operator") << "function helper" << QList<int>{1};
    QTest::newRow("every method") << "defmethod area" << QList<int>{3, 4, 5, 6};
    QTest::newRow("the primary method on circle") << "defmethod area (circle)" << QList<int>{3};
    QTest::newRow("trailing t is implied") << "defmethod area (circle t)" << QList<int>{3};
    QTest::newRow("the around method") << "defmethod area :around (circle)" << QList<int>{4};
    QTest::newRow("qualifier only") << "defmethod area :around" << QList<int>{4};
    QTest::newRow("eql specializer") << "defmethod area ((eql :unit))" << QList<int>{5};
    QTest::newRow("as in the lambda list") << "defmethod area ((s square))" << QList<int>{6};
    QTest::newRow("setf function") << "defun (setf thing)" << QList<int>{7};
    QTest::newRow("variable") << "defparameter *x*" << QList<int>{8};
    QTest::newRow("package-qualified name") << "defparameter app::*x*" << QList<int>{};
    QTest::newRow("struct with options") << "defstruct point" << QList<int>{9};
    QTest::newRow("a test, not a definition") << "deftest area-works" << QList<int>{10};
    QTest::newRow("wrong kind") << "defvar helper" << QList<int>{};
}

void TestLispReader::findsAFormByKindAndName()
{
    QFETCH(QString, query);
    QFETCH(QList<int>, lines);
    const LispFile file(QStringLiteral(
        "(defun helper (x) x)\n"
        "(defgeneric area (shape))\n"
        "(defmethod area ((c circle)) (* pi (r c) (r c)))\n"
        "(defmethod area :around ((c circle)) (call-next-method))\n"
        "(defmethod area ((k (eql :unit))) 1)\n"
        "(defmethod area ((s square) &optional scale) (declare (ignore scale)) (* (side s) (side s)))\n"
        "(defun (setf thing) (value object) value)\n"
        "(defparameter *x* \"(defun helper)\")\n"
        "(defstruct (point (:conc-name p-)) x y)\n"
        "(deftest area-works (is (= 1 (area :unit))))\n"));
    const FormMatches matches = file.find(query);
    QList<int> actual;
    for (const TopLevelForm &form : matches.forms)
        actual << form.firstLine;
    QCOMPARE(actual, lines);
    QCOMPARE(matches.isUnique(), lines.size() == 1);
    QCOMPARE(matches.message().isEmpty(), lines.size() == 1);
}

void TestLispReader::findsFormsBehindReaderConditionals()
{
    const LispFile file(QStringLiteral(
        "#+ecl\n(defun note () \"ECL\")\n"
        "#-ecl (defun note () \"elsewhere\")\n"
        "#+(or sbcl ccl) #-x86-64 (defmethod area ((s square)) 0)\n"));
    QCOMPARE(file.forms().size(), 3);
    QCOMPARE(file.forms()[0].condition, QStringLiteral("#+ecl"));
    QCOMPARE(file.forms()[0].label, QStringLiteral("#+ecl defun note"));
    QCOMPARE(file.forms()[0].definition.kind, QStringLiteral("function"));
    QCOMPARE(file.forms()[2].label, QStringLiteral("#+(or sbcl ccl) #-x86-64 defmethod area (square)"));
    // Both definitions of NOTE answer the plain name; the message says how to pick one.
    const FormMatches both = file.find(QStringLiteral("defun note"));
    QCOMPARE(both.forms.size(), 2);
    QCOMPARE(both.message(),
             QStringLiteral("\"defun note\" matches 2 top-level forms: #+ecl defun note at lines 1-2; "
                            "#-ecl defun note at line 3. Name one exactly as listed "
                            "(for a method, with its qualifiers and specializers), or by its lines (lines: \"1-2\")."));
    QCOMPARE(file.find(QStringLiteral("#-ecl defun note")).forms.first().firstLine, 3);
    QVERIFY(file.find(QStringLiteral("#+sbcl defun note")).forms.isEmpty());
    QCOMPARE(file.find(QStringLiteral("defmethod area (square)")).forms.size(), 1);
    for (const TopLevelForm &form : file.forms())
        QVERIFY2(file.find(form.label).isUnique(), qPrintable(form.label));
}

void TestLispReader::explainsAMissingOrAmbiguousForm()
{
    const LispFile file(QStringLiteral("(defmethod area ((c circle)) 1)\n\n(defmethod area :around ((c circle))\n  (call-next-method))\n"));
    QCOMPARE(file.find(QStringLiteral("defmethod area")).message(),
             QStringLiteral("\"defmethod area\" matches 2 top-level forms: defmethod area (circle) at line 1; "
                            "defmethod area :around (circle) at lines 3-4. Name one exactly as listed "
                            "(for a method, with its qualifiers and specializers), or by its lines (lines: \"1\")."));
    QCOMPARE(file.find(QStringLiteral("defmethod area (square)")).message(),
             QStringLiteral("No top-level form is \"defmethod area (square)\". Forms with that name: defmethod area (circle) at line 1; "
                            "defmethod area :around (circle) at lines 3-4."));
    QCOMPARE(file.find(QStringLiteral("defun")).message(),
             QStringLiteral("The form \"defun\" cannot be looked for: A form is named by its operator and name, "
                            "e.g. \"defun foo\" or \"defmethod area :around (circle)\"."));
    QCOMPARE(file.find(QStringLiteral("defun (foo")).message(),
             QStringLiteral("The form \"defun (foo\" cannot be looked for: Unclosed '(' opened at line 1, column 7."));
    // Every label reads back as a query that finds exactly its form.
    for (const TopLevelForm &form : file.forms())
        QVERIFY2(file.find(form.label).isUnique(), qPrintable(form.label));
}

void TestLispReader::findsSymbolOccurrencesOutsideStringsAndComments()
{
    const LispFile file(QStringLiteral(
        "(defpackage :shop (:export #:total))\n"
        "(in-package :shop)\n"
        "(defun total (items) ; total of items\n"
        "  \"The total of ITEMS: (total x).\"\n"
        "  (reduce #'+ items :key #'price))\n"
        "#| (total 1) |#\n"
        "(defun report () (format t \"~a\" (total (list #\\t))) :total)\n"
        "#+total (print 'shop::total)\n"
        "(other:total 3)"));
    QStringList found;
    for (const SymbolOccurrence &o : file.occurrences(QStringLiteral("total")))
        found << QStringLiteral("%1:%2 %3 in form %4 (%5)").arg(o.line).arg(o.column).arg(o.node.text()).arg(o.formIndex).arg(o.package);
    QCOMPARE(found, QStringList({"1:28 #:total in form 0 (COMMON-LISP-USER)", "3:8 total in form 2 (SHOP)",
                                 "7:34 total in form 3 (SHOP)", "8:17 shop::total in form 4 (SHOP)",
                                 "9:2 other:total in form 5 (SHOP)"}));
    // Read where SHOP is in force, written with it, or exported by its defpackage; OTHER:TOTAL is another symbol.
    QCOMPARE(file.occurrences(QStringLiteral("shop::total")).size(), 4);
    QCOMPARE(file.occurrences(QStringLiteral(":total")).size(), 1);
    QCOMPARE(file.occurrences(QStringLiteral("items")).size(), 2);
    QVERIFY(file.occurrences(QStringLiteral("\"total\"")).isEmpty()); // not a symbol
}

QTEST_APPLESS_MAIN(TestLispReader)
#include "tst_lispreader.moc"
