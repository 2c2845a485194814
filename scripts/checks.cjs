// checks.cjs holds the checks every JavaScript reader of the dataset runs, so
// that polars, arrow-rs (parquet-wasm) and any other reader are held to the
// same test: column names and types against manifest.json's schema, nulls
// against its nullability, row counts, value counts against the figures the
// tool computes (and the public ones for 3x3), and the join of moves to
// states. A reader loads the tables into plain rows (numbers, strings,
// booleans, null, arrays) and names each column's type in its own words.
'use strict';
const fs = require('fs');
const path = require('path');

// load reads the manifest and the tool's own figures for the game.
function load(dataDir, figuresDir) {
  const json = (dir, name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  return {
    manifest: json(dataDir, 'manifest.json'),
    enumerated: json(figuresDir, 'enumerate.json'),
    solved: json(figuresDir, 'solve.json'),
  };
}

// checker counts and prints checks as check-data.cjs does.
function checker(reader) {
  const c = { passed: 0, failed: 0 };
  c.check = (name, got, want) => {
    const g = JSON.stringify(got);
    const w = JSON.stringify(want);
    if (g === w) {
      c.passed++;
      console.log(`ok    ${reader}: ${name}`);
    } else {
      c.failed++;
      console.log(`FAIL  ${reader}: ${name}\n      got  ${g}\n      want ${w}`);
    }
  };
  c.done = () => {
    console.log(`${reader}: ${c.passed} passed, ${c.failed} failed`);
    process.exitCode = c.failed === 0 ? 0 : 1;
  };
  return c;
}

const count = (rows, pred) => rows.reduce((n, r) => n + (pred(r) ? 1 : 0), 0);
const tally = (rows, key) => {
  const out = {};
  for (const r of rows) out[key(r)] = (out[key(r)] || 0) + 1;
  return out;
};

// entries gives an object's non-zero counts in key order, to compare tallies.
const entries = (o) => Object.entries(o).filter(([, n]) => n !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

// checkSchema compares the columns a reader found, as [name, type] in file
// order, with the manifest's schema turned into the reader's type names by
// typeName(column), which may also mark nullability where the reader has it.
function checkSchema(c, manifest, table, found, typeName) {
  const schema = manifest.tables.find((t) => t.name === table);
  c.check(`${table} columns and types`, found, schema.columns.map((col) => [col.name, typeName(col)]));
}

// checkNulls checks that no column the schema calls non-nullable has a null.
function checkNulls(c, manifest, table, rows) {
  const schema = manifest.tables.find((t) => t.name === table);
  const bad = schema.columns.filter((col) => !col.nullable && rows.some((r) => r[col.name] === null || r[col.name] === undefined));
  c.check(`${table}: no null in a non-nullable column`, bad.map((col) => col.name), []);
}

// checkStates checks the states table's counts against the tool's figures.
function checkStates(c, { manifest, enumerated, solved }, states) {
  const rowsOf = (name) => manifest.files.find((f) => f.name === name).rows;
  c.check('states rows = manifest = positions', [states.length, rowsOf('states.parquet')], [enumerated.positions, enumerated.positions]);
  const t = enumerated.terminal;
  c.check('positions by status', entries(tally(states, (r) => r.status)), entries({
    in_progress: enumerated.positions - t.x_won - t.o_won - t.draw, x_won: t.x_won, o_won: t.o_won, draw: t.draw,
  }));
  c.check('terminal positions', count(states, (r) => r.is_terminal), t.x_won + t.o_won + t.draw);
  c.check('to_move is null exactly when terminal', count(states, (r) => (r.to_move === null) !== r.is_terminal), 0);
  c.check('classes up to symmetry', count(states, (r) => r.state_id === r.canonical_id), enumerated.classes);
  c.check('move sequences = sum of paths', states.reduce((n, r) => n + r.paths, 0), enumerated.sequences);
  const games = { x_won: 0, o_won: 0, draw: 0 };
  for (const r of states) if (r.is_terminal) games[r.status] += r.paths;
  c.check('complete games by winner', games, { x_won: enumerated.games.x_won, o_won: enumerated.games.o_won, draw: enumerated.games.draw });
  const byValue = tally(states, (r) => r.value);
  const v = solved.positions_by_value;
  c.check('positions by value', [byValue[1] || 0, byValue[0] || 0, byValue[-1] || 0], [v.x_wins, v.draw, v.o_wins]);
  const words = { 1: 'X wins', 0: 'draw', '-1': 'O wins' };
  c.check('outcome says the value in words', count(states, (r) => words[r.value] !== r.outcome), 0);
  c.check('value of the empty board', states.find((r) => r.ply === 0).value, solved.value);
  const g = manifest.game;
  if (g.rows === 3 && g.cols === 3 && g.k === 3 && !g.gravity && !g.misere) {
    c.check('public 3x3 figures', [states.length, games.x_won + games.o_won + games.draw, count(states, (r) => r.state_id === r.canonical_id)],
      [5478, 255168, 765]);
  }
}

// checkMoves checks the moves table and its join to states.
function checkMoves(c, { manifest }, states, moves) {
  const rowsOf = (name) => manifest.files.find((f) => f.name === name).rows;
  c.check('moves rows = manifest', moves.length, rowsOf('moves.parquet'));
  const byId = new Map(states.map((r) => [r.state_id, r]));
  c.check('every move joins its position on state_id', count(moves, (m) => byId.has(m.state_id)), moves.length);
  c.check('every move joins its child on child_id', count(moves, (m) => byId.has(m.child_id)), moves.length);
  c.check('child value and depth match the child state',
    count(moves, (m) => byId.has(m.child_id) && (byId.get(m.child_id).value !== m.child_value || byId.get(m.child_id).depth !== m.child_depth)), 0);
  const mine = new Map();
  for (const m of moves) {
    const e = mine.get(m.state_id) || { n: 0, best: [] };
    e.n++;
    if (m.is_best) e.best.push(m.move);
    mine.set(m.state_id, e);
  }
  c.check('is_best matches best_moves, n_moves counts moves', count(states, (s) => {
    const e = mine.get(s.state_id) || { n: 0, best: [] };
    return e.n !== s.n_moves || JSON.stringify(e.best) !== JSON.stringify(s.best_moves);
  }), 0);
}

// checkLearning checks the columns for learning against the others, as
// check-data.cjs does in SQL: the mover's sign is 1 after an even ply.
// legal, move_values and policy have an entry an action: a cell, or under
// gravity a column from 0, as RL libraries number Connect Four's actions;
// best_moves and the moves' move are actions too, and under gravity a
// move's cell lies in its column.
function checkLearning(c, { manifest }, states, moves) {
  const g = manifest.game;
  const n = g.gravity ? g.cols : g.rows * g.cols;
  const sign = (r) => (r.ply % 2 === 0 ? 1 : -1);
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const cellsOf = (r) => Array.from({ length: g.rows * g.cols }, (_, i) => r[`cell_${i}`]);
  c.check('cells is the cell columns as one array', count(states, (r) => !same(r.cells, cellsOf(r))), 0);
  c.check("mover_cells is cells times the mover's sign", count(states, (r) => !same(r.mover_cells, r.cells.map((x) => x * sign(r) + 0))), 0);
  c.check("mover_value is value times the mover's sign", count(states, (r) => r.mover_value !== r.value * sign(r) + 0), 0);
  c.check('legal has n_moves true cells; move_values is null exactly where legal is false', count(states, (r) =>
    r.legal.length !== n || count(r.legal, (x) => x) !== r.n_moves || r.legal.some((x, i) => (r.move_values[i] === null) === x)), 0);
  const byId = new Map(states.map((r) => [r.state_id, r]));
  const seen = new Map();
  for (const m of moves) seen.set(m.state_id, (seen.get(m.state_id) || 0) + 1);
  c.check("move_values are the moves' child values from the mover's side",
    count(moves, (m) => byId.get(m.state_id).move_values[m.move] !== m.child_value * sign(byId.get(m.state_id)) + 0) +
    count(states, (r) => (seen.get(r.state_id) || 0) !== r.n_moves), 0);
  c.check('the best moves are argmax cells of move_values, whose max is mover_value', count(states, (r) => !r.is_terminal &&
    (Math.max(...r.move_values.filter((v) => v !== null)) !== r.mover_value || r.best_moves.some((m) => r.move_values[m] !== r.mover_value))), 0);
  c.check('policy is 1/len(best_moves) on each best move and 0 elsewhere; it sums to 1 unless the game is over', count(states, (r) => {
    const best = r.best_moves;
    const each = r.policy.length === n && r.policy.every((p, i) => p === (best.includes(i) ? Math.fround(1 / r.best_moves.length) : 0));
    return !each || Math.abs(r.policy.reduce((a, b) => a + b, 0) - (r.is_terminal ? 0 : 1)) > 1e-6;
  }), 0);
  if (g.gravity) {
    c.check("a move is its cell's column", count(moves, (m) => m.cell % g.cols !== m.move), 0);
  }
  const split = (id) => ({ 0: 'validation', 1: 'test' })[id % 10] || 'train';
  c.check('split follows canonical_id % 10', count(states, (r) => r.split !== split(r.canonical_id)), 0);
}

module.exports = { load, checker, checkSchema, checkNulls, checkStates, checkMoves, checkLearning };
