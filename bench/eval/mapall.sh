#!/bin/bash
# mapall.sh BINARY OUT [TREES]: `map --full --no-cache` (the agent's view, default budget) of every
# tree under TREES (default /tmp/trees, made by trees.sh) into OUT/<tree>.txt, two at a time, the
# exit code as the last line. Compare two binaries with `diff -rq OUT1 OUT2`.
set -euo pipefail
bin=$(realpath "$1") out=$2 trees=${3:-/tmp/trees}
mkdir -p "$out"
export bin out
ls "$trees" | xargs -P 2 -I{} sh -c '"$bin" map --full --no-cache --root "'"$trees"'/{}" > "$out/{}.txt" 2>&1; echo "rc=$?" >> "$out/{}.txt"'
ls "$out" | wc -l | xargs echo maps:
