#!/usr/bin/env bash
# One command for the whole test suite on a fresh Debian 12 machine: installs what is
# missing (Debian packages, pinned Node packages), builds, and runs every test with CTest.
#   tests/run-all.sh              everything (unit, GUI offscreen, end-to-end, short fuzz runs)
#   BUILD_DIR=... tests/run-all.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
start=$(date +%s)

"$top/installer/install-deps.sh" --tests
# ccache with an empty cache (CI's fresh machine) only costs: about 11 % more user time per file
# (preprocessing, hashing, storing), and nothing in this run could hit. A warm cache is used.
if command -v ccache > /dev/null && [ "$(ccache --print-stats 2> /dev/null | sed -n 's/^files_in_cache\t//p')" = 0 ]; then
  echo "run-all: ccache's cache is empty: compiling without it"
  export CCACHE_DISABLE=1
fi
# A fresh build folder (CI's clean clone) gets line tables only (-g1): what backtraces need, and
# with it g++ 12 took about 30 % less time per file than with -g (as tests/sanitize.sh does). A
# folder configured before keeps its own flags.
config=()
[ -f "$build/CMakeCache.txt" ] || config=("-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG")
BUILD_DIR="$build" "$top/installer/build.sh" "${config[@]}"

if [ -f "$top/tests/package.json" ]; then
  ( cd "$top/tests" && if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --loglevel=error; else npm install --no-audit --no-fund --loglevel=error; fi )
fi

export QT_QPA_PLATFORM=offscreen
# Tests never touch the user's settings, history, journals or runtime directory: CTest runs
# them on a machine of its own (tests/CMakeLists.txt), package-test.sh on one of its own.

status=0
ctest --test-dir "$build" --output-on-failure -j2 --timeout 600 || status=$?

# The .deb as users get it: cpack, apt-get install, the e2e tests against /usr/bin, remove.
if [ "${LISP_DUET_SKIP_PACKAGE:-0}" != 1 ]; then
  BUILD_DIR="$build" "$top/tests/package-test.sh" || status=$?
fi

if [ -x "$top/tests/sanitize.sh" ] && [ "${LISP_DUET_SKIP_SANITIZE:-0}" != 1 ]; then
  LISP_CACHE="$build/test-lisp-cache" "$top/tests/sanitize.sh" || status=$?
fi

echo "run-all: finished in $(( $(date +%s) - start )) s"
exit $status
