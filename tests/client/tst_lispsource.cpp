// LispSource: Common Lisp text as data. Rows mark a cursor with '^' (a character none of the
// rows use otherwise). The golden test compares the tokens of data/lispsource/*.lisp with
// their .tokens reference; tests/refresh-golden.sh rewrites the references.

#include "lispsource/LispSource.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTest>

#include "../common/GoldenFile.h"

namespace {

QString kindName(LispTokenKind kind)
{
    switch (kind) {
    case LispTokenKind::Comment: return QStringLiteral("Comment");
    case LispTokenKind::String: return QStringLiteral("String");
    case LispTokenKind::Number: return QStringLiteral("Number");
    case LispTokenKind::Keyword: return QStringLiteral("Keyword");
    case LispTokenKind::Character: return QStringLiteral("Character");
    case LispTokenKind::FunctionQuote: return QStringLiteral("FunctionQuote");
    case LispTokenKind::ReaderMacro: return QStringLiteral("ReaderMacro");
    case LispTokenKind::DefiningForm: return QStringLiteral("DefiningForm");
    case LispTokenKind::SpecialForm: return QStringLiteral("SpecialForm");
    case LispTokenKind::Paren: return QStringLiteral("Paren");
    case LispTokenKind::Symbol: return QStringLiteral("Symbol");
    }
    return {};
}

// "Paren:( DefiningForm:defun ..." — what a person would check by eye.
QString describe(const QString &line, const QList<LispToken> &tokens)
{
    QStringList parts;
    for (const LispToken &t : tokens)
        parts << kindName(t.kind) + u':' + line.mid(t.start, t.length);
    return parts.join(u' ');
}

// Splits "(foo ^bar" into the text without the marker and the cursor offset.
std::pair<QString, int> withCursor(const QString &marked)
{
    const qsizetype cursor = marked.indexOf(u'^');
    Q_ASSERT(cursor >= 0);
    QString text = marked;
    text.remove(cursor, 1);
    return {text, int(cursor)};
}

} // namespace

class TestLispSource : public QObject
{
    Q_OBJECT

private slots:
    void balancedCodeIsOk_data();
    void balancedCodeIsOk();
    void reportsTheFirstProblemWithLineAndColumn_data();
    void reportsTheFirstProblemWithLineAndColumn();
    void messagesNameTheDelimiterAndThePlace();
    void unclosedListMentionsAFormStartingInColumnOneInsideIt();
    void bracketsAreCheckedOnlyWhenAsked();

    void completenessFollowsTheReader_data();
    void completenessFollowsTheReader();
    void blankMeansOnlyWhitespaceAndComments_data();
    void blankMeansOnlyWhitespaceAndComments();

    void splitsTopLevelFormsWithTheirPrefixesAndLines();
    void splitKeepsAnOpenLastFormAsIncomplete();

    void indentsLikeLispMode_data();
    void indentsLikeLispMode();

    void findsTheEnclosingOperatorAndArgument_data();
    void findsTheEnclosingOperatorAndArgument();
    void hasNoOperatorOutsideListsOrWithoutASymbolHead();

    void findsTheSymbolPrefixBeforeTheCursor_data();
    void findsTheSymbolPrefixBeforeTheCursor();

    void matchesParensOutsideStringsAndComments_data();
    void matchesParensOutsideStringsAndComments();

    void classifiesTokens_data();
    void classifiesTokens();
    void carriesStringsCommentsAndContextAcrossLines_data();
    void carriesStringsCommentsAndContextAcrossLines();
    void lexStateSurvivesTheRoundTripThroughAnInt();
    void tokensOfSampleFilesMatchTheirReferences_data();
    void tokensOfSampleFilesMatchTheirReferences();

    void survivesRandomTextAtEveryCursorAndKeepsItsInvariants();
};

// --- checkParens -------------------------------------------------------------------------------

void TestLispSource::balancedCodeIsOk_data()
{
    QTest::addColumn<QString>("code");
    QTest::newRow("empty") << "";
    QTest::newRow("whitespace") << " \n\t ";
    QTest::newRow("simple") << "(let ((x 1)) (+ x 2))";
    QTest::newRow("string with parens") << "(print \"(((\")";
    QTest::newRow("string with escaped quote") << "(print \"a\\\")(\")";
    QTest::newRow("character open paren") << "(list #\\( #\\))";
    QTest::newRow("character semicolon and quote") << "(list #\\; #\\\" #\\|)";
    QTest::newRow("character names") << "(list #\\Space #\\Newline #\\a)";
    QTest::newRow("line comment with parens") << "(a ; ) ((\n b)";
    QTest::newRow("block comment with parens") << "#| ( |# (a)";
    QTest::newRow("nested block comments") << "#| #| ) |# ( |# (a)";
    QTest::newRow("escaped symbol with parens") << "(list '|a(b| 'c\\))";
    QTest::newRow("vector and feature") << "#(1 2) #+sbcl (a) #-(or ecl) b";
    QTest::newRow("function quote and backquote") << "(mapcar #'(lambda (x) `(,x ,@x)) y)";
    QTest::newRow("balanced brackets") << "(let [x 1] {y})";
    QTest::newRow("unbalanced on the last line is fine when closed") << "(a\n b\n c)";
}

