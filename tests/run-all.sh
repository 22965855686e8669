#!/usr/bin/env bash
# One command for the whole test suite on a fresh Debian 12 machine: installs what is
# missing (Debian packages, pinned Node packages), builds, and runs every test with CTest.
#   tests/run-all.sh              everything (unit, GUI offscreen, end-to-end, short fuzz runs)
#   tests/run-all.sh --quick      for everyday work: build with g++, run the unit suites (label
#                                 `unit`: kernel, client, mcp, app, ui), nothing else
#   BUILD_DIR=... ASAN_BUILD_DIR=... tests/run-all.sh
#   LISP_DUET_SKIP_PACKAGE=1, LISP_DUET_SKIP_SANITIZE=1   leave out the .deb or the sanitizer pass
#
# Two passes, each suite run in one of them or both: tests/CMakeLists.txt labels each suite
# pass-main, pass-sanitizer or both (tests/README.md has the table), and the passes select by
# those labels and nothing else:
#   main       g++ -O2 (what the .deb is made of): GUI, corpus and e2e suites, the .deb installed
#              and its e2e suites (package-test.sh), and the unit suites that assert something
#              only without AddressSanitizer;
#   sanitizer  clang, ASan + UBSan (sanitize.sh): the unit suites, the fuzzers, the e2e suites
#              again (but the 150 s e2e_jobs_long, which the main pass runs).
# The sanitizer build starts as soon as the main build is done, at the lowest priority, and so
# uses the processor time the main pass's suites leave idle (they mostly wait on the engine,
# sockets and timers); when they are done it goes on at normal priority.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
asan=${ASAN_BUILD_DIR:-$top/build-asan}
jobs=$(nproc 2> /dev/null || echo 2)
quick=0
[ "${1:-}" = "--quick" ] && quick=1
start=$(date +%s)
mark=$start
# phase NAME: one line with the time since the previous phase ended, the processor time of
# what finished in it (this script's children; the background sanitizer build counts when it
# ends) and the load average (other work on the machine shows there).
cpu_mark=0
# `times` must run in this shell: in a pipeline or $(...) it is a subshell's, which has no
# children. It writes a file, which awk then reads.
times_file=$(mktemp)
phase() {
  local now cpu
  now=$(date +%s)
  times > "$times_file"
  cpu=$(tail -1 "$times_file" | awk '{ split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }')
  echo "run-all: $1: $((now - mark)) s, $((cpu - cpu_mark)) CPU-s (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  mark=$now
  cpu_mark=$cpu
}
sanitize=1
[ -x "$top/tests/sanitize.sh" ] && [ "${LISP_DUET_SKIP_SANITIZE:-0}" != 1 ] || sanitize=0

"$top/installer/install-deps.sh" --tests
phase "install-deps"

if [ "$quick" = 1 ]; then
  BUILD_DIR="$build" "$top/installer/build.sh" --configure
  mapfile -t unit_programs < <(ctest --test-dir "$build" -N -L unit | sed -n 's/^ *Test *#[0-9]*: \(tst_[A-Za-z0-9_]*\)$/\1/p')
  cmake --build "$build" -j"$jobs" --target lisp-duet lisp-duet-engine lisp-duet-bridge test_lisp_cache "${unit_programs[@]}"
  phase "build"
  QT_QPA_PLATFORM=offscreen ctest --test-dir "$build" --output-on-failure -j$((jobs + 1)) --timeout 600 -L unit && status=0 || status=$?
  phase "unit suites"
  echo "run-all: finished in $(( $(date +%s) - start )) s"
  exit $status
fi
# ccache with an empty cache (CI's fresh machine) only costs: about 11 % more user time per file
# (preprocessing, hashing, storing), and nothing in this run could hit. A warm cache is used.
if command -v ccache > /dev/null && [ "$(ccache --print-stats 2> /dev/null | sed -n 's/^files_in_cache\t//p')" = 0 ]; then
  echo "run-all: ccache's cache is empty: compiling without it"
  export CCACHE_DISABLE=1
fi

# The Node clients download beside the build.
npm_log=$(mktemp)
npm_pid=
if [ -f "$top/tests/package.json" ]; then
  ( cd "$top/tests" && if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --loglevel=error; else npm install --no-audit --no-fund --loglevel=error; fi ) > "$npm_log" 2>&1 &
  npm_pid=$!
fi

