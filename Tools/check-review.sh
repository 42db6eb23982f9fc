#!/usr/bin/env bash
# The interview practice end to end, on a terminal: the built tool runs in a pseudo-terminal and
# a script presses its keys, waiting each time for the text the key answers (never for a length of
# time), then checks what the screen showed and that the ratings are still there on the next run.
# `WORKBOOK_NOW` moves the tool's clock to "the next day" and "weeks later"; `TZ=UTC` fixes where a
# day starts. python3's `pty` module drives the terminal (macOS and Linux both have it).
#
#   Tools/check-review.sh [path/to/workbook]     (make check-tooling runs it)
set -euo pipefail
root="$(pwd)"
# The tool make built (make passes its path as WORKBOOK_TOOL), or the one SwiftPM says it builds.
tool="${1:-${WORKBOOK_TOOL:-$(swift build ${WORKBOOK_BUILD_SYSTEM:+--build-system "$WORKBOOK_BUILD_SYSTEM"} --package-path Tools/workbook \
  --scratch-path .build/tools --show-bin-path)/workbook}}"
case "$tool" in /*) ;; *) tool="$root/$tool" ;; esac
fail() { echo "check-review: $*" >&2; exit 1; }
[ -x "$tool" ] || fail "no tool at $tool: run make tool first"
command -v python3 >/dev/null || fail "python3 is needed to drive a pseudo-terminal, and there is none on PATH"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Only the chapters' texts: the commands read exercises.json and interview.md.
for chapter in Chapters/*/; do
  mkdir -p "$work/$chapter"
  cp "$chapter/exercises.json" "$chapter/interview.md" "$work/$chapter"
done
cd "$work"

python3 - "$tool" <<'PY'
import os, pty, re, select, sys, time

tool = sys.argv[1]
# A give-up for a tool that hangs, never a wait for something to happen: every wait ends as soon
# as the text it waits for is on the screen.
GIVE_UP = 30

# How many questions chapter 1 has: the checks below follow its interview.md as it stands.
N1 = sum(1 for line in open("Chapters/01-data-store/interview.md") if line.startswith("## "))

def fail(message, screen=""):
    sys.stderr.write("check-review: " + message + ("\n--- the screen so far:\n" + screen if screen else "") + "\n")
    sys.exit(1)

def environment(now):
    env = dict(os.environ, NO_COLOR="1", TERM="xterm", TZ="UTC", WORKBOOK_NOW=now)
    env.pop("TIMED", None)
    return env

class Terminal:
    """The tool on a pseudo-terminal: what it has written, and keys to press."""

    def __init__(self, arguments, now):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(tool, [tool] + arguments, environment(now))
        self.screen = ""
        self.mark = 0  # what has been waited for already

    def read(self, deadline):
        ready, _, _ = select.select([self.fd], [], [], max(0, deadline - time.monotonic()))
        if not ready:
            return None
        try:
            data = os.read(self.fd, 4096)
        except OSError:  # Linux: the other end closed
            data = b""
        self.screen += data.decode("utf-8", "replace")
        return data

    def wait_for(self, text):
        deadline = time.monotonic() + GIVE_UP
        while self.screen.find(text, self.mark) < 0:
            data = self.read(deadline)
            if data is None:
                fail("gave up waiting for %r" % text, self.screen)
            if data == b"":
                fail("the tool ended before it showed %r" % text, self.screen)
        self.mark = self.screen.find(text, self.mark) + len(text)

    def press(self, keys):
        os.write(self.fd, keys.encode())

    def finish(self):
        deadline = time.monotonic() + GIVE_UP
        while True:
            data = self.read(deadline)
            if data is None:
                fail("the tool did not end", self.screen)
            if data == b"":
                break
        _, status = os.waitpid(self.pid, 0)
        if os.WEXITSTATUS(status) != 0:
            fail("the tool exited with %d" % os.WEXITSTATUS(status), self.screen)
        return self.screen

import subprocess

def run(arguments, now, stdin=subprocess.DEVNULL):
    result = subprocess.run([tool] + arguments, env=environment(now), stdin=stdin, capture_output=True, text=True, timeout=GIVE_UP)
    if result.returncode != 0:
        fail("%s exited with %d: %s%s" % (" ".join(arguments), result.returncode, result.stdout, result.stderr))
    return result

day1, day2, later = "2026-11-25T09:00:00Z", "2026-11-26T09:00:00Z", "2026-12-20T09:00:00Z"

# 1. A fresh clone: without a terminal, review lists the five new questions it would ask and
# records nothing; with NEW=0, there is nothing to review yet, and how to start.
listing = run(["review"], day1).stdout
if not listing.startswith("0 due · 5 new today (up to 5 a day)") or "nothing was recorded" not in listing:
    fail("a fresh review without a terminal should offer five new questions and say nothing was recorded", listing)
if os.path.exists(".workbook/review.json"):
    fail("a review without a terminal should write no ratings")
screen = Terminal(["review", "--new", "0"], day1).finish()
if "No question to review yet" not in screen or "make walkthrough-1" not in screen:
    fail("a fresh review with NEW=0 should say there is nothing yet and name make walkthrough-1", screen)
print("✔ a fresh review offers five new questions (without a terminal: listed, nothing recorded); NEW=0 says to start with make walkthrough-1")

