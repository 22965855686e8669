#!/usr/bin/env bash
# The Debian package as a user gets it: builds it with CPack in the build folder, installs it
# with apt-get, runs the end-to-end tests against /usr/bin/lisp-duet and
# /usr/bin/lisp-duet-bridge (which must find /usr/libexec/lisp-duet/lisp-duet-engine by
# themselves), then removes it.
#   BUILD_DIR=build tests/package-test.sh        (the build folder must be built)
#   PACKAGE_E2E="stdio bridge"                   the e2e groups to run (default below; the
#                                                conformance suite is left to CTest: it does not
#                                                depend on where the programs are installed)
# Needs root or passwordless sudo; without them it says so and exits 0 (skipped).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
groups=${PACKAGE_E2E:-stdio bridge http tools inspector}
start=$(date +%s)

if [ "$(id -u)" = 0 ]; then
  as_root=()
elif command -v sudo > /dev/null && sudo -n true 2> /dev/null; then
  as_root=(sudo -n)
else
  echo "package-test: skipped: installing the .deb needs root or passwordless sudo"
  exit 0
fi
fail() { echo "package-test: FAIL: $*" >&2; exit 1; }

rm -f "$build"/lisp-duet_*_amd64.deb
( cd "$build" && cpack -G DEB > cpack-deb.log 2>&1 ) || { cat "$build/cpack-deb.log" >&2; fail "cpack -G DEB"; }
deb=$(ls "$build"/lisp-duet_*_amd64.deb)
echo "package-test: built $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"
echo "package-test: Depends: $(dpkg-deb -f "$deb" Depends)"
echo "package-test: Recommends: $(dpkg-deb -f "$deb" Recommends)"

if dpkg-query -W -f='${Status}' lisp-duet 2> /dev/null | grep -q 'ok installed'; then
  echo "package-test: note: lisp-duet was already installed; it is replaced by this build and removed at the end"
fi
remove() { "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get remove -y -q lisp-duet > /dev/null 2>&1 || true; }
trap remove EXIT
# apt-get wants a path with a slash to take a file rather than a package name. A dependency
# not installed yet (qt6-qpa-plugins) may need fresh package lists: update once and retry.
install_deb() { ( cd "$build" && "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "./$(basename "$deb")" ) >> "$build/apt-install.log" 2>&1; }
: > "$build/apt-install.log"
install_deb || { "${as_root[@]}" apt-get update -qq >> "$build/apt-install.log" 2>&1 || true; install_deb; } \
  || { tail -30 "$build/apt-install.log" >&2; fail "apt-get install ./$(basename "$deb")"; }

for file in /usr/bin/lisp-duet /usr/bin/lisp-duet-bridge /usr/libexec/lisp-duet/lisp-duet-engine; do
  [ -x "$file" ] || fail "$file is not installed"
done
for file in /usr/share/applications/lisp-duet.desktop /usr/share/icons/hicolor/scalable/apps/lisp-duet.svg \
            /usr/share/man/man1/lisp-duet.1.gz /usr/share/man/man1/lisp-duet-bridge.1.gz \
            /usr/share/metainfo/io.github.lispduet.LispDuet.metainfo.xml; do
  [ -s "$file" ] || fail "$file is not installed"
done
gzip -t /usr/share/man/man1/lisp-duet.1.gz /usr/share/man/man1/lisp-duet-bridge.1.gz || fail "a man page is not valid gzip"
if command -v appstreamcli > /dev/null; then
  appstreamcli validate --no-net /usr/share/metainfo/io.github.lispduet.LispDuet.metainfo.xml > /dev/null || fail "appstreamcli rejects the metainfo"
fi
if command -v desktop-file-validate > /dev/null; then
  desktop-file-validate /usr/share/applications/lisp-duet.desktop || fail "desktop-file-validate rejects lisp-duet.desktop"
fi

# Nothing from the build folder may help the installed programs.
unset LISP_DUET_ENGINE
scratch=$(mktemp -d)
trap 'remove; rm -rf "$scratch"' EXIT
export XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" XDG_RUNTIME_DIR="$scratch/run"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
# The machine-wide /run/user/UID and /tmp the programs meet in, a desktop's (issue 23): the
# tests never depend on, or touch, this machine's.
export LISP_DUET_RUNTIME_ROOT="$scratch/machine"
mkdir -p "$LISP_DUET_RUNTIME_ROOT/tmp" && mkdir -p -m 700 "$LISP_DUET_RUNTIME_ROOT/run/user/$(id -u)"

# The smallest session: initialize, then evaluate (+ 1 2), over stdio.
out="$scratch/stdio.out"
{
  printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"package-test","version":"1"}}}' \
    '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"evaluate-lisp","arguments":{"code":"(+ 1 2)"}}}'
  # stdin stays open until the answer is there: the server stops at end of input.
  for _ in $(seq 300); do grep -q '"id":2' "$out" 2> /dev/null && break; sleep 0.1; done
} | timeout 60 /usr/bin/lisp-duet --headless --stdio > "$out" 2> "$scratch/stdio.err" || true
grep '"id":2' "$out" | grep -q '=> 3' || { cat "$out" "$scratch/stdio.err" >&2; fail "/usr/bin/lisp-duet --headless --stdio did not evaluate (+ 1 2)"; }
echo "package-test: /usr/bin/lisp-duet --headless --stdio evaluated (+ 1 2) => 3"

