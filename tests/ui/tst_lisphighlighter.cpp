// SyntaxHighlighting: attached to a QTextDocument, checked through the formats of ranges.
// Without KSyntaxHighlighting (Debian 12) this exercises the built-in LispSyntaxHighlighter.

#include "highlight/LispHighlighter.h"

#include <QPointer>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextLayout>

#include <cmath>

namespace {

// The format the highlighter gave the character at position (an empty format if none).
QTextCharFormat formatAt(const QTextDocument &document, int position)
{
    const QTextBlock block = document.findBlock(position);
    const int inBlock = position - block.position();
    const auto ranges = block.layout()->formats();
    for (const QTextLayout::FormatRange &range : ranges) {
        if (range.start <= inBlock && inBlock < range.start + range.length)
            return range.format;
    }
    return {};
}

// The format of the first occurrence of needle, after checking the whole of it has one format.
QTextCharFormat formatOf(const QTextDocument &document, const QString &needle)
{
    const int start = int(document.toPlainText().indexOf(needle));
    if (start < 0)
        qFatal("'%s' is not in the document", qPrintable(needle));
    const QTextCharFormat first = formatAt(document, start);
    for (int i = 1; i < needle.size(); ++i) {
        if (formatAt(document, start + i) != first)
            qFatal("'%s' does not have one format", qPrintable(needle));
    }
    return first;
}

double luminance(const QColor &c)
{
    auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (qMax(la, lb) + 0.05) / (qMin(la, lb) + 0.05);
}

const QString Sample = QStringLiteral(
    "; a comment\n"
    "(defun area (r)\n"
    "  \"Docstring\n"
    "   on two lines.\"\n"
    "  (let ((k :scale))\n"
    "    (list #\\( 'pi #'sqrt #+ecl 3.14 r)))\n"
    "#| block\n"
    "   comment |# tail\n");

} // namespace

// The colours checked below are the built-in theme's; KSyntaxHighlighting brings its own.
#ifdef DUET_HAVE_KSYNTAXHIGHLIGHTING
#define REQUIRE_BUILT_IN() QSKIP("colours come from KSyntaxHighlighting's theme")
#else
#define REQUIRE_BUILT_IN() do { } while (false)
#endif

Q_DECLARE_METATYPE(LispTokenKind)

class TestLispHighlighter : public QObject
{
    Q_OBJECT

private slots:
    void colorsEachTokenKind_data();
    void colorsEachTokenKind();
    void plainSymbolsKeepTheEditorsColour();
    void stringsAndBlockCommentsSpanningLinesAreColouredOnEveryLine();
    void typingAQuoteRecoloursTheFollowingLines();
    void switchingTheThemeRecolours();
    void attachingTwiceReusesTheHighlighting();
    void theHighlightingDiesWithTheDocument();
    void themeFollowsTheBackground();
    void everyThemeColourIsReadableOnItsBackground_data();
    void everyThemeColourIsReadableOnItsBackground();
    void usesTheBuiltInHighlighterWithoutKSyntaxHighlighting();
};

void TestLispHighlighter::colorsEachTokenKind_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<LispTokenKind>("kind");
    QTest::newRow("comment") << "; a comment" << LispTokenKind::Comment;
    QTest::newRow("defining form") << "defun" << LispTokenKind::DefiningForm;
    QTest::newRow("special form") << "let" << LispTokenKind::SpecialForm;
    QTest::newRow("string") << "\"Docstring" << LispTokenKind::String;
    QTest::newRow("keyword") << ":scale" << LispTokenKind::Keyword;
    QTest::newRow("character") << "#\\(" << LispTokenKind::Character;
    QTest::newRow("function quote") << "#'" << LispTokenKind::FunctionQuote;
    QTest::newRow("quote") << "'" << LispTokenKind::ReaderMacro;
    QTest::newRow("feature") << "#+ecl" << LispTokenKind::ReaderMacro;
    QTest::newRow("number") << "3.14" << LispTokenKind::Number;
    QTest::newRow("paren") << "(" << LispTokenKind::Paren;
}

void TestLispHighlighter::colorsEachTokenKind()
{
    REQUIRE_BUILT_IN();
    QFETCH(QString, text);
    QFETCH(LispTokenKind, kind);
    QTextDocument document(Sample);
    SyntaxHighlighting::attach(&document, SyntaxHighlighting::Theme::Light);
    const QTextCharFormat expected = HighlightTheme::light().format(kind);
    const QTextCharFormat actual = formatOf(document, text);
    QCOMPARE(actual.foreground().color(), expected.foreground().color());
    QCOMPARE(actual.fontWeight(), expected.fontWeight());
    QCOMPARE(actual.fontItalic(), expected.fontItalic());
}

void TestLispHighlighter::plainSymbolsKeepTheEditorsColour()
{
    REQUIRE_BUILT_IN();
    QTextDocument document(Sample);
    SyntaxHighlighting::attach(&document);
    QVERIFY(!formatOf(document, "area").hasProperty(QTextFormat::ForegroundBrush));
    QVERIFY(!formatOf(document, "sqrt").hasProperty(QTextFormat::ForegroundBrush));
    QVERIFY(!formatOf(document, "list").hasProperty(QTextFormat::ForegroundBrush));
}

void TestLispHighlighter::stringsAndBlockCommentsSpanningLinesAreColouredOnEveryLine()
{
    REQUIRE_BUILT_IN();
    QTextDocument document(Sample);
    SyntaxHighlighting::attach(&document);
    const HighlightTheme theme = HighlightTheme::light();
    QCOMPARE(formatOf(document, "   on two lines.\"").foreground(), theme.format(LispTokenKind::String).foreground());
    QCOMPARE(formatOf(document, "   comment |#").foreground(), theme.format(LispTokenKind::Comment).foreground());
    QVERIFY(!formatOf(document, "tail").hasProperty(QTextFormat::ForegroundBrush));
}

