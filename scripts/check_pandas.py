"""Read the exported dataset's CSV files with pandas, as data/README.md shows
(the schema's types from manifest.json, and a converter for the list column),
and run the checks the JavaScript readers run (scripts/checks.cjs): column
types against the schema, nulls against its nullability, row counts, value
counts against the figures the tool computes, and the join of moves to states.

usage: python3 scripts/check_pandas.py DATA_DIR FIGURES_DIR
FIGURES_DIR holds the tool's enumerate.json and solve.json for the same game.
CI runs it with Debian's python3-pandas, which has no Parquet engine (pyarrow
is not packaged in Debian 12), so it reads the CSV files.
"""
import json
import os
import struct
import sys

import pandas as pd

# The pandas dtype of each schema type; lists are read by a converter (JSON,
# so a null element is None and a float is a Python float).
PANDAS_TYPE = {"int8": "int8", "int64": "int64", "string": "string", "bool": "bool"}


def read(data_dir, table, schema):
    cols = schema[table]["columns"]
    return pd.read_csv(
        os.path.join(data_dir, f"{table}.csv"),
        dtype={c["name"]: PANDAS_TYPE[c["type"]] for c in cols if c["type"] in PANDAS_TYPE},
        converters={c["name"]: json.loads for c in cols if c["type"].startswith("list")},
    )


class Checker:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, got, want):
        if got == want:
            self.passed += 1
            print(f"ok    pandas: {name}")
        else:
            self.failed += 1
            print(f"FAIL  pandas: {name}\n      got  {got!r}\n      want {want!r}")


def check_schema(c, schema, name, df):
    def want(col):
        if col["type"].startswith("list"):
            return "object"  # a column of Python lists
        return PANDAS_TYPE[col["type"]]

    cols = schema[name]["columns"]
    c.check(f"{name} columns and types", [(k, str(t)) for k, t in df.dtypes.items()],
            [(col["name"], want(col)) for col in cols])
    bad = [col["name"] for col in cols if not col["nullable"] and df[col["name"]].isna().any()]
    c.check(f"{name}: no null in a non-nullable column", bad, [])
    if any(col["type"].startswith("list") for col in cols):
        lists = [col["name"] for col in cols if col["type"].startswith("list")]
        c.check(f"{name}: list columns hold lists", all(isinstance(v, list) for k in lists for v in df[k]), True)


def check_states(c, manifest, enumerated, solved, states):
    rows = {f["name"]: f["rows"] for f in manifest["files"]}
    t = enumerated["terminal"]
    c.check("states rows = manifest = positions", [len(states), rows["states.csv"]],
            [enumerated["positions"]] * 2)
    want = {"in_progress": enumerated["positions"] - t["x_won"] - t["o_won"] - t["draw"], **t}
    c.check("positions by status", states["status"].value_counts().to_dict(),
            {k: n for k, n in want.items() if n})
    c.check("to_move is null exactly when terminal",
            int((states["to_move"].isna() != states["is_terminal"]).sum()), 0)
    c.check("classes up to symmetry", int((states["state_id"] == states["canonical_id"]).sum()),
            enumerated["classes"])
    c.check("move sequences = sum of paths", int(states["paths"].sum()), enumerated["sequences"])
    games = states[states["is_terminal"]].groupby("status")["paths"].sum().to_dict()
    c.check("complete games by winner", {k: int(games.get(k, 0)) for k in ("x_won", "o_won", "draw")},
            {k: enumerated["games"][k] for k in ("x_won", "o_won", "draw")})
    v = solved["positions_by_value"]
    by_value = states["value"].value_counts().to_dict()
    c.check("positions by value", [by_value.get(1, 0), by_value.get(0, 0), by_value.get(-1, 0)],
            [v["x_wins"], v["draw"], v["o_wins"]])
    words = states["value"].map({1: "X wins", 0: "draw", -1: "O wins"})
    c.check("outcome says the value in words", int((words != states["outcome"]).sum()), 0)
    c.check("value of the empty board", int(states.loc[states["ply"] == 0, "value"].iloc[0]), solved["value"])


