#!/usr/bin/env bash
# Rewrites the golden files from what the engine answers now:
#   tests/mcp/golden/refresh.sh [BUILD_DIR]      (default: build)
# Then read `git diff tests/mcp/golden` before committing: a golden file is a promise.
set -euo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$top/build}
cmake --build "$build" --target tst_evaluatetext lisp-duet-engine
LISP_DUET_REFRESH_GOLDEN=1 LISP_DUET_ENGINE="$build/bin/lisp-duet-engine" \
  "$build/bin/tst_evaluatetext" everyCaseMatchesItsGoldenFile
git -C "$top" status --short tests/mcp/golden
