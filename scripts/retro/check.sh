#!/usr/bin/env bash
# check.sh: retro, the C yardstick of bench.sh, computes what the tool
# computes. On 3x3, 3x4 and 4x3 it must print the tool's positions, their
# count by value, the value and depth of the empty board, the symmetry
# classes, the games and the largest paths. CI runs it.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -march=native -Wall -o "$tmp/retro" scripts/retro/retro.c
go build -o "$tmp/tateti-lab" .
for game in "3 3 3" "3 4 3" "4 3 3"; do
  read -r rows cols k <<<"$game"
  "$tmp/retro" "$rows" "$cols" "$k" | tail -1 >"$tmp/c"
  "$tmp/tateti-lab" solve --size "${rows}x${cols}" --k "$k" --json >"$tmp/solve.json"
  "$tmp/tateti-lab" enumerate --size "${rows}x${cols}" --k "$k" --json >"$tmp/enumerate.json"
  python3 - "$tmp/c" "$tmp/solve.json" "$tmp/enumerate.json" <<'PY'
import json, re, sys
line = open(sys.argv[1]).read()
s, e = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
want = (f"{e['game']['rows']}x{e['game']['cols']} k={e['game']['k']}: {e['positions']} positions "
        f"(X wins {s['positions_by_value']['x_wins']}, draws {s['positions_by_value']['draw']}, "
        f"O wins {s['positions_by_value']['o_wins']}), value {s['value']} depth {s['depth']}, "
        f"{e['classes']} classes, games {e['games']['total']}, max paths {e['max_paths']}")
if line.strip() != want:
    sys.exit(f"retro printed\n  {line.strip()}\nthe tool computes\n  {want}")
print("retro agrees with the tool:", want)
PY
done
