// check-data.cjs reads the exported dataset with DuckDB, an outside reader, and
// checks it: column types, row counts, value counts against the figures the
// tool computes (and the public ones), the join of moves to states, and that
// the CSV files read with explicit types equal the Parquet files.
//
// usage: node scripts/check-data.cjs DATA_DIR FIGURES_DIR
// FIGURES_DIR holds node_modules/@duckdb/node-api and the tool's own
// enumerate.json and solve.json for the same game. .ci/run sets this up.
'use strict';
const fs = require('fs');
const path = require('path');

const [dataDir, figuresDir] = process.argv.slice(2);
const { DuckDBInstance } = require(path.join(path.resolve(figuresDir), 'node_modules', '@duckdb', 'node-api'));
const manifest = JSON.parse(fs.readFileSync(path.join(dataDir, 'manifest.json'), 'utf8'));
const enumerated = JSON.parse(fs.readFileSync(path.join(figuresDir, 'enumerate.json'), 'utf8'));
const solved = JSON.parse(fs.readFileSync(path.join(figuresDir, 'solve.json'), 'utf8'));
const { rows, cols } = manifest.game;
const file = (name) => `'${path.join(dataDir, name).replace(/'/g, "''")}'`;
const rowsOf = (name) => manifest.files.find((f) => f.name === name).rows;

// The data dictionary's types, as DuckDB names them.
const stateTypes = [['state_id', 'BIGINT'], ['board', 'VARCHAR']];
for (let i = 0; i < rows * cols; i++) stateTypes.push([`cell_${i}`, 'TINYINT']);
stateTypes.push(['ply', 'TINYINT'], ['to_move', 'VARCHAR'], ['status', 'VARCHAR'], ['value', 'TINYINT'],
  ['outcome', 'VARCHAR'], ['depth', 'TINYINT'], ['best_moves', 'TINYINT[]'], ['n_moves', 'TINYINT'],
  ['n_winning', 'TINYINT'], ['n_drawing', 'TINYINT'], ['n_losing', 'TINYINT'], ['canonical_id', 'BIGINT'],
  ['orbit_size', 'TINYINT'], ['paths', 'BIGINT'], ['is_terminal', 'BOOLEAN'],
  ['cells', 'TINYINT[]'], ['mover_cells', 'TINYINT[]'], ['mover_value', 'TINYINT'], ['move_values', 'TINYINT[]'],
  ['legal', 'BOOLEAN[]'], ['policy', 'FLOAT[]'], ['split', 'VARCHAR']);
const moveTypes = [['state_id', 'BIGINT'], ['move', 'TINYINT'],
  ...(manifest.game.gravity ? [['cell', 'TINYINT']] : []), // under gravity, the cell the move lands on (move is its column)
  ['child_id', 'BIGINT'], ['child_value', 'TINYINT'], ['child_depth', 'TINYINT'], ['is_best', 'BOOLEAN']];

let passed = 0;
let failed = 0;
function check(name, got, want) {
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  if (g === w) {
    passed++;
    console.log(`ok    ${name}`);
  } else {
    failed++;
    console.log(`FAIL  ${name}\n      got  ${g}\n      want ${w}`);
  }
}

