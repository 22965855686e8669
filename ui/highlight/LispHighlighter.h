#pragma once

// Syntax highlighting for Lisp text in a QTextDocument, behind one interface:
//
//   SyntaxHighlighting::attach(editor->document(), SyntaxHighlighting::Theme::Dark);
//
// With KF6 KSyntaxHighlighting (DUET_HAVE_KSYNTAXHIGHLIGHTING) it uses that library's
// "Common Lisp" definition and its default light/dark theme; otherwise, or when the definition
// is missing, the built-in LispSyntaxHighlighter below, which colours LispSource::tokens().

#include "lispsource/LispSource.h"

#include <QColor>
#include <QObject>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <array>

class QTextCursor;
class QTextDocument;

// The built-in highlighter's colours: one character format per token kind, chosen for one
// background. Every colour has a contrast ratio of at least 4.5 (WCAG AA) against it.
class HighlightTheme
{
public:
    static HighlightTheme light(); // for white backgrounds
    static HighlightTheme dark();  // for backgrounds around #1e1e1e

    QString name() const { return m_name; }
    QColor background() const { return m_background; }
    QColor foreground() const { return m_foreground; }
    // Symbol has an empty format: plain symbols keep the editor's own text colour.
    QTextCharFormat format(LispTokenKind kind) const { return m_formats[size_t(kind)]; }
    void setFormat(LispTokenKind kind, const QTextCharFormat &format) { m_formats[size_t(kind)] = format; }

    // Inserts one line of Lisp at `cursor`, coloured with these formats over `base` (a font, a
    // background). `state` is the scanner's state before the line and becomes the one after
    // it, so strings and #| |# comments go on across lines. For documents that hold more than
    // code (the transcript, the agent's chat), where a document-wide highlighter would colour
    // the rest too.
    void insertLine(QTextCursor &cursor, const QString &line, LexState &state, const QTextCharFormat &base = {}) const;

private:
    QString m_name;
    QColor m_background;
    QColor m_foreground;
    std::array<QTextCharFormat, size_t(LispTokenKind::Symbol) + 1> m_formats;
};

// The built-in highlighter. Each block's state is the LexState at its end, so strings and
// #| |# comments that span lines are coloured right, and editing a line rehighlights only as
// far as the state changes.
class LispSyntaxHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    LispSyntaxHighlighter(QTextDocument *document, const HighlightTheme &theme);

    HighlightTheme theme() const { return m_theme; }
    void setTheme(const HighlightTheme &theme);

protected:
    void highlightBlock(const QString &text) override;

private:
    HighlightTheme m_theme;
};

// The one entry point the UI uses. It is a child of the document and dies with it.
class SyntaxHighlighting : public QObject
{
    Q_OBJECT
public:
    enum class Theme { Light, Dark };

    // Highlights document as Lisp. Attaching twice to one document reuses the first
    // highlighting (and applies theme), so there are never two highlighters fighting.
    static SyntaxHighlighting *attach(QTextDocument *document, Theme theme = Theme::Light);
    // Dark when the background is dark (by its lightness), for following the palette.
    static Theme themeFor(const QColor &background);

    Theme theme() const { return m_theme; }
    void setTheme(Theme theme);
    void rehighlight();
    QString backendName() const; // "KSyntaxHighlighting" or "built-in"
    QSyntaxHighlighter *highlighter() const { return m_highlighter; }

private:
    SyntaxHighlighting(QTextDocument *document, Theme theme);
    void applyTheme();

    Theme m_theme;
    QSyntaxHighlighter *m_highlighter = nullptr; // a child of this object
    bool m_builtIn = true;
};
