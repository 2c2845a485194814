// The explorer: draws the position the API gives, colours every legal move
// by its result for the side to move, plays a move on click (under gravity a
// click anywhere in a column), keeps the game played so far for undo, redo
// and the value chart, can hide the values and answer as a perfect opponent,
// and holds the start, the moves and those two settings in the URL so that
// a link opens the same game the same way. A position being searched is
// drawn at once, its values filled in when they come; a search the page no
// longer waits for is stopped. Every figure comes from the API.
let line = []; // the positions of the game so far, as the API gives them
let played = []; // the moves that made them, as the API reads them
let at = -1; // the one shown
let gen = 0; // bumped when the page stops waiting: an older wait ends
let waiting = null; // the board whose search the page waits for

const $ = (id) => document.getElementById(id);

// statusWords says a status as a person reads it.
const statusWords = { x_won: 'X won', o_won: 'O won', draw: 'a draw', in_progress: 'in progress' };
const engineWords = { table: 'the game solved whole', db: 'the solved database', book: 'the opening book', search: 'search' };

// plies says a count of plies: "1 ply", "3 plies".
function plies(n) {
  return n === 1 ? '1 ply' : `${n} plies`;
}

const sleep = (s) => new Promise((done) => setTimeout(done, s * 1000));

// cancel tells the server that the page no longer waits for the search of
// the board, which stops it.
function cancel(board, keepalive) {
  fetch('/api/position?board=' + encodeURIComponent(board), { method: 'DELETE', keepalive }).catch(() => {});
}

// stopWaiting ends the page's wait for a search, if any, and stops it.
function stopWaiting() {
  gen++;
  if (waiting !== null) cancel(waiting);
  waiting = null;
  $('note').textContent = '';
  $('cancel').hidden = true;
}

// fetchPosition asks the API for the position (after the move, if any), and
// gives it, or {error} saying what is wrong, or null when the page stopped
// waiting. A position still being searched (a 202) is drawn at once by
// pending with what the API says of it (its legal moves, no values) and
// polled each second (poll=1, which starts no search: a poll still in
// flight when the page moves on must not start one again); one whose
// search stopped while the page still waits (a 410) is asked for afresh;
// one the search queue has no room for yet (a 429) after the time the
// server says.
async function fetchPosition(board, move, pending) {
  let q = '/api/position?board=' + encodeURIComponent(board);
  if (move !== undefined) q += '&move=' + encodeURIComponent(move);
  const mine = gen;
  for (;;) {
    const r = await fetch(q);
    const v = await r.json();
    if (mine !== gen) return null;
    if (r.status === 410) {
      q = '/api/position?board=' + encodeURIComponent(waiting);
    } else if (r.status === 429) {
      const wait = Number(r.headers.get('Retry-After')) || 5;
      $('note').textContent = `too many positions wait for search: asking again in ${wait} s…`;
      await sleep(wait);
    } else if (r.status === 202) {
      if (waiting === null && pending) pending({ ...v.position, pending: true });
      waiting = v.board;
      q = '/api/position?poll=1&board=' + encodeURIComponent(v.board);
      $('note').textContent = v.queued ? 'waiting for the search of another position to end…'
        : `searching this position: ${Math.round(v.seconds)} s so far…`;
      $('cancel').hidden = false;
      await sleep(1);
    } else {
      waiting = null;
      $('note').textContent = '';
      $('cancel').hidden = true;
      return r.ok ? v : { error: v.error };
    }
    if (mine !== gen) return null;
  }
}

// showError says what is wrong, or clears the message.
function showError(msg) {
  $('error').textContent = msg || '';
}

// start shows a position typed in or given in the URL, as a new game, and
// plays the moves given after it. A bad board keeps the game shown (or,
// when there is none yet, the empty board) and the text as typed, and says
// what is wrong; a bad move stops at the last good position.
async function start(board, moves) {
  stopWaiting();
  const v = await fetchPosition(board, undefined, (p) => show([p], [], p.board));
  if (v && v.error) {
    showError(v.error); // the game shown stays, and the text as typed
    if (line.length === 0) { // a bad link: the empty board, the text kept
      const empty = await fetchPosition('', undefined, (p) => show([p], [], board));
      if (empty && !empty.error) show([empty], [], board);
    }
    return;
  }
  if (!v) return;
  showError('');
  const game = [v];
  const made = [];
  for (const m of moves || []) {
    const next = await fetchPosition(game[game.length - 1].board, m, (p) => show(game.concat([p]), made.concat([m])));
    if (!next) return;
    if (next.error) {
      showError(next.error);
      break;
    }
    game.push(next);
    made.push(m);
  }
  show(game, made);
  answer();
}

