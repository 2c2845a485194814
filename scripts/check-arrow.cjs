// check-arrow.cjs reads the exported Parquet files with arrow-rs, compiled to
// WebAssembly (parquet-wasm), into Apache Arrow tables (apache-arrow), and
// runs the checks of checks.cjs.
//
// usage: node scripts/check-arrow.cjs DATA_DIR FIGURES_DIR
// FIGURES_DIR holds node_modules (parquet-wasm, apache-arrow) and the tool's
// enumerate.json and solve.json.
'use strict';
const fs = require('fs');
const path = require('path');
const checks = require('./checks.cjs');

const [dataDir, figuresDir] = process.argv.slice(2);
const modules = path.join(path.resolve(figuresDir), 'node_modules');
const parquet = require(path.join(modules, 'parquet-wasm', 'node', 'parquet_wasm.js'));
const arrow = require(path.join(modules, 'apache-arrow'));
const ctx = checks.load(dataDir, figuresDir);
const c = checks.checker('arrow-rs');

// arrowType names a schema column's type as Arrow prints its DataType, and
// its nullability as Arrow's field has it.
const arrowType = (col) => (({
  int8: 'Int8', int64: 'Int64', string: 'Utf8', bool: 'Bool',
  'list<int8>': 'List<Int8>', 'list<bool>': 'List<Bool>', 'list<float>': 'List<Float32>',
})[col.type] || col.type) +
  (col.nullable ? ' nullable' : '');

// read gives a table's columns as [name, type] and its rows as plain values:
// 64-bit integers (BigInt in Arrow) as numbers, which they fit, and lists as
// arrays.
function read(table) {
  const bytes = new Uint8Array(fs.readFileSync(path.join(dataDir, `${table}.parquet`)));
  const t = arrow.tableFromIPC(parquet.readParquet(bytes).intoIPCStream());
  const columns = t.schema.fields.map((f) => [f.name, String(f.type) + (f.nullable ? ' nullable' : '')]);
  const rows = [];
  for (const r of t) {
    const o = {};
    for (const [name, v] of Object.entries(r.toJSON())) {
      o[name] = typeof v === 'bigint' ? Number(v) : v !== null && typeof v === 'object' ? [...v] : v;
    }
    rows.push(o);
  }
  return { columns, rows };
}

const states = read('states');
const moves = read('moves');
checks.checkSchema(c, ctx.manifest, 'states', states.columns, arrowType);
checks.checkSchema(c, ctx.manifest, 'moves', moves.columns, arrowType);
checks.checkNulls(c, ctx.manifest, 'states', states.rows);
checks.checkNulls(c, ctx.manifest, 'moves', moves.rows);
checks.checkStates(c, ctx, states.rows);
checks.checkMoves(c, ctx, states.rows, moves.rows);
checks.checkLearning(c, ctx, states.rows, moves.rows);
c.done();
