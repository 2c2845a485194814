#!/usr/bin/env bash
# pgo.sh writes default.pgo, the CPU profile that go build, go install and
# go run use for the main package (profile-guided optimization), from the
# benchmarks of what tateti-lab spends its time on: Connect Four's search
# on Pons' bands, one worker and two, lines answered through solve --stdin,
# the exhaustive solve and enumeration of 4x4, the 3x3 export and the
# database probe. Run it from the repository's root after a change to a hot
# path, on a machine otherwise quiet; docs/design/pgo.md says what it gave.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# bench NAME PACKAGE PATTERN BENCHTIME: one profile of PATTERN's benchmarks.
bench() {
  echo "pgo: $2 -bench '$3'" >&2
  go test "$2" -run '^$' -bench "$3" -benchtime "$4" -pgo=off -cpuprofile "$dir/$1.pprof" -o "$dir/$1.test" >/dev/null
}
bench search ./search 'Bands/(End-Easy|Middle-Easy|Middle-Medium|Begin-Easy|Begin-Medium)/' 3x
bench stdin ./cmd 'SolveStdin' 20x
bench solve ./solve 'Solve4x4' 3x
bench enumerate ./enumerate 'Enumerate4x4' 3x
bench export ./export 'Export3x3' 20x
bench probe ./db 'Probe' 1s
go tool pprof -proto "$dir"/*.pprof > default.pgo
echo "pgo: default.pgo, $(wc -c < default.pgo) bytes" >&2