// show makes game, played by made, the game shown, at its last position;
// text, when given, stays in the text box instead of the board.
function show(game, made, text) {
  line = game;
  played = made;
  at = line.length - 1;
  render(text);
}

// moveToken is how the API reads the move to cell: the cell, or under
// gravity its column from 1.
function moveToken(g, cell) {
  return g.gravity ? String(cell % g.cols + 1) : String(cell);
}

async function play(cell) {
  stopWaiting();
  const base = at;
  const move = moveToken(line[base].game, cell);
  const then = (v) => show(line.slice(0, base + 1).concat([v]), played.slice(0, base).concat([move]));
  const next = await fetchPosition(line[base].board, move, then);
  if (!next) return;
  if (next.error) {
    showError(next.error);
    return;
  }
  showError('');
  then(next);
  answer();
}

// fill asks again for the shown position when its values have not come
// (the page stopped waiting for them), and fills them in.
async function fill() {
  const i = at;
  if (!line[i] || !line[i].pending) return;
  const v = await fetchPosition(line[i].board);
  if (v && !v.error && at === i) {
    line[i] = v;
    render();
    answer();
  }
}

// answer plays a best move, one of them at random, when the side to move is
// the one the perfect opponent plays.
function answer() {
  const side = $('opponent').value;
  const v = line[at];
  if (!v || v.to_move !== side || !v.moves) return;
  const best = v.moves.filter((m) => m.best);
  if (best.length === 0) return;
  setTimeout(() => play(best[Math.floor(Math.random() * best.length)].cell), 300);
}

// step moves through the game by a turn: a ply, or with the perfect
// opponent on, on to the next position where it is the player's move.
function step(by) {
  if (at + by < 0 || at + by > line.length - 1) return;
  stopWaiting();
  at += by;
  const side = $('opponent').value;
  if (side && line[at].to_move === side && at + by >= 0 && at + by <= line.length - 1) at += by;
  render();
  fill();
}

function render(text) {
  const v = line[at];
  drawBoard(v);
  drawFacts(v);
  drawChart();
  $('undo').disabled = at === 0;
  $('redo').disabled = at === line.length - 1;
  $('text').value = text ?? v.board;
  const url = new URL(location);
  url.searchParams.set('board', line[0].board);
  if (at > 0) url.searchParams.set('moves', played.slice(0, at).join(','));
  else url.searchParams.delete('moves');
  settings(url);
  window.history.replaceState(null, '', url);
}

// settings puts the page's settings in the URL: values=off when they are
// hidden, opponent=X or O when the perfect opponent plays.
function settings(url) {
  if ($('hints').checked) url.searchParams.delete('values');
  else url.searchParams.set('values', 'off');
  if ($('opponent').value) url.searchParams.set('opponent', $('opponent').value);
  else url.searchParams.delete('opponent');
}

