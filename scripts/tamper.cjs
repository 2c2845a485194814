// tamper.cjs copies an exported dataset and changes one value in it, in
// states.csv and in states.parquet (rewritten by DuckDB), so that CI can
// run every reader on the copy and expect each to fail on that value: a
// reader that checks nothing cannot pass.
//
// What changes is the first state after the empty board (rows are sorted by
// ply) that has one to change:
//   value        its value, 1, becomes -1 (a state with a parent, so that
//                the move to it disagrees too)
//   move_values  the first non-null entry of its move_values gets the
//                other sign (0 becomes 1)
//
// usage: node scripts/tamper.cjs DATA_DIR OUT_DIR MODULES_DIR value|move_values
// MODULES_DIR holds node_modules/@duckdb/node-api.
'use strict';
const fs = require('fs');
const path = require('path');

const [dataDir, outDir, modulesDir, what] = process.argv.slice(2);
const { DuckDBInstance } = require(path.join(path.resolve(modulesDir), 'node_modules', '@duckdb', 'node-api'));

// fields splits a line of the CSV files: a field is quoted when it holds a
// comma (a list) and then holds no quote.
function fields(line) {
  const out = [];
  for (let i = 0; i <= line.length;) {
    const end = line[i] === '"' ? line.indexOf('"', i + 1) + 1 : i;
    let comma = line.indexOf(',', end);
    if (comma < 0) comma = line.length;
    out.push(line.slice(i, comma));
    i = comma + 1;
  }
  return out;
}

// changes says, for each kind of change, which row to change and how: the
// field's new text, and the new value as DuckDB SQL.
const changes = {
  value: {
    pick: (f, at) => f[at] === '1',
    text: () => '-1',
    sql: () => '-1',
  },
  move_values: {
    pick: (f, at) => JSON.parse(f[at].slice(1, -1)).some((v) => v !== null),
    text: (old) => {
      const vs = JSON.parse(old.slice(1, -1));
      const i = vs.findIndex((v) => v !== null);
      vs[i] = vs[i] === 0 ? 1 : -vs[i];
      return `"${JSON.stringify(vs)}"`;
    },
    sql: (text) => `${text.slice(1, -1).replace(/null/g, 'NULL')}::TINYINT[]`,
  },
};

async function main() {
  const change = changes[what];
  if (!change) throw new Error(`tamper: what to change: "${what}", want value or move_values`);
  fs.mkdirSync(outDir, { recursive: true });
  for (const f of fs.readdirSync(dataDir)) fs.copyFileSync(path.join(dataDir, f), path.join(outDir, f));

  const lines = fs.readFileSync(path.join(dataDir, 'states.csv'), 'utf8').split('\n');
  const at = lines[0].split(',').indexOf(what);
  const row = lines.findIndex((l, i) => i > 1 && l !== '' && change.pick(fields(l), at));
  const f = fields(lines[row]);
  const id = Number(f[0]);
  f[at] = change.text(f[at]);
  lines[row] = f.join(',');
  fs.writeFileSync(path.join(outDir, 'states.csv'), lines.join('\n'));

  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const src = path.join(dataDir, 'states.parquet').replace(/'/g, "''");
  const dst = path.join(outDir, 'states.parquet').replace(/'/g, "''");
  await conn.run(`COPY (SELECT * REPLACE (CASE WHEN state_id = ${id} THEN ${change.sql(f[at])} ELSE ${what} END AS ${what})
                  FROM read_parquet('${src}') ORDER BY ply, state_id) TO '${dst}' (FORMAT parquet)`);
  console.log(`tampered: state ${id} has ${what} ${f[at]} in ${outDir}`);
}

main().catch((err) => {
  console.error(`tamper: ${err.stack || err}`);
  process.exitCode = 2;
});
