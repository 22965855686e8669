#!/usr/bin/env bash
# Every signal the product declares is heard: lists each signal declared in a `signals:` or
# `Q_SIGNALS:` section of a header under app/, ui/, mcp/ and engine/, and fails, naming them,
# when one is never named by its class-qualified name (&Class::signal: a connect, a
# QSignalSpy) anywhere in the product or the tests. A signal nobody connects is dead code
# that says something happens and lets nobody know.
#   tests/check-signals.sh [SOURCE_DIR]      (CTest runs it as check_signals, label unit)
set -euo pipefail
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top"

# Class::signal for every declared signal. A header's signals belong to the innermost class
# being defined when their section starts; a section ends at the next access specifier or at
# the end of that class.
declared=$(find app ui mcp engine -name '*.h' -print0 | sort -z | xargs -0 awk '
  FNR == 1 { depth = 0; top = 0; inSignals = 0; pending = "" }
  {
    line = $0
    sub(/\/\/.*/, "", line)
    if (match(line, /^[ \t]*(class|struct)[ \t]+[A-Za-z_][A-Za-z0-9_]*/) && line !~ /;[ \t]*$/) {
      name = substr(line, RSTART, RLENGTH)
      sub(/^[ \t]*(class|struct)[ \t]+/, "", name)
      pending = name
    }
    opens = gsub(/\{/, "{", line)
    closes = gsub(/\}/, "}", line)
    if (pending != "" && opens > 0) {
      top++
      classOf[top] = pending
      depthOf[top] = depth + 1
      pending = ""
    }
    if (line ~ /^[ \t]*(Q_SIGNALS|signals)[ \t]*:/) {
      inSignals = 1
      owner = classOf[top]
    } else if (line ~ /^[ \t]*(public|protected|private)([ \t]+(Q_SLOTS|slots))?[ \t]*:/ || line ~ /^[ \t]*Q_SLOTS[ \t]*:/) {
      inSignals = 0
    } else if (inSignals && match(line, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
      signal = substr(line, RSTART, RLENGTH)
      sub(/[ \t]*\($/, "", signal)
      if (signal != "void" && line ~ /^[ \t]*void[ \t]/)
        print owner "::" signal "\t" FILENAME ":" FNR
    }
    depth += opens - closes
    while (top > 0 && depth < depthOf[top]) {
      if (inSignals && owner == classOf[top])
        inSignals = 0
      top--
    }
  }')

# Every &Class::name the product and the tests write.
named=$(grep -rhoE '&[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*' app ui mcp engine tests --include='*.cpp' --include='*.h' \
  | sed 's/^&//' | sort -u)

total=0
dead=()
while IFS=$'\t' read -r signal where; do
  [ -n "$signal" ] || continue
  total=$((total + 1))
  if ! grep -qxF "$signal" <<<"$named"; then
    dead+=("$signal ($where)")
  fi
done <<<"$declared"

if [ "$total" -eq 0 ]; then
  echo "check-signals: no signal declarations found under $top: the parser is broken" >&2
  exit 1
fi
if [ "${#dead[@]}" -gt 0 ]; then
  echo "check-signals: ${#dead[@]} of $total declared signals are never connected (no &Class::signal in the product or the tests):"
  printf '  %s\n' "${dead[@]}"
  exit 1
fi
echo "check-signals: all $total declared signals are connected by their class-qualified name"
