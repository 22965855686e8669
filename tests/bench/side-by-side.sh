#!/usr/bin/env bash
# Lisp Duet and cl-mcp side by side (issue 22): the raw JSON-lines / HTTP client
# (bench_side_by_side) and the official SDK client (sdk_side_by_side.mjs), the servers
# alternated A B A B, ratios Lisp Duet / cl-mcp. A benchmark: it prints figures and never
# fails on timing. Without a peer it measures Lisp Duet alone and says how to set one up.
#
#   tests/bench/side-by-side.sh [--no-sdk] [options for bench_side_by_side: --rounds 2 --calls 1000 ...]
#
#   BUILD_DIR    the build (default: ./build) with bin/lisp-duet and bin/bench_side_by_side
#   CL_MCP_HOME  the peer's scratch folder (default: /work/peer), outside this repository
#
# Paths may not contain spaces (the bench takes commands as words separated by spaces).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$top/build}
peer=${CL_MCP_HOME:-/work/peer}

run_sdk=yes
if [ "${1:-}" = "--no-sdk" ]; then
  run_sdk=no
  shift
fi

app=$build/bin/lisp-duet
bench=$build/bin/bench_side_by_side
if [ ! -x "$app" ] || [ ! -x "$bench" ]; then
  echo "Build first: installer/build.sh --app && cmake --build $build --target bench_side_by_side" >&2
  exit 2
fi
export LISP_DUET_ENGINE=${LISP_DUET_ENGINE:-$build/bin/lisp-duet-engine}

# The peer is ready when sbcl is installed and the folder holds the three checkouts and the
# two launchers. Nothing of it belongs in this repository: not its code, not its FASLs, not
# the launchers.
peer_missing=()
command -v sbcl >/dev/null 2>&1 || peer_missing+=("sbcl is not installed")
for checkout in cl-mcp/cl-mcp.asd eclector/eclector.asd acclimation/acclimation.asd; do
  [ -f "$peer/$checkout" ] || peer_missing+=("no $peer/$checkout")
done
for launcher in cl-mcp-stdio cl-mcp-http; do
  [ -x "$peer/bin/$launcher" ] || peer_missing+=("no executable $peer/bin/$launcher")
done

peer_options=()
if [ ${#peer_missing[@]} -eq 0 ]; then
  # One start before anything is timed: the first load compiles cl-mcp into the launcher's
  # cache (outside this repository), later starts load the compiled files.
  echo "Preparing cl-mcp (the first start compiles it, later ones load the compiled files)..."
  prepare_start=$(date +%s)
  if timeout 900 "$peer/bin/cl-mcp-stdio" </dev/null >/dev/null 2>&1; then
    echo "cl-mcp ready ($(( $(date +%s) - prepare_start )) s)."
    peer_options=(--server cl-mcp --tool repl-eval --expect '"text":"3"'
                  --stdio "$peer/bin/cl-mcp-stdio" --http "$peer/bin/cl-mcp-http {port}")
  else
    peer_missing+=("$peer/bin/cl-mcp-stdio did not start and exit at the end of its input")
  fi
fi
if [ ${#peer_missing[@]} -gt 0 ]; then
  cat <<EOF
cl-mcp is not set up: measuring Lisp Duet alone.
$(printf '  - %s\n' "${peer_missing[@]}")
To measure it side by side with cl-mcp (a scratch folder outside this repository; commit none of it):
  sudo apt-get install sbcl cl-yason cl-hunchentoot cl-usocket cl-closer-mop cl-alexandria \\
       cl-ppcre cl-bordeaux-threads
  put checkouts of github.com/cl-ai-project/cl-mcp, github.com/s-expressionists/Eclector and
  github.com/robert-strandh/Acclimation in $peer/cl-mcp, $peer/eclector and $peer/acclimation
  (CL_MCP_HOME names another folder), and two launchers in $peer/bin:
    cl-mcp-stdio       cl-mcp over stdio with its worker pool off (MCP_NO_WORKER_POOL=1),
                       exiting at the end of its input
    cl-mcp-http PORT   its Streamable HTTP server at http://127.0.0.1:PORT/mcp, pool off,
                       until SIGTERM
  Both load cl-mcp through ASDF as its README shows, with its compiled files in a cache
  outside this repository. See tests/bench/README.md.

EOF
fi

"$bench" --server "Lisp Duet" --tool evaluate-lisp --expect "=> 3" \
  --stdio "$app --headless --stdio --no-journal" \
  --http "$app --headless --no-auth --port {port} --socket {dir}/duet.sock --no-journal" \
  "${peer_options[@]}" "$@"

if [ "$run_sdk" = yes ]; then
  echo
  if [ -d "$top/tests/node_modules/@modelcontextprotocol/sdk" ]; then
    sdk_peer=()
    [ ${#peer_options[@]} -gt 0 ] && sdk_peer=(--peer-label cl-mcp --peer-stdio "$peer/bin/cl-mcp-stdio" --peer-tool repl-eval --peer-expect '^3$')
    LISP_DUET_BIN=$build/bin node "$top/tests/bench/sdk_side_by_side.mjs" "${sdk_peer[@]}" "$@"
  else
    echo "The official SDK client is not installed: cd tests && npm ci (then run this again for its figures)."
  fi
fi
