#pragma once

#include <QString>

// The first start on this account, when no settings exist yet: stores the settings (so the
// port is written down; any already set, such as the access mode, are kept) and makes the
// bearer token, so that --client-config and the
// Connect dialog print what the app then serves. Later starts change nothing.
namespace FirstRun {
// True when this was the first start. A token that cannot be written leaves *error set; the
// endpoints report the same problem when they start.
bool ensureConfig(QString *error = nullptr);
} // namespace FirstRun
