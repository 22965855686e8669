#pragma once

class LispConsole;

// Light, dark or the system's look for the whole application, and the REPL's colours that
// follow it (the transcript's theme, the input's highlighter): File ▸ Settings' theme, applied
// by app/'s WindowSetup, and the same look for the tests' screenshots. Qt 6.4 cannot switch the
// platform's colour scheme, so light and dark use the Fusion style with a palette of our own,
// and "system" puts back the style and palette the application started with.
namespace WindowTheme {
enum class Look { System, Light, Dark };

// The style and palette of the application, then `console`'s colours (when given) after them.
void apply(Look look, LispConsole *console = nullptr);
// The palette in force is dark (by choice, or because the system's is).
bool isDark();
} // namespace WindowTheme
