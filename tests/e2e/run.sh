#!/usr/bin/env bash
# Runs every end-to-end test in this folder with Node's test runner. CTest calls it with
# LISP_DUET_BIN set; exit code 77 (CTest: skipped) when the pinned npm packages are missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tests=$(dirname "$here")
if [ ! -d "$tests/node_modules/@modelcontextprotocol/sdk" ]; then
  echo "e2e: skipped: $tests/node_modules is missing; run 'npm ci' in $tests (tests/run-all.sh does)" >&2
  exit 77
fi
if ! command -v node > /dev/null; then
  echo "e2e: skipped: node is not installed (apt-get install nodejs npm)" >&2
  exit 77
fi
cd "$tests"
# Only *.test.mjs files are tests; a pattern narrows them: run.sh 'stdio*'.
exec node --test --test-reporter=spec "$here"/${1:-*}.test.mjs
