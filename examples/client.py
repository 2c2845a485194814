"""A client of tateti-lab's perfect play for a program, the standard library alone.

    python3 client.py [COMMAND ...]

starts COMMAND (tateti-lab by default) as `COMMAND solve --game connect-four
--stdin`, one process for the whole run, asks it a few positions one at a
time, prints each answer, then asks a thousand openings of 8 random moves
(the opening book's, or errors where a column fills) and prints how many
it answered a second. docs/protocols.md
says what each answer holds.
"""
import json
import random
import subprocess
import sys
import time


class PerfectPlay:
    """One tateti-lab process answering positions, one line each way."""

    def __init__(self, command=("tateti-lab",), game=("--game", "connect-four")):
        self.proc = subprocess.Popen(
            [*command, "solve", *game, "--stdin"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, position):
        """The answer for a position: moves from the empty board ("4453") or a
        board ("......./.../...X..."), as a dict; "error" says why a line is
        no position."""
        self.proc.stdin.write(position + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("tateti-lab ended: exit %s" % self.proc.wait())
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        return self.proc.wait()


def best_columns(answer):
    return [m["column"] for m in answer["moves"] if m["best"]]


def main():
    play = PerfectPlay(tuple(sys.argv[1:]) or ("tateti-lab",))
    for position in ("", "4", "4453", "44444444", "......./......./......./......./......./...X..."):
        a = play.ask(position)
        if "error" in a:
            print("%r: %s" % (position, a["error"]))
            continue
        print("%r: %s in %d plies, answered by %s, best columns %s" % (
            position, a["outcome"], a["depth"], a["answered_by"], best_columns(a)))
    rng = random.Random(1)
    openings = ["".join(str(rng.randint(1, 7)) for _ in range(8)) for _ in range(1000)]
    start = time.perf_counter()
    for position in openings:
        play.ask(position)
    took = time.perf_counter() - start
    print("%d openings of 8 moves, one at a time: %.0f a second" % (len(openings), len(openings) / took))
    sys.exit(play.close())


if __name__ == "__main__":
    main()