void TestLispSource::balancedCodeIsOk()
{
    QFETCH(QString, code);
    const ParenCheck check = LispSource::checkParens(code);
    QVERIFY2(check.ok, qPrintable(check.message));
    QVERIFY(check.kind.isEmpty());
    QVERIFY(check.message.isEmpty());
}

void TestLispSource::reportsTheFirstProblemWithLineAndColumn_data()
{
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("offset");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QString>("found");

    QTest::newRow("extra close") << "(+ 1 2))" << "extra-close" << 7 << 1 << 8 << "" << ")";
    QTest::newRow("extra close on line two") << "(a)\n(b c)) (d)" << "extra-close" << 9 << 2 << 6 << "" << ")";
    QTest::newRow("extra close before an unclosed list") << ") (" << "extra-close" << 0 << 1 << 1 << "" << ")";
    QTest::newRow("unclosed at the last line") << "(defun f (x)\n  (+ x 1)" << "unclosed" << 0 << 1 << 1 << ")" << "";
    QTest::newRow("unclosed opened on the last line") << "(a)\n(b" << "unclosed" << 4 << 2 << 1 << ")" << "";
    QTest::newRow("unclosed reports the outermost list") << "(a (b (c)" << "unclosed" << 0 << 1 << 1 << ")" << "";
    QTest::newRow("unclosed vector") << "#(1 2" << "unclosed" << 0 << 1 << 1 << ")" << "";
    QTest::newRow("mismatch") << "(let ((x 1]) x)" << "mismatch" << 10 << 1 << 11 << ")" << "]";
    QTest::newRow("mismatched brace") << "{a (b}" << "mismatch" << 5 << 1 << 6 << ")" << "}";
    QTest::newRow("unterminated string") << "(print \"abc)" << "unterminated-string" << 7 << 1 << 8 << "\"" << "";
    QTest::newRow("unterminated string wins over unclosed") << "(a\n (b \"x" << "unterminated-string" << 7 << 2 << 5 << "\"" << "";
    QTest::newRow("unterminated nested comment") << "#| a #| b |# (" << "unterminated-comment" << 0 << 1 << 1 << "" << "";
    QTest::newRow("closed nested comment then unclosed") << "#| #| |# |# (" << "unclosed" << 12 << 1 << 13 << ")" << "";
    QTest::newRow("paren in string then extra close") << "\"(\" )" << "extra-close" << 4 << 1 << 5 << "" << ")";
    QTest::newRow("character paren then extra close") << "#\\( )" << "extra-close" << 4 << 1 << 5 << "" << ")";
    QTest::newRow("comment hides a close") << "; )\n(a" << "unclosed" << 4 << 2 << 1 << ")" << "";
    QTest::newRow("comment hides an open") << ";(\n)" << "extra-close" << 3 << 2 << 1 << "" << ")";
    QTest::newRow("unterminated escaped symbol") << "(a |b c)" << "unterminated-symbol" << 3 << 1 << 4 << "|" << "";
}

void TestLispSource::reportsTheFirstProblemWithLineAndColumn()
{
    QFETCH(QString, code);
    QFETCH(QString, kind);
    QFETCH(int, offset);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, expected);
    QFETCH(QString, found);

    const ParenCheck check = LispSource::checkParens(code);
    QVERIFY(!check.ok);
    QCOMPARE(check.kind, kind);
    QCOMPARE(check.offset, offset);
    QCOMPARE(check.line, line);
    QCOMPARE(check.column, column);
    QCOMPARE(check.expected.isNull() ? QString() : QString(check.expected), expected);
    QCOMPARE(check.found.isNull() ? QString() : QString(check.found), found);
    QVERIFY(!check.message.isEmpty());
}

void TestLispSource::messagesNameTheDelimiterAndThePlace()
{
    QCOMPARE(LispSource::checkParens("(a)\n(defun f (x) x))").message,
             "Extra ')' at line 2, column 16");
    QCOMPARE(LispSource::checkParens("(a)\n(b)\n(c\n d").message,
             "Unclosed '(' opened at line 3, column 1");
    QCOMPARE(LispSource::checkParens("(a\n  #(b").message,
             "Unclosed '(' opened at line 1, column 1");
    QCOMPARE(LispSource::checkParens("#(b").message,
             "Unclosed '#(' opened at line 1, column 1");
    QCOMPARE(LispSource::checkParens("(a\n  (b]").message,
             "Mismatched ']' at line 2, column 5: expected ')' to close '(' opened at line 2, column 3");
    QCOMPARE(LispSource::checkParens("(a \"b").message, "Unterminated string starting at line 1, column 4");
    QCOMPARE(LispSource::checkParens("x\n#|").message,
             "Unterminated block comment '#|' starting at line 2, column 1");
}

