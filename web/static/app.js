// The explorer: draws the position the API gives, colours every legal move
// by its result for the side to move, plays a move on click (under gravity a
// click anywhere in a column), keeps the game played so far for undo, redo
// and the value chart, can hide the values and answer as a perfect opponent,
// and holds the start, the moves and those two settings in the URL so that
// a link opens the same game the same way. A position being searched is
// drawn at once, its values filled in when they come; a search the page no
// longer waits for is stopped. Asked, it draws a line of perfect play on
// the board step by step, numbered by move: the best line, or why a move
// is worse than the best. Every figure and every line comes from the API;
// moves are counted from the first, one for each disc or mark.
let line = []; // the positions of the game so far, as the API gives them
let played = []; // the moves that made them, as the API reads them
let at = -1; // the one shown
let gen = 0; // bumped when the page stops waiting: an older wait ends
let waiting = null; // the board whose search the page waits for
let shown = null; // the line drawn on the board: {at, why, steps}, or null
let dropping = false; // the next drawing follows a move: its disc falls

const $ = (id) => document.getElementById(id);

// statusWords says a status as a person reads it.
const statusWords = { x_won: 'X won', o_won: 'O won', draw: 'a draw', in_progress: 'in progress' };
const engineWords = { memory: 'the game solved whole in memory', db: 'the solved database', book: 'the opening book', search: 'search' };

// plyOf gives how many moves made the position v: its discs or marks.
function plyOf(v) {
  return v.board.replace(/[^XO]/g, '').length;
}

// byMove says an outcome ("X wins", "draw") and the move by which the game
// ends: "X wins by move 41", "a draw by move 42".
function byMove(outcome, n) {
  return `${outcome === 'draw' ? 'a draw' : outcome} by move ${n}`;
}

// resultWords says what a move gives the side to move, played on v: "wins
// by move 41".
function resultWords(v, m) {
  const verb = { win: 'wins', draw: 'draws', loss: 'loses' }[m.result];
  return `${verb} by move ${plyOf(v) + 1 + m.depth}`;
}

// cellName names a move or a cell as a player says it: under gravity its
// column from 1, otherwise its row and column from 1.
function cellName(g, c) {
  const col = c % g.cols + 1;
  return g.gravity ? `column ${col}` : `row ${Math.floor(c / g.cols) + 1}, column ${col}`;
}

// moveName names a move in a sentence: "column 4", "the move at row 1,
// column 2".
function moveName(g, c) {
  return g.gravity ? cellName(g, c) : `the move at ${cellName(g, c)}`;
}

const sleep = (s) => new Promise((done) => setTimeout(done, s * 1000));

// tab tells this page apart from the other tabs of the browser in every
// request (the Tateti-Tab header): each is a client of its own on the
// server, with its own share of the search queue, and stops only the
// searches it asked for.
const tab = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
const ask = (q, init = {}) => fetch(q, { ...init, headers: { 'Tateti-Tab': tab } });

// cancel tells the server that the page no longer waits for the search of
// the board, which stops it.
function cancel(board, keepalive) {
  ask('/api/position?board=' + encodeURIComponent(board), { method: 'DELETE', keepalive }).catch(() => {});
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
    const r = await ask(q);
    const v = await r.json();
    if (mine !== gen) return null;
    if (r.status === 410) {
      q = '/api/position?board=' + encodeURIComponent(waiting);
    } else if (r.status === 429) {
      await tooBusy(r);
    } else if (r.status === 202) {
      if (waiting === null && pending) pending({ ...v.position, pending: true });
      waiting = v.board;
      q = '/api/position?poll=1&board=' + encodeURIComponent(v.board);
      $('note').textContent = v.queued ? 'waiting for the search of another position to end…'
        : `searching this position: ${Math.round(v.seconds)} s so far…`;
      $('cancel').hidden = false;
      await sleep(1);
    } else {
      return answered(r, v);
    }
    if (mine !== gen) return null;
  }
}