void TestLispHighlighter::typingAQuoteRecoloursTheFollowingLines()
{
    REQUIRE_BUILT_IN();
    QTextDocument document("(a)\nbee\ncee");
    // As in an editor: QTextDocument reports edits (contentsChange) only once it has a layout,
    // and QSyntaxHighlighter ignores them until the full pass it queued on attaching has run.
    document.documentLayout();
    SyntaxHighlighting::attach(&document);
    QCoreApplication::processEvents();
    const QBrush string = HighlightTheme::light().format(LispTokenKind::String).foreground();
    QVERIFY(!formatOf(document, "cee").hasProperty(QTextFormat::ForegroundBrush));

    QTextCursor cursor(&document);
    cursor.insertText("\""); // an opening quote at the very start
    QCOMPARE(formatOf(document, "bee").foreground(), string);
    QCOMPARE(formatOf(document, "cee").foreground(), string);

    cursor.movePosition(QTextCursor::Start);
    cursor.deleteChar();
    QVERIFY(!formatOf(document, "cee").hasProperty(QTextFormat::ForegroundBrush));
}

void TestLispHighlighter::switchingTheThemeRecolours()
{
    REQUIRE_BUILT_IN();
    QTextDocument document(Sample);
    SyntaxHighlighting *highlighting = SyntaxHighlighting::attach(&document, SyntaxHighlighting::Theme::Light);
    QCOMPARE(highlighting->theme(), SyntaxHighlighting::Theme::Light);
    highlighting->setTheme(SyntaxHighlighting::Theme::Dark);
    QCOMPARE(highlighting->theme(), SyntaxHighlighting::Theme::Dark);
    QCOMPARE(formatOf(document, "defun").foreground(),
             HighlightTheme::dark().format(LispTokenKind::DefiningForm).foreground());
}

void TestLispHighlighter::attachingTwiceReusesTheHighlighting()
{
    QTextDocument document(Sample);
    SyntaxHighlighting *first = SyntaxHighlighting::attach(&document, SyntaxHighlighting::Theme::Light);
    SyntaxHighlighting *second = SyntaxHighlighting::attach(&document, SyntaxHighlighting::Theme::Dark);
    QCOMPARE(second, first);
    QCOMPARE(first->theme(), SyntaxHighlighting::Theme::Dark);
    QCOMPARE(document.findChildren<SyntaxHighlighting *>().size(), 1);
    QCOMPARE(document.findChildren<QSyntaxHighlighter *>().size(), 1);
}

void TestLispHighlighter::theHighlightingDiesWithTheDocument()
{
    auto *document = new QTextDocument(Sample);
    QPointer<SyntaxHighlighting> highlighting = SyntaxHighlighting::attach(document);
    QPointer<QSyntaxHighlighter> highlighter = highlighting->highlighter();
    QVERIFY(highlighter);
    QCOMPARE(highlighter->document(), document);
    delete document;
    QVERIFY(!highlighting);
    QVERIFY(!highlighter);
}

void TestLispHighlighter::themeFollowsTheBackground()
{
    QCOMPARE(SyntaxHighlighting::themeFor(Qt::white), SyntaxHighlighting::Theme::Light);
    QCOMPARE(SyntaxHighlighting::themeFor(QColor("#f0f0f0")), SyntaxHighlighting::Theme::Light);
    QCOMPARE(SyntaxHighlighting::themeFor(QColor("#1e1e1e")), SyntaxHighlighting::Theme::Dark);
    QCOMPARE(SyntaxHighlighting::themeFor(Qt::black), SyntaxHighlighting::Theme::Dark);
    QCOMPARE(SyntaxHighlighting::themeFor(HighlightTheme::dark().background()), SyntaxHighlighting::Theme::Dark);
    QCOMPARE(SyntaxHighlighting::themeFor(HighlightTheme::light().background()), SyntaxHighlighting::Theme::Light);
}

void TestLispHighlighter::everyThemeColourIsReadableOnItsBackground_data()
{
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
}

void TestLispHighlighter::everyThemeColourIsReadableOnItsBackground()
{
    QFETCH(bool, dark);
    const HighlightTheme theme = dark ? HighlightTheme::dark() : HighlightTheme::light();
    QVERIFY(contrast(theme.foreground(), theme.background()) >= 7.0);
    for (int k = 0; k <= int(LispTokenKind::Symbol); ++k) {
        const QTextCharFormat format = theme.format(LispTokenKind(k));
        if (LispTokenKind(k) == LispTokenKind::Symbol) {
            QVERIFY(!format.hasProperty(QTextFormat::ForegroundBrush));
            continue;
        }
        QVERIFY2(format.hasProperty(QTextFormat::ForegroundBrush), qPrintable(QString::number(k)));
        const double ratio = contrast(format.foreground().color(), theme.background());
        QVERIFY2(ratio >= 4.5, qPrintable(QStringLiteral("kind %1: contrast %2").arg(k).arg(ratio)));
    }
}

void TestLispHighlighter::usesTheBuiltInHighlighterWithoutKSyntaxHighlighting()
{
    QTextDocument document;
    SyntaxHighlighting *highlighting = SyntaxHighlighting::attach(&document);
#ifdef DUET_HAVE_KSYNTAXHIGHLIGHTING
    QCOMPARE(highlighting->backendName(), "KSyntaxHighlighting");
#else
    QCOMPARE(highlighting->backendName(), "built-in");
    QVERIFY(qobject_cast<LispSyntaxHighlighter *>(highlighting->highlighter()));
#endif
}

QTEST_MAIN(TestLispHighlighter)
#include "tst_lisphighlighter.moc"
