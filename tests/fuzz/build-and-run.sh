#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/fuzz_*.cpp) in a sanitizer build folder, then runs
# each for a time budget.
#
#   tests/fuzz/build-and-run.sh [BUILD_DIR=build-asan] [SECONDS=30]
#
# The targets are built by CMake in BUILD_DIR, the clang sanitizer build of tests/sanitize.sh
# (configured here as that script does when BUILD_DIR has none yet): each target is its own
# file linked against the product's libraries, which that build compiles with ASan, UBSan and
# libFuzzer's coverage (CMakeLists.txt). A target's comment lines near its top say how it runs:
#   // FUZZ_CORPUS: http                 (seed folder under corpus/; default: name without fuzz_)
#   // FUZZ_DICT: http.dict              (libFuzzer dictionary beside the target)
# Environment:
#   FUZZ_TARGETS="fuzz_a fuzz_b"  only these (default: every fuzz_*.cpp here)
#   FUZZ_ARGS                     extra libFuzzer flags, e.g. -jobs=4
#   FUZZ_BUILD_ONLY=1             build, don't run
#   FUZZ_PREBUILT=1               run the targets already built in BUILD_DIR/fuzz, build nothing
#                                 (CTest's short runs: the sanitizer build made them)
# New corpus entries go to BUILD_DIR/fuzz/corpus/NAME (the seeds in the repo stay as they are);
# crashes go to BUILD_DIR/fuzz/artifacts/. Exit status: non-zero if a build failed or any
# fuzzer found a problem.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build-asan}
seconds=${2:-30}
mkdir -p "$build" || exit 2
build=$(cd "$build" && pwd)
out=$build/fuzz

directive() { # directive FILE NAME -> the value of "// NAME: value", empty if none
    sed -n "s|^// $2:[[:space:]]*||p" "$1" | head -n 1
}

names=()
if [ -n "${FUZZ_TARGETS:-}" ]; then
    for t in $FUZZ_TARGETS; do names+=("${t%.cpp}"); done
else
    for src in "$here"/fuzz_*.cpp; do names+=("$(basename "$src" .cpp)"); done
fi
for name in "${names[@]}"; do
    [ -f "$here/$name.cpp" ] || { echo "build-and-run: no such target $here/$name.cpp" >&2; exit 2; }
done

status=0
if [ "${FUZZ_PREBUILT:-0}" != 1 ]; then
    if [ ! -f "$build/CMakeCache.txt" ]; then
        SANITIZE_STEP=configure "$root/tests/sanitize.sh" "$build" || exit 2
    fi
    cmake --build "$build" --target "${names[@]}" || exit 2
fi
built=()
for name in "${names[@]}"; do
    if [ -x "$out/$name" ]; then
        built+=("$name")
    else
        echo "build-and-run: $out/$name is not built (tests/sanitize.sh builds the fuzzers)" >&2
        status=1
    fi
done

[ "${FUZZ_BUILD_ONLY:-0}" = 1 ] && exit $status

for name in "${built[@]}"; do
    src="$here/$name.cpp"
    corpus=$(directive "$src" FUZZ_CORPUS)
    corpus=${corpus:-${name#fuzz_}}
    dict=$(directive "$src" FUZZ_DICT)
    mkdir -p "$out/corpus/$corpus" "$out/artifacts"
    args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1
          -artifact_prefix="$out/artifacts/$name-")
    [ -n "$dict" ] && args+=(-dict="$here/$dict")
    seeds=()
    [ -d "$here/corpus/$corpus" ] && seeds+=("$here/corpus/$corpus")
    echo "== running $name for ${seconds}s"
    # shellcheck disable=SC2086
    if ! "$out/$name" "${args[@]}" ${FUZZ_ARGS:-} "$out/corpus/$corpus" "${seeds[@]}"; then
        echo "build-and-run: $name found a problem; see $out/artifacts/" >&2
        status=1
    fi
done
exit $status
