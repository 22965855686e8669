#!/usr/bin/env bash
# Builds the host with clang, AddressSanitizer + UndefinedBehaviorSanitizer and libFuzzer's
# coverage (LISP_DUET_SANITIZE=ON; the ECL engine is never sanitized: ECL's GC does not run
# under ASan) in build-asan/, with the fuzz targets linked against those same libraries, then
# runs the suites labelled pass-sanitizer (tests/CMakeLists.txt: the unit suites of client,
# mcp, kernel and app, the short fuzz runs and the end-to-end suites, which skip themselves
# until `npm ci` has run in tests/), with leak detection on. Any sanitizer report fails the run.
#
#   tests/sanitize.sh [BUILD_DIR]      (default: <repo>/build-asan)
#   JOBS=N                             parallelism of the build and of CTest (default: nproc)
#   LISP_CACHE=DIR                     the tests' compiled FiveAM, e.g. the main build's
#                                      build/test-lisp-cache (run-all.sh passes it)
#   ENGINE=FILE                        a lisp-duet-engine to use instead of building one, e.g.
#                                      the main build's build/bin/lisp-duet-engine (run-all.sh
#                                      passes it: the engine is not sanitized anyway)
#   SANITIZE_STEP=build|test|all       only build, only run the tests (of a built folder), or
#                                      both (default); configure: only configure the folder
#   SANITIZE_CTEST_ARGS="-R NAME"      more arguments for ctest (one suite, say)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build-asan}"
jobs="${JOBS:-$(nproc)}"
step="${SANITIZE_STEP:-all}"


if [ "$step" != test ]; then
  generator=()
  command -v ninja >/dev/null 2>&1 && [ ! -f "$build/CMakeCache.txt" ] && generator=(-G Ninja)
  # clang++, -O1 -g1 (line tables, enough for the sanitizers' stack traces). With ASan+UBSan,
  # g++ 12 took 26.3 s for DefinitionLedger.cpp at -O1 and clang 14 13.9 s; this build was the
  # largest part of the test command's time. The libFuzzer targets need clang anyway.
  cxx=${SANITIZE_CXX:-clang++}
  command -v "$cxx" > /dev/null || { echo "sanitize: $cxx not found (installer/install-deps.sh --tests installs clang)" >&2; exit 1; }
  options=()
  [ -n "${LISP_CACHE:-}" ] && options+=("-DLISP_DUET_TEST_LISP_CACHE=$LISP_CACHE")
  [ -n "${ENGINE:-}" ] && options+=("-DLISP_DUET_PREBUILT_ENGINE=$ENGINE")
  if [ ! -f "$build/CMakeCache.txt" ]; then
    options+=("-DCMAKE_CXX_COMPILER=$cxx")
  elif ! grep -q '^CMAKE_CXX_COMPILER:.*clang' "$build/CMakeCache.txt"; then
    echo "sanitize: $build was configured with another compiler than clang (before the fuzzers moved here); remove it" >&2
    exit 1
  fi
  cmake -S "$here" -B "$build" "${generator[@]}" "${options[@]}" -DLISP_DUET_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" >/dev/null
  [ "$step" = configure ] && exit 0
  # Only what the suites below run: the three programs, the fuzzers and the test programs of the
  # pass (the GUI tests and the benchmarks are not run here, so they are not built here either).
  mapfile -t unit_tests < <(ctest --test-dir "$build" -N -L pass-sanitizer | sed -n 's/^ *Test *#[0-9]*: \(tst_[A-Za-z0-9_]*\)$/\1/p')
  cmake --build "$build" -j"$jobs" --target lisp-duet lisp-duet-engine lisp-duet-bridge fuzzers "${unit_tests[@]}"
fi
[ "$step" = build ] && exit 0

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$here/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

cd "$build"
# shellcheck disable=SC2086
ctest -L pass-sanitizer --output-on-failure -j"$jobs" ${SANITIZE_CTEST_ARGS:-}