// tooBusy waits as long as the API's 429 r asks, saying so.
async function tooBusy(r) {
  const wait = Number(r.headers.get('Retry-After')) || 5;
  $('note').textContent = `too many positions wait for search: asking again in ${wait} s…`;
  await sleep(wait);
}

// answered ends the page's wait with the API's final answer r, of body v:
// v, or {error} saying what is wrong.
function answered(r, v) {
  waiting = null;
  $('note').textContent = '';
  $('cancel').hidden = true;
  return r.ok ? v : { error: v.error };
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
  const checked = await check(board, moves || []);
  if (!checked.ok) {
    showError(checked.error); // the game shown stays, and the text as typed
    if (line.length === 0) { // a bad link: the empty board, the text kept
      const empty = await fetchPosition('', undefined, (p) => show([p], [], board));
      if (empty && !empty.error) show([empty], [], board);
    }
    return;
  }
  const v = await fetchPosition(board, undefined, (p) => show([p], [], p.board));
  if (!v) return;
  if (v.error) return showError(v.error);
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

// check asks whether board, and the moves after it, make a position,
// before the page asks for any of them: the answer names the move that
// fails ("moves ...: move 7: column 4 is full"), and a refused board asks
// nothing that fails.
async function check(board, moves) {
  let q = '/api/check?board=' + encodeURIComponent(board);
  if (moves.length > 0) q += '&move=' + encodeURIComponent(moves.join(','));
  const r = await ask(q);
  const v = await r.json();
  return r.ok ? v : { ok: false, error: v.error };
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
  dropping = true;
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
  drawWhy(v);
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
  $('game').textContent = gameWords(v);
  const el = $('board');
  el.style.setProperty('--cols', g.cols);
  el.className = g.gravity ? 'gravity' : 'free';
  document.body.classList.toggle('gravitygame', g.gravity);
  el.replaceChildren();
  if (g.gravity) {
    for (let c = 0; c < g.cols; c++) {
      const h = document.createElement('div');
      h.className = 'colnum';
      h.textContent = c + 1;
      el.appendChild(h);
    }
  }
  const fresh = dropping && at > 0 ? newCell(line[at - 1], v) : -1;
  dropping = false;
  [...v.board.replaceAll('/', '')].forEach((c, i) => el.appendChild(drawCell(v, c, i, i === fresh)));
  drawLine(v);
}

// gameWords names the game of v (the server's title: "Connect Four",
// "tic-tac-toe", or its board and rules), its board, and under gravity the
// colours of the sides' discs.
function gameWords(v) {
  const g = v.game;
  let s = `${v.title[0].toUpperCase()}${v.title.slice(1)}: ${g.rows} rows by ${g.cols} columns, ${g.k} in a row ` +
    (g.misere ? 'loses' : 'wins');
  if (g.gravity) s += '; a disc drops to the lowest free cell of its column; X plays the red discs, O the yellow';
  return s + '.';
}

// newCell gives the cell of the move that made v from before.
function newCell(before, v) {
  const a = before.board.replaceAll('/', ''), b = v.board.replaceAll('/', '');
  for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

// drawCell draws cell i of v, which holds c: a disc or a mark, or the value
// of the move there; a click plays there (under gravity, in its column).
function drawCell(v, c, i, fresh) {
  const g = v.game;
  const moves = new Map((v.moves || []).map((m) => [m.cell, m]));
  const frames = (v.moves || []).some((m) => !m.best); // when every move is best, a frame says nothing
  const d = document.createElement('button');
  d.className = 'cell';
  d.dataset.cell = i;
  const row = Math.floor(i / g.cols);
  d.setAttribute('aria-label', (g.gravity ? `column ${i % g.cols + 1}, row ${row + 1} from the top`
    : `row ${row + 1}, column ${i % g.cols + 1}`) + (c !== '.' ? `: ${c}` : ''));
  if ((v.winning_line || []).includes(i)) d.classList.add('won');
  if (c !== '.') {
    const s = document.createElement('span');
    s.textContent = c;
    s.className = g.gravity ? `disc ${c.toLowerCase()}` : `mark${c.toLowerCase()}`;
    if (fresh && g.gravity) {
      s.classList.add('drop');
      s.style.setProperty('--drop', `calc(-${row + 1} * (var(--cell) + 2px))`);
    }
    d.append(s);
    d.classList.add('mark');
  } else if (moves.has(i)) {
    const m = moves.get(i);
    d.append(m.result);
    const n = document.createElement('small');
    n.textContent = plyOf(v) + 1 + m.depth;
    d.append(n);
    d.title = `${m.result}: the game ends by move ${plyOf(v) + 1 + m.depth} if both sides then play their best`;
    d.dataset.result = m.result;
    d.classList.add('move', m.result);
    if (m.best && frames) d.classList.add('best');
  }
  // A move can be played whether or not its value is known: a position
  // not settled, or still searched, lists its legal cells.
  const target = g.gravity ? v.legal.find((l) => l % g.cols === i % g.cols) : v.legal.includes(i) ? i : undefined;
  if (target !== undefined) {
    d.onclick = () => play(target);
    d.classList.add('playable');
  } else {
    d.disabled = true;
  }
  return d;
}

// drawLine draws the line shown, if it is of this position, as ghost discs
// or marks numbered by move, to the step reached, and rings the threats
// that cannot all be stopped once the line has reached them.
function drawLine(v) {
  if (!shown || shown.at !== at) return;
  const w = shown.why, ply = plyOf(v);
  let side = v.to_move;
  const cell = (c) => $('board').querySelector(`.cell[data-cell="${c}"]`);
  $('board').classList.add('lining'); // the position's own values give way to the line
  w.line.slice(0, shown.steps).forEach((c, i) => {
    const g = document.createElement('span');
    g.className = `ghost ${side.toLowerCase()}`;
    g.dataset.step = i + 1;
    const n = document.createElement('small');
    n.textContent = ply + i + 1;
    g.append(side, n); // its side's letter, and the move's number
    g.title = `move ${ply + i + 1}: ${side}`;
    cell(c).append(g);
    side = side === 'X' ? 'O' : 'X';
  });
  if (w.forced < w.line.length && shown.steps >= w.forced) {
    const taken = new Set(w.line.slice(0, shown.steps));
    w.threats.filter((c) => !taken.has(c)).forEach((c) => cell(c).classList.add('threat'));
  }
}

// valueWords says what perfect play gives the position, or what is known
// of it while it is not settled.
function valueWords(v) {
  if (v.pending === 'stopped') return 'not known: its search was stopped';
  if (v.pending) return 'not known yet: being searched';
  if (!v.proved) return byMove(v.outcome, plyOf(v) + v.depth);
  if (v.value !== null) return `${v.outcome}, proved; when the game ends was not settled within the time limit`;
  return `not settled within the time limit; proved: ${v.proved.says}`;
}

// answeredWords says who gave the position's value: the engine that
// answered (answered_by), and past an opening book's last move that the
// book handed it on.
function answeredWords(v) {
  const by = v.answered_by || v.engine;
  const words = engineWords[by] || by;
  if (by !== v.engine && v.book_last_ply) return `${words}, past the opening book, which holds every position to move ${v.book_last_ply}`;
  return words;
}

function drawFacts(v) {
  const over = v.to_move ? `, ${v.to_move} to move` : v.winning_line ? ', the line is marked' : ', the game is over';
  table($('facts'), [
    ['status', `${statusWords[v.status]}${over} (${plyOf(v) === 1 ? '1 move' : `${plyOf(v)} moves`} played)`, ''],
    ['with perfect play', valueWords(v), 'hint'],
  ]);
  table($('ids'), [
    ['answered by', v.pending ? '-' : answeredWords(v), ''],
    ['board', v.board, ''],
    ['state id', v.state_id ?? 'none past 40 cells', ''],
    ['canonical id', v.canonical_id ?? 'none past 40 cells', ''],
    ['move orders that reach it', v.paths === null || v.paths === undefined ? 'not counted (search)' : v.paths.toLocaleString('en'), ''],
  ]);
  drawMoves(v);
  $('bestline').disabled = !(v.moves || []).some((m) => m.best);
}

// drawMoves lists the position's moves with what each gives, and a "why?"
// for each that is worse than the best.
function drawMoves(v) {
  const t = $('moves');
  t.replaceChildren();
  const order = (m) => (v.game.gravity ? m.cell % v.game.cols : m.cell); // by column under gravity, else in reading order
  for (const m of [...(v.moves || [])].sort((a, b) => order(a) - order(b))) {
    const tr = t.insertRow();
    tr.insertCell().textContent = cellName(v.game, m.cell);
    const words = tr.insertCell();
    words.textContent = resultWords(v, m) + (m.best ? ' (best)' : '');
    words.className = m.result;
    const ask = tr.insertCell();
    if (!m.best) {
      const b = document.createElement('button');
      b.className = 'why';
      b.dataset.cell = m.cell;
      b.textContent = 'why?';
      b.setAttribute('aria-label', `why is ${cellName(v.game, m.cell)} worse than the best?`);
      b.onclick = () => showLine(m.cell);
      ask.append(b);
    }
  }
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

// fetchWhy asks the API for the line after the move on board (report.Why),
// and gives it, or {error}, or null when the page stopped waiting. While a
// position along the line is searched (a 202) it asks again each second.
async function fetchWhy(board, move) {
  const q = '/api/why?board=' + encodeURIComponent(board) + '&move=' + encodeURIComponent(move);
  const mine = gen;
  for (;;) {
    const r = await ask(q);
    const v = await r.json();
    if (mine !== gen) return null;
    if (r.status === 429) {
      await tooBusy(r);
    } else if (r.status === 202 || r.status === 410) {
      waiting = v.board || null;
      $('note').textContent = `working out the line: searching a position along it${v.seconds ? `, ${Math.round(v.seconds)} s so far` : ''}…`;
      $('cancel').hidden = false;
      await sleep(1);
    } else {
      return answered(r, v);
    }
    if (mine !== gen) return null;
  }
}

// showLine asks for the line after the move to cell of the position shown
// (a best move's: the best line) and draws its first step.
async function showLine(cell) {
  stopWaiting();
  const i = at;
  const v = line[i];
  $('whyline').hidden = false;
  $('why').textContent = 'working out the line…';
  const w = await fetchWhy(v.board, moveToken(v.game, cell));
  if (!w || at !== i) return;
  if (w.error) {
    $('whyline').hidden = true;
    showError(w.error);
    return;
  }
  shown = { at: i, why: w, steps: 1 };
  render();
}

// whySentence says in one sentence what the line w shows, played on v.
function whySentence(v, w) {
  const g = v.game, ply = plyOf(v);
  const name = (c) => moveName(g, c);
  const winner = w.outcome === 'draw' ? null : w.outcome[0];
  const loser = winner === 'X' ? 'O' : 'X';
  let s;
  if (w.shows === 'best') s = `Best play: ${name(w.line[0])}, then the moves drawn; ${byMove(w.outcome, w.end)}`;
  else if (w.shows === 'faster') s = `${cap(name(w.move.cell))} wins too, but only by move ${ply + 1 + w.move.depth}; ${name(w.best.cell)} wins sooner, by move ${w.end}, as drawn`;
  else if (!winner) s = `After ${name(w.move.cell)}, best play of both sides gives ${byMove('draw', w.end)}; ${name(w.best.cell)} ${resultWords(v, w.best)}`;
  else s = `After ${name(w.move.cell)}, ${winner} wins by move ${w.end}`;
  if (winner && w.forced < w.line.length) {
    const when = w.forced === 0 ? `${winner} already threatens` : `after move ${ply + w.forced}, ${winner} threatens`;
    s += `: ${when} ${threatNames(g, w.threats)}, and ${loser} cannot stop ${w.threats.length > 1 ? 'them all' : 'it'}`;
  }
  if (w.line_end) s += ` (the line stops at move ${w.line_end}: a search along it was not settled in time)`;
  return s + '.';
}

const cap = (s) => s[0].toUpperCase() + s.slice(1);

// threatNames names the cells of threats: under gravity by column, one
// above the other said as such.
function threatNames(g, cells) {
  if (!g.gravity) return cells.map((c) => cellName(g, c)).join(' and ');
  const cols = new Map();
  for (const c of cells) cols.set(c % g.cols, (cols.get(c % g.cols) || 0) + 1);
  return [...cols].map(([c, n]) => `column ${c + 1}${n > 1 ? ' twice, one above the other' : ''}`).join(' and ');
}

// drawWhy shows the sentence and the steps of the line shown, or hides
// them when there is none for this position.
function drawWhy(v) {
  if (!shown || shown.at !== at) {
    shown = null;
    $('whyline').hidden = true;
    return;
  }
  $('whyline').hidden = false;
  $('why').textContent = whySentence(v, shown.why);
  $('whyprev').disabled = shown.steps <= 1;
  $('whynext').disabled = $('whyall').disabled = shown.steps >= shown.why.line.length;
}

// drawChart plots the value for X after each move of the game so far, from
// X wins at the top to O wins at the bottom, the move numbers below (as
// many as fit); a point's title says its outcome; the shown position is
// ringed. A position not known yet is grey, at the draw.
function drawChart() {
  const svg = $('chart');
  const w = 360, pad = 20, left = 60, axis = 140;
  const n = Math.max(line.length - 1, 1);
  const x = (i) => left + (i * (w - left - pad)) / n;
  const y = (val) => 64 - (val || 0) * 44;
  const ply0 = plyOf(line[0]);
  const every = Math.ceil(line.length / 8); // a label every so many points, so that they never meet
  let s = '';
  for (const [val, label] of [[1, 'X wins'], [0, 'draw'], [-1, 'O wins']]) {
    s += `<line x1="${left}" x2="${w - pad}" y1="${y(val)}" y2="${y(val)}" stroke="#e0e0e0"/>` +
      `<text x="4" y="${y(val) + 4}" font-size="12">${label}</text>`;
  }
  s += `<text x="4" y="${axis}" font-size="12">move</text>`;
  s += `<polyline fill="none" stroke="#424242" points="${line.map((v, i) => `${x(i)},${y(v.value)}`).join(' ')}"/>`;
  line.forEach((v, i) => {
    const cls = v.proved || v.pending ? 'unsettled' : v.value > 0 ? 'xwins' : v.value < 0 ? 'owins' : 'drawn';
    const title = i > 0 ? `after move ${ply0 + i} (${cellName(v.game, newCell(line[i - 1], v))})`
      : ply0 === 0 ? 'the start' : `the position given, after move ${ply0}`;
    s += `<circle class="${cls}" cx="${x(i)}" cy="${y(v.value)}" r="${i === at ? 6 : 4}"` +
      (i === at ? ' stroke="#212121" stroke-width="2"' : '') +
      `><title>${title}: ${valueWords(v)}</title></circle>`;
    if (i % every === 0 || i === line.length - 1 && i % every >= every / 2) {
      s += `<text class="tick" x="${x(i)}" y="${axis}" font-size="12" text-anchor="middle">${ply0 + i}</text>`;
    }
  });
  svg.innerHTML = s;
}

$('undo').onclick = () => step(-1);
$('redo').onclick = () => step(1);
$('go').onclick = () => start($('text').value);
$('text').onkeydown = (e) => { if (e.key === 'Enter') start(e.target.value); };
$('restart').onclick = () => start('');
$('bestline').onclick = () => {
  const best = (line[at].moves || []).find((m) => m.best);
  if (best) showLine(best.cell);
};
const stepLine = (to) => {
  shown.steps = Math.max(1, Math.min(shown.why.line.length, to));
  render();
};
$('whyprev').onclick = () => stepLine(shown.steps - 1);
$('whynext').onclick = () => stepLine(shown.steps + 1);
$('whyall').onclick = () => stepLine(shown.why.line.length);
$('whyhide').onclick = () => {
  shown = null;
  render();
};
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