void TestLispSource::unclosedListMentionsAFormStartingInColumnOneInsideIt()
{
    const QString code = "(defun f (x)\n  (+ x 1)\n\n(defun g ()\n  2)\n";
    const ParenCheck check = LispSource::checkParens(code);
    QCOMPARE(check.kind, "unclosed");
    QCOMPARE(check.line, 1);
    QCOMPARE(check.message,
             "Unclosed '(' opened at line 1, column 1 (the form at line 4, column 1 is read inside it)");
}

void TestLispSource::bracketsAreCheckedOnlyWhenAsked()
{
    const QString code = "(print '[)";
    QCOMPARE(LispSource::checkParens(code).kind, "mismatch");
    QVERIFY(LispSource::checkParens(code, LispSource::Brackets::Parentheses).ok);
    QVERIFY(LispSource::isComplete(code)); // the reader sees a symbol named "["
}

// --- isComplete / isBlank ---------------------------------------------------------------------

void TestLispSource::completenessFollowsTheReader_data()
{
    QTest::addColumn<QString>("code");
    QTest::addColumn<bool>("complete");
    QTest::newRow("empty") << "" << true;
    QTest::newRow("whitespace") << "  \n " << true;
    QTest::newRow("atom") << "42" << true;
    QTest::newRow("several atoms") << "1 2 3" << true;
    QTest::newRow("list") << "(+ 1 2)" << true;
    QTest::newRow("open list") << "(+ 1 2" << false;
    QTest::newRow("second form open") << "(a) (b" << false;
    QTest::newRow("multi-line list") << "(a\n b\n)" << true;
    QTest::newRow("open string") << "\"abc" << false;
    QTest::newRow("string with paren") << "\"a(b\"" << true;
    QTest::newRow("lone quote") << "'" << false;
    QTest::newRow("quoted symbol") << "'a" << true;
    QTest::newRow("quote then comment") << "' ; why\n" << false;
    QTest::newRow("quote across lines") << "'\na" << true;
    QTest::newRow("lone function quote") << "#'" << false;
    QTest::newRow("function quote") << "#'car" << true;
    QTest::newRow("feature without form") << "#+sbcl" << false;
    QTest::newRow("feature with form") << "#+sbcl (foo)" << true;
    QTest::newRow("feature list without form") << "#+(or sbcl ecl)" << false;
    QTest::newRow("quoted feature form") << "'#+sbcl a" << true;
    QTest::newRow("read eval without form") << "#." << false;
    QTest::newRow("read eval") << "#.(+ 1 2)" << true;
    QTest::newRow("pathname") << "#p\"/tmp/\"" << true;
    QTest::newRow("complex") << "#c(1 2)" << true;
    QTest::newRow("array") << "#2A((1 2) (3 4))" << true;
    QTest::newRow("labels") << "'#1=(a . #1#)" << true;
    QTest::newRow("comment with paren") << "; (" << true;
    QTest::newRow("list with comment hiding close") << "(a ; )\n" << false;
    QTest::newRow("list closed after comment") << "(a ; )\n)" << true;
    QTest::newRow("open block comment") << "#| (" << false;
    QTest::newRow("closed block comment") << "#| ( |# (a)" << true;
    QTest::newRow("character paren") << "#\\(" << true;
    QTest::newRow("list of character paren") << "(#\\()" << true;
    QTest::newRow("dangling character") << "#\\" << false;
    QTest::newRow("open vector") << "#(1 2" << false;
    QTest::newRow("open backquote") << "`(a ,b" << false;
    QTest::newRow("splice without form") << "`(a ,@" << false;
    QTest::newRow("extra close goes to the reader") << ")" << true;
    QTest::newRow("extra close after a form") << "(a))" << true;
    QTest::newRow("open escaped symbol") << "|foo" << false;
    QTest::newRow("escaped symbol") << "|foo bar|" << true;
    QTest::newRow("dangling single escape") << "foo\\" << false;
    QTest::newRow("brackets are constituents") << "(print '[)" << true;
}

void TestLispSource::completenessFollowsTheReader()
{
    QFETCH(QString, code);
    QFETCH(bool, complete);
    QCOMPARE(LispSource::isComplete(code), complete);
}

void TestLispSource::blankMeansOnlyWhitespaceAndComments_data()
{
    QTest::addColumn<QString>("code");
    QTest::addColumn<bool>("blank");
    QTest::newRow("empty") << "" << true;
    QTest::newRow("spaces and newlines") << " \n\t\r\n" << true;
    QTest::newRow("line comment") << "; hello (" << true;
    QTest::newRow("block comment") << "#| hi |#\n" << true;
    QTest::newRow("open block comment") << "#| hi" << false;
    QTest::newRow("an atom") << "  x " << false;
    QTest::newRow("a stray close") << ")" << false;
}

