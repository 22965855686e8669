#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to a running Lisp Duet: installs what is
# missing, builds, and starts the app (the window when a display is there, else headless).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/installer/install-deps.sh"
"$top/installer/build.sh" --app
bin=${BUILD_DIR:-$top/build}/bin/lisp-duet
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && "$bin" --help 2>/dev/null | grep -q -- "--tray"; then
  exec "$bin" "$@"
fi
echo "setup: no display here; starting Lisp Duet headless (Ctrl+C to stop)." >&2
if "$bin" --help 2>/dev/null | grep -q -- "--port"; then
  exec "$bin" --headless "$@"
fi
echo "setup: serving MCP on stdin/stdout; type JSON-RPC lines, or connect an MCP client to: $bin --headless --stdio" >&2
exec "$bin" --headless --stdio "$@"
