#!/bin/bash
# heldout.sh [SET...]: draw the held-out sets listed in heldout-sets.txt (all, or those named)
# into $HELD/<set>.jsonl (default /tmp/h) with make_heldout.py, from the repositories fetched
# into $MIRROR (default /work/.mirror). Fetch a set's repositories first. Prints each set's
# case count, to compare with the counts in heldout-sets.txt's header.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
HELD=${HELD:-/tmp/h} MIRROR=${MIRROR:-/work/.mirror}
mkdir -p "$HELD"
grep -v '^#' "$here/heldout-sets.txt" | while read -r name seed per repos; do
  [[ -n "$name" ]] || continue
  if [[ $# -gt 0 && " $* " != *" $name "* ]]; then continue; fi
  # shellcheck disable=SC2086 # the repositories are words
  python3 "$here/make_heldout.py" --mirror "$MIRROR" --seed "${seed#seed=}" --per-repo "${per#per-repo=}" \
    $repos > "$HELD/$name.jsonl"
  echo "$name $(wc -l < "$HELD/$name.jsonl")"
done