void TestLispSource::blankMeansOnlyWhitespaceAndComments()
{
    QFETCH(QString, code);
    QFETCH(bool, blank);
    QCOMPARE(LispSource::isBlank(code), blank);
}

// --- splitTopLevelForms -----------------------------------------------------------------------

void TestLispSource::splitsTopLevelFormsWithTheirPrefixesAndLines()
{
    const QString code = "(defun a () 1)\n; (not a form)\n(defvar *b* 2) 'c\n#+sbcl (x)\n\n#| gone |# 42 \"s\")";
    const QList<SourceForm> forms = LispSource::splitTopLevelForms(code);
    QStringList texts;
    QList<int> lines;
    for (const SourceForm &f : forms) {
        texts << f.text;
        lines << f.line;
        QVERIFY(f.complete);
        QCOMPARE(code.mid(f.start, f.end - f.start), f.text);
    }
    QCOMPARE(texts, QStringList({"(defun a () 1)", "(defvar *b* 2)", "'c", "#+sbcl (x)", "42", "\"s\""}));
    QCOMPARE(lines, QList<int>({1, 3, 3, 4, 6, 6}));
}

void TestLispSource::splitKeepsAnOpenLastFormAsIncomplete()
{
    const QList<SourceForm> forms = LispSource::splitTopLevelForms("(a)\n'(b\n  c");
    QCOMPARE(forms.size(), 2);
    QVERIFY(forms[0].complete);
    QVERIFY(!forms[1].complete);
    QCOMPARE(forms[1].text, "'(b\n  c");
    QCOMPARE(forms[1].line, 2);
    QVERIFY(LispSource::splitTopLevelForms("  ; nothing\n").isEmpty());
}

// --- indentation ------------------------------------------------------------------------------

void TestLispSource::indentsLikeLispMode_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<int>("columns");
    QTest::newRow("empty") << "" << 0;
    QTest::newRow("top level after a form") << "(foo)" << 0;
    QTest::newRow("top level after a complete multi-line form") << "(let ((x 1))\n  (foo x))" << 0;
    QTest::newRow("defun body") << "(defun foo (x)" << 2;
    QTest::newRow("defun lambda list on its own line") << "(defun foo" << 4;
    QTest::newRow("package-qualified defun") << "(cl:defun foo ()" << 2;
    QTest::newRow("defmethod body") << "(defmethod print-object ((o point) s)" << 2;
    QTest::newRow("let body") << "(let ((x 1))" << 2;
    QTest::newRow("let bindings") << "(let ((x 1)" << 6;
    QTest::newRow("let body after bindings on two lines") << "(let ((x 1)\n      (y 2))" << 2;
    QTest::newRow("when body") << "(when x" << 2;
    QTest::newRow("progn") << "(progn" << 2;
    QTest::newRow("with- macro") << "(with-open-file (s \"x\")" << 2;
    QTest::newRow("with- macro argument on its own line") << "(with-open-file" << 4;
    QTest::newRow("destructuring-bind body") << "(destructuring-bind (a b) list" << 2;
    QTest::newRow("destructuring-bind expression") << "(destructuring-bind (a b)" << 4;
    QTest::newRow("unknown def form") << "(defsystem :foo" << 2;
    QTest::newRow("nested body") << "(defun f ()\n  (let ((x 1))" << 4;
    QTest::newRow("flet local function body") << "(flet ((helper (x)" << 9;
    QTest::newRow("handler-case clause body") << "(handler-case (foo)\n  (error (c)" << 4;
    QTest::newRow("lambda in a call") << "(mapcar #'(lambda (x)" << 12;
    QTest::newRow("function call aligns with first argument") << "(foo a" << 5;
    QTest::newRow("function call with several arguments") << "(list 1 2" << 6;
    QTest::newRow("indented function call") << "  (list 1 2" << 8;
    QTest::newRow("if aligns branches with the test") << "(if (> x 1)" << 4;
    QTest::newRow("call without arguments yet") << "(foo" << 1;
    QTest::newRow("first argument on the next line") << "(foo\n a" << 1;
    QTest::newRow("open paren only") << "(" << 1;
    QTest::newRow("comment after operator") << "(foo ; why" << 1;
    QTest::newRow("comment after defun") << "(defun f () ; why" << 2;
    QTest::newRow("keyword-led list") << "(:export #:a" << 9;
    QTest::newRow("quoted list is data") << "'(a b" << 2;
    QTest::newRow("list of numbers") << "(1 2" << 1;
    QTest::newRow("vector is data") << "#(a b" << 2;
    QTest::newRow("cond clause") << "(cond ((null x)" << 7;
    QTest::newRow("extended loop clauses line up") << "(loop for x in xs" << 6;
    QTest::newRow("simple loop body") << "(loop" << 2;
    QTest::newRow("tab counts to the next multiple of 8") << "\t(foo a" << 13;
    QTest::newRow("inside a string keeps column 0") << "(format t \"hello" << 0;
    QTest::newRow("inside a docstring") << "(defun f ()\n  \"Doc" << 0;
    QTest::newRow("inside an escaped symbol") << "(a |b" << 0;
    QTest::newRow("inside a block comment keeps the line's indentation") << "#| block\n   comment" << 3;
    QTest::newRow("after a closed inner list") << "(foo (bar)\n     (baz)" << 5;
}