# 2. The walkthrough: Enter shows the answer, one key rates it; Ctrl-C quits and keeps the ratings.
term = Terminal(["walkthrough", "1"], day1)
term.wait_for("Question 1 of %d: " % N1)
term.wait_for("[Enter] show the model answer")
term.press("\r")
term.wait_for("Model answer")
term.wait_for("How did you answer? [1] again  [2] hard  [3] good  [4] easy")
term.press("3")
term.wait_for("good: back tomorrow.")
term.wait_for("Question 2 of %d: Two tasks each run" % N1)
term.wait_for("[Enter] show the model answer")
term.press(" ")
term.wait_for("How did you answer?")
term.press("x")  # not a rating: ignored
term.press("a")
term.wait_for("again: back tomorrow.")
term.wait_for("Question 3 of %d: " % N1)
term.wait_for("[Enter] show the model answer  [s] skip  [q] quit")
term.press("s")  # skipped before its answer: not rated
term.wait_for("skipped: not rated, the answer not shown.")
term.wait_for("Question 4 of %d: " % N1)
term.wait_for("[Enter] show the model answer")
term.press("\x03")
term.wait_for("Rated 2 of %d (1 again, 1 good)." % N1)
term.finish()
print("✔ the walkthrough shows the answer on Enter, rates with one key, skips with s, and Ctrl-C quits cleanly")

# 2b. The walkthrough again: it resumes at the skipped question 3, the first not rated.
term = Terminal(["walkthrough", "1"], day1)
term.wait_for("Resuming at question 3 of %d; 2 rated, %d to go" % (N1, N1 - 2))
term.wait_for("Question 3 of %d: " % N1)
term.wait_for("[Enter] show the model answer")
term.press("q")
term.wait_for("Nothing rated this time.")
term.finish()
print("✔ a second walkthrough resumes at the first question not rated")

# 3. The same day, with NEW=2: nothing is due yet, and when it will be; the two new questions of
# the day were rated in the walkthrough.
screen = Terminal(["review", "--new", "2"], day1).finish()
if "No question is due. Next: 2 questions on Thu 26 Nov (in 1 day)." not in screen:
    fail("the ratings should be on disk, due tomorrow", screen)
if "Today's new questions are done (2 a day)" not in screen:
    fail("the walkthrough's two first ratings should count against NEW=2", screen)

# 4. The next day, timed: the weakest first, the countdown, the time taken.
term = Terminal(["review", "--timed", "90", "--new", "0"], day2)
term.wait_for("2 due · 0 new today (NEW=0)")
term.wait_for("Review 1 of 2 · chapter 1: Two tasks each run")
term.wait_for("1:30 left")
term.press("\r")
term.wait_for("You took ")
term.wait_for(" of 1:30.")
if not re.search(r"You took 0:\d\d of 1:30\.", term.screen):
    fail("the time taken should be shown", term.screen)
term.wait_for("How did you answer?")
term.press("g")
term.wait_for("good: back tomorrow.")
term.wait_for("Review 2 of 2 · chapter 1: You need a cache")
term.wait_for("left")
term.press("\r")
term.wait_for("How did you answer?")
term.press("4")
term.wait_for("easy: back in 6 days (Wed 2 Dec).")
term.wait_for("Rated 2 of 2 (1 good, 1 easy).")
term.finish()
print("✔ the next day, make review asks the again question first, counts down, and shows the time taken")

# 5. Weeks later, without a terminal: what is due is listed before the new questions, nothing is
# recorded, progress counts them, and the walkthrough prints where it would resume.
listing = run(["review"], later).stdout
if not listing.startswith("2 due · 5 new today (up to 5 a day)") or "nothing was recorded" not in listing:
    fail("without a terminal, review should list what is due and the new questions, and say nothing was recorded", listing)
progress = run(["progress"], later).stdout
if not re.search(r"1  Thread-safe data store .*interview 2/%d seen, 2 due, 0 learned" % N1, progress):
    fail("progress should show chapter 1's questions as seen and due", progress)
walk = run(["walkthrough", "1"], later).stdout
if "Resuming at question 3 of %d" % N1 not in walk or not walk.rstrip().endswith("in a terminal to rate your answers."):
    fail("without a terminal, the walkthrough should print where it resumes and that nothing was recorded", walk)
print("✔ weeks later, without a terminal: review lists the 2 due and 5 new questions, progress shows them, nothing is recorded")

# 5b. The rest of chapter 1 rated in a walkthrough; the next one says every question is rated and
# offers the 2 due ones, the weaker (good) before the easy one.
term = Terminal(["walkthrough", "1"], later)
for number in range(3, N1 + 1):
    term.wait_for("Question %d of %d: " % (number, N1))
    term.wait_for("[Enter] show the model answer")
    term.press("\r")
    term.wait_for("How did you answer?")
    term.press("3")
    term.wait_for("good: back tomorrow.")
term.wait_for("Rated %d of %d" % (N1 - 2, N1 - 2))
term.finish()
term = Terminal(["walkthrough", "1"], later)
term.wait_for("All %d questions of chapter 1 are rated; 2 are due now." % N1)
term.wait_for("[d] the 2 due now  [1] start over at question 1  [q] quit")
term.press("d")
term.wait_for("Question 2 of %d: Two tasks each run" % N1)
term.wait_for("[Enter] show the model answer")
term.press("q")
term.finish()
print("✔ once every question is rated, the walkthrough says so and offers the 2 due ones")

# 6. A corrupt file is set aside, in one line, and review goes on.
with open(".workbook/review.json", "w") as file:
    file.write("{ not json")
result = run(["review", "--new", "0"], later)
aside = [name for name in os.listdir(".workbook") if name.startswith("review.json.corrupt-")]
if len(aside) != 1 or len(result.stderr.strip().splitlines()) != 1 or "set aside" not in result.stderr:
    fail("a corrupt file should be set aside and reported in one line: %r, %r" % (aside, result.stderr))
if "No question to review yet" not in result.stdout:
    fail("after setting the file aside, review starts afresh", result.stdout)
print("✔ a corrupt review.json is set aside as %s and reported in one line" % aside[0])
PY
