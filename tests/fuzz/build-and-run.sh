#!/usr/bin/env bash
# Builds every tests/fuzz/fuzz_*.cpp with clang++ and libFuzzer (+ ASan, UBSan), then runs each
# for a time budget.
#
#   tests/fuzz/build-and-run.sh [BUILD_DIR=build-fuzz] [SECONDS=30]
#
# Each target says what else it needs in comment lines near its top (paths from the repo root):
#   // FUZZ_SOURCES: mcp/http/HttpRequestParser.cpp other/File.cpp
#   // FUZZ_PKGS: Qt6Core                (pkg-config modules; default Qt6Core)
#   // FUZZ_MOC: mcp/McpServer.h         (headers with Q_OBJECT, run through moc)
#   // FUZZ_CXXFLAGS: -DNAME="value"     (extra compiler flags for this target)
#   // FUZZ_CORPUS: http                 (seed folder under corpus/; default: name without fuzz_)
#   // FUZZ_DICT: http.dict              (libFuzzer dictionary beside the target)
# Environment:
#   FUZZ_TARGETS="fuzz_a fuzz_b"  only these (a listed target that fails to build is an error;
#                                 otherwise such a target is skipped with a warning, so one
#                                 half-written target does not stop the others)
#   FUZZ_EXTRA_SOURCES="a.cpp"    added to every target (e.g. code a new target needs)
#   FUZZ_EXTRA_CXXFLAGS, FUZZ_EXTRA_LIBS, FUZZ_ARGS (extra libFuzzer flags, e.g. -jobs=4)
#   CXX_FUZZ                      the compiler (default clang++)
#   FUZZ_BUILD_ONLY=1             build, don't run
#   FUZZ_PREBUILT=1               run the targets already in BUILD_DIR, build nothing (CTest: the
#                                 project's build compiles them, with these flags; CMakeLists.txt)
# New corpus entries go to BUILD_DIR/corpus/NAME (the seeds in the repo stay as they are);
# crashes go to BUILD_DIR/artifacts/. Exit status: non-zero if a build that was asked for
# failed or any fuzzer found a problem.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-build-fuzz}
seconds=${2:-30}
cxx=${CXX_FUZZ:-clang++}
mkdir -p "$build" || exit 2
build=$(cd "$build" && pwd)

if [ "${FUZZ_PREBUILT:-0}" != 1 ] && ! command -v "$cxx" >/dev/null 2>&1; then
    echo "build-and-run: $cxx not found" >&2
    exit 2
fi

# Same include directories as the duet_mcp target, so targets include headers the same way.
includes=(-I"$root/mcp" -I"$root/engine/client")

directive() { # directive FILE NAME -> the value of "// NAME: value", empty if none
    sed -n "s|^// $2:[[:space:]]*||p" "$1" | head -n 1
}

# Line tables are all the sanitizers' reports need; full -g made each object 15 % slower to build.
# The project's version macro, as the project's own build defines it for every file.
flags=(-std=c++20 -gline-tables-only -O1 -fPIC -Wall -Wextra
       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
       '-DLISP_DUET_VERSION="fuzz"')

if [ -n "${FUZZ_TARGETS:-}" ]; then
    targets=()
    for t in $FUZZ_TARGETS; do targets+=("$here/${t%.cpp}.cpp"); done
    strict=1
else
    targets=("$here"/fuzz_*.cpp)
    strict=0
fi

status=0
built=()
if [ "${FUZZ_PREBUILT:-0}" = 1 ]; then
    for src in "${targets[@]}"; do
        name=$(basename "$src" .cpp)
        if [ -x "$build/$name" ]; then
            built+=("$name")
        else
            echo "build-and-run: $build/$name is not built (cmake --build BUILD --target fuzzers)" >&2
            status=1
        fi
    done
    targets=()
fi
for src in "${targets[@]}"; do
    name=$(basename "$src" .cpp)
    if [ ! -f "$src" ]; then
        echo "build-and-run: no such target $src" >&2
        status=1
        continue
    fi
    sources=()
    for s in $(directive "$src" FUZZ_SOURCES) ${FUZZ_EXTRA_SOURCES:-}; do
        case $s in /*) sources+=("$s") ;; *) sources+=("$root/$s") ;; esac
    done
    mocs_ok=1
    for h in $(directive "$src" FUZZ_MOC); do
        mkdir -p "$build/moc/$name"
        out="$build/moc/$name/moc_$(basename "$h" .h).cpp"
        if "${MOC:-/usr/lib/qt6/libexec/moc}" "$root/$h" -o "$out"; then sources+=("$out"); else mocs_ok=0; fi
    done
    pkgs=$(directive "$src" FUZZ_PKGS)
    pkgs=${pkgs:-Qt6Core}
    echo "== building $name"
    # -fPIC: Qt 6 is built with reduced relocations and refuses non-PIC code.
    # shellcheck disable=SC2046,SC2086
    if [ "$mocs_ok" = 1 ] && "$cxx" "${flags[@]}" \
        "${includes[@]}" $(pkg-config --cflags $pkgs) $(directive "$src" FUZZ_CXXFLAGS) ${FUZZ_EXTRA_CXXFLAGS:-} \
        "$src" "${sources[@]}" \
        $(pkg-config --libs $pkgs) ${FUZZ_EXTRA_LIBS:-} \
        -o "$build/$name"; then
        built+=("$name")
    else
        echo "build-and-run: $name did not build" >&2
        [ "$strict" = 1 ] && status=1
    fi
done

[ "${FUZZ_BUILD_ONLY:-0}" = 1 ] && exit $status

for name in "${built[@]}"; do
    src="$here/$name.cpp"
    corpus=$(directive "$src" FUZZ_CORPUS)
    corpus=${corpus:-${name#fuzz_}}
    dict=$(directive "$src" FUZZ_DICT)
    mkdir -p "$build/corpus/$corpus" "$build/artifacts"
    args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1
          -artifact_prefix="$build/artifacts/$name-")
    [ -n "$dict" ] && args+=(-dict="$here/$dict")
    seeds=()
    [ -d "$here/corpus/$corpus" ] && seeds+=("$here/corpus/$corpus")
    echo "== running $name for ${seconds}s"
    # shellcheck disable=SC2086
    if ! "$build/$name" "${args[@]}" ${FUZZ_ARGS:-} "$build/corpus/$corpus" "${seeds[@]}"; then
        echo "build-and-run: $name found a problem; see $build/artifacts/" >&2
        status=1
    fi
done
exit $status