void TestLispSource::indentsLikeLispMode()
{
    QFETCH(QString, before);
    QFETCH(int, columns);
    QCOMPARE(LispSource::indentationForNewLine(before), columns);
}

// --- enclosingOperator ------------------------------------------------------------------------

void TestLispSource::findsTheEnclosingOperatorAndArgument_data()
{
    QTest::addColumn<QString>("marked");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("index");
    QTest::newRow("after operator and space") << "(foo ^" << "foo" << 1;
    QTest::newRow("after first argument and space") << "(foo a ^" << "foo" << 2;
    QTest::newRow("inside the operator") << "(fo^o a)" << "foo" << 0;
    QTest::newRow("at the end of an argument") << "(foo a^" << "foo" << 1;
    QTest::newRow("at the start of an argument") << "(foo ^bar baz)" << "foo" << 1;
    QTest::newRow("innermost list") << "(foo (bar ^" << "bar" << 1;
    QTest::newRow("after a closed inner list") << "(foo (bar) ^" << "foo" << 2;
    QTest::newRow("inside a string argument") << "(format t \"~a^" << "format" << 2;
    QTest::newRow("after a quoted argument") << "(foo 'a ^" << "foo" << 2;
    QTest::newRow("on a quote waiting for its datum") << "(foo '^" << "foo" << 1;
    QTest::newRow("after a function quote") << "(mapcar #'car ^" << "mapcar" << 2;
    QTest::newRow("package-qualified") << "(cl:car ^" << "cl:car" << 1;
    QTest::newRow("inside a comment in the list") << "(foo ; (bar ^\n" << "foo" << 1;
    QTest::newRow("multi-line") << "(defun f (x)\n  (+ x ^" << "+" << 2;
}

void TestLispSource::findsTheEnclosingOperatorAndArgument()
{
    QFETCH(QString, marked);
    QFETCH(QString, name);
    QFETCH(int, index);
    const auto [code, cursor] = withCursor(marked);
    const OperatorContext context = LispSource::enclosingOperator(code, cursor);
    QVERIFY(context.isValid());
    QCOMPARE(context.operatorName, name);
    QCOMPARE(context.argumentIndex, index);
    QCOMPARE(code.at(context.listStart), u'(');
}

// Cases without an operator to show are checked here rather than in rows.
static void verifyNoOperator(const QString &marked)
{
    const auto [code, cursor] = withCursor(marked);
    QVERIFY2(!LispSource::enclosingOperator(code, cursor).isValid(), qPrintable(marked));
}

void TestLispSource::hasNoOperatorOutsideListsOrWithoutASymbolHead()
{
    verifyNoOperator("^");
    verifyNoOperator("foo ^");
    verifyNoOperator("(a b) ^");
    verifyNoOperator("(^");
    verifyNoOperator("((lambda (x) x) ^");
    verifyNoOperator("(1 2 ^");
    verifyNoOperator("('a ^");
    const OperatorContext empty = LispSource::enclosingOperator("(", 1);
    QCOMPARE(empty.listStart, 0);
    QCOMPARE(empty.argumentIndex, 0);
}

// --- symbolPrefixAt ---------------------------------------------------------------------------

void TestLispSource::findsTheSymbolPrefixBeforeTheCursor_data()
{
    QTest::addColumn<QString>("marked");
    QTest::addColumn<int>("start"); // -1: nothing to complete
    QTest::addColumn<QString>("packageName");
    QTest::addColumn<QString>("symbolName");
    QTest::addColumn<bool>("internal");
    QTest::addColumn<bool>("keyword");
    QTest::newRow("plain symbol") << "(str^" << 1 << "" << "str" << false << false;
    QTest::newRow("mid-word") << "(fo^o bar)" << 1 << "" << "fo" << false << false;
    QTest::newRow("external symbol") << "(cl:ca^" << 1 << "cl" << "ca" << false << false;
    QTest::newRow("internal symbol") << "(cl-user::fo^" << 1 << "cl-user" << "fo" << true << false;
    QTest::newRow("package name only") << "(cl-user:^" << 1 << "cl-user" << "" << false << false;
    QTest::newRow("keyword") << "(foo :ke^" << 5 << "" << "ke" << false << true;
    QTest::newRow("after function quote") << "#'ma^" << 2 << "" << "ma" << false << false;
    QTest::newRow("after comma-at") << "`(a ,@fo^" << 6 << "" << "fo" << false << false;
    QTest::newRow("uninterned") << "#:fo^" << 2 << "" << "fo" << false << false;
    QTest::newRow("between tokens") << "(foo ^" << 5 << "" << "" << false << false;
    QTest::newRow("after open paren") << "(^" << 1 << "" << "" << false << false;
    QTest::newRow("after a closed string") << "\"a\" ^" << 4 << "" << "" << false << false;
    QTest::newRow("inside a string") << "(f \"abc^" << -1 << "" << "" << false << false;
    QTest::newRow("inside a closed string") << "(f \"ab^c\")" << -1 << "" << "" << false << false;
    QTest::newRow("inside a comment") << "; abc^" << -1 << "" << "" << false << false;
    QTest::newRow("inside a character") << "#\\Spa^" << -1 << "" << "" << false << false;
    QTest::newRow("inside a radix number") << "#x1^" << -1 << "" << "" << false << false;
}

