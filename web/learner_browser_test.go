package web

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/plan"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The browser tests of what a learner sees: discs, one cell size, plain
// words, and why a move is worse than the best.

// cellSizes gives how far apart the board's cells are in width and in
// height, the largest less the smallest, and how far a cell is from square.
const cellSizes = `(() => {
  const rs = [...document.querySelectorAll('#board .cell')].map((c) => c.getBoundingClientRect());
  const spread = (f) => Math.max(...rs.map(f)) - Math.min(...rs.map(f));
  return [spread((r) => r.width), spread((r) => r.height), Math.max(...rs.map((r) => Math.abs(r.width - r.height)))];
})()`

// checkCellSizes fails unless every cell of the board shown is the same
// size, within a pixel, and square.
func checkCellSizes(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	got := evaluate[[]float64](t, ctx, cellSizes)
	if got[0] > 1 || got[1] > 1 || got[2] > 1 {
		t.Errorf("%s: cells differ by %.1f px in width and %.1f px in height, and are %.1f px from square; want one size within 1 px",
			where, got[0], got[1], got[2])
	}
}

// bookServer serves Connect Four as the planner picks for the explorer:
// the opening book built in, search past it.
func bookServer(t *testing.T) (string, oracle.Oracle) {
	t.Helper()
	p, err := plan.For(plan.Request{Rules: connectFour, Scope: plan.Many, Workers: 1})
	if err != nil || p.Engine != perfect.Book {
		t.Fatalf("the planner picks %s (%v), want the book", p.Engine, err)
	}
	o, err := p.Oracle(t.Context(), oracle.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	return serverOf(t, NewExplorer(t.Context(), connectFour, o, 0)).URL, o
}

// grey gives the mean grey level (0 to 255, ITU-R 601 luma) of the middle
// of a PNG picture, a box of half its width and height: of a cell, the
// disc or mark it holds.
func grey(t *testing.T, pic []byte) float64 {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(pic))
	if err != nil {
		t.Fatal(err)
	}
	r := img.Bounds()
	box := image.Rect(r.Min.X+r.Dx()/4, r.Min.Y+r.Dy()/4, r.Max.X-r.Dx()/4, r.Max.Y-r.Dy()/4)
	sum, n := 0.0, 0
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			sum += (0.299*float64(cr) + 0.587*float64(cg) + 0.114*float64(cb)) / 257
			n++
		}
	}
	return sum / float64(n)
}

// Under gravity the marks are discs: round, of two colours, in a frame,
// and an X disc and an O disc still differ once the picture is turned
// grey. A free board keeps its marks.
func TestBrowserDiscs(t *testing.T) {
	ctx := browser(t)
	base, _ := bookServer(t)
	do(t, ctx, "open a game of Connect Four", chromedp.EmulateViewport(1000, 800), chromedp.Navigate(base+"/?moves=4,4,3"),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('#board .cell.move').length === 7`))
	// Column 4's bottom cell (38) holds X, the one above it (31) O.
	discs := evaluate[[]string](t, ctx, `[38, 31].map((i) => {
	  const d = document.querySelector('#board .cell[data-cell="' + i + '"] .disc');
	  if (!d) return 'none';
	  const s = getComputedStyle(d);
	  return s.borderRadius + ' ' + s.backgroundColor;
	})`)
	if discs[0] == "none" || discs[1] == "none" {
		t.Fatalf("the X and O cells hold discs %q, want a disc in each", discs)
	}
	for _, d := range discs {
		if !strings.HasPrefix(d, "50%") {
			t.Errorf("a disc is drawn %q, want round (a border radius of 50%%)", d)
		}
	}
	if discs[0] == discs[1] {
		t.Errorf("the X and O discs are both %q, want two colours", discs[0])
	}
	x, err := chromedp.Run(ctx, chromedp.Screenshot(`#board .cell[data-cell="38"]`))
	if err != nil {
		t.Fatal(err)
	}
	o, err := chromedp.Run(ctx, chromedp.Screenshot(`#board .cell[data-cell="31"]`))
	if err != nil {
		t.Fatal(err)
	}
	if gx, gy := grey(t, x), grey(t, o); gx-gy < 40 && gy-gx < 40 {
		t.Errorf("turned grey, the X disc is %.0f and the O disc %.0f of 255, want them 40 or more apart", gx, gy)
	}

	// A disc played falls into place, unless the reader asks for reduced motion.
	const fell = `getComputedStyle(document.querySelector('#board .disc.drop')).animationName`
	do(t, ctx, "play column 5", chromedp.Click(`#board .cell[data-cell="4"]`),
		chromedp.Poll[chromedp.Void](`document.querySelector('#board .cell[data-cell="39"] .disc.drop') !== null`))
	if got := evaluate[string](t, ctx, fell); got != "fall" {
		t.Errorf("the disc played is animated %q, want it to fall", got)
	}
	reduce := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}})
		return err
	})
	do(t, ctx, "ask for reduced motion, and play column 6", reduce, chromedp.Click(`#board .cell[data-cell="5"]`),
		chromedp.Poll[chromedp.Void](`document.querySelector('#board .cell[data-cell="40"] .disc.drop') !== null`))
	if got := evaluate[string](t, ctx, fell); got != "none" {
		t.Errorf("with reduced motion the disc played is animated %q, want no animation", got)
	}
}