# A fresh build folder (CI's clean clone) gets line tables only (-g1): what backtraces need, and
# with it g++ 12 took about 30 % less time per file than with -g (as tests/sanitize.sh does).
# A folder configured before keeps its own flags.
config=()
[ -f "$build/CMakeCache.txt" ] || config=("-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG")
if [ "$sanitize" = 1 ]; then
  # What the main pass runs: the programs, the benchmarks, FiveAM for the tests, and the test
  # programs of the suites not left to the sanitizer pass (the unit suites; everything else of
  # `all` is built by installer/build.sh without arguments).
  BUILD_DIR="$build" "$top/installer/build.sh" --configure "${config[@]}"
  mapfile -t main_programs < <(ctest --test-dir "$build" -N -L pass-main | sed -n 's/^ *Test *#[0-9]*: \(tst_[A-Za-z0-9_]*\)$/\1/p')
  cmake --build "$build" -j"$jobs" --target lisp-duet lisp-duet-engine lisp-duet-bridge benchmarks test_lisp_cache "${main_programs[@]}"
else
  BUILD_DIR="$build" "$top/installer/build.sh" "${config[@]}"
fi
phase "main build"
if [ -n "$npm_pid" ]; then
  wait "$npm_pid" || { cat "$npm_log" >&2; echo "run-all: npm ci failed" >&2; exit 1; }
fi
rm -f "$npm_log"

# sanitizer_build [NICENESS]: builds the sanitizer folder in the background (own process group).
san_pid=
sanitizer_build() {
  setsid nice -n "$1" env SANITIZE_STEP=build ENGINE="$build/bin/lisp-duet-engine" LISP_CACHE="$build/test-lisp-cache" \
    JOBS="$jobs" "$top/tests/sanitize.sh" "$asan" >> "$asan/sanitize-build.log" 2>&1 &
  san_pid=$!
}
# stop_sanitizer_build: ends that build and what it started, if it runs.
stop_sanitizer_build() {
  if [ -n "$san_pid" ] && kill -0 "$san_pid" 2> /dev/null; then
    kill -TERM -- -"$san_pid" 2> /dev/null || true
    wait "$san_pid" 2> /dev/null || true
  fi
}
trap 'stop_sanitizer_build; rm -f "$times_file"' EXIT
if [ "$sanitize" = 1 ]; then
  mkdir -p "$asan"
  : > "$asan/sanitize-build.log"
  san_start=$(date +%s)
  sanitizer_build 19
fi

export QT_QPA_PLATFORM=offscreen
# Tests never touch the user's settings, history, journals or runtime directory: CTest runs
# them on a machine of its own (tests/CMakeLists.txt), package-test.sh on one of its own.

status=0
main_tests=()
[ "$sanitize" = 1 ] && main_tests=(-L pass-main)
# -j4 on 2 cores: the suites mostly wait on the engine, sockets and timers, and e2e_jobs_long
# (started first: its COST) sleeps for most of its 150 s in one of the slots.
ctest --test-dir "$build" --output-on-failure -j$((jobs + 2)) --timeout 600 "${main_tests[@]}" || status=$?
phase "main tests"

# The .deb as users get it: cpack, apt-get install, the e2e tests against /usr/bin, remove.
if [ "${LISP_DUET_SKIP_PACKAGE:-0}" != 1 ]; then
  BUILD_DIR="$build" "$top/tests/package-test.sh" || status=$?
  phase "package test"
fi

if [ "$sanitize" = 1 ]; then
  # The main pass is done: the build goes on at normal priority (ninja keeps what it finished;
  # the one or two files being compiled start again).
  if kill -0 "$san_pid" 2> /dev/null; then
    stop_sanitizer_build
    echo "run-all: the sanitizer build goes on at normal priority"
    sanitizer_build 0
  fi
  san_status=0
  wait "$san_pid" || san_status=$?
  phase "sanitizer build, after the main pass ($(( $(date +%s) - san_start )) s since it started)"
  if [ "$san_status" != 0 ]; then
    cat "$asan/sanitize-build.log" >&2
    echo "run-all: the sanitizer build failed" >&2
    status=1
  else
    SANITIZE_STEP=test LISP_CACHE="$build/test-lisp-cache" \
      "$top/tests/sanitize.sh" "$asan" || status=$?
    phase "sanitizer tests"
  fi
fi

echo "run-all: finished in $(( $(date +%s) - start )) s"
exit $status
