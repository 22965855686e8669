#include "WindowTheme.h"

#include "console/ConsoleWidget.h"
#include "console/LispConsole.h"
#include "console/TranscriptView.h"
#include "highlight/LispHighlighter.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace {
struct Original
{
    QString style;
    QPalette palette;
};

Original &original()
{
    static Original saved{QApplication::style() ? QApplication::style()->name() : QString(), QApplication::palette()};
    return saved;
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2b, 0x2b), base(0x1e, 0x1e, 0x1e), text(0xdc, 0xdc, 0xdc), highlight(0x2f, 0x65, 0xca);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xa8, 0xff));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x7a, 0x7a, 0x7a));
    return p;
}
} // namespace

void WindowTheme::apply(Look look, LispConsole *console)
{
    const Original &saved = original(); // remembered before the first change
    switch (look) {
    case Look::Dark:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
        break;
    case Look::Light:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case Look::System:
        if (QStyle *style = QStyleFactory::create(saved.style))
            QApplication::setStyle(style);
        QApplication::setPalette(saved.palette);
        break;
    }
    if (!console)
        return;
    const bool dark = isDark();
    console->transcript()->setTheme(dark ? HighlightTheme::dark() : HighlightTheme::light());
    // Attaching again to the input's document only switches the theme of its highlighter.
    SyntaxHighlighting::attach(console->input()->document(), dark ? SyntaxHighlighting::Theme::Dark : SyntaxHighlighting::Theme::Light);
}

bool WindowTheme::isDark()
{
    const QPalette p = QApplication::palette();
    return p.color(QPalette::Base).lightness() < p.color(QPalette::Text).lightness();
}
