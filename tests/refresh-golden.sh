#!/usr/bin/env bash
# Rewrites every golden file from what the code produces now (one switch for all of them:
# LISP_DUET_REFRESH_GOLDEN=1), then shows what changed:
#   tests/refresh-golden.sh [BUILD_DIR]      (default: build)
# Read `git diff tests` before committing: a golden file is a promise.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
golden_tests=$(grep -l DUET_COMPARE_GOLDEN "$top"/tests/*/tst_*.cpp | xargs -n1 basename | sed 's/\.cpp$//')
cmake --build "$build" --target lisp-duet-engine $golden_tests
for test in $golden_tests; do
  LISP_DUET_REFRESH_GOLDEN=1 LISP_DUET_ENGINE="$build/bin/lisp-duet-engine" QT_QPA_PLATFORM=offscreen "$build/bin/$test" >/dev/null
done
git -C "$top" status --short tests
