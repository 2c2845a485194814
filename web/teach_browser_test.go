package web

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The browser tests of the explorer for a class: what it shows while a
// line is drawn, what it names, and what a bad link or board says.

// consoleErrors gathers what the page logs as an error: a failed request,
// an uncaught exception, console.error.
func consoleErrors(t *testing.T, ctx context.Context) func() []string {
	t.Helper()
	var mu sync.Mutex
	var errs []string
	if err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError {
				errs = append(errs, e.Entry.Text)
			}
		case *runtime.EventExceptionThrown:
			errs = append(errs, e.ExceptionDetails.Text)
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError {
				errs = append(errs, "console.error")
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	enable := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, log.Enable, cdp.Empty{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, runtime.Enable, cdp.Empty{})
		return err
	})
	do(t, ctx, "listen to the console", enable)
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), errs...)
	}
}

// O to move after X took opposite corners and O the centre: a corner
// loses, and "why?" draws X's line to a double threat.
const losingCorner = "/?moves=0,4,8"

// While a line is drawn its discs carry their side's letter, the
// position's own values give way to it, and a threat is dashed in red,
// apart from a best move's frame; the labels of the moves are in the
// results' colours; at 390 px the sentence and its buttons sit right
// under the board.
func TestBrowserTeaching(t *testing.T) {
	ctx := browser(t)
	base := server(t, rules.Classic(game.Default)).URL
	do(t, ctx, "open the position", chromedp.EmulateViewport(390, 900), chromedp.Navigate(base+losingCorner),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('#board .cell.move').length === 6`))
	// Labels in the results' colours: a losing move's as the legend's "loss".
	if got := evaluate[[]string](t, ctx, `[getComputedStyle(document.querySelector('#board .cell.move.loss')).color,
		getComputedStyle(document.querySelector('.legend .loss')).color]`); got[0] != got[1] {
		t.Errorf("a losing move's label is %s, the legend's loss %s; want the result's colour", got[0], got[1])
	}
	if got := evaluate[string](t, ctx, `getComputedStyle(document.querySelector('#board .cell.best')).boxShadow`); got == "none" {
		t.Errorf("a best move has no frame before any line is drawn")
	}
	do(t, ctx, "ask why of a corner", chromedp.Click(`#moves button.why[data-cell="2"]`),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('#board .ghost').length === 1`),
		chromedp.Click(`#whyall`),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('#board .threat').length > 0`))
	ghosts := evaluate[[]string](t, ctx, `[...document.querySelectorAll('#board .ghost')].map((g) => g.textContent)`)
	for _, g := range ghosts {
		if !strings.HasPrefix(g, "X") && !strings.HasPrefix(g, "O") {
			t.Errorf("a disc of the line reads %q, want its side's letter and its move", g)
		}
	}
	styles := evaluate[map[string]string](t, ctx, `(() => {
	  const threat = getComputedStyle(document.querySelector('#board .threat'));
	  const move = document.querySelector('#board .cell.move:not(.threat)');
	  return { threatOutline: threat.outlineStyle, threatShadow: threat.boxShadow,
	    moveLabel: move ? getComputedStyle(move).color : 'rgba(0, 0, 0, 0)' };
	})()`)
	if styles["threatOutline"] != "dashed" || styles["threatShadow"] != "none" {
		t.Errorf("a threat is drawn with outline %s and shadow %s, want dashed, apart from a best move's solid frame", styles["threatOutline"], styles["threatShadow"])
	}
	if styles["moveLabel"] != "rgba(0, 0, 0, 0)" {
		t.Errorf("while the line is drawn the position's own values show (colour %s), want them hidden", styles["moveLabel"])
	}
	under := evaluate[[]float64](t, ctx, `(() => {
	  const cells = [...document.querySelectorAll('#board .cell')].map((c) => c.getBoundingClientRect().bottom);
	  const why = document.getElementById('whyline').getBoundingClientRect();
	  return [why.top - Math.max(...cells), document.querySelector('.legend').getBoundingClientRect().top - why.bottom];
	})()`)
	if under[0] < 0 || under[0] > 40 || under[1] < 0 {
		t.Errorf("at 390 px the sentence starts %.0f px under the board and ends %.0f px above the legend; want it right under the board", under[0], under[1])
	}
	do(t, ctx, "hide the line", chromedp.Click(`#whyhide`),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('#board .ghost').length === 0`))
	if got := evaluate[string](t, ctx, `getComputedStyle(document.querySelector('#board .cell.move.loss')).color`); got == "rgba(0, 0, 0, 0)" {
		t.Errorf("the values stay hidden once the line is gone")
	}
}

// The page names the game, and under gravity the discs' colours; a bad
// link names the move of the link that fails; a refused board or link
// logs no error in the console.
func TestBrowserNamesAndRefusals(t *testing.T) {
	ctx := browser(t)
	errs := consoleErrors(t, ctx)
	ttt := server(t, rules.Classic(game.Default)).URL
	_, c4 := searched(t, 0, 10*time.Millisecond)
	tests := []struct {
		name, url, game, error string
	}{
		{"tic-tac-toe", ttt + "/", "Tic-tac-toe: 3 rows by 3 columns, 3 in a row wins.", ""},
		{"connect four", c4 + "/?moves=4,4", "Connect Four: 6 rows by 7 columns, 4 in a row wins; a disc drops to the lowest free cell of its column; X plays the red discs, O the yellow.", ""},
		{"a link's seventh move", c4 + "/?moves=4,4,4,4,4,4,4", "Connect Four", `move 7: column 4 is full`},
		{"a board that cannot arise", ttt + "/?board=XXX/OOO/...", "Tic-tac-toe", "XXX/OOO/..."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(errs())
			do(t, ctx, "open the page", chromedp.EmulateViewport(1280, 900), chromedp.Navigate(tt.url),
				chromedp.Poll[chromedp.Void](`document.querySelectorAll('#board .cell').length > 0 && document.getElementById('game').textContent !== ''`))
			if tt.error != "" {
				do(t, ctx, "wait for the error", chromedp.Poll[chromedp.Void](`document.getElementById('error').textContent !== ''`))
			}
			time.Sleep(300 * time.Millisecond) // a late request's error, if any
			if got := evaluate[string](t, ctx, `document.getElementById('game').textContent`); !strings.HasPrefix(got, tt.game) {
				t.Errorf("the page names the game %q, want %q", got, tt.game)
			}
			if got := evaluate[string](t, ctx, `document.getElementById('error').textContent`); !strings.Contains(got, tt.error) || (tt.error == "") != (got == "") {
				t.Errorf("the page says %q, want %q", got, tt.error)
			}
			legend := evaluate[string](t, ctx, `document.querySelector('.legend').innerText`)
			if gravity := strings.HasPrefix(tt.game, "Connect Four"); strings.Contains(legend, "column") != gravity || strings.Contains(legend, "mark") == gravity {
				t.Errorf("the legend says %q, want the words of this game alone (columns and discs under gravity, cells and marks otherwise)", legend)
			}
			if got := errs()[before:]; len(got) > 0 {
				t.Errorf("the console logged %q, want no error", got)
			}
		})
	}
}
