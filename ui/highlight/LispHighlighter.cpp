#include "LispHighlighter.h"

#include <QTextCursor>
#include <QTextDocument>

#ifdef DUET_HAVE_KSYNTAXHIGHLIGHTING
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>

namespace {
// One repository per process: loading the definitions is slow, and highlighters refer into it,
// so it must outlive all of them.
KSyntaxHighlighting::Repository &repository()
{
    static KSyntaxHighlighting::Repository instance;
    return instance;
}
} // namespace
#endif

namespace {

QTextCharFormat colour(const char *hex, bool bold = false, bool italic = false)
{
    QTextCharFormat format;
    format.setForeground(QColor(QLatin1String(hex)));
    if (bold)
        format.setFontWeight(QFont::Bold);
    if (italic)
        format.setFontItalic(true);
    return format;
}

} // namespace

// --- HighlightTheme ---------------------------------------------------------------------------

// The colours were checked against their background for a contrast ratio of at least 4.5
// (tst_lisphighlighter verifies it); hues follow common editor conventions so that strings,
// comments and definitions look where people expect them.
HighlightTheme HighlightTheme::light()
{
    HighlightTheme theme;
    theme.m_name = QStringLiteral("Duet Light");
    theme.m_background = QColor(0xff, 0xff, 0xff);
    theme.m_foreground = QColor(0x1f, 0x1f, 0x1f);
    theme.setFormat(LispTokenKind::Comment, colour("#5d6b5d", false, true));
    theme.setFormat(LispTokenKind::String, colour("#a31515"));
    theme.setFormat(LispTokenKind::Number, colour("#096b4f"));
    theme.setFormat(LispTokenKind::Keyword, colour("#7a3e9d"));
    theme.setFormat(LispTokenKind::Character, colour("#9a4d00"));
    theme.setFormat(LispTokenKind::FunctionQuote, colour("#00707a"));
    theme.setFormat(LispTokenKind::ReaderMacro, colour("#a0306a"));
    theme.setFormat(LispTokenKind::DefiningForm, colour("#0033b3", true));
    theme.setFormat(LispTokenKind::SpecialForm, colour("#0b57a3"));
    theme.setFormat(LispTokenKind::Paren, colour("#6b6b6b"));
    return theme;
}

HighlightTheme HighlightTheme::dark()
{
    HighlightTheme theme;
    theme.m_name = QStringLiteral("Duet Dark");
    theme.m_background = QColor(0x1e, 0x1e, 0x1e);
    theme.m_foreground = QColor(0xd4, 0xd4, 0xd4);
    theme.setFormat(LispTokenKind::Comment, colour("#8fa98f", false, true));
    theme.setFormat(LispTokenKind::String, colour("#ce9178"));
    theme.setFormat(LispTokenKind::Number, colour("#b5cea8"));
    theme.setFormat(LispTokenKind::Keyword, colour("#d7a0e0"));
    theme.setFormat(LispTokenKind::Character, colour("#e0b870"));
    theme.setFormat(LispTokenKind::FunctionQuote, colour("#4ec9b0"));
    theme.setFormat(LispTokenKind::ReaderMacro, colour("#f08cb4"));
    theme.setFormat(LispTokenKind::DefiningForm, colour("#79b8ff", true));
    theme.setFormat(LispTokenKind::SpecialForm, colour("#9cdcfe"));
    theme.setFormat(LispTokenKind::Paren, colour("#a8a8a8"));
    return theme;
}

void HighlightTheme::insertLine(QTextCursor &cursor, const QString &line, LexState &state, const QTextCharFormat &base) const
{
    LexState next;
    const QList<LispToken> tokens = LispSource::tokens(line, state, &next);
    int pos = 0;
    for (const LispToken &token : tokens) {
        if (token.start > pos)
            cursor.insertText(line.mid(pos, token.start - pos), base);
        QTextCharFormat coloured = base;
        coloured.merge(format(token.kind));
        cursor.insertText(line.mid(token.start, token.length), coloured);
        pos = token.start + token.length;
    }
    if (pos < line.size())
        cursor.insertText(line.mid(pos), base);
    state = next;
}

