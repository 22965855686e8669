#!/usr/bin/env bash
# Builds the host with AddressSanitizer + UndefinedBehaviorSanitizer (LISP_DUET_SANITIZE=ON;
# the ECL engine is built without them: ECL's GC does not run under ASan) in build-asan/, then
# runs the unit suites (client, mcp, kernel, app) and, when `npm ci` has run in tests/, the
# end-to-end suites, with leak detection on. Any sanitizer report fails the run.
#
#   tests/sanitize.sh [BUILD_DIR]      (default: <repo>/build-asan; JOBS=N to set parallelism;
#                                       LISP_CACHE=DIR: the tests' compiled FiveAM, e.g. the main
#                                       build's build/test-lisp-cache, which run-all.sh passes)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build-asan}"
jobs="${JOBS:-$(nproc)}"

generator=()
command -v ninja >/dev/null 2>&1 && [ ! -f "$build/CMakeCache.txt" ] && generator=(-G Ninja)
# -O1 -g1 (line tables, enough for the sanitizers' stack traces): with ASan+UBSan, g++ 12 takes
# about 2.7 times as long per file at -O2 -g (46 s against 17 s for DefinitionsModel.cpp), and
# this build was most of the test command's time.
cache=()
[ -n "${LISP_CACHE:-}" ] && cache=("-DLISP_DUET_TEST_LISP_CACHE=$LISP_CACHE")
cmake -S "$here" -B "$build" "${generator[@]}" "${cache[@]}" -DLISP_DUET_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" >/dev/null
# Only what the suites below run: the three programs and the unit tests of those labels (the GUI
# tests and the benchmarks are not run here, so they are not built here either).
unit_labels="client|mcp|kernel|app"
mapfile -t unit_tests < <(ctest --test-dir "$build" -N -L "$unit_labels" | sed -n 's/^ *Test *#[0-9]*: \(tst_[A-Za-z0-9_]*\)$/\1/p')
cmake --build "$build" -j"$jobs" --target lisp-duet lisp-duet-engine lisp-duet-bridge "${unit_tests[@]}"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$here/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

labels="$unit_labels"
if [ -d "$here/tests/node_modules" ]; then
  labels="$labels|e2e"
fi
cd "$build"
ctest -L "$labels" --output-on-failure -j"$jobs"