void TestLispSource::findsTheSymbolPrefixBeforeTheCursor()
{
    QFETCH(QString, marked);
    QFETCH(int, start);
    QFETCH(QString, packageName);
    QFETCH(QString, symbolName);
    QFETCH(bool, internal);
    QFETCH(bool, keyword);
    const auto [code, cursor] = withCursor(marked);
    const SymbolPrefix prefix = LispSource::symbolPrefixAt(code, cursor);
    QCOMPARE(prefix.start, start);
    QCOMPARE(prefix.isValid(), start >= 0);
    if (!prefix.isValid())
        return;
    QCOMPARE(prefix.prefix, code.mid(start, cursor - start));
    QCOMPARE(prefix.packageName, packageName);
    QCOMPARE(prefix.symbolName, symbolName);
    QCOMPARE(prefix.internal, internal);
    QCOMPARE(prefix.keyword, keyword);
}

// --- matchingParen ----------------------------------------------------------------------------

void TestLispSource::matchesParensOutsideStringsAndComments_data()
{
    QTest::addColumn<QString>("code");
    QTest::addColumn<int>("position");
    QTest::addColumn<int>("match");
    QTest::newRow("outer open") << "(a (b) c)" << 0 << 8;
    QTest::newRow("outer close") << "(a (b) c)" << 8 << 0;
    QTest::newRow("inner open") << "(a (b) c)" << 3 << 5;
    QTest::newRow("inner close") << "(a (b) c)" << 5 << 3;
    QTest::newRow("skips a paren in a string") << "(a \"(\" b)" << 0 << 8;
    QTest::newRow("paren in a string has no match") << "(a \"(\" b)" << 4 << -1;
    QTest::newRow("skips a character paren") << "(#\\( )" << 0 << 5;
    QTest::newRow("character paren has no match") << "(#\\( )" << 3 << -1;
    QTest::newRow("paren in a comment has no match") << "; (\n()" << 2 << -1;
    QTest::newRow("after a comment") << "; (\n()" << 4 << 5;
    QTest::newRow("vector from its hash") << "#(1 2)" << 0 << 5;
    QTest::newRow("vector from its paren") << "#(1 2)" << 1 << 5;
    QTest::newRow("vector close") << "#(1 2)" << 5 << 1;
    QTest::newRow("unclosed") << "(a (b)" << 0 << -1;
    QTest::newRow("not a paren") << "(a)" << 1 << -1;
    QTest::newRow("out of range") << "(a)" << 3 << -1;
    QTest::newRow("negative") << "(a)" << -1 << -1;
}

void TestLispSource::matchesParensOutsideStringsAndComments()
{
    QFETCH(QString, code);
    QFETCH(int, position);
    QFETCH(int, match);
    QCOMPARE(LispSource::matchingParen(code, position), match);
}

// --- tokens -----------------------------------------------------------------------------------

