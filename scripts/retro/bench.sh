#!/usr/bin/env bash
# bench.sh [RUNS]: times the Go enumerate+solve of 4x4 k=4 (2 workers, with
# paths and symmetry classes, BenchmarkEnumerateSolve4x4) beside retro, the
# single-threaded C solver that is issue 9's yardstick, RUNS times each in
# one process (default 6), run by run. The first run of each writes fresh
# pages, which this virtual machine makes dear; the next ones reuse the
# memory, as the iterations of a Go benchmark do. retro needs gcc and a
# processor with BMI2 (pdep, pext).
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-6}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -march=native -Wall -o "$tmp/retro" scripts/retro/retro.c
go test -c -o "$tmp/solve.test" ./solve
"$tmp/retro" 4 4 4 "$runs" | awk '/^run/ { print $3 }' >"$tmp/c"
"$tmp/solve.test" -test.run '^$' -test.bench 'EnumerateSolve4x4/lean=false/workers=2$' \
  -test.benchtime 1x -test.count "$runs" | awk '/ns\/op/ { printf "%.3f\n", $3 / 1e9 }' >"$tmp/go"
echo "run   C, one core   Go, 2 workers"
paste "$tmp/c" "$tmp/go" | awk '{ printf "%3d   %7.3f s     %7.3f s\n", NR, $1, $2 }'
