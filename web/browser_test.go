package web

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
	"github.com/tateti-lab/tateti-lab/view"
)

var screenshots = flag.String("screenshots", "", "write the browser tests' screenshots into this folder (docs/, the README's pictures)")

// browser gives the test a tab of its own in the package's headless
// Chromium (shared), within 90 seconds. The browser tests are long checks
// (TATETI_LONG=1, as CI runs them): together they take most of a minute.
// Without a chromium binary they skip, unless CI is set: there they must
// run.
func browser(t *testing.T) context.Context {
	t.Helper()
	longtest.Skip(t, "drives the explorer in Chromium")
	chrome, err := shared.start()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%v, and CI is set: .ci/run installs Debian's chromium", err)
		}
		t.Skipf("%v: install Debian's chromium to run the browser tests", err)
	}
	// A browser context of its own, as an incognito window: no cookie,
	// storage or cache of another test's server, which may have had the
	// same port.
	tab, cancelTab := chromedp.NewContext(chrome, chromedp.WithNewBrowserContext())
	t.Cleanup(cancelTab)
	ctx, cancel := context.WithTimeout(tab, 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// shared is the package's browser: started by the first test that wants
// one, each test a tab of its own, closed by TestMain when the tests are
// done. A browser a test costs seconds of start-up each.
var shared chromium

// chromium is a headless Chromium with the flags this machine's closed
// network needs and a fresh profile.
type chromium struct {
	once sync.Once
	ctx  context.Context // the browser's first tab, whose children are the tests' tabs
	err  error
	stop []context.CancelFunc
	dir  string
}

// start starts the browser once, and gives its first tab.
func (c *chromium) start() (context.Context, error) {
	c.once.Do(func() {
		path, err := exec.LookPath("chromium")
		if err != nil {
			c.err = errors.New("no chromium binary")
			return
		}
		if c.dir, c.err = os.MkdirTemp("", "tateti-lab-chromium-"); c.err != nil {
			return
		}
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
			chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true),
			chromedp.UserDataDir(c.dir), chromedp.WindowSize(1000, 640))
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		first, cancelFirst := chromedp.NewContext(alloc)
		c.ctx, c.stop = first, []context.CancelFunc{cancelFirst, cancelAlloc}
		c.err = chromedp.Do(first) // starts the browser
	})
	return c.ctx, c.err
}

// TestMain closes the shared browser once the tests are done.
func TestMain(m *testing.M) {
	code := m.Run()
	shared.close()
	os.Exit(code)
}

// close ends the browser, if it was started, and removes its profile.
func (c *chromium) close() {
	for _, stop := range c.stop {
		stop()
	}
	if c.dir != "" {
		os.RemoveAll(c.dir)
	}
}

// cellResults reads what the page shows on each cell: the result class of a
// move, or the mark.
const cellResults = `[...document.querySelectorAll('#board .cell')].map(c => c.dataset.result || c.textContent)`