def check_moves(c, manifest, states, moves):
    rows = {f["name"]: f["rows"] for f in manifest["files"]}
    c.check("moves rows = manifest", len(moves), rows["moves.csv"])
    c.check("every move joins its position on state_id", int(moves["state_id"].isin(states["state_id"]).sum()), len(moves))
    j = moves.merge(states, left_on="child_id", right_on="state_id", suffixes=("", "_child"))
    c.check("every move joins its child on child_id", len(j), len(moves))
    c.check("child value and depth match the child state",
            int(((j["child_value"] != j["value"]) | (j["child_depth"] != j["depth"])).sum()), 0)
    best = moves[moves["is_best"]].groupby("state_id")["move"].apply(list).to_dict()
    n = moves.groupby("state_id").size().to_dict()
    bad = sum(1 for s in states.itertuples()
              if n.get(s.state_id, 0) != s.n_moves or best.get(s.state_id, []) != s.best_moves)
    c.check("is_best matches best_moves, n_moves counts moves", bad, 0)


def check_learning(c, manifest, states, moves):
    """The columns for learning against the others, as check-data.cjs does.

    legal, move_values and policy have an entry an action: a cell, or under
    gravity a column from 0, as RL libraries number Connect Four's actions;
    best_moves and the moves' move are actions too, and under gravity a
    move's cell lies in its column.
    """
    g = manifest["game"]
    n = g["cols"] if g["gravity"] else g["rows"] * g["cols"]
    sign = states["ply"].map(lambda p: 1 if p % 2 == 0 else -1)
    cells = states[[f"cell_{i}" for i in range(g["rows"] * g["cols"])]].values.tolist()
    c.check("cells is the cell columns as one array", int((states["cells"] != pd.Series(cells)).sum()), 0)
    mover = [[x * s for x in row] for row, s in zip(states["cells"], sign)]
    c.check("mover_cells is cells times the mover's sign", int((states["mover_cells"] != pd.Series(mover)).sum()), 0)
    c.check("mover_value is value times the mover's sign", int((states["mover_value"] != states["value"] * sign).sum()), 0)
    bad = sum(1 for r in states.itertuples()
              if len(r.legal) != n or sum(r.legal) != r.n_moves
              or any((v is None) == ok for v, ok in zip(r.move_values, r.legal)))
    c.check("legal has n_moves true cells; move_values is null exactly where legal is false", bad, 0)
    by_id = {r.state_id: r for r in states.itertuples()}
    bad = sum(1 for m in moves.itertuples()
              if by_id[m.state_id].move_values[m.move] != m.child_value * (1 if by_id[m.state_id].ply % 2 == 0 else -1))
    bad += int((moves.groupby("state_id").size().reindex(states["state_id"], fill_value=0).values != states["n_moves"].values).sum())
    c.check("move_values are the moves' child values from the mover's side", bad, 0)
    bad = sum(1 for r in states.itertuples() if not r.is_terminal and (
        max(v for v in r.move_values if v is not None) != r.mover_value
        or any(r.move_values[m] != r.mover_value for m in r.best_moves)))
    c.check("the best moves are argmax cells of move_values, whose max is mover_value", bad, 0)
    if g["gravity"]:
        c.check("a move is its cell's column", int((moves["cell"] % g["cols"] != moves["move"]).sum()), 0)
    # A policy entry is a float32, written in the CSV as the shortest decimal
    # that reads back as it: compare as float32.
    f32 = lambda x: struct.unpack("f", struct.pack("f", x))[0]
    bad = sum(1 for r in states.itertuples()
              if len(r.policy) != n
              or any(f32(p) != (f32(1 / len(r.best_moves)) if i in list(r.best_moves) else 0)
                     for i, p in enumerate(r.policy))
              or abs(sum(r.policy) - (0 if r.is_terminal else 1)) > 1e-6)
    c.check("policy is 1/len(best_moves) on each best move and 0 elsewhere; it sums to 1 unless the game is over", bad, 0)
    split = states["canonical_id"].map(lambda i: {0: "validation", 1: "test"}.get(i % 10, "train"))
    c.check("split follows canonical_id % 10", int((states["split"] != split).sum()), 0)


def main(data_dir, figures_dir):
    load = lambda d, name: json.load(open(os.path.join(d, name)))
    manifest = load(data_dir, "manifest.json")
    schema = {t["name"]: t for t in manifest["tables"]}
    states, moves = read(data_dir, "states", schema), read(data_dir, "moves", schema)
    c = Checker()
    check_schema(c, schema, "states", states)
    check_schema(c, schema, "moves", moves)
    check_states(c, manifest, load(figures_dir, "enumerate.json"), load(figures_dir, "solve.json"), states)
    check_moves(c, manifest, states, moves)
    check_learning(c, manifest, states, moves)
    print(f"pandas {pd.__version__}: {c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