void TestLispSource::classifiesTokens_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("expected");
    QTest::newRow("defun with comment")
        << "(defun foo (x) ; hi"
        << "Paren:( DefiningForm:defun Symbol:foo Paren:( Symbol:x Paren:) Comment:; hi";
    QTest::newRow("special forms, keywords and strings")
        << "(let ((x 1)) (if x :a \"s (\"))"
        << "Paren:( SpecialForm:let Paren:( Paren:( Symbol:x Number:1 Paren:) Paren:) Paren:( "
           "SpecialForm:if Symbol:x Keyword::a String:\"s (\" Paren:) Paren:)";
    QTest::newRow("quotes and characters")
        << "#'car #\\( #\\Space 'x `(a ,b ,@c)"
        << "FunctionQuote:#' Symbol:car Character:#\\( Character:#\\Space ReaderMacro:' Symbol:x "
           "ReaderMacro:` Paren:( Symbol:a ReaderMacro:, Symbol:b ReaderMacro:,@ Symbol:c Paren:)";
    QTest::newRow("feature expressions")
        << "#+sbcl (foo) #-(or ecl) 1"
        << "ReaderMacro:#+ ReaderMacro:sbcl Paren:( Symbol:foo Paren:) ReaderMacro:#- Paren:( "
           "ReaderMacro:or ReaderMacro:ecl Paren:) Number:1";
    QTest::newRow("numbers")
        << "#.(+ 1 2) #x1F #b101 #36rZZ #*101 1/2 -3.5d0 .5 1. 1+ ."
        << "ReaderMacro:#. Paren:( Symbol:+ Number:1 Number:2 Paren:) Number:#x1F Number:#b101 "
           "Number:#36rZZ Number:#*101 Number:1/2 Number:-3.5d0 Number:.5 Number:1. Symbol:1+ Symbol:.";
    QTest::newRow("block comments in a line")
        << "#| a |# b #| c #| d |# e |# f"
        << "Comment:#| a |# Symbol:b Comment:#| c #| d |# e |# Symbol:f";
    QTest::newRow("escaped and uninterned symbols")
        << "|foo bar| a\\ b #:baz"
        << "Symbol:|foo bar| Symbol:a\\ b Symbol:#:baz";
    QTest::newRow("package-qualified defining form") << "(cl:defun x)"
                                                     << "Paren:( DefiningForm:cl:defun Symbol:x Paren:)";
    QTest::newRow("define- forms") << "(define-condition oops)"
                                   << "Paren:( DefiningForm:define-condition Symbol:oops Paren:)";
    QTest::newRow("with- macros") << "(with-open-file (s p))"
                                  << "Paren:( SpecialForm:with-open-file Paren:( Symbol:s Symbol:p Paren:) Paren:)";
    QTest::newRow("operator position only") << "(foo defun let)"
                                            << "Paren:( Symbol:foo Symbol:defun Symbol:let Paren:)";
    QTest::newRow("vector paren") << "#(a)" << "Paren:#( Symbol:a Paren:)";
    QTest::newRow("labels") << "#1=(a . #1#)" << "ReaderMacro:#1= Paren:( Symbol:a Symbol:. Symbol:#1# Paren:)";
    QTest::newRow("upper case operator") << "(DEFUN f)" << "Paren:( DefiningForm:DEFUN Symbol:f Paren:)";
}

void TestLispSource::classifiesTokens()
{
    QFETCH(QString, line);
    QFETCH(QString, expected);
    QCOMPARE(describe(line, LispSource::tokens(line)), expected);
}

void TestLispSource::carriesStringsCommentsAndContextAcrossLines_data()
{
    QTest::addColumn<QStringList>("lines");
    QTest::addColumn<QString>("lastLineTokens");
    QTest::addColumn<int>("lastMode"); // LexState::Mode after the last line
    QTest::newRow("string") << QStringList{"(print \"abc", "def\" x)"}
                            << "String:def\" Symbol:x Paren:)" << int(LexState::Mode::Code);
    QTest::newRow("string still open") << QStringList{"\"abc", "def"} << "String:def" << int(LexState::Mode::String);
    QTest::newRow("empty line in a string") << QStringList{"\"abc", "", "x\""} << "String:x\""
                                            << int(LexState::Mode::Code);
    QTest::newRow("block comment") << QStringList{"#| a", "b |# c"} << "Comment:b |# Symbol:c"
                                   << int(LexState::Mode::Code);
    QTest::newRow("nested block comment") << QStringList{"#| #| a", "|# still", "|# out"}
                                          << "Comment:|# Symbol:out" << int(LexState::Mode::Code);
    QTest::newRow("operator on the next line") << QStringList{"(", "defun f"}
                                               << "DefiningForm:defun Symbol:f" << int(LexState::Mode::Code);
    QTest::newRow("feature on the next line") << QStringList{"#+", "sbcl x"}
                                              << "ReaderMacro:sbcl Symbol:x" << int(LexState::Mode::Code);
    QTest::newRow("escaped symbol") << QStringList{"|a", "b| c"} << "Symbol:b| Symbol:c"
                                    << int(LexState::Mode::Code);
    QTest::newRow("feature expression list across lines")
        << QStringList{"#+(or sbcl", "ecl) (foo)"} << "ReaderMacro:ecl Paren:) Paren:( Symbol:foo Paren:)"
        << int(LexState::Mode::Code);
    QTest::newRow("comment does not reset the operator position")
        << QStringList{"( ; c", "let"} << "SpecialForm:let" << int(LexState::Mode::Code);
}

void TestLispSource::carriesStringsCommentsAndContextAcrossLines()
{
    QFETCH(QStringList, lines);
    QFETCH(QString, lastLineTokens);
    QFETCH(int, lastMode);
    LexState state;
    QList<LispToken> tokens;
    for (const QString &line : lines) {
        LexState next;
        // Going through the int, as QSyntaxHighlighter does.
        tokens = LispSource::tokens(line, LexState::fromInt(state.toInt()), &next);
        state = next;
    }
    QCOMPARE(describe(lines.last(), tokens), lastLineTokens);
    QCOMPARE(int(state.mode), lastMode);
}

