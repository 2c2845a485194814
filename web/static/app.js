// The explorer: draws the position the API gives, colours every legal move
// by its result for the side to move, plays a move on click (under gravity a
// click anywhere in a column), keeps the game played so far for undo, redo
// and the value chart, can hide the values and answer as a perfect opponent,
// and holds the start and the moves in the URL so that a link replays the
// game. Every figure comes from the API.
let line = []; // the positions of the game so far, as the API gives them
let played = []; // the moves that made them, as the API reads them
let at = -1; // the one shown

// statusWords says a status as a person reads it.
const statusWords = { x_won: 'X won', o_won: 'O won', draw: 'a draw', in_progress: 'in progress' };

// plies says a count of plies: "1 ply", "3 plies".
function plies(n) {
  return n === 1 ? '1 ply' : `${n} plies`;
}

// fetchPosition asks the API for the position (after the move, if any). A
// position still being solved by search (a 202) is asked for again each
// second, the page saying for how long it has been searched; one the
// search queue has no room for yet (a 429) after the time the server says.
async function fetchPosition(board, move) {
  let q = '/api/position?board=' + encodeURIComponent(board);
  if (move !== undefined) q += '&move=' + encodeURIComponent(move);
  const note = document.getElementById('solving');
  for (;;) {
    const r = await fetch(q);
    const v = await r.json();
    if (r.status === 429) {
      const wait = Number(r.headers.get('Retry-After')) || 5;
      note.textContent = `too many positions wait for search: asking again in ${wait} s…`;
      await new Promise((done) => setTimeout(done, wait * 1000));
      continue;
    }
    if (r.status === 202) {
      note.textContent = v.queued ? 'waiting for the search of another position to end…'
        : `solving this position by search: ${Math.round(v.seconds)} s so far…`;
      await new Promise((done) => setTimeout(done, 1000));
      continue;
    }
    note.textContent = '';
    document.getElementById('error').textContent = r.ok ? '' : v.error;
    return r.ok ? v : null;
  }
}

// start shows a position typed in or given in the URL, as a new game, and
// plays the moves given after it.
async function start(board, moves) {
  const v = await fetchPosition(board);
  if (!v) return;
  line = [v];
  played = [];
  at = 0;
  for (const m of moves || []) {
    const next = await fetchPosition(line[line.length - 1].board, m);
    if (!next) break;
    line.push(next);
    played.push(m);
  }
  at = line.length - 1;
  render();
  answer();
}

// moveToken is how the API reads the move to cell: the cell, or under
// gravity its column from 1.
function moveToken(g, cell) {
  return g.gravity ? String(cell % g.cols + 1) : String(cell);
}

async function play(cell) {
  const v = line[at];
  const move = moveToken(v.game, cell);
  const next = await fetchPosition(v.board, move);
  if (!next) return;
  line = line.slice(0, at + 1).concat([next]);
  played = played.slice(0, at).concat([move]);
  at++;
  render();
  answer();
}

// answer plays a best move, one of them at random, when the side to move is
// the one the perfect opponent plays.
function answer() {
  const side = document.getElementById('opponent').value;
  const v = line[at];
  if (!v || v.to_move !== side) return;
  const best = v.moves.filter((m) => m.best);
  if (best.length === 0) return;
  setTimeout(() => play(best[Math.floor(Math.random() * best.length)].cell), 300);
}

function render() {
  const v = line[at];
  drawBoard(v);
  drawFacts(v);
  drawChart();
  document.getElementById('undo').disabled = at === 0;
  document.getElementById('redo').disabled = at === line.length - 1;
  document.getElementById('text').value = v.board;
  const url = new URL(location);
  url.searchParams.set('board', line[0].board);
  if (at > 0) url.searchParams.set('moves', played.slice(0, at).join(','));
  else url.searchParams.delete('moves');
  window.history.replaceState(null, '', url);
}

function drawBoard(v) {
  const g = v.game;
  document.getElementById('game').textContent = `${g.rows}x${g.cols} board, ${g.k} in a row` +
    (g.gravity ? ', gravity' : '') + (g.misere ? ', misère (a line loses)' : '');
  const el = document.getElementById('board');
  el.style.gridTemplateColumns = `repeat(${g.cols}, 64px)`;
  el.replaceChildren();
  const moves = new Map(v.moves.map((m) => [m.cell, m]));
  // A move can be played whether or not its value is known: a position
  // not settled within the time limit still lists its legal cells.
  const legal = new Set(v.legal);
  const byColumn = new Map(v.legal.map((c) => [c % g.cols, c]));
  const frames = v.moves.some((m) => !m.best); // when every move is best, a frame says nothing
  if (g.gravity) {
    for (let c = 0; c < g.cols; c++) {
      const h = document.createElement('div');
      h.className = 'colnum';
      h.textContent = c + 1;
      el.appendChild(h);
    }
  }
  [...v.board.replaceAll('/', '')].forEach((c, i) => {
    const d = document.createElement('button');
    d.className = 'cell';
    d.dataset.cell = i;
    if (!g.gravity) d.dataset.num = i;
    d.setAttribute('aria-label', `cell ${i}, row ${Math.floor(i / g.cols)}, column ${i % g.cols}` +
      (c !== '.' ? `: ${c}` : ''));
    if (c !== '.') {
      d.textContent = c;
      d.classList.add('mark');
    } else if (moves.has(i)) {
      const m = moves.get(i);
      d.textContent = m.result[0].toUpperCase() + m.depth;
      d.title = `${m.result} in ${plies(m.depth)} after this move`;
      d.dataset.result = m.result;
      d.classList.add('move', m.result);
      if (m.best && frames) d.classList.add('best');
    }
    const target = g.gravity ? byColumn.get(i % g.cols) : legal.has(i) ? i : undefined;
    if (target !== undefined) {
      d.onclick = () => play(target);
      d.classList.add('playable');
    } else {
      d.disabled = true;
    }
    el.appendChild(d);
  });
}

