// tamper.cjs copies an exported dataset and changes one value in it: the
// first state after the empty board whose value is 1 gets -1 (a state with a
// parent, so that the move to it disagrees too), in states.csv and in states.parquet
// (rewritten by DuckDB). CI runs every reader on the copy and expects each to
// fail on the value counts, so a reader that checks nothing cannot pass.
//
// usage: node scripts/tamper.cjs DATA_DIR OUT_DIR MODULES_DIR
// MODULES_DIR holds node_modules/@duckdb/node-api.
'use strict';
const fs = require('fs');
const path = require('path');

const [dataDir, outDir, modulesDir] = process.argv.slice(2);
const { DuckDBInstance } = require(path.join(path.resolve(modulesDir), 'node_modules', '@duckdb', 'node-api'));

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  for (const f of fs.readdirSync(dataDir)) fs.copyFileSync(path.join(dataDir, f), path.join(outDir, f));

  const lines = fs.readFileSync(path.join(dataDir, 'states.csv'), 'utf8').split('\n');
  const header = lines[0].split(',');
  const at = header.indexOf('value');
  // Row 1 is the empty board (rows are sorted by ply). The first field of a
  // row is its state_id; the fields up to value hold
  // no comma (the board and the cells), so splitting finds value.
  const row = lines.findIndex((l, i) => i > 1 && l.split(',')[at] === '1');
  const id = lines[row].split(',')[0];
  const fields = lines[row].split(',');
  fields[at] = '-1';
  lines[row] = fields.join(',');
  fs.writeFileSync(path.join(outDir, 'states.csv'), lines.join('\n'));

  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const src = path.join(dataDir, 'states.parquet').replace(/'/g, "''");
  const dst = path.join(outDir, 'states.parquet').replace(/'/g, "''");
  await conn.run(`COPY (SELECT * REPLACE (CASE WHEN state_id = ${Number(id)} THEN -1 ELSE value END AS value)
                  FROM read_parquet('${src}') ORDER BY ply, state_id) TO '${dst}' (FORMAT parquet)`);
  console.log(`tampered: state ${id} has value -1 instead of 1 in ${outDir}`);
}

main().catch((err) => {
  console.error(`tamper: ${err.stack || err}`);
  process.exitCode = 2;
});