void TestLispSource::lexStateSurvivesTheRoundTripThroughAnInt()
{
    QCOMPARE(LexState::fromInt(-1), LexState());
    for (auto mode : {LexState::Mode::Code, LexState::Mode::String, LexState::Mode::BlockComment,
                      LexState::Mode::EscapedSymbol}) {
        for (int depth : {0, 1, 7, 100000}) {
            for (int flags = 0; flags < 8; ++flags) {
                LexState state;
                state.mode = mode;
                state.commentDepth = depth;
                state.featureDepth = flags & 4 ? 3 : 0;
                state.operatorNext = flags & 1;
                state.featureNext = flags & 2;
                QVERIFY(state.toInt() >= 0);
                QCOMPARE(LexState::fromInt(state.toInt()), state);
            }
        }
    }
}

void TestLispSource::tokensOfSampleFilesMatchTheirReferences_data()
{
    QTest::addColumn<QString>("input");
    const QDir dir(QStringLiteral(DUET_SOURCE_DIR "/tests/client/data/lispsource"));
    const QStringList inputs = dir.entryList({QStringLiteral("*.lisp")}, QDir::Files, QDir::Name);
    QVERIFY(!inputs.isEmpty());
    for (const QString &name : inputs)
        QTest::newRow(qPrintable(name)) << dir.filePath(name);
}

void TestLispSource::tokensOfSampleFilesMatchTheirReferences()
{
    QFETCH(QString, input);
    QFile in(input);
    QVERIFY(in.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(in.readAll()).split(u'\n');

    // One output line per input line: "<line number>: kind:text kind:text ...", then the
    // paren check of the whole file, so the reference shows both at a glance.
    QString actual;
    LexState state;
    for (int i = 0; i < lines.size(); ++i) {
        LexState next;
        const QList<LispToken> tokens = LispSource::tokens(lines[i], state, &next);
        state = next;
        actual += QStringLiteral("%1: %2\n").arg(i + 1, 3).arg(describe(lines[i], tokens));
    }
    const ParenCheck check = LispSource::checkParens(lines.join(u'\n'));
    actual += QStringLiteral("check-parens: %1\n").arg(check.ok ? QStringLiteral("ok") : check.message);

    const QString referencePath = input + QStringLiteral(".tokens");
    DUET_COMPARE_GOLDEN(actual, referencePath);
}

// Random Lisp-flavoured text, every function at every cursor: nothing may crash or assert (this
// is a Debug build), and the answers must agree with each other.
void TestLispSource::survivesRandomTextAtEveryCursorAndKeepsItsInvariants()
{
    const QString alphabet = QStringLiteral("()()#\\|;\"'`,@:+-.abc12 \n\t[]{}xX*=");
    QRandomGenerator random(20240611); // fixed: a failure must be reproducible
    for (int round = 0; round < 400; ++round) {
        QString code;
        const int length = random.bounded(1, 40);
        for (int i = 0; i < length; ++i)
            code += alphabet[random.bounded(int(alphabet.size()))];

        const ParenCheck check = LispSource::checkParens(code);
        QVERIFY(check.ok || (check.offset >= 0 && check.offset <= code.size() && check.line >= 1));
        LispSource::checkParens(code, LispSource::Brackets::Parentheses);
        const bool complete = LispSource::isComplete(code);
        if (LispSource::isBlank(code))
            QVERIFY2(complete, qPrintable(code));

        int previousEnd = 0;
        for (const SourceForm &form : LispSource::splitTopLevelForms(code)) {
            QVERIFY2(form.start >= previousEnd && form.end > form.start && form.end <= code.size(),
                     qPrintable(code));
            // The newline stands for whatever ended the form in code: alone, a "#" or a "#\" that
            // ends the text makes the reader wait for one more character.
            if (form.complete)
                QVERIFY2(LispSource::isComplete(form.text + u'\n'),
                         qPrintable(QStringLiteral("[%1] in [%2]").arg(form.text, code)));
            previousEnd = form.end;
        }

        for (int cursor = 0; cursor <= code.size(); ++cursor) {
            QVERIFY(LispSource::indentationForNewLine(code.left(cursor)) >= 0);
            LispSource::enclosingOperator(code, cursor);
            const SymbolPrefix prefix = LispSource::symbolPrefixAt(code, cursor);
            QVERIFY2(!prefix.isValid()
                         || (prefix.start <= cursor && code.mid(prefix.start, cursor - prefix.start) == prefix.prefix),
                     qPrintable(code.left(cursor) + u'^' + code.mid(cursor)));
            const int match = LispSource::matchingParen(code, cursor);
            if (match >= 0) {
                const int back = LispSource::matchingParen(code, match);
                QVERIFY2(back == cursor || (code[cursor] == u'#' && back == cursor + 1), qPrintable(code));
            }
        }

        LexState state;
        for (const QString &line : code.split(u'\n')) {
            LexState next;
            int end = 0;
            for (const LispToken &token : LispSource::tokens(line, state, &next)) {
                QVERIFY2(token.start >= end && token.length > 0 && token.start + token.length <= line.size(),
                         qPrintable(line));
                end = token.start + token.length;
            }
            state = next;
        }
    }
}

QTEST_APPLESS_MAIN(TestLispSource)
#include "tst_lispsource.moc"
