#!/usr/bin/env bash
# Installs what Lisp Duet needs on Debian 12, and only what is missing.
#   installer/install-deps.sh          build and run dependencies
#   installer/install-deps.sh --tests  also what the test suite needs (Xvfb, Node, clang)
set -euo pipefail

want_tests=0
[ "${1:-}" = "--tests" ] && want_tests=1

# cl-swank: the engine's bridge to the person's editor is compiled against Debian's Swank, and
# --swank loads it at run time (without it the engine is built without the editor and says so)
packages=(cmake g++ make pkg-config qt6-base-dev qt6-base-dev-tools libgl-dev libecl-dev ecl libgc-dev libgit2-dev cl-fiveam
          cl-swank fonts-dejavu-core)
if [ "$want_tests" = 1 ]; then
  # clang (libFuzzer), lld: the sanitizer build (tests/sanitize.sh); lld also links the test programs
  packages+=(xvfb xauth clang libclang-rt-14-dev lld dpkg-dev file) # dpkg-dev, file: cpack -G DEB (package-test.sh)
  # the person's editor, the real client: Emacs and SLIME in batch mode (tests/editor, e2e_editor)
  packages+=(emacs-nox slime)
  # tests/corpus: Debian's Common Lisp libraries, the real code the project tools are tried on
  packages+=(cl-alexandria cl-anaphora cl-babel cl-base64 cl-bordeaux-threads cl-cffi cl-flexi-streams cl-ppcre
             cl-split-sequence cl-trivial-gray-streams cl-iterate cl-kmrcl cl-ptester cl-rt cl-trivial-features
             cl-trivial-garbage cl-usocket cl-plus-ssl cl-closer-mop cl-puri cl-md5 cl-parse-number
             cl-trivial-backtrace cl-yason cl-local-time cl-esrap cl-named-readtables libffi-dev)
  # tests/bench bench_libraries: a first load of hunchentoot beside SBCL's (issue 39)
  packages+=(cl-hunchentoot sbcl)
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: everything needed is installed."
  exit 0
fi

sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