function drawFacts(v) {
  const notation = v.game.gravity ? v.best_line.map((c) => c % v.game.cols + 1).join('')
    : v.best_line.join(',');
  const rows = [
    ['status', statusWords[v.status] + (v.to_move ? `, ${v.to_move} to move` : ', the game is over'), ''],
    ['value', !v.proved ? `${v.outcome} (${v.value}), ${plies(v.depth)} to the end`
      : v.value !== null ? `${v.outcome} (${v.value}), proved; the depth not settled within the time limit`
        : `not settled within the time limit; proved: ${v.proved.says}`, 'hint'],
    ['state id', v.state_id ?? 'none past 40 cells', ''],
    ['canonical id', v.canonical_id ?? 'none past 40 cells', ''],
    ['move sequences here', v.paths === null ? 'not counted (search)' : v.paths.toLocaleString('en'), ''],
    ['answered by', v.engine === 'search' ? 'search' : 'the game solved whole', ''],
    ['best line', notation || '-', 'hint'],
  ];
  const t = document.getElementById('facts');
  t.replaceChildren();
  for (const [k, val, cls] of rows) {
    const tr = t.insertRow();
    tr.className = cls;
    tr.insertCell().textContent = k;
    tr.insertCell().textContent = val;
  }
}

// drawChart plots the value for X after each ply of the game so far, from
// X wins at the top to O wins at the bottom, the ply below each point and
// the move that made it; a point's title says its outcome and depth; the
// shown position is ringed.
function drawChart() {
  const svg = document.getElementById('chart');
  const w = 360, pad = 20, left = 60, axis = 134;
  const n = Math.max(line.length - 1, 1);
  const x = (i) => left + (i * (w - left - pad)) / n;
  const y = (val) => 64 - val * 44;
  const ply0 = line[0].board.replace(/[^XO]/g, '').length;
  let s = '';
  for (const [val, label] of [[1, 'X wins'], [0, 'draw'], [-1, 'O wins']]) {
    s += `<line x1="${left}" x2="${w - pad}" y1="${y(val)}" y2="${y(val)}" stroke="#e0e0e0"/>` +
      `<text x="4" y="${y(val) + 4}" font-size="12">${label}</text>`;
  }
  s += `<text x="4" y="${axis}" font-size="12">ply</text><text x="4" y="${axis + 18}" font-size="12">move</text>`;
  s += `<polyline fill="none" stroke="#424242" points="${line.map((v, i) => `${x(i)},${y(v.value)}`).join(' ')}"/>`;
  line.forEach((v, i) => {
    const cls = v.proved ? 'unsettled' : v.value > 0 ? 'xwins' : v.value < 0 ? 'owins' : 'drawn';
    s += `<circle class="${cls}" cx="${x(i)}" cy="${y(v.value)}" r="${i === at ? 6 : 4}"` +
      (i === at ? ' stroke="#212121" stroke-width="2"' : '') +
      `><title>ply ${ply0 + i}: ${v.proved ? 'not settled: ' + v.proved.says : `${v.outcome}, ${plies(v.depth)} to the end`}</title></circle>`;
    s += `<text class="ply" x="${x(i)}" y="${axis}" font-size="11" text-anchor="middle">${ply0 + i}</text>`;
    if (i > 0) s += `<text class="move" x="${x(i)}" y="${axis + 18}" font-size="11" text-anchor="middle">${played[i - 1]}</text>`;
  });
  svg.innerHTML = s;
}

document.getElementById('undo').onclick = () => { if (at > 0) { at--; render(); } };
document.getElementById('redo').onclick = () => { if (at < line.length - 1) { at++; render(); } };
document.getElementById('go').onclick = () => start(document.getElementById('text').value);
document.getElementById('text').onkeydown = (e) => { if (e.key === 'Enter') start(e.target.value); };
document.getElementById('restart').onclick = () => start('');
document.getElementById('hints').onchange = (e) => document.body.classList.toggle('nohints', !e.target.checked);
document.getElementById('opponent').onchange = () => answer();
const params = new URLSearchParams(location.search);
const moves = params.get('moves');
start(params.get('board') || '', moves ? moves.split(',') : []);
