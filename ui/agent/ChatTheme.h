#pragma once

#include "highlight/LispHighlighter.h"

#include <QColor>
#include <QFont>

class QPalette;

// The chat's colours and fonts for a light or a dark window: the prose takes the palette's
// text colour; these are the rest, each readable on its background (4.5:1 or better), and the
// code colours are the window's own (HighlightTheme, as the transcript uses them).
struct ChatTheme
{
    bool dark = false;
    HighlightTheme code;
    QFont codeFont;
    QColor text;
    QColor muted;          // thoughts, hints, the "You" line's resources
    QColor link;
    QColor userBackground; // the person's prompts
    QColor codeBackground; // fenced code, inline code
    QColor toolBorder;
    QColor toolBackground;
    QColor pending;
    QColor running;
    QColor done;
    QColor failed;
    QColor attention; // awaiting your approval, parked in the debugger
    QColor value;     // "=> 3", as the transcript colours values

    static ChatTheme light();
    static ChatTheme darkTheme();
    // Dark when the palette's base is dark, as WindowTheme::isDark decides.
    static ChatTheme forPalette(const QPalette &palette);
    QColor statusColour(const QString &status) const; // pending, in_progress, completed, failed
};
