#!/usr/bin/env bash
# Benchmarks charmcraft-map the way issue 4 measures it: builds the binary, then runs cmbench
# on a generated 2,000-file repository, a generated 10,000-file one, and every root given as
# an argument, printing one table each. Run it from anywhere inside a clone:
#
#   bench/run.sh                                   # the two synthetic repositories
#   bench/run.sh ~/src/postgresql-operator         # ... and a real charm
#   RUNS=9 SIZES="2000" bench/run.sh               # more runs, fewer sizes
#   SIZES= bench/run.sh ~/src/postgresql-operator  # that charm only
set -euo pipefail

cd "$(dirname "$0")/.."
runs=${RUNS:-5}
sizes=${SIZES-2000 10000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/charmcraft-map" ./cmd/charmcraft-map
go build -o "$tmp/cmbench" ./bench/cmd/cmbench
# Start-up floors: an empty Go program, and one that only links juju/charm/v12.
go build -o "$tmp/empty" ./bench/cmd/floor/empty
go build -o "$tmp/jujucharm" ./bench/cmd/floor/jujucharm
floors=(-floor "$tmp/empty" -floor "$tmp/jujucharm")

for n in $sizes; do
	"$tmp/cmbench" -bin "$tmp/charmcraft-map" -runs "$runs" "${floors[@]}" -gen "$n"
done
for root in "$@"; do
	"$tmp/cmbench" -bin "$tmp/charmcraft-map" -runs "$runs" "${floors[@]}" -root "$root"
done
