#!/usr/bin/env bash
# `make demo`, before it builds anything: which code each chapter of the feed runs, and whether
# the learner's chapters are done. It reads what grading recorded and builds nothing, so a
# learner who has not finished hears so at once instead of after a build.
#
#   Tools/demo-ready.sh "1 3 4 6" "3,4"
#
# The first argument is the chapters the demo builds (the capstone and the chapters it
# composes), the second the REFERENCE= list: those chapters come from answers/. Every other
# chapter runs the learner's code in Sources/<Module>, and is done when
#   - its last `make chapter-N` of the learner's own code (REFERENCE= for composed chapters or
#     not) passed every exercise: compiled, no crash, each exercise with tests and no failure,
#     as `.build/grade/summary-chN-starter.json` records it (ChapterResult.allSolved in
#     Tools/workbook), and
#   - no file in Sources/<Module> changed since that grading (clutter such as .DS_Store aside),
#     the test `make progress` uses to say "edited since; re-grade".
# The starter's "not implemented yet" markers are not enough: some starters return a
# placeholder instead of throwing, and a chapter with no marker left can still fail its tests.
#
# Prints one line per chapter; with a chapter not done, says which and how to run the
# reference in its place, and exits 1. A REFERENCE= chapter outside the feed exits 2.
set -uo pipefail

chapters="$1"
reference=" $(printf '%s' "${2:-}" | tr ',' ' ') "

for number in $reference; do
  case " $chapters " in
    *" $number "*) ;;
    *) echo "make demo: REFERENCE=${2:-} names chapter $number, which the feed does not use; it runs chapters ${chapters// /, }" >&2
       exit 2 ;;
  esac
done

module_of() {
  local json
  json="$(ls Chapters/"$(printf '%02d' "$1")"-*/exercises.json 2>/dev/null | head -1)"
  [ -n "$json" ] && sed -n 's/.*"module": *"\([A-Za-z0-9_]*\)".*/\1/p' "$json" | head -1
}

# Whether chapter $1 (module $2) is done; otherwise prints why, with the command to run.
done_or_why() {
  local number="$1" module="$2" summary=".build/grade/summary-ch$1-starter.json" flat total solved edited
  if [ ! -f "$summary" ]; then
    if [ -f ".build/grade/reset-ch$number" ]; then
      echo "reset to its starter since it was last graded: make chapter-$number"
    else
      echo "not graded yet: make chapter-$number"
    fi
    return 1
  fi
  flat="$(tr -d ' \t\r\n' < "$summary")"
  total="$(grep -o '"failures":' <<< "$flat" | wc -l | tr -d ' ')"
  solved="$(grep -o '"failures":\[\]' <<< "$flat" | wc -l | tr -d ' ')"
  if [[ "$flat" != *'"compiled":true'* ]]; then
    echo "did not compile when last graded: make chapter-$number"
    return 1
  fi
  if [[ "$flat" == *'"crash":'* ]]; then
    echo "its tests crashed when last graded: make chapter-$number"
    return 1
  fi
  if [ "$total" -eq 0 ] || [ "$solved" -ne "$total" ] || grep -q '"passed":0[,}]' <<< "$flat"; then
    echo "$solved/$total exercises passed when last graded: make chapter-$number"
    return 1
  fi
  edited="$(find "Sources/$module" -type f -newer "$summary" ! -path '*/.*' ! -path '*/xcuserdata/*' 2>/dev/null | head -1)"
  if [ -n "$edited" ]; then
    echo "$edited changed since it was last graded: make chapter-$number"
    return 1
  fi
}

plan=()
missing=()
problems=()
for number in $chapters; do
  module="$(module_of "$number")"
  [ -n "$module" ] || { echo "make demo: no Chapters/$(printf '%02d' "$number")-*/exercises.json" >&2; exit 2; }
  if [[ "$reference" == *" $number "* ]]; then
    plan+=("$number $module: reference (answers/$module)")
  elif why="$(done_or_why "$number" "$module")"; then
    plan+=("$number $module: yours (Sources/$module)")
  else
    missing+=("$number")
    problems+=("$(printf '  chapter %s  %-11s %s' "$number" "$module" "$why")")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  {
    echo "make demo runs your own code for chapters ${chapters// /, } (the feed and what it composes),"
    echo "and not all of it is done yet:"
    printf '%s\n' "${problems[@]}"
    echo "A chapter counts as done when its last make chapter-N passed every exercise and nothing in"
    echo "Sources/<Module> changed since. Until then, the reference answers can stand in for it:"
    both="$(printf '%s\n' $reference "${missing[@]}" | sort -n | paste -sd, -)"
    all="$(printf '%s\n' $chapters | sort -n | paste -sd, -)"
    if [ "$both" != "$all" ]; then
      printf '  %-32s %s\n' "make demo REFERENCE=$both" "the reference in place of the chapters above"
    fi
    printf '  %-32s %s\n' "make demo REFERENCE=$all" "the reference feed alone"
  } >&2
  exit 1
fi

echo "== make demo: the feed's code, chapter by chapter"
printf '   %s\n' "${plan[@]}"
