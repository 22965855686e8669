#!/bin/sh
# Screenshots of the main window in four states (idle after a few evaluations by the person
# and an agent, an agent call awaiting approval, one without code, presentation mode), and of an
# agent's file change (edit-diff.png: the diff in the transcript; approval.png: Ask mode with the
# diff), of a staged form and a definition's history (staging-bar.png, definition-history.png),
# of an agent's job running on after its call answered (running-job.png), of the debugger
# (debugger.png, kept in docs/ for the README), of native code (native-definitions.png,
# docs/native.png; native-progress.png), and of the person's Emacs beside an agent
# (editor-window.png, kept in docs/ too; needs emacs-nox and slime), of the Agent panel
# (agent-panel.png, agent-panel-dark.png, kept in docs/),
# taken under Xvfb with the real xcb platform and saved as PNGs into $1 (default:
# BUILD_DIR/screenshots).
# Run from the source tree after building tst_windowstates and tst_projectchanges:
#   cmake --build build --target tst_windowstates tst_projectchanges tst_debuggerpanel && tests/ui/screenshots.sh [DIR] [BUILD_DIR]
# With DIR = docs, the idle state also becomes the README's picture (docs/screenshot.png).
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${2:-$here/build}
out=${1:-$build/screenshots}
mkdir -p "$out"
out=$(cd "$out" && pwd)
test -x "$build/bin/tst_windowstates" || { echo "screenshots.sh: build tst_windowstates in $build first" >&2; exit 2; }
DUET_SCREENSHOT_DIR=$out LISP_DUET_ENGINE=$build/bin/lisp-duet-engine QT_QPA_PLATFORM=xcb \
  xvfb-run -a -s "-screen 0 1400x900x24" "$build/bin/tst_windowstates"
if [ -x "$build/bin/tst_projectchanges" ]; then
  DUET_SCREENSHOT_DIR=$out LISP_DUET_ENGINE=$build/bin/lisp-duet-engine QT_QPA_PLATFORM=xcb \
    xvfb-run -a -s "-screen 0 1400x900x24" "$build/bin/tst_projectchanges" \
    anAgentsChangeAppearsAsAColouredDiffBlock askModeWritesNothingBeforeApprove
fi
if [ -x "$build/bin/tst_debuggerpanel" ]; then
  # debugger.png: an agent's evaluation parked in the Debugger dock, a frame's locals shown
  DUET_SCREENSHOT_DIR=$out LISP_DUET_ENGINE=$build/bin/lisp-duet-engine QT_QPA_PLATFORM=xcb \
    xvfb-run -a -s "-screen 0 1400x900x24" "$build/bin/tst_debuggerpanel" \
    thePersonsClickOnARestartAnswersAnAgentsParkedCall anAgentsParkedEvaluationShowsTheFramesLocalsToThePerson
fi
if [ -x "$build/bin/tst_handoffswindow" ]; then
  DUET_SCREENSHOT_DIR=$out LISP_DUET_ENGINE=$build/bin/lisp-duet-engine QT_QPA_PLATFORM=xcb \
    xvfb-run -a -s "-screen 0 1400x900x24" "$build/bin/tst_handoffswindow"
fi
if [ -x "$build/bin/tst_runningjob" ]; then
  DUET_SCREENSHOT_DIR=$out LISP_DUET_ENGINE=$build/bin/lisp-duet-engine QT_QPA_PLATFORM=xcb \
    xvfb-run -a -s "-screen 0 1400x900x24" "$build/bin/tst_runningjob" \
    anAgentsJobThatOutlastsItsCallShowsWhoWhatElapsedAndOutputAndInterruptEndsIt
fi
if [ -x "$build/bin/tst_nativewindow" ]; then
  # native-definitions.png: the Definitions panel's Runs column and a failed native version's
  # reason; native-progress.png: a load's "compiling file k of n" in the running-job bar
  DUET_SCREENSHOT_DIR=$out LISP_DUET_ENGINE=$build/bin/lisp-duet-engine QT_QPA_PLATFORM=xcb \
    xvfb-run -a -s "-screen 0 1400x900x24" "$build/bin/tst_nativewindow" \
    aDefinitionRunsInterpretedWhileItCompilesThenNativeInTheDefinitionsPanel aDefinitionWhoseNativeVersionFailedSaysWhy \
    aLoadSystemsCompilingFileKOfNShowsInTheRunningJobBar
fi
if [ -x "$build/bin/tst_librarieswindow" ]; then
  # libraries-compiling.png: a library's background compile in the running-job bar and the
  # Libraries dock; libraries-panel.png (and -dark): partly native, the file that waits and why
  DUET_SCREENSHOT_DIR=$out LISP_DUET_ENGINE=$build/bin/lisp-duet-engine QT_QPA_PLATFORM=xcb \
    xvfb-run -a -s "-screen 0 1400x900x24" "$build/bin/tst_librarieswindow" \
    aFirstLoadShowsInTheBarAndTheLibrariesDockUntilItRunsNative
fi
if [ -x "$build/bin/tst_editorwindow" ]; then
  DUET_SCREENSHOT_DIR=$out LISP_DUET_ENGINE=$build/bin/lisp-duet-engine QT_QPA_PLATFORM=xcb \
    xvfb-run -a -s "-screen 0 1400x900x24" "$build/bin/tst_editorwindow"
fi
if [ -x "$build/bin/tst_agentwindow" ]; then
  # agent-panel.png, agent-panel-dark.png: the Agent panel with a whole turn (thought, plan,
  # evaluate-lisp rows with the session's results, a Lisp block, usage), light and dark
  DUET_SCREENSHOT_DIR=$out LISP_DUET_ENGINE=$build/bin/lisp-duet-engine QT_QPA_PLATFORM=xcb \
    xvfb-run -a -s "-screen 0 1400x900x24" "$build/bin/tst_agentwindow" \
    aRealisticConversationReadsWellInLightAndDark
fi
ls -l "$out"/*.png
if [ "$out" = "$here/docs" ]; then
  mv "$out/1-idle.png" "$out/screenshot.png"
  mv "$out/native-definitions.png" "$out/native.png"
  rm -f "$out/native-progress.png" "$out"/libraries-*.png
  rm -f "$out/2-awaiting-approval.png" "$out/3-presentation.png" "$out/4-awaiting-approval-without-code.png" \
        "$out/edit-diff.png" "$out/approval.png" "$out/staging-bar.png" "$out/definition-history.png"
fi