// TestBrowser drives the explorer in a real browser: the empty 3x3 board
// shows nine draws, a click on the centre plays X there, the cells and the
// facts update to what the solver says of the new position, the URL holds
// it, and undo goes back.
func TestBrowser(t *testing.T) {
	ctx := browser(t)
	rl := rules.Classic(game.Default)
	srv := server(t, rl)
	run := func(a chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	run(chromedp.Navigate(srv.URL + "/"))
	run(chromedp.WaitVisible(`#board .cell[data-cell="8"]`))
	if got, want := evaluate[[]string](t, ctx, cellResults), strings.Fields(strings.Repeat("draw ", 9)); !equalStrings(got, want) {
		t.Fatalf("empty board shows %v, want %v", got, want)
	}

	run(chromedp.Click(`#board .cell[data-cell="4"]`))
	run(chromedp.Poll[chromedp.Void](`document.querySelector('#board .cell[data-cell="4"]').textContent === 'X'`))
	want := expected(t, rl, ".../.X./...")
	if got := evaluate[[]string](t, ctx, cellResults); !equalStrings(got, want.cells) {
		t.Fatalf("after the centre the page shows %v, want %v", got, want.cells)
	}
	facts := evaluate[string](t, ctx, `document.getElementById('facts').textContent + document.getElementById('ids').textContent`)
	for _, f := range []string{"state id" + want.stateID, "canonical id" + want.canonID} {
		if !strings.Contains(facts, f) {
			t.Errorf("facts %q, want them to hold %q", facts, f)
		}
	}
	do(t, ctx, "show the best line", chromedp.Click(`#bestline`), chromedp.Poll[chromedp.Void](`document.querySelectorAll('#board .ghost').length === 1`),
		chromedp.Click(`#whyall`), chromedp.Poll[chromedp.Void](`document.getElementById('whyall').disabled`))
	if got, want := fmt.Sprint(evaluate[[]int](t, ctx, whyLine)), fmt.Sprint(want.lineCells); got != want {
		t.Errorf("the best line drawn is %s, want %s", got, want)
	}
	if got := evaluate[int](t, ctx, `document.querySelectorAll('#chart circle').length`); got != 2 {
		t.Errorf("chart has %d points, want 2 (the empty board and the centre)", got)
	}
	if board, moves := gameInURL(t, ctx); board != ".../.../..." || moves != "4" {
		t.Fatalf("URL holds board %q and moves %q, want the empty board and 4", board, moves)
	}

	run(chromedp.Click(`#undo`))
	run(chromedp.Poll[chromedp.Void](`document.querySelector('#board .cell[data-cell="4"]').dataset.result === 'draw'`))
	if board, moves := gameInURL(t, ctx); board != ".../.../..." || moves != "" {
		t.Fatalf("after undo the URL holds board %q and moves %q, want the empty board and none", board, moves)
	}
}

// TestBrowserSharedLink opens a position from the URL, as a shared link would.
func TestBrowserSharedLink(t *testing.T) {
	ctx := browser(t)
	rl := rules.Classic(game.Default)
	srv := server(t, rl)
	board := "XX./O../..."
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/?board="+url.QueryEscape(board)),
		chromedp.WaitVisible(`#board .cell[data-cell="8"]`)); err != nil {
		t.Fatal(err)
	}
	want := expected(t, rl, board)
	if got := evaluate[[]string](t, ctx, cellResults); !equalStrings(got, want.cells) {
		t.Fatalf("link to %s shows %v, want %v", board, got, want.cells)
	}
	if got := evaluate[string](t, ctx, `document.querySelector('#chart circle title').textContent`); !strings.HasPrefix(got, "the position given, after move 3: ") {
		t.Errorf("the chart's first point says %q, want the position given, after move 3", got)
	}
}

