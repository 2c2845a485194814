// run-snippets.cjs runs every code snippet of a Markdown file exactly as
// written, so that data/README.md's loading examples and the data card an
// export writes cannot rot: python with Debian's python3 (pandas), js with
// node (the packages in MODULES_DIR), sql with DuckDB, and csv blocks, which
// show rows of the files, are looked up in the file their header names. A
// block right after a line <!-- not run by CI: why --> is skipped with that
// reason printed; a block in any other language fails the run.
//
// Snippets run from the repository's root, but those of a data card an
// export wrote (its front matter says so), which run from the card's folder.
// With DATA_DIR, data/ in every snippet stands for DATA_DIR/ (another
// export, such as a sample with null paths), and the csv blocks, rows of
// data/'s own files, are not looked up.
//
// usage: node scripts/run-snippets.cjs FILE.md MODULES_DIR [DATA_DIR]
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

const [mdFile, modulesDir, dataDir] = process.argv.slice(2);
const modules = path.join(path.resolve(modulesDir), 'node_modules');
const { DuckDBInstance } = require(path.join(modules, '@duckdb', 'node-api'));
const root = path.resolve(__dirname, '..');
const text = fs.readFileSync(mdFile, 'utf8');
const cwd = text.split('\n', 2)[1] === '# written by tateti-lab export from manifest.json; the next export into this folder replaces it'
  ? path.dirname(path.resolve(mdFile)) : root;

// data gives code with data/ standing for DATA_DIR/ when one is given.
function data(code) {
  return dataDir ? code.replace(/(['"])data\//g, `$1${path.resolve(dataDir)}/`) : code;
}

// blocks gives the fenced blocks of the Markdown text: language, code, the
// line it starts on, and the reason it is not run, if one is given.
function blocks(text) {
  const lines = text.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].match(/^```(\w*)\s*$/);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    const skip = (lines[i - 1] || '').match(/^<!-- not run by CI: (.*) -->$/);
    out.push({ lang: open[1], code: lines.slice(i + 1, end).join('\n'), line: i + 1, skip: skip && skip[1] });
    i = end;
  }
  return out;
}

async function runSQL(code) {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  for (const stmt of code.split(/;\s*(?:\n|$)/).map((s) => s.trim()).filter(Boolean)) {
    const rows = (await conn.runAndReadAll(stmt)).getRowObjectsJson();
    console.log(`${rows.length} rows; first: ${JSON.stringify(rows[0])}`);
  }
}

// checkCSV finds the block's header and rows in the CSV file whose header it
// is (states.csv or moves.csv of data/).
function checkCSV(code) {
  const [header, ...rows] = code.split('\n');
  const file = ['states.csv', 'moves.csv'].map((f) => path.join(root, 'data', f))
    .find((f) => fs.readFileSync(f, 'utf8').split('\n', 1)[0] === header);
  if (!file) throw new Error(`no CSV file in data/ has the header ${header}`);
  const have = new Set(fs.readFileSync(file, 'utf8').split('\n'));
  const missing = rows.filter((r) => !have.has(r));
  if (missing.length) throw new Error(`rows not in ${file}: ${missing.join(' | ')}`);
  console.log(`${rows.length} rows found in ${path.relative(root, file)}`);
}

async function run(b, tmp) {
  switch (b.lang) {
    case 'python':
      fs.writeFileSync(path.join(tmp, 'snippet.py'), data(b.code));
      execFileSync('/usr/bin/python3', [path.join(tmp, 'snippet.py')], { cwd, stdio: 'inherit' });
      return;
    case 'js':
      fs.writeFileSync(path.join(tmp, 'snippet.cjs'), data(b.code));
      execFileSync('node', [path.join(tmp, 'snippet.cjs')], { cwd, stdio: 'inherit', env: { ...process.env, NODE_PATH: modules } });
      return;
    case 'sql':
      return runSQL(data(b.code));
    case 'csv':
      if (dataDir) {
        console.log('rows of data/ itself: not looked up in another export');
        return;
      }
      return checkCSV(b.code);
  }
  throw new Error(`a snippet in language "${b.lang}": run-snippets.cjs cannot run it; mark it <!-- not run by CI: why -->`);
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'snippets-'));
  let failed = 0;
  try {
    for (const b of blocks(text)) {
      const where = `${mdFile}:${b.line} (${b.lang || 'no language'})`;
      if (b.skip) {
        console.log(`skip  ${where}: ${b.skip}`);
        continue;
      }
      console.log(`run   ${where}`);
      try {
        await run(b, tmp);
      } catch (err) {
        failed++;
        console.log(`FAIL  ${where}: ${err.message}`);
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  process.exitCode = failed === 0 ? 0 : 1;
}

main().catch((err) => {
  console.error(`run-snippets: ${err.stack || err}`);
  process.exitCode = 2;
});
