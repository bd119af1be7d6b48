#!/bin/bash
# allsets.sh NAME BINARY: score BINARY on the dev cases and on every held-out set in $HELD
# (default /tmp/h/held*.jsonl, made by make_heldout.py from bench/eval/heldout-sets.txt) with
# fasteval.py, exporting each set's trees once under $TREES (default /tmp/ev). Rows go to
# $OUT/NAME-<set>.jsonl (default /tmp/ev/rows); the last line is the mean MRR over the sets.
# Compare two runs' first ranks with `fasteval.py diff $OUT/A-<set>.jsonl $OUT/B-<set>.jsonl`.
# LOCATE=1 scores `locate` instead of the map (fasteval.py run --locate).
set -euo pipefail
name=$1 bin=$2
here=$(cd "$(dirname "$0")" && pwd)
HELD=${HELD:-/tmp/h} TREES=${TREES:-/tmp/ev} OUT=${OUT:-/tmp/ev/rows} MIRROR=${MIRROR:-/work/.mirror}
DEV=${DEV:-$here/../../../shared/eval/dev-cases.jsonl}
mkdir -p "$OUT"
sum=0 n=0
for cases in "$DEV" "$HELD"/held*.jsonl; do
  [[ -f "$cases" ]] || continue
  set=$(basename "$cases" .jsonl)
  [[ "$set" = dev-cases ]] && set=dev
  python3 "$here/fasteval.py" export "$cases" "$TREES/$set" --mirror "$MIRROR" 2>/dev/null
  out=$(python3 "$here/fasteval.py" run "$cases" "$TREES/$set" "$bin" --out "$OUT/$name-$set.jsonl" ${LOCATE:+--locate})
  line=${out%%$'\n'*} # the "all:" line (not | head -1: fasteval would stop before writing the rows)
  printf '%-8s %s\n' "$set" "$line"
  mrr=${line##*MRR=}; mrr=${mrr%% *}
  sum=$(python3 -c "print($sum + $mrr)") n=$((n + 1))
done
python3 -c "print(f'mean MRR over $n sets: {$sum / max($n, 1):.4f}')"
