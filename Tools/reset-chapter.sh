#!/usr/bin/env bash
# Puts a chapter's starter code back as the workbook shipped it, even after the learner has
# committed their own work. The learner's current files are copied to .workbook/backup first.
#
# The pristine starter comes from the workbook's upstream branch (the one you cloned or pulled
# from). Without an upstream, it falls back to HEAD and says so.
set -euo pipefail
module="${1:?usage: reset-chapter.sh MODULE}"
folder="Sources/$module"

ref=""
for candidate in '@{upstream}' origin/HEAD origin/main; do
  if git rev-parse --verify -q "$candidate^{commit}" >/dev/null 2>&1 &&
    git cat-file -e "$candidate:$folder" 2>/dev/null; then
    ref="$candidate"
    break
  fi
done
if [ -z "$ref" ]; then
  ref=HEAD
  echo "note: no upstream branch found; restoring $folder as it is in HEAD (your last commit)."
fi

if [ -d "$folder" ]; then
  backup=".workbook/backup/$module-$(date +%Y%m%d-%H%M%S)"
  mkdir -p "$backup"
  cp -R "$folder/." "$backup/"
  echo "Your $folder was saved to $backup"
fi
rm -rf "$folder"
git restore --source="$ref" --worktree -- "$folder"
echo "Restored $folder from $ref. Run the chapter again to see the exercises fail."
