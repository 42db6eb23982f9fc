#!/usr/bin/env bash
# Runs a SwiftPM command for make (`swift build …`, `swift test …`), and runs it once more when
# the build engine itself crashed, which is no verdict on the code it builds.
#
#   Tools/swiftpm.sh swift build --scratch-path .build/answers …
#
# Swift Build as Swift 6.3.1 ships it (`--build-system swiftbuild`, the default engine from Swift
# 6.4) was seen to crash now and then while it plans a build: a bad pointer in the Regex parser
# under `discoveredSwiftCompilerInfo`, a backtrace whose frames are in `swift-package`, on a command
# that succeeded when run again. A crash of the compiler, of a test or of anything else, and every
# failure that is not a crash, fail at once as before. The output streams as it comes.
set -uo pipefail
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

engine_crashed() {
  grep -q '^\*\*\* Program crashed' "$log" && grep -qE ' in swift-package( at |$)|^Thread [0-9]+ "swift-build"' "$log"
}

"$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ] && engine_crashed; then
  echo "note: SwiftPM's build engine crashed (above), not the code it was building; running the same command once more" >&2
  "$@" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
fi
exit "$status"