// noPly finds the words "ply" and "plies" in the page's visible text.
const noPly = `(document.body.innerText.match(/\bpl(y|ies)\b/gi) || []).length`

// ticksMeet gives the chart's labels under the axis that meet the next.
const ticksMeet = `(() => {
  const rs = [...document.querySelectorAll('#chart text.tick')].map((e) => [e.textContent, e.getBoundingClientRect()]);
  const out = [];
  for (let i = 1; i < rs.length; i++) if (rs[i][1].left < rs[i - 1][1].right + 2) out.push(rs[i - 1][0] + ' and ' + rs[i][0]);
  return out;
})()`

// The words a learner reads: moves, never plies, and the same number on a
// cell and in the panel for the same line: the move by which the game ends;
// and at 390 px the chart's labels do not meet.
func TestBrowserPlainWords(t *testing.T) {
	ctx := browser(t)
	base, _ := bookServer(t)
	ttt := server(t, rules.Classic(game.Default)).URL
	pages := []struct{ name, url string }{
		{"Connect Four's empty board", base + "/"},
		{"a position past the book", base + "/?moves=" + strings.Join(strings.Split("2252576253462244111563365343", ""), ",")},
		{"tic-tac-toe", ttt + "/?moves=4,0"},
	}
	for _, p := range pages {
		do(t, ctx, "open "+p.name, chromedp.Navigate(p.url),
			chromedp.Poll[chromedp.Void](`document.querySelectorAll('#board .cell.move').length > 0 && document.getElementById('note').textContent === ''`))
		if n := evaluate[int](t, ctx, noPly); n > 0 {
			t.Errorf("%s: the page says ply or plies %d times, want moves alone", p.name, n)
		}
		do(t, ctx, "narrow the window to a phone's", chromedp.EmulateViewport(390, 900))
		if got := evaluate[[]string](t, ctx, ticksMeet); len(got) > 0 {
			t.Errorf("%s: at 390 px the chart's labels meet: %v", p.name, got)
		}
		do(t, ctx, "widen the window", chromedp.EmulateViewport(1280, 900))
		// A best move's cell and, once it is played, the panel name one move.
		best := evaluate[[]string](t, ctx, `(() => {
		  const c = document.querySelector('#board .cell.move.best') || document.querySelector('#board .cell.move');
		  return [c.dataset.cell, c.textContent];
		})()`)
		cell := best[1]
		played := evaluate[int](t, ctx, `line.length`)
		do(t, ctx, "play a best move", chromedp.Click(`#board .cell[data-cell="`+best[0]+`"]`),
			chromedp.Poll[chromedp.Void](fmt.Sprintf(`line.length === %d && !line[at].pending`, played+1)))
		facts := evaluate[string](t, ctx, `document.querySelector('#facts').textContent`)
		n := regexp.MustCompile(`\d+`).FindString(cell)
		if n == "" || !strings.Contains(facts, "by move "+n) {
			t.Errorf("%s: the cell says %q and the panel after it %q, want the same move number", p.name, cell, facts)
		}
	}
}

