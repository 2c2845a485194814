package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/rules"
)

// FuzzAPI asks the API with any query, of tic-tac-toe solved whole: it
// answers a 200 with the view of a position that can arise in play and
// holds every mark of the board asked (and those of the moves given), or a
// 400 with a JSON error; never a panic, never another status.
func FuzzAPI(f *testing.F) {
	for _, q := range []string{"board=", "board=.../.X./...", "board=X../.../...&move=4", "board=%ZZ", "move=4",
		"board=XXX/OOO/...", "board=&board=", "board=X........;x=1", "board=X..%2F...%2F...", "board=.../.../...&move=9", "board=XO./.../...&move=-1"} {
		f.Add(q)
	}
	rl, h := fuzzed(f)
	f.Fuzz(func(t *testing.T, query string) {
		var body struct {
			Board string
			Error string
		}
		code, raw := askJSON(t, h, "/api/position", query, &body)
		switch {
		case code == 400 && body.Error != "":
		case code == 200:
			b, err := read(rl, body.Board, "")
			if err != nil {
				t.Fatalf("?%s: the view's board %q does not read back: %v", query, body.Board, err)
			}
			q, _ := readQuery(query)
			if asked, _ := read(rl, q["board"], ""); b.X&asked.X != asked.X || b.O&asked.O != asked.O {
				t.Fatalf("?%s: the view's board %q lacks marks of the board asked", query, body.Board)
			}
		default:
			t.Fatalf("?%s: status %d, body %q; want 200, or 400 with an error", query, code, raw)
		}
	})
}

// FuzzWhy asks /api/why with any query, of tic-tac-toe solved whole: it
// answers a 200 with a line of legal moves from the board asked, or a 400
// with a JSON error; never a panic, never another status.
func FuzzWhy(f *testing.F) {
	for _, q := range []string{"board=&move=4", "board=X../.../...&move=1", "board=", "move=4", "board=XX./OO./...&move=5",
		"board=XXX/OO./...&move=5", "board=&move=4&poll=1", "board=&move=4,0", "board=&move=x"} {
		f.Add(q)
	}
	rl, h := fuzzed(f)
	f.Fuzz(func(t *testing.T, query string) {
		var body struct {
			Board string
			Line  []int
			Error string
		}
		code, raw := askJSON(t, h, "/api/why", query, &body)
		switch {
		case code == 400 && body.Error != "":
		case code == 200:
			b, err := read(rl, body.Board, "")
			if err != nil || len(body.Line) == 0 {
				t.Fatalf("?%s: board %q (%v), line %v; want a board that reads back and a line", query, body.Board, err, body.Line)
			}
			for _, c := range body.Line {
				if c < 0 || c > 63 || rl.Moves(b)&(1<<c) == 0 {
					t.Fatalf("?%s: the line %v plays %d, not a legal move of %s", query, body.Line, c, rl.Spec().Format(b))
				}
				b = b.Play(c, b.ToMove())
			}
		default:
			t.Fatalf("?%s: status %d, body %q; want 200, or 400 with an error", query, code, raw)
		}
	})
}

// fuzzed gives tic-tac-toe and the API's handler over it, solved whole.
func fuzzed(f *testing.F) (rules.Rules, http.Handler) {
	rl := rules.Classic(game.Default)
	o, err := oracle.Solved(context.Background(), rl, oracle.Options{Workers: 1})
	if err != nil {
		f.Fatal(err)
	}
	return rl, Handler(NewExplorer(context.Background(), rl, o, 0))
}

// askJSON sends h a GET of path with query, reads its body as JSON into
// body, and gives the status and the body's text; a body that is not JSON
// fails the test.
func askJSON(t *testing.T, h http.Handler, path, query string, body any) (int, string) {
	t.Helper()
	r := httptest.NewRequest("GET", path, nil)
	r.URL.RawQuery = query
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if err := json.Unmarshal(w.Body.Bytes(), body); err != nil {
		t.Fatalf("?%s: status %d, body %q is not JSON: %v", query, w.Code, w.Body, err)
	}
	return w.Code, w.Body.String()
}
