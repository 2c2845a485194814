"""A memoized minimax for tateti-lab verify solver --check value,depth,best -- python3 solver.py."""
import os
import sys
from functools import lru_cache

R, C, K = (int(os.environ[v]) for v in ("TATETI_ROWS", "TATETI_COLS", "TATETI_K"))
GRAVITY = os.environ.get("TATETI_GRAVITY") == "1"
MISERE = os.environ.get("TATETI_MISERE") == "1"


def winner(cells):
    """The mark with K in a row, or None."""
    for r in range(R):
        for c in range(C):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if not (0 <= r + (K - 1) * dr < R and 0 <= c + (K - 1) * dc < C):
                    continue
                line = {cells[(r + j * dr) * C + c + j * dc] for j in range(K)}
                if len(line) == 1 and "." not in line:
                    return line.pop()
    return None


def moves(cells):
    """Empty cells; under gravity only those on the floor or on a mark."""
    return [i for i, v in enumerate(cells)
            if v == "." and (not GRAVITY or i + C >= R * C or cells[i + C] != ".")]


@lru_cache(maxsize=None)
def solve(cells):
    """(value for X: 1, 0, -1; plies to the end; best moves)."""
    w = winner(cells)
    if w:
        v = 1 if w == "X" else -1
        return (-v if MISERE else v), 0, ()
    if "." not in cells:
        return 0, 0, ()
    me = "X" if cells.count("X") == cells.count("O") else "O"
    sign = 1 if me == "X" else -1
    scored = []
    for m in moves(cells):
        v, d, _ = solve(cells[:m] + (me,) + cells[m + 1:])
        v, d = v * sign, d + 1  # as the mover sees it
        # Win fastest, lose slowest; every draw runs to the full board.
        scored.append(((v, -d if v > 0 else d), m, d))
    top = max(key for key, _, _ in scored)
    best = [m for key, m, _ in scored if key == top]
    depth = next(d for key, _, d in scored if key == top)
    return top[0] * sign, depth, tuple(best)


for request in sys.stdin:
    value, depth, best = solve(tuple(request.split()))
    print(value, depth, *best)
