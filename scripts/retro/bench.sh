#!/usr/bin/env bash
# bench.sh [ROUNDS]: times the Go enumerate+solve of 4x4 k=4 (2 workers,
# with paths and symmetry classes) and retro, the single-threaded C solver
# that is issue 9's yardstick, in turns, so that both are measured in the
# same minutes of a machine whose speed drifts. retro needs gcc and a
# processor with BMI2 (pdep, pext).
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -march=native -Wall -o "$tmp/retro" scripts/retro/retro.c
go test -c -o "$tmp/solve.test" ./solve
for _ in $(seq "$rounds"); do
  "$tmp/retro" 4 4 4 2>/dev/null | sed 's/.*solved in \(.*\) s$/C, one core:   \1 s/'
  "$tmp/solve.test" -test.run '^$' -test.bench 'EnumerateSolve4x4/lean=false/workers=2$' \
    -test.benchtime 3x | awk '/ns\/op/ { printf "Go, 2 workers: %.3f s\n", $3 / 1e9 }'
done
