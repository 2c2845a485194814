"""A simple agent for tateti-lab grade -- python3 agent.py: win now, else block, else the first move."""
import os
import sys

R, C, K = (int(os.environ[v]) for v in ("TATETI_ROWS", "TATETI_COLS", "TATETI_K"))
GRAVITY = os.environ.get("TATETI_GRAVITY") == "1"


def wins(cells, mark):
    for r in range(R):
        for c in range(C):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if 0 <= r + (K - 1) * dr < R and 0 <= c + (K - 1) * dc < C and all(
                        cells[(r + j * dr) * C + c + j * dc] == mark for j in range(K)):
                    return True
    return False


def moves(cells):
    return [i for i, v in enumerate(cells)
            if v == "." and (not GRAVITY or i + C >= R * C or cells[i + C] != ".")]


for request in sys.stdin:
    cells = request.split()
    me = "X" if cells.count("X") == cells.count("O") else "O"
    them = "O" if me == "X" else "X"
    legal = moves(cells)
    pick = legal[0]
    for mark in (me, them):  # my win first, then their threat
        hits = [m for m in legal if wins(cells[:m] + [mark] + cells[m + 1:], mark)]
        if hits:
            pick = hits[0]
            break
    print(pick, flush=True)  # grade --games asks one move at a time
