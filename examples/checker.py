"""A win checker for tateti-lab verify checker -- python3 checker.py (cells X O ., results X O draw open)."""
import os
import sys

R, C, K = (int(os.environ[v]) for v in ("TATETI_ROWS", "TATETI_COLS", "TATETI_K"))


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


for request in sys.stdin:
    cells = request.split()
    print(winner(cells) or ("open" if "." in cells else "draw"))