// --- LispSyntaxHighlighter --------------------------------------------------------------------

LispSyntaxHighlighter::LispSyntaxHighlighter(QTextDocument *document, const HighlightTheme &theme)
    : QSyntaxHighlighter(document), m_theme(theme)
{
}

void LispSyntaxHighlighter::setTheme(const HighlightTheme &theme)
{
    m_theme = theme;
    rehighlight();
}

void LispSyntaxHighlighter::highlightBlock(const QString &text)
{
    LexState end;
    const QList<LispToken> tokens = LispSource::tokens(text, LexState::fromInt(previousBlockState()), &end);
    for (const LispToken &token : tokens) {
        const QTextCharFormat format = m_theme.format(token.kind);
        if (format.propertyCount() > 0)
            setFormat(token.start, token.length, format);
    }
    // A changed end state makes QSyntaxHighlighter go on to the next block: that is how an
    // opening '"' or '#|' recolours the lines after it.
    setCurrentBlockState(end.toInt());
}

// --- SyntaxHighlighting -----------------------------------------------------------------------

SyntaxHighlighting *SyntaxHighlighting::attach(QTextDocument *document, Theme theme)
{
    Q_ASSERT(document);
    if (auto *existing = document->findChild<SyntaxHighlighting *>(QString(), Qt::FindDirectChildrenOnly)) {
        existing->setTheme(theme);
        return existing;
    }
    return new SyntaxHighlighting(document, theme);
}

SyntaxHighlighting::Theme SyntaxHighlighting::themeFor(const QColor &background)
{
    return background.lightness() < 128 ? Theme::Dark : Theme::Light;
}

SyntaxHighlighting::SyntaxHighlighting(QTextDocument *document, Theme theme)
    : QObject(document), m_theme(theme)
{
#ifdef DUET_HAVE_KSYNTAXHIGHLIGHTING
    const KSyntaxHighlighting::Definition definition =
        repository().definitionForName(QStringLiteral("Common Lisp"));
    if (definition.isValid()) {
        auto *highlighter = new KSyntaxHighlighting::SyntaxHighlighter(document);
        highlighter->setDefinition(definition);
        m_highlighter = highlighter;
        m_builtIn = false;
    }
#endif
    if (!m_highlighter)
        m_highlighter = new LispSyntaxHighlighter(document, HighlightTheme::light());
    m_highlighter->setParent(this); // still highlights document; dies with this object
    applyTheme();
}

void SyntaxHighlighting::setTheme(Theme theme)
{
    if (theme == m_theme)
        return;
    m_theme = theme;
    applyTheme();
}

void SyntaxHighlighting::rehighlight()
{
    m_highlighter->rehighlight();
}

QString SyntaxHighlighting::backendName() const
{
    return m_builtIn ? QStringLiteral("built-in") : QStringLiteral("KSyntaxHighlighting");
}

void SyntaxHighlighting::applyTheme()
{
#ifdef DUET_HAVE_KSYNTAXHIGHLIGHTING
    if (!m_builtIn) {
        auto *highlighter = static_cast<KSyntaxHighlighting::SyntaxHighlighter *>(m_highlighter);
        highlighter->setTheme(repository().defaultTheme(m_theme == Theme::Dark
                                                            ? KSyntaxHighlighting::Repository::DarkTheme
                                                            : KSyntaxHighlighting::Repository::LightTheme));
        highlighter->rehighlight();
        return;
    }
#endif
    static_cast<LispSyntaxHighlighter *>(m_highlighter)
        ->setTheme(m_theme == Theme::Dark ? HighlightTheme::dark() : HighlightTheme::light());
}
