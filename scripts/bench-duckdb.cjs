// bench-duckdb.cjs times DuckDB writing an export's two tables as Parquet
// (zstd) from memory: the yardstick of docs/performance.md for the export's
// own writing (go test ./export -bench Export4x4Formats/parquet). It loads
// states.parquet and moves.parquet of DATA_DIR into tables in memory, then
// times COPY ... TO each, in turn, ROUNDS times, with THREADS threads, and
// prints each round's seconds and the rows written.
//
// usage: node scripts/bench-duckdb.cjs DATA_DIR MODULES_DIR [ROUNDS] [THREADS]
// MODULES_DIR holds node_modules/@duckdb/node-api (.ci/run installs it).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

const [dataDir, modulesDir, rounds = '3', threads = '2'] = process.argv.slice(2);
const { DuckDBInstance } = require(path.join(path.resolve(modulesDir), 'node_modules', '@duckdb', 'node-api'));
const quote = (p) => `'${p.replace(/'/g, "''")}'`;

async function main() {
  const db = await DuckDBInstance.create(':memory:', { threads });
  const conn = await db.connect();
  for (const t of ['states', 'moves']) {
    await conn.run(`CREATE TABLE ${t} AS SELECT * FROM read_parquet(${quote(path.join(dataDir, t + '.parquet'))})`);
  }
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-duckdb-'));
  try {
    for (let r = 1; r <= Number(rounds); r++) {
      const start = process.hrtime.bigint();
      let rows = 0;
      for (const t of ['states', 'moves']) {
        const res = await conn.runAndReadAll(`COPY ${t} TO ${quote(path.join(out, t + '.parquet'))} (FORMAT parquet, COMPRESSION zstd)`);
        rows += Number(res.getRows()[0][0]);
      }
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      console.log(`round ${r}: DuckDB wrote ${rows} rows of states and moves as Parquet (zstd) in ${seconds.toFixed(2)} s, ${threads} threads`);
    }
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`bench-duckdb: ${err.stack || err}`);
  process.exitCode = 2;
});
