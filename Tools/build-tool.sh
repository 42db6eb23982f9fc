#!/usr/bin/env bash
# Builds the workbook's own tool (Tools/workbook) for make, and when it cannot, says so in the
# workbook's words: what failed, that the learner's code is not part of this build, and what to
# do. make never stops here with a bare "Error 1".
#
#   Tools/build-tool.sh PRODUCT SWIFT-BUILD-COMMAND...
#
# PRODUCT is where `swift build --show-bin-path` said the tool would be (the Makefile asks it with
# the same command); ".../no-bin-path/workbook" when SwiftPM could not answer. The command's output
# is kept in .build/tool-build.txt. Tools/check-tooling.sh tries each message with a stand-in swift.
set -uo pipefail
product="$1"
shift
log=.build/tool-build.txt
mkdir -p .build

say() { printf '%s\n' "$@" >&2; }
advice() {
  say "  Your chapter code is not part of this build: it is not the problem." \
    "  - \`swift --version\` must say Swift 6.2 or later (Xcode 26 or later on a Mac; Xcode 27 ships Swift 6.4)." \
    "  - \`make clean\` removes every build folder; the next make builds afresh." \
    "  - \`make ... BUILD_SYSTEM=native\` (or \`=swiftbuild\`) picks the engine SwiftPM builds with; unset, the toolchain's default." \
    "  The build's whole output is in $log."
}

if [ "${product#*/no-bin-path/}" != "$product" ]; then
  "$@" --show-bin-path >"$log" 2>&1
  status=$?
  say "make: SwiftPM could not say where it puts the workbook's tool (\`swift build --show-bin-path\` exited with status $status):"
  grep -m 5 -E 'error|not found' "$log" | sed 's/^/    /' >&2
  swift="$1"
  [ "${1##*/}" = swiftpm.sh ] && swift="$2"
  [ "$status" -eq 127 ] && say "  There is no \`$swift\` command on PATH: install Xcode 26 or later (Xcode 27 ships Swift 6.4) and open it once," \
    "  or on Linux a Swift 6.2 or later toolchain from swift.org, then run make again."
  advice
  exit 1
fi

"$@" -q >"$log" 2>&1
status=$?
grep -v '^\[' "$log" | grep -v '^Build complete' >&2
if [ "$status" -ne 0 ]; then
  say "make: the workbook's tool (Tools/workbook) did not build (\`swift build\` exited with status $status), so nothing can be graded yet."
  advice
  exit 1
fi
if [ ! -x "$product" ]; then
  say "make: \`swift build\` finished, but the workbook's tool is not at $product, where \`swift build --show-bin-path\` said it would be."
  advice
  exit 1
fi
touch "$product"