// whyLine reads the line drawn on the board: the cells of its numbered
// discs or marks, in the order of their numbers.
const whyLine = `[...document.querySelectorAll('#board .ghost')]
  .map((g) => [Number(g.dataset.step), Number(g.closest('.cell').dataset.cell)])
  .sort((a, b) => a[0] - b[0]).map((s) => s[1])`

// "why?" on a losing move, inside the book and past it, draws the line
// that punishes it step by step: each step a legal move, and the last
// position a loss for the side that made the move.
func TestBrowserWhy(t *testing.T) {
	ctx := browser(t)
	base, o := bookServer(t)
	cases := []struct {
		name, moves string
	}{
		{"inside the book", "4444"}, // column 1 loses by move 40: a line that goes on past the book, searched
		{"past the book", "225257625346224411"},
	}
	if testing.Short() { // the race detector's run: a line within the book, whose searches take minutes there
		cases[0].moves = "2516" // column 1 loses by move 8
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := rules.Play(connectFour, game.Board{}, tc.moves)
			if err != nil {
				t.Fatal(err)
			}
			an, err := o.Analyze(t.Context(), b)
			if err != nil {
				t.Fatal(err)
			}
			bad := worst(an)
			do(t, ctx, "open the position", chromedp.EmulateViewport(1280, 900),
				chromedp.Navigate(base+"/?moves="+strings.Join(strings.Split(tc.moves, ""), ",")),
				chromedp.Poll[chromedp.Void](`document.querySelectorAll('#board .cell.move').length > 0 && document.getElementById('note').textContent === ''`))
			do(t, ctx, "ask why", chromedp.Click(fmt.Sprintf(`#moves button.why[data-cell="%d"]`, bad.Cell)),
				chromedp.Poll[chromedp.Void](`document.querySelectorAll('#board .ghost').length === 1 && document.getElementById('why').textContent !== ''`, chromedp.WithPollingTimeout(60*time.Second)))
			steps := 1
			for evaluate[bool](t, ctx, `!document.getElementById('whynext').disabled`) {
				steps++
				do(t, ctx, "the next step", chromedp.Click(`#whynext`),
					chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.querySelectorAll('#board .ghost').length === %d`, steps)))
			}
			line := evaluate[[]int](t, ctx, whyLine)
			if len(line) == 0 || line[0] != bad.Cell {
				t.Fatalf("the line drawn is %v, want it to start with the move asked about, %d", line, bad.Cell)
			}
			end := b
			for i, c := range line {
				if connectFour.Moves(end)&(1<<c) == 0 {
					t.Fatalf("step %d of %v, cell %d, is not a legal move of %s", i+1, line, c, connectFour.Spec().Format(end))
				}
				end = end.Play(c, end.ToMove())
			}
			if v := valueFor(t, o, end).For(b.ToMove()); v != perfect.OWins.For(game.X) {
				t.Errorf("after the line %v the side that made the move has %v, want a loss", line, v)
			}
			if got := evaluate[string](t, ctx, `document.getElementById('why').textContent`); !strings.Contains(got, "column "+strconv.Itoa(bad.Cell%7+1)) {
				t.Errorf("the sentence %q does not name the move, column %d", got, bad.Cell%7+1)
			}
			if tc.name == "inside the book" { // the README's pictures, at 1280 and 390 px
				shoot(t, ctx, "explorer-why-1280.png")
				do(t, ctx, "narrow the window", chromedp.EmulateViewport(390, 900))
				shoot(t, ctx, "explorer-why-390.png")
			}
		})
	}
}

// worst gives a move of a that loses and is not a best move, the first in
// cell order.
func worst(a perfect.Analysis) perfect.Move {
	for _, m := range a.Moves {
		if m.Value.For(a.ToMove) == perfect.OWins && !m.Best {
			return m
		}
	}
	panic("no losing move in " + fmt.Sprint(a.Moves))
}

// valueFor gives b's value for X: over, as it ended; else as o says.
func valueFor(t *testing.T, o oracle.Oracle, b game.Board) perfect.Value {
	t.Helper()
	if over, winner := connectFour.Outcome(b); over {
		return perfect.Of(winner)
	}
	a, err := o.Analyze(t.Context(), b)
	if err != nil {
		t.Fatal(err)
	}
	return a.Value
}
