// The explorer: draws the position the API gives, colours every legal move
// by its result for the side to move, plays a move on click, keeps the game
// played so far for undo, redo and the value chart, and holds the position in
// the URL so that it can be shared. Every figure comes from the API.
let line = []; // the positions of the game so far, as the API gives them
let at = -1; // the one shown

// statusWords says a status as a person reads it.
const statusWords = { x_won: 'X won', o_won: 'O won', draw: 'a draw', in_progress: 'in progress' };

// plies says a count of plies: "1 ply", "3 plies".
function plies(n) {
  return n === 1 ? '1 ply' : `${n} plies`;
}

async function fetchPosition(board, move) {
  let q = '/api/position?board=' + encodeURIComponent(board);
  if (move !== undefined) q += '&move=' + encodeURIComponent(move);
  const r = await fetch(q);
  const v = await r.json();
  document.getElementById('error').textContent = r.ok ? '' : v.error;
  return r.ok ? v : null;
}

// start shows a position typed in or given in the URL, as a new game.
async function start(board) {
  const v = await fetchPosition(board);
  if (!v) return;
  line = [v];
  at = 0;
  render();
}

async function play(cell) {
  const v = line[at];
  const move = v.game.gravity ? String(cell % v.game.cols + 1) : String(cell);
  const next = await fetchPosition(v.board, move);
  if (!next) return;
  line = line.slice(0, at + 1).concat([next]);
  at++;
  render();
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
  url.searchParams.set('board', v.board);
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
  [...v.board.replaceAll('/', '')].forEach((c, i) => {
    const d = document.createElement('div');
    d.className = 'cell';
    d.dataset.cell = i;
    if (c !== '.') {
      d.textContent = c;
      d.classList.add('mark');
    } else if (moves.has(i)) {
      const m = moves.get(i);
      d.textContent = m.result[0].toUpperCase() + m.depth;
      d.title = `${m.result} in ${plies(m.depth)} after this move`;
      d.dataset.result = m.result;
      d.classList.add('move', m.result);
      if (m.best) d.classList.add('best');
      d.onclick = () => play(i);
    }
    el.appendChild(d);
  });
}

function drawFacts(v) {
  const notation = v.game.gravity ? v.best_line.map((c) => c % v.game.cols + 1).join('')
    : v.best_line.join(',');
  const rows = [
    ['status', statusWords[v.status] + (v.to_move ? `, ${v.to_move} to move` : ', the game is over')],
    ['value', `${v.outcome} (${v.value}), ${plies(v.depth)} to the end`],
    ['state id', v.state_id],
    ['canonical id', v.canonical_id],
    ['move sequences here', v.paths.toLocaleString('en')],
    ['best line', notation || '-'],
  ];
  const t = document.getElementById('facts');
  t.replaceChildren();
  for (const [k, val] of rows) {
    const tr = t.insertRow();
    tr.insertCell().textContent = k;
    tr.insertCell().textContent = val;
  }
}

// drawChart plots the value for X after each ply of the game so far, from
// X wins at the top to O wins at the bottom; the shown position is ringed.
function drawChart() {
  const svg = document.getElementById('chart');
  const w = 360, h = 140, pad = 20, left = 60;
  const n = Math.max(line.length - 1, 1);
  const x = (i) => left + (i * (w - left - pad)) / n;
  const y = (val) => h / 2 - val * (h / 2 - pad);
  let s = '';
  for (const [val, label] of [[1, 'X wins'], [0, 'draw'], [-1, 'O wins']]) {
    s += `<line x1="${left}" x2="${w - pad}" y1="${y(val)}" y2="${y(val)}" stroke="#e0e0e0"/>` +
      `<text x="4" y="${y(val) + 4}" font-size="12">${label}</text>`;
  }
  s += `<polyline fill="none" stroke="#424242" points="${line.map((v, i) => `${x(i)},${y(v.value)}`).join(' ')}"/>`;
  line.forEach((v, i) => {
    const cls = v.value > 0 ? 'xwins' : v.value < 0 ? 'owins' : 'drawn';
    s += `<circle class="${cls}" cx="${x(i)}" cy="${y(v.value)}" r="${i === at ? 6 : 4}"` +
      (i === at ? ' stroke="#212121" stroke-width="2"' : '') + '/>';
  });
  svg.innerHTML = s;
}

document.getElementById('undo').onclick = () => { if (at > 0) { at--; render(); } };
document.getElementById('redo').onclick = () => { if (at < line.length - 1) { at++; render(); } };
document.getElementById('go').onclick = () => start(document.getElementById('text').value);
document.getElementById('text').onkeydown = (e) => { if (e.key === 'Enter') start(e.target.value); };
document.getElementById('restart').onclick = () => start('');
start(new URLSearchParams(location.search).get('board') || '');
