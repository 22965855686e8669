#pragma once

#include "Preferences.h"

// Light, dark or the system's look for the whole application. Qt 6.4 cannot switch the
// platform's colour scheme, so light and dark use the Fusion style with a palette of our own,
// and "system" puts back the style and palette the application started with.
namespace AppTheme {
void apply(Preferences::Theme theme);
// The palette in force is dark (by choice, or because the system's is).
bool isDark();
} // namespace AppTheme
