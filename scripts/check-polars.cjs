// check-polars.cjs reads the exported dataset with polars (its Node package,
// nodejs-polars) and runs the checks of checks.cjs: Parquet and CSV alike,
// the CSV read with the types the data dictionary gives.
//
// usage: node scripts/check-polars.cjs DATA_DIR FIGURES_DIR
// FIGURES_DIR holds node_modules (nodejs-polars and its native
// nodejs-polars-linux-x64-gnu) and the tool's enumerate.json and solve.json.
'use strict';
const path = require('path');
const checks = require('./checks.cjs');

const [dataDir, figuresDir] = process.argv.slice(2);
const pl = require(path.join(path.resolve(figuresDir), 'node_modules', 'nodejs-polars'));
const ctx = checks.load(dataDir, figuresDir);
const c = checks.checker('polars');

// polarsType names a schema type as polars prints its DataType.
const polarsType = (col) => ({
  int8: 'Int8', int64: 'Int64', string: 'String', bool: 'Bool',
  'list<int8>': 'List(DataType(Int8))', 'list<bool>': 'List(DataType(Bool))', 'list<float>': 'List(DataType(Float32))',
})[col.type] || col.type;
const columns = (df) => Object.entries(df.schema).map(([name, dt]) => [name, String(dt).replace(/^DataType\((.*)\)$/, '$1')]);

// readCSV reads a CSV table with the schema's types; polars reads a list
// column from CSV as a string, so each list is parsed from its JSON text.
function readCSV(table) {
  const schema = ctx.manifest.tables.find((t) => t.name === table).columns;
  const dtypes = { int8: pl.Int8, int64: pl.Int64, string: pl.Utf8, bool: pl.Bool };
  const lists = { 'list<int8>': pl.Int8, 'list<bool>': pl.Bool, 'list<float>': pl.Float32 };
  let df = pl.readCSV(path.join(dataDir, `${table}.csv`), {
    dtypes: Object.fromEntries(schema.map((col) => [col.name, dtypes[col.type] || pl.Utf8])),
  });
  for (const col of schema.filter((k) => lists[k.type])) {
    df = df.withColumns(pl.col(col.name).str.jsonDecode(pl.List(lists[col.type])));
  }
  return df;
}

// rowsOf gives a frame's rows as plain objects, built from its columns:
// toRecords builds them row by row through the native binding, three
// times slower on 3x4's 111,973 states.
function rowsOf(df) {
  const cols = df.toObject();
  const names = Object.keys(cols);
  const rows = new Array(df.height);
  for (let i = 0; i < rows.length; i++) {
    const r = {};
    for (const name of names) r[name] = cols[name][i];
    rows[i] = r;
  }
  return rows;
}

const tables = {
  parquet: { states: pl.readParquet(path.join(dataDir, 'states.parquet')), moves: pl.readParquet(path.join(dataDir, 'moves.parquet')) },
  csv: { states: readCSV('states'), moves: readCSV('moves') },
};
for (const [format, { states, moves }] of Object.entries(tables)) {
  for (const [name, df] of [['states', states], ['moves', moves]]) {
    checks.checkSchema(c, ctx.manifest, name, columns(df), polarsType);
  }
  const s = rowsOf(states);
  const m = rowsOf(moves);
  checks.checkNulls(c, ctx.manifest, 'states', s);
  checks.checkNulls(c, ctx.manifest, 'moves', m);
  checks.checkStates(c, ctx, s);
  checks.checkMoves(c, ctx, s, m);
  checks.checkLearning(c, ctx, s, m);
  console.log(`(polars, ${format})`);
}
// The join done by polars itself, as data/README.md shows it.
const joined = tables.parquet.moves.join(tables.parquet.states, { leftOn: 'child_id', rightOn: 'state_id', suffix: '_child' });
c.check('polars join of moves to states keeps every move', joined.height, tables.parquet.moves.height);
c.check('CSV equals Parquet (states)', tables.csv.states.frameEqual(tables.parquet.states), true);
c.check('CSV equals Parquet (moves)', tables.csv.moves.frameEqual(tables.parquet.moves), true);
c.done();
