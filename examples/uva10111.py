"""UVa 10111, Find the Winning Move: for tateti-lab judge uva10111."""
import sys
from functools import lru_cache

LINES = [[4 * r + c for c in range(4)] for r in range(4)] + \
        [[4 * r + c for r in range(4)] for c in range(4)] + \
        [[0, 5, 10, 15], [3, 6, 9, 12]]


@lru_cache(maxsize=None)
def x_wins(board, x_to_move):
    """Whether x forces a win from board (a 16-character string)."""
    for line in LINES:
        marks = {board[i] for i in line}
        if marks == {"x"}:
            return True
        if marks == {"o"}:
            return False
    empty = [i for i, v in enumerate(board) if v == "."]
    if not empty:
        return False
    me = "x" if x_to_move else "o"
    results = (x_wins(board[:i] + me + board[i + 1:], not x_to_move) for i in empty)
    return any(results) if x_to_move else all(results)


def main():
    out = []
    while sys.stdin.readline().strip() != "$":
        board = "".join(sys.stdin.readline().strip() for _ in range(4))
        answer = "#####"
        for i, v in enumerate(board):
            if v == "." and x_wins(board[:i] + "x" + board[i + 1:], False):
                answer = "(%d,%d)" % (i // 4, i % 4)
                break
        out.append(answer)
    print("\n".join(out))


main()
