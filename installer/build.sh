#!/usr/bin/env bash
# Configures and builds Lisp Duet into ./build (or $BUILD_DIR). Extra arguments go to cmake.
#   installer/build.sh          everything: the app, the tests, the benchmarks
#   installer/build.sh --app    only what the app needs to run (lisp-duet, its engine, the bridge)
#   installer/build.sh --configure   only configure (tests/run-all.sh then builds what it runs)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
jobs=$(nproc 2>/dev/null || echo 2)
targets=()
configure_only=0
if [ "${1:-}" = "--app" ]; then
  shift
  targets=(--target lisp-duet lisp-duet-engine lisp-duet-bridge)
elif [ "${1:-}" = "--configure" ]; then
  shift
  configure_only=1
fi
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$top" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
elif [ $# -gt 0 ] || [ "$configure_only" = 1 ]; then
  # Configured again on purpose: tests/run-all.sh lists the suites to build from CTest's files,
  # which a folder configured before the newest suites were added does not name yet.
  cmake -S "$top" -B "$build" "$@"
fi
[ "$configure_only" = 1 ] && exit 0
cmake --build "$build" -j"$jobs" "${targets[@]}"