function drawBoard(v) {
  const g = v.game;
  $('game').textContent = `${g.rows}x${g.cols} board, ${g.k} in a row` +
    (g.gravity ? ', gravity' : '') + (g.misere ? ', misère (a line loses)' : '');
  const el = $('board');
  el.style.setProperty('--cols', g.cols);
  el.replaceChildren();
  const moves = new Map((v.moves || []).map((m) => [m.cell, m]));
  // A move can be played whether or not its value is known: a position
  // not settled, or still searched, lists its legal cells.
  const legal = new Set(v.legal);
  const byColumn = new Map(v.legal.map((c) => [c % g.cols, c]));
  const won = new Set(v.winning_line || []);
  const frames = (v.moves || []).some((m) => !m.best); // when every move is best, a frame says nothing
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
    d.setAttribute('aria-label', (g.gravity ? `column ${i % g.cols + 1}, row ${Math.floor(i / g.cols) + 1} from the top`
      : `cell ${i}`) + (c !== '.' ? `: ${c}` : ''));
    if (won.has(i)) d.classList.add('won');
    if (c !== '.') {
      d.textContent = c;
      d.classList.add('mark');
    } else if (moves.has(i)) {
      const m = moves.get(i);
      d.append(m.result);
      const n = document.createElement('small');
      n.textContent = `in ${m.depth}`;
      d.append(n);
      d.title = `${m.result}, the game over ${plies(m.depth)} after this move`;
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

// valueWords says what perfect play gives the position, or what is known
// of it while it is not settled.
function valueWords(v) {
  if (v.pending === 'stopped') return 'not known: its search was stopped';
  if (v.pending) return 'not known yet: being searched';
  if (!v.proved) return `${v.outcome}, ${plies(v.depth)} to the end`;
  if (v.value !== null) return `${v.outcome}, proved; the depth not settled within the time limit`;
  return `not settled within the time limit; proved: ${v.proved.says}`;
}

// answeredWords says who gave the position's value: the engine that
// answered (answered_by), and past an opening book's last ply that the book
// handed it on.
function answeredWords(v) {
  const by = v.answered_by || v.engine;
  const words = engineWords[by] || by;
  if (by !== v.engine && v.book_last_ply) return `${words}, past the opening book's last ply ${v.book_last_ply}`;
  return words;
}

function drawFacts(v) {
  const over = v.to_move ? `, ${v.to_move} to move` : v.winning_line ? ', the line is marked' : ', the game is over';
  table($('facts'), [
    ['status', statusWords[v.status] + over, ''],
    ['with perfect play', valueWords(v), 'hint'],
    ['best line', (v.best_line_moves || '-') + (v.best_line_end ? ' … (the book ends at ply ' + v.best_line_end + ')' : ''), 'hint'],
    ['answered by', v.pending ? '-' : answeredWords(v), ''],
  ]);
  table($('ids'), [
    ['board', v.board, ''],
    ['state id', v.state_id ?? 'none past 40 cells', ''],
    ['canonical id', v.canonical_id ?? 'none past 40 cells', ''],
    ['move orders that reach it', v.paths === null || v.paths === undefined ? 'not counted (search)' : v.paths.toLocaleString('en'), ''],
  ]);
}

// table fills t with a row for each [name, value, class].
function table(t, rows) {
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
// shown position is ringed. A position not known yet is grey, at the draw.
function drawChart() {
  const svg = $('chart');
  const w = 360, pad = 20, left = 60, axis = 134;
  const n = Math.max(line.length - 1, 1);
  const x = (i) => left + (i * (w - left - pad)) / n;
  const y = (val) => 64 - (val || 0) * 44;
  const ply0 = line[0].board.replace(/[^XO]/g, '').length;
  let s = '';
  for (const [val, label] of [[1, 'X wins'], [0, 'draw'], [-1, 'O wins']]) {
    s += `<line x1="${left}" x2="${w - pad}" y1="${y(val)}" y2="${y(val)}" stroke="#e0e0e0"/>` +
      `<text x="4" y="${y(val) + 4}" font-size="12">${label}</text>`;
  }
  s += `<text x="4" y="${axis}" font-size="12">ply</text><text x="4" y="${axis + 18}" font-size="12">move</text>`;
  s += `<polyline fill="none" stroke="#424242" points="${line.map((v, i) => `${x(i)},${y(v.value)}`).join(' ')}"/>`;
  line.forEach((v, i) => {
    const cls = v.proved || v.pending ? 'unsettled' : v.value > 0 ? 'xwins' : v.value < 0 ? 'owins' : 'drawn';
    s += `<circle class="${cls}" cx="${x(i)}" cy="${y(v.value)}" r="${i === at ? 6 : 4}"` +
      (i === at ? ' stroke="#212121" stroke-width="2"' : '') +
      `><title>ply ${ply0 + i}: ${valueWords(v)}</title></circle>`;
    s += `<text class="ply" x="${x(i)}" y="${axis}" font-size="11" text-anchor="middle">${ply0 + i}</text>`;
    if (i > 0) s += `<text class="move" x="${x(i)}" y="${axis + 18}" font-size="11" text-anchor="middle">${played[i - 1]}</text>`;
  });
  svg.innerHTML = s;
}

$('undo').onclick = () => step(-1);
$('redo').onclick = () => step(1);
$('go').onclick = () => start($('text').value);
$('text').onkeydown = (e) => { if (e.key === 'Enter') start(e.target.value); };
$('restart').onclick = () => start('');
$('cancel').onclick = () => {
  stopWaiting();
  if (line[at] && line[at].pending) line[at].pending = 'stopped';
  render();
  $('note').textContent = 'search stopped: play a move, or undo and redo to search it again';
};
$('hints').onchange = (e) => {
  document.body.classList.toggle('nohints', !e.target.checked);
  if (line.length) render();
};
$('opponent').onchange = () => {
  if (line.length) render();
  answer();
};
window.addEventListener('pagehide', () => { if (waiting !== null) cancel(waiting, true); });
const params = new URLSearchParams(location.search);
$('hints').checked = params.get('values') !== 'off';
document.body.classList.toggle('nohints', !$('hints').checked);
if (['X', 'O'].includes(params.get('opponent'))) $('opponent').value = params.get('opponent');
const moves = params.get('moves');
start(params.get('board') || '', moves ? moves.split(',') : []);
