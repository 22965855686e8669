#include "ChatTheme.h"

#include <QPalette>

namespace {
QFont monospace()
{
    QFont font(QStringLiteral("DejaVu Sans Mono")); // the console's code font
    font.setStyleHint(QFont::Monospace);
    font.setFixedPitch(true);
    return font;
}
} // namespace

ChatTheme ChatTheme::light()
{
    ChatTheme t;
    t.dark = false;
    t.code = HighlightTheme::light();
    t.codeFont = monospace();
    t.text = QColor(0x1f, 0x1f, 0x1f);
    t.muted = QColor(0x5f, 0x66, 0x70);
    t.link = QColor(0x1a, 0x5f, 0xb4);
    t.userBackground = QColor(0xec, 0xf1, 0xf8);
    t.codeBackground = QColor(0xf4, 0xf5, 0xf7);
    t.toolBorder = QColor(0xd0, 0xd6, 0xde);
    t.toolBackground = QColor(0xfa, 0xfb, 0xfc);
    t.pending = t.muted;
    t.running = QColor(0x0b, 0x57, 0xa3);
    t.done = QColor(0x2f, 0x6f, 0x2f);
    t.failed = QColor(0xb0, 0x1c, 0x1c);
    t.attention = QColor(0x8a, 0x5a, 0x00);
    t.value = QColor(0x0b, 0x4f, 0x9c);
    return t;
}

ChatTheme ChatTheme::darkTheme()
{
    ChatTheme t;
    t.dark = true;
    t.code = HighlightTheme::dark();
    t.codeFont = monospace();
    t.text = QColor(0xdc, 0xdc, 0xdc);
    t.muted = QColor(0x9a, 0xa4, 0xb0);
    t.link = QColor(0x6c, 0xb6, 0xff);
    t.userBackground = QColor(0x27, 0x30, 0x3b);
    t.codeBackground = QColor(0x26, 0x29, 0x2e);
    t.toolBorder = QColor(0x45, 0x4c, 0x56);
    t.toolBackground = QColor(0x23, 0x25, 0x29);
    t.pending = t.muted;
    t.running = QColor(0x79, 0xb8, 0xff);
    t.done = QColor(0x7e, 0xc9, 0x7e);
    t.failed = QColor(0xff, 0x7b, 0x72);
    t.attention = QColor(0xe0, 0xc0, 0x60);
    t.value = QColor(0x79, 0xb8, 0xff);
    return t;
}

ChatTheme ChatTheme::forPalette(const QPalette &palette)
{
    ChatTheme theme = palette.color(QPalette::Base).lightness() < palette.color(QPalette::Text).lightness() ? darkTheme() : light();
    theme.text = palette.color(QPalette::Text);
    return theme;
}

QColor ChatTheme::statusColour(const QString &status) const
{
    if (status == QLatin1String("completed"))
        return done;
    if (status == QLatin1String("failed"))
        return failed;
    if (status == QLatin1String("in_progress"))
        return running;
    return pending;
}
