#!/usr/bin/env bash
# check-db.sh: reads positions of solved-game databases with
# scripts/db_probe.py, which follows docs/database.md with Python's standard
# library alone, and checks each answer against the tool's own (solve
# --position --db), on free and gravity boards, normal and misère: the
# format doc is then enough for another language to read a database.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/tateti-lab" .
check() { # name, game flags...
  local name=$1
  shift
  "$work/tateti-lab" db build "$@" "$work/$name" >/dev/null 2>&1
  python3 - "$work" "$name" "$@" <<'PY'
import json, random, subprocess, sys
work, name, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
manifest = json.load(open(f"{work}/{name}/manifest.json"))
g = manifest["game"]
rows, cols = g["rows"], g["cols"]
rng = random.Random(7)
boards = []
for n in range(60):
    cells = ["."] * (rows * cols)
    for ply in range(rng.randrange(rows * cols + 1)):
        if g["gravity"]:
            free = [c for c in range(rows * cols) if cells[c] == "." and (c + cols >= rows * cols or cells[c + cols] != ".")]
        else:
            free = [c for c in range(rows * cols) if cells[c] == "."]
        cells[rng.choice(free)] = "XO"[ply % 2]
    boards.append("/".join("".join(cells[r * cols:(r + 1) * cols]) for r in range(rows)))
# db_probe.py reads every board in one run, a line each: board, value, depth.
probed = subprocess.run([sys.executable, "scripts/db_probe.py", f"{work}/{name}", *boards], capture_output=True, text=True, check=True).stdout.splitlines()
for board, line in zip(boards, probed, strict=True):
    got = line.split()[1:]
    tool = subprocess.run([f"{work}/tateti-lab", "solve", *flags, "--db", f"{work}/{name}", "--position", board, "--json"], capture_output=True, text=True)
    if tool.returncode == 2:
        want = ["unreachable"]
    else:
        a = json.loads(tool.stdout)
        want = [str(a["value"]), str(a["depth"])]
    if got != want:
        sys.exit(f"{name} {board}: db_probe.py says {got}, the tool {want}")
print(f"ok   {name}: 60 positions read alike")
PY
}
check 3x3
check misere-3x3 --misere
check gravity-4x4 --gravity --size 4x4 --k 4
check gravity-misere-3x4 --gravity --misere --size 3x4 --k 3