// TestBrowserTeacher drives what a class needs on 3x3: cells named by row and column, the
// values hidden, a perfect opponent that answers with a best move, and a
// shared link that replays the game into the chart.
func TestBrowserTeacher(t *testing.T) {
	ctx := browser(t)
	rl := rules.Classic(game.Default)
	srv := server(t, rl)
	run := func(actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		for _, a := range actions {
			if err := chromedp.Do(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	run(chromedp.Navigate(srv.URL+"/?board=.../.../...&moves=4,0"), chromedp.WaitVisible(`#board .cell[data-cell="8"]`),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('#chart circle').length === 3`))
	if got := evaluate[[]string](t, ctx, `[...document.querySelectorAll('#board .cell')].slice(0, 4).map(c => c.getAttribute('aria-label'))`); !equalStrings(got, []string{"row 1, column 1: O", "row 1, column 2", "row 1, column 3", "row 2, column 1"}) {
		t.Errorf("cells named %q, want them by row and column from 1", got)
	}
	if got := evaluate[string](t, ctx, `document.querySelector('#chart').textContent`); !strings.Contains(got, "move") || !strings.Contains(got, "after move 2 (row 1, column 1)") {
		t.Errorf("chart text %q, want a move axis and the moves", got)
	}
	if got := evaluate[[]string](t, ctx, cellResults)[:5]; !equalStrings(got, []string{"O", expected(t, rl, "O../.X./...").cells[1], expected(t, rl, "O../.X./...").cells[2], expected(t, rl, "O../.X./...").cells[3], "X"}) {
		t.Errorf("the link replays to %v, want O in 0 and X in 4", got)
	}

	// Hide the values: the moves' words turn transparent.
	run(chromedp.Click(`#hints`))
	if got := evaluate[string](t, ctx, `getComputedStyle(document.querySelector('#board .move')).color`); got != "rgba(0, 0, 0, 0)" {
		t.Errorf("with the values hidden a move's colour is %q, want transparent", got)
	}

	// A perfect opponent as O answers X's move with one of its best moves.
	run(chromedp.Click(`#restart`), chromedp.Poll[chromedp.Void](`document.querySelectorAll('#chart circle').length === 1`),
		chromedp.SetValue(`#opponent`, "O"), chromedp.Click(`#board .cell[data-cell="0"]`),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('#board .cell.mark').length === 2`))
	board := evaluate[string](t, ctx, `document.getElementById('text').value`)
	after := expected(t, rl, "X../.../...")
	b, _ := game.Default.Parse(board)
	answered := -1
	for i := range 9 {
		if b.At(i) == game.O {
			answered = i
		}
	}
	if answered < 0 || !slices.Contains(after.best, answered) {
		t.Fatalf("the opponent answered at %d (board %s), want one of the best moves %v", answered, board, after.best)
	}
	shoot(t, ctx, "explorer-play.png")
}

// TestBrowserGravity: columns are numbered from 1, and a click anywhere in a
// column plays there, as Connect Four players click.
func TestBrowserGravity(t *testing.T) {
	ctx := browser(t)
	rl := rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true})
	srv := server(t, rl)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`#board .cell[data-cell="15"]`)); err != nil {
		t.Fatal(err)
	}
	if got := evaluate[[]string](t, ctx, `[...document.querySelectorAll('#board .colnum')].map(c => c.textContent)`); !equalStrings(got, strings.Fields("1 2 3 4")) {
		t.Errorf("column numbers %v, want 1 to 4", got)
	}
	// The top cell of the second column: the mark lands at its bottom, 13.
	if err := chromedp.Do(ctx, chromedp.Click(`#board .cell[data-cell="1"]`),
		chromedp.Poll[chromedp.Void](`document.querySelector('#board .cell[data-cell="13"]').textContent === 'X'`)); err != nil {
		t.Fatalf("a click on the top of column 2 did not play at its bottom: %v", err)
	}
	if board, moves := gameInURL(t, ctx); board != "..../..../..../...." || moves != "2" {
		t.Errorf("URL holds board %q and moves %q, want the empty board and 2", board, moves)
	}
}

func evaluate[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

func gameInURL(t *testing.T, ctx context.Context) (board, moves string) {
	t.Helper()
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(loc)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get("board"), u.Query().Get("moves")
}

// shown is what the page should show of a position, from the solver.
type shown struct {
	cells            []string
	stateID, canonID string
	lineCells        []int // the best line
	best             []int // the cells of the best moves
}

func expected(t *testing.T, rl rules.Rules, board string) shown {
	t.Helper()
	b, err := rl.Spec().Parse(board)
	if err != nil {
		t.Fatal(err)
	}
	a, err := solve.Analyze(context.Background(), rl, b, 1)
	if err != nil {
		t.Fatal(err)
	}
	p := view.NewPosition(a)
	var s shown
	cells := strings.ReplaceAll(p.Board, "/", "")
	s.cells = strings.Split(cells, "")
	for _, m := range p.Moves {
		s.cells[m.Cell] = m.Result
		if m.Best {
			s.best = append(s.best, m.Cell)
		}
	}
	s.stateID = strconv.FormatUint(*p.StateID, 10)
	s.canonID = strconv.FormatUint(*p.CanonicalID, 10)
	s.lineCells = p.BestLine
	return s
}

// shoot takes a screenshot of the page and checks that it is a PNG image;
// with -screenshots it writes it there, named name.
func shoot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("the screenshot is not a PNG image: % x", png[:min(len(png), 8)])
	}
	if *screenshots != "" {
		if err := os.WriteFile(filepath.Join(*screenshots, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func equalStrings(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

// TestBrowserConnectFour opens the explorer of Connect Four 7x6, answered by
// search: the page says that a position is being solved, for how long, and
// then shows its moves and facts (no state id past 40 cells, paths not
// counted); a click plays a move and the next position comes the same way.
func TestBrowserConnectFour(t *testing.T) {
	ctx := browser(t)
	_, base := searched(t, 0, 10*time.Millisecond)
	b, _ := rules.Play(connectFour, game.Board{}, "742234173564774116") // some tenths of a second to search
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/?board="+url.QueryEscape(connectFour.Spec().Format(b))),
		chromedp.Poll[chromedp.Void](`document.getElementById('note').textContent.startsWith('searching this position')`)); err != nil {
		t.Fatalf("the page did not say that the position is being solved: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.querySelectorAll('#board .cell.move').length === 7 && document.getElementById('note').textContent === ''`)); err != nil {
		t.Fatalf("the position's seven moves did not come: %v", err)
	}
	facts := evaluate[[]string](t, ctx, `[...document.querySelectorAll('#facts tr, #ids tr')].map(r => r.textContent)`)
	for _, want := range []string{"state idnone past 40 cells", "move orders that reach itnot counted (search)", "answered bysearch"} {
		if !slices.Contains(facts, want) {
			t.Errorf("facts %q lack %q", facts, want)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Click(`#board .cell[data-cell="3"]`),
		chromedp.Poll[chromedp.Void](`new URLSearchParams(location.search).get('moves') === '4' && document.querySelectorAll('#board .cell.move').length > 0`)); err != nil {
		t.Fatalf("a click on column 4 did not play and answer the next position: %v", err)
	}
}

// A position not settled within the time limit still shows its legal
// moves: a click on the empty board, whose search takes minutes, plays.
func TestBrowserUnsettled(t *testing.T) {
	ctx := browser(t)
	_, base := searched(t, 200*time.Millisecond, 10*time.Millisecond)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"),
		chromedp.Poll[chromedp.Void](`[...document.querySelectorAll('#facts tr')].some(r => r.textContent.includes('not settled'))`)); err != nil {
		t.Fatalf("the empty board was not shown as not settled: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`#board .cell[data-cell="3"]`),
		chromedp.Poll[chromedp.Void](`new URLSearchParams(location.search).get('moves') === '4'`)); err != nil {
		t.Fatalf("a click on column 4 of a position not settled did not play: %v", err)
	}
}

// Opening the page asks for nothing that fails: every request it makes,
// its icon among them, is answered below 400, as the server saw them (a
// favicon.ico of 404 was asked on every load before).
func TestBrowserNoFailedRequest(t *testing.T) {
	ctx := browser(t)
	var mu sync.Mutex
	var asked []string // "path status"
	srv := seen(t, func(r *http.Request, code int) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, fmt.Sprintf("%s %d", r.URL.Path, code))
	})
	do(t, ctx, "open the page", chromedp.Navigate(srv.URL+"/"),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('#board .cell').length === 9`))
	time.Sleep(time.Second) // the icon is asked after the page
	mu.Lock()
	defer mu.Unlock()
	icon := false
	for _, a := range asked {
		path, code, _ := strings.Cut(a, " ")
		if code >= "400" {
			t.Errorf("%s answered %s on load, want no failed request", path, code)
		}
		icon = icon || strings.HasPrefix(path, "/favicon")
	}
	if !icon {
		t.Errorf("the page asked %v, want its icon among them", asked)
	}
}

// seen serves the explorer of tic-tac-toe, solved, telling saw of each
// request and the status it was answered with, for the test's end.
func seen(t *testing.T, saw func(r *http.Request, code int)) *httptest.Server {
	t.Helper()
	o, err := oracle.Solved(t.Context(), rules.Classic(game.Default), oracle.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = NewServer(NewExplorer(t.Context(), rules.Classic(game.Default), o, 0), srv.Listener)
	inner := srv.Config.Handler
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &status{ResponseWriter: w, code: http.StatusOK}
		inner.ServeHTTP(rec, r)
		saw(r, rec.code)
	})
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// status records the status a handler writes.
type status struct {
	http.ResponseWriter
	code int
}

func (s *status) WriteHeader(code int) {
	s.code = code
	s.ResponseWriter.WriteHeader(code)
}

// Each tab of the page is a client of its own: its every API request
// carries its token (TabHeader), one a tab, so that a tab's "stop" ends
// only the searches it asked for and each has its own share of the queue.
func TestBrowserTabsApart(t *testing.T) {
	ctx := browser(t)
	var mu sync.Mutex
	tabs := map[string]int{} // token: API requests
	srv := seen(t, func(r *http.Request, _ int) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			mu.Lock()
			tabs[r.Header.Get(TabHeader)]++
			mu.Unlock()
		}
	})
	for i, tab := range []context.Context{ctx, nil} {
		if tab == nil { // a second tab of the browser the first started
			var cancel context.CancelFunc
			tab, cancel = chromedp.NewContext(ctx)
			defer cancel()
		}
		do(t, tab, fmt.Sprint("open the page in tab ", i+1), chromedp.Navigate(srv.URL+"/"),
			chromedp.Poll[chromedp.Void](`document.querySelectorAll('#board .cell').length === 9`),
			chromedp.Click(`#board .cell[data-cell="4"]`),
			chromedp.Poll[chromedp.Void](`document.querySelector('#board .cell[data-cell="4"]').textContent === 'X'`))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(tabs) != 2 || tabs[""] != 0 {
		t.Fatalf("the API was asked with tokens %v, want two, one a tab, none empty", tabs)
	}
}