async function main() {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const all = async (sql) => (await conn.runAndReadAll(sql)).getRowObjectsJson();
  const one = async (sql) => Object.values((await all(sql))[0])[0];
  await conn.run(`CREATE VIEW states AS SELECT * FROM read_parquet(${file('states.parquet')})`);
  await conn.run(`CREATE VIEW moves AS SELECT * FROM read_parquet(${file('moves.parquet')})`);

  const describe = async (view) => (await all(`DESCRIBE ${view}`)).map((r) => [r.column_name, r.column_type]);
  check('states.parquet column types', await describe('states'), stateTypes);
  check('moves.parquet column types', await describe('moves'), moveTypes);

  check('states rows = manifest = positions', [Number(await one('SELECT count(*) FROM states')), rowsOf('states.parquet')],
    [enumerated.positions, enumerated.positions]);
  check('moves rows = manifest', Number(await one('SELECT count(*) FROM moves')), rowsOf('moves.parquet'));

  const byStatus = Object.fromEntries((await all('SELECT status, count(*) AS n FROM states GROUP BY status ORDER BY status'))
    .map((r) => [r.status, Number(r.n)]));
  const t = enumerated.terminal;
  check('positions by status', byStatus, {
    draw: t.draw, in_progress: enumerated.positions - t.x_won - t.o_won - t.draw, o_won: t.o_won, x_won: t.x_won,
  });
  check('terminal positions', Number(await one('SELECT count(*) FROM states WHERE is_terminal')), t.x_won + t.o_won + t.draw);
  check('classes up to symmetry', Number(await one('SELECT count(*) FROM states WHERE state_id = canonical_id')), enumerated.classes);
  check('move sequences = sum of paths', Number(await one('SELECT sum(paths) FROM states')), enumerated.sequences);
  const games = Object.fromEntries((await all(`SELECT status, sum(paths) AS n FROM states WHERE is_terminal GROUP BY status`))
    .map((r) => [r.status, Number(r.n)]));
  check('complete games by winner', [games.x_won, games.o_won, games.draw],
    [enumerated.games.x_won, enumerated.games.o_won, enumerated.games.draw]);
  const byValue = Object.fromEntries((await all('SELECT outcome, count(*) AS n FROM states GROUP BY outcome'))
    .map((r) => [r.outcome, Number(r.n)]));
  check('positions by value', [byValue['X wins'], byValue.draw, byValue['O wins']],
    [solved.positions_by_value.x_wins, solved.positions_by_value.draw, solved.positions_by_value.o_wins]);
  check('outcome says the value in words', Number(await one(`SELECT count(*) FROM states
    WHERE outcome IS DISTINCT FROM CASE value WHEN 1 THEN 'X wins' WHEN 0 THEN 'draw' WHEN -1 THEN 'O wins' END`)), 0);
  check('value of the empty board', Number(await one('SELECT value FROM states WHERE ply = 0')), solved.value);
  check('to_move is null exactly when terminal',
    Number(await one('SELECT count(*) FROM states WHERE (to_move IS NULL) <> is_terminal')), 0);
  if (rows === 3 && cols === 3 && manifest.game.k === 3) {
    // The public figures for 3x3.
    check('public 3x3 figures', [enumerated.positions, t.x_won, t.o_won, t.draw, enumerated.classes, enumerated.terminal_classes,
      games.x_won + games.o_won + games.draw, enumerated.sequences], [5478, 626, 316, 16, 765, 138, 255168, 549946]);
  }

  check('every move joins its child on child_id',
    Number(await one('SELECT count(*) FROM moves m JOIN states c ON m.child_id = c.state_id')), rowsOf('moves.parquet'));
  check('child value and depth match the child state',
    Number(await one(`SELECT count(*) FROM moves m JOIN states c ON m.child_id = c.state_id
                      WHERE m.child_value <> c.value OR m.child_depth <> c.depth`)), 0);
  check('is_best matches best_moves, n_moves counts moves',
    Number(await one(`SELECT count(*) FROM states s LEFT JOIN (
                        SELECT state_id, count(*) AS n, list(move ORDER BY move) FILTER (WHERE is_best) AS best
                        FROM moves GROUP BY state_id) m USING (state_id)
                      WHERE coalesce(m.n, 0) <> s.n_moves OR coalesce(m.best, []) <> s.best_moves`)), 0);

  await checkLearning(conn, one);

  const columns = (types) => `{${types.map(([n, ty]) => `'${n}': '${ty}'`).join(', ')}}`;
  for (const [table, types] of [['states', stateTypes], ['moves', moveTypes]]) {
    const csv = `read_csv(${file(table + '.csv')}, header = true, columns = ${columns(types)})`;
    check(`${table}.csv with explicit types equals ${table}.parquet`,
      Number(await one(`SELECT count(*) FROM ((SELECT * FROM ${csv} EXCEPT ALL SELECT * FROM ${table})
                        UNION ALL (SELECT * FROM ${table} EXCEPT ALL SELECT * FROM ${csv}))`)), 0);
    check(`${table}.csv row count`, Number(await one(`SELECT count(*) FROM ${csv}`)), rowsOf(table + '.csv'));
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}

// checkLearning checks the columns for learning against the others, cell by
// cell and action by action: each row's arrays are unnested in step, one
// row a cell (cells, mover_cells) or an action (move_values, legal,
// policy: a cell, or under gravity a column from 0, as RL libraries number
// Connect Four's actions). best_moves and the moves table's move are
// actions too; under gravity a move's cell lies in its column.
async function checkLearning(conn, one) {
  const n = rows * cols;
  const cellCols = Array.from({ length: n }, (_, i) => `cell_${i}`).join(', ');
  await conn.run(`CREATE VIEW s AS SELECT *, CASE WHEN ply % 2 = 0 THEN 1 ELSE -1 END AS sign FROM states`);
  await conn.run(`CREATE VIEW c AS SELECT state_id, sign, unnest(cells) AS x, unnest(mover_cells) AS mx FROM s`);
  await conn.run(`CREATE VIEW a AS SELECT state_id, sign, ply, is_terminal, best_moves, n_moves, mover_value,
               best_moves AS best, len(legal) AS actions,
               generate_subscripts(legal, 1) - 1 AS act, unnest(move_values) AS mv, unnest(legal) AS lg, unnest(policy) AS p FROM s`);
  check('cells is the cell columns as one array', Number(await one(`SELECT count(*) FROM states WHERE cells <> [${cellCols}]`)), 0);
  check("mover_cells is cells times the mover's sign", Number(await one('SELECT count(*) FROM c WHERE mx <> x * sign')), 0);
  check("mover_value is value times the mover's sign", Number(await one('SELECT count(*) FROM s WHERE mover_value <> value * sign')), 0);
  check('legal has n_moves true cells; move_values is null exactly where legal is false',
    Number(await one(`SELECT count(*) FROM (SELECT state_id, any_value(n_moves) AS n, count(*) FILTER (WHERE lg) AS legal,
                        count(*) FILTER (WHERE (mv IS NULL) = lg OR actions <> ${manifest.game.gravity ? cols : n}) AS bad FROM a GROUP BY state_id)
                      WHERE legal <> n OR bad > 0`)), 0);
  check("move_values are the moves' child values from the mover's side",
    Number(await one(`SELECT count(*) FROM moves m FULL JOIN (SELECT * FROM a WHERE lg) a ON m.state_id = a.state_id AND m.move = a.act
                      WHERE m.state_id IS NULL OR a.state_id IS NULL OR a.mv <> a.sign * m.child_value`)), 0);
  if (manifest.game.gravity) {
    check("a move is its cell's column", Number(await one(`SELECT count(*) FROM moves WHERE cell % ${cols} <> move`)), 0);
  }
  check('the best moves are argmax cells of move_values, whose max is mover_value',
    Number(await one(`SELECT count(*) FROM (SELECT state_id, any_value(mover_value) AS v, max(mv) AS top,
                        bool_and(mv = mover_value OR NOT list_contains(best, act)) AS argmax
                      FROM a WHERE NOT is_terminal GROUP BY state_id) WHERE top <> v OR NOT argmax`)), 0);
  check('policy is 1/len(best_moves) on each best move and 0 elsewhere; it sums to 1 unless the game is over',
    Number(await one(`SELECT count(*) FROM (SELECT state_id, any_value(is_terminal) AS over, sum(p) AS total,
                        bool_and(p = CASE WHEN list_contains(best, act) THEN (1 / len(best_moves))::FLOAT ELSE 0 END) AS each
                      FROM a GROUP BY state_id)
                      WHERE NOT each OR abs(total - CASE WHEN over THEN 0 ELSE 1 END) > 1e-6`)), 0);
  check('split follows canonical_id % 10',
    Number(await one(`SELECT count(*) FROM states WHERE split <> CASE canonical_id % 10 WHEN 0 THEN 'validation'
                        WHEN 1 THEN 'test' ELSE 'train' END`)), 0);
}

main().catch((err) => {
  console.error(`check-data: ${err.stack || err}`);
  process.exitCode = 2;
});
