#!/bin/bash
# chkall.sh BINARY OUT [TREES]: `check --no-cache` on every tree under TREES (default /tmp/trees,
# made by trees.sh), each report (with its exit code as the last line) into OUT/<tree>.txt, two
# at a time; then the totals of the reports' summary lines: errors / warnings / infos. Compare
# two runs with `diff -r OUT1 OUT2`.
set -euo pipefail
bin=$(realpath "$1") out=$2 trees=${3:-/tmp/trees}
mkdir -p "$out"
export bin out
ls "$trees" | xargs -P 2 -I{} sh -c '"$bin" check --no-cache --root "'"$trees"'/{}" > "$out/{}.txt" 2>&1; echo "rc=$?" >> "$out/{}.txt"'
cat "$out"/*.txt | awk '/^[0-9]+ errors?, [0-9]+ warnings?, [0-9]+ infos?/ { e += $1; w += $3; i += $5 }
  END { printf "%d errors, %d warnings, %d infos\n", e, w, i }'
ls "$out" | wc -l | xargs echo reports:
