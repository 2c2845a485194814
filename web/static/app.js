// The explorer: draws the position the API gives, colours every legal move
// by its result for the side to move, plays a move on click, keeps undo and
// redo, and holds the position in the URL so that it can be shared.
let past = [], future = [];

async function show(board) {
  const r = await fetch('/api/position?board=' + encodeURIComponent(board));
  const v = await r.json();
  document.getElementById('error').textContent = r.ok ? '' : v.error;
  if (!r.ok) return;
  const cols = v.game.cols, cells = v.board.replaceAll('/', '');
  const el = document.getElementById('board');
  el.style.gridTemplateColumns = `repeat(${cols}, 64px)`;
  el.innerHTML = '';
  const moves = new Map(v.moves.map((m) => [m.cell, m]));
  [...cells].forEach((c, i) => {
    const d = document.createElement('div');
    d.className = 'cell';
    d.dataset.cell = i;
    if (c !== '.') {
      d.textContent = c;
      d.classList.add('mark');
    } else if (moves.has(i)) {
      const m = moves.get(i);
      const mover = v.to_move === 'O' ? -m.value : m.value;
      const res = mover > 0 ? 'win' : mover < 0 ? 'loss' : 'draw';
      d.textContent = res[0].toUpperCase() + m.depth;
      d.classList.add(res);
      if (m.best) d.classList.add('best');
      d.onclick = () => play(v.board, i, v);
    }
    el.appendChild(d);
  });
  document.getElementById('facts').innerHTML =
    `<tr><td>board</td><td>${v.board}</td></tr><tr><td>status</td><td>${v.status}</td></tr>` +
    `<tr><td>to move</td><td>${v.to_move ?? '-'}</td></tr><tr><td>value</td><td>${v.outcome} (${v.value}), depth ${v.depth}</td></tr>`;
  past.push(v.board);
  past = past.slice(-200);
  const url = new URL(location);
  url.searchParams.set('board', v.board);
  window.history.replaceState(null, '', url);
}

async function play(board, cell, v) {
  future = [];
  const move = v.game.gravity ? String(cell % v.game.cols + 1) : String(cell);
  const r = await fetch('/api/position?board=' + encodeURIComponent(board) + '&move=' + move);
  const next = await r.json();
  if (r.ok) show(next.board);
}

document.getElementById('undo').onclick = () => {
  if (past.length < 2) return;
  future.push(past.pop());
  show(past.pop());
};
document.getElementById('redo').onclick = () => { if (future.length) show(future.pop()); };
document.getElementById('go').onclick = () => show(document.getElementById('text').value);
show(new URLSearchParams(location.search).get('board') || '');