/usr/bin/lisp-duet --client-config claude-desktop 2> /dev/null | grep -q '"/usr/bin/lisp-duet-bridge"' \
  || fail "--client-config claude-desktop does not point at /usr/bin/lisp-duet-bridge"

# What Claude Desktop runs: the bridge with --launch starts /usr/bin/lisp-duet --headless
# (found beside itself) and carries the session over its socket.
socket="package-test-$$"
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"package-test","version":"1"}}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"evaluate-lisp","arguments":{"code":"(* 6 7)"}}}' \
  | timeout 60 /usr/bin/lisp-duet-bridge --launch --socket "$socket" > "$scratch/bridge.out" 2> "$scratch/bridge.err" || true
launched=$(pgrep -f -- "--headless --socket $socket" || true)
[ -z "$launched" ] || kill $launched
grep '"id":2' "$scratch/bridge.out" | grep -q '=> 42' \
  || { cat "$scratch/bridge.out" "$scratch/bridge.err" >&2; fail "/usr/bin/lisp-duet-bridge --launch did not evaluate (* 6 7)"; }
echo "package-test: /usr/bin/lisp-duet-bridge --launch started the app and evaluated (* 6 7) => 42"

status=0
for group in $groups; do
  [ -f "$top/tests/e2e/$group.test.mjs" ] || { echo "package-test: e2e $group: no tests/e2e/$group.test.mjs"; continue; }
  rc=0
  LISP_DUET_BIN=/usr/bin bash "$top/tests/e2e/run.sh" "$group" > "$scratch/e2e-$group.log" 2>&1 || rc=$?
  summary=$(grep -E '^ℹ (pass|fail|skipped)' "$scratch/e2e-$group.log" | tr '\n' ' ' | sed 's/ℹ //g')
  if [ $rc = 77 ]; then
    echo "package-test: e2e $group: skipped ($(tail -1 "$scratch/e2e-$group.log"))"
  elif [ $rc != 0 ]; then
    cat "$scratch/e2e-$group.log" >&2
    echo "package-test: e2e $group against /usr/bin: FAILED ($summary)" >&2
    status=1
  else
    echo "package-test: e2e $group against /usr/bin: ok ($summary)"
  fi
done

remove
trap 'rm -rf "$scratch"' EXIT
[ ! -e /usr/bin/lisp-duet ] || fail "apt-get remove left /usr/bin/lisp-duet behind"
echo "package-test: removed; finished in $(( $(date +%s) - start )) s"
exit $status
