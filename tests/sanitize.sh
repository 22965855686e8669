#!/usr/bin/env bash
# Builds the host with AddressSanitizer + UndefinedBehaviorSanitizer (LISP_DUET_SANITIZE=ON;
# the ECL engine is built without them: ECL's GC does not run under ASan) in build-asan/, then
# runs the unit suites (client, mcp, kernel, app) and, when `npm ci` has run in tests/, the
# end-to-end suites, with leak detection on. Any sanitizer report fails the run.
#
#   tests/sanitize.sh [BUILD_DIR]      (default: <repo>/build-asan; JOBS=N to set parallelism)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build-asan}"
jobs="${JOBS:-$(nproc)}"

cmake -S "$here" -B "$build" -DLISP_DUET_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$jobs"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$here/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

labels="client|mcp|kernel|app"
if [ -d "$here/tests/node_modules" ]; then
  labels="$labels|e2e"
fi
cd "$build"
ctest -L "$labels" --output-on-failure -j"$jobs"
