package plan

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/tier"
)

func spec(rows, cols, k int, gravity, misere bool) rules.Spec {
	return rules.Spec{Spec: game.Spec{Rows: rows, Cols: cols, K: k}, Gravity: gravity, Misere: misere}
}

// For picks the engine of every kind of request, and says why; or refuses,
// saying why nothing can answer.
func TestFor(t *testing.T) {
	c4, free44 := rules.New(spec(6, 7, 4, true, false)), rules.New(spec(4, 4, 4, false, false))
	c4misere := rules.New(spec(6, 7, 4, true, true))
	g44 := rules.New(spec(4, 4, 4, true, false))
	dir := filepath.Join(t.TempDir(), "db")
	if _, err := tier.Solve(context.Background(), g44, dir, 2); err != nil {
		t.Fatal(err)
	}
	book := filepath.Join(t.TempDir(), "book")
	if _, err := tier.SolveBook(context.Background(), g44, 5, book, 2); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		req    Request
		engine perfect.Engine
		scope  Scope
		want   string // in Why, or in the error when engine is ""
	}{
		{"the whole game fits", Request{Rules: free44, Scope: Whole}, perfect.Memory, Whole, "the whole game fits in memory"},
		{"the whole game, tier by tier", Request{Rules: free44, Scope: Whole, Memory: 100e6}, perfect.Tiers, Whole, "needs about 439.5 MB of memory to enumerate"},
		{"the whole game fits nowhere", Request{Rules: free44, Scope: Whole, Memory: 1e6}, "", 0, "a tier solve holds up to"},
		{"the whole game past 25 cells is its empty board", Request{Rules: c4misere, Scope: Whole}, perfect.Search, One, "the whole game cannot be exhausted, so its empty board is answered: 42 cells, past the 25 the exhaustive solve takes"},
		{"Connect Four's empty board from the book built in", Request{Rules: c4, Scope: Whole}, perfect.Book, One, "its empty board is answered: the opening book built into tateti-lab holds every position to ply"},
		{"the whole game from a database", Request{Rules: g44, Scope: Whole, DB: dir}, perfect.DB, Whole, "holds the game solved, 161029 positions"},
		{"a database of another game", Request{Rules: free44, Scope: One, DB: dir}, "", 0, "not of 4x4 k=4"},
		{"no database there", Request{Rules: g44, Scope: One, DB: t.TempDir()}, "", 0, "holds no finished database"},
		{"one position from a book", Request{Rules: g44, Scope: One, DB: book}, perfect.Book, One, "holds every position to ply 5, 669 of them; search answers past it"},
		{"many positions from a book", Request{Rules: g44, Scope: Many, DB: book}, perfect.Book, Many, "search answers past it"},
		{"the whole game from a book", Request{Rules: g44, Scope: Whole, DB: book}, "", 0, "holds an opening book of 4x4 k=4 gravity to ply 5, not the whole game"},
		{"every position from a book", Request{Rules: g44, Scope: Every, DB: book}, "", 0, "not the whole game"},
		{"one position, the table where it fits", Request{Rules: g44, Scope: One}, perfect.Memory, One, "the game from this position fits in memory"},
		{"one position past 25 cells", Request{Rules: c4misere, Scope: One}, perfect.Search, One, "42 cells, past the 25 the exhaustive solve takes"},
		{"Connect Four's positions from the book built in", Request{Rules: c4, Scope: Many}, perfect.Book, Many, "built into tateti-lab"},
		{"Connect Four by search where named", Request{Rules: c4, Scope: One, Named: "search"}, perfect.Search, One, "named"},
		{"search where named", Request{Rules: g44, Scope: One, Named: "search"}, perfect.Search, One, "named"},
		{"the game in memory refused past 25 cells", Request{Rules: c4, Scope: One, Named: "memory"}, "", 0, "too many to exhaust"},
		{"the game in memory on free 6x6 refused, by its name before", Request{Rules: rules.New(spec(6, 6, 4, false, false)), Scope: One, Named: "table"}, "", 0, "too many to exhaust"},
		{"search on free 8x8", Request{Rules: rules.New(spec(8, 8, 5, false, false)), Scope: Many}, perfect.Search, Many, "64 cells, past the 25"},
		{"search where the table needs more memory", Request{Rules: free44, Scope: One, Memory: 1e6}, perfect.Search, One, "needs more memory than the exhaustive solve may take"},
		{"many positions, the whole game once", Request{Rules: free44, Scope: Many}, perfect.Memory, Many, "solved exhaustively once"},
		{"an unknown engine", Request{Rules: g44, Scope: One, Named: "db"}, "", 0, `engine "db" is unknown, want auto, memory or search`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Workers = 2
			p, err := For(tt.req)
			if tt.engine == "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("For gives %+v, %v; want an error with %q", p, err, tt.want)
				}
				return
			}
			if err != nil || p.Engine != tt.engine || p.Scope != tt.scope || !strings.Contains(p.Why, tt.want) {
				t.Fatalf("For gives %s, scope %d, why %q, %v; want %s, scope %d, why with %q", p.Engine, p.Scope, p.Why, err, tt.engine, tt.scope, tt.want)
			}
		})
	}
}

// A whole game solved tier by tier has the summary of the game enumerated
// in memory, under every rule set, and its counts for the side to move
// beside.
func TestWholeAgrees(t *testing.T) {
	for _, g := range []rules.Spec{
		spec(3, 3, 3, false, false), spec(3, 3, 3, false, true), spec(3, 4, 3, false, false),
		spec(4, 4, 4, true, false), spec(3, 4, 3, true, true),
	} {
		t.Run(g.String(), func(t *testing.T) {
			t.Setenv("TMPDIR", t.TempDir())
			rl := rules.New(g)
			e, err := tier.EstimateFor(rl, 2)
			if err != nil {
				t.Fatal(err)
			}
			in := Plan{Engine: perfect.Memory, Scope: Whole, req: Request{Rules: rl, Workers: 2}}
			want, err := in.Whole(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			tiers := Plan{Engine: perfect.Tiers, Scope: Whole, Tiers: e, req: Request{Rules: rl, Workers: 2}}
			got, err := tiers.Whole(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(got.ToMove) != g.Cells()+1 {
				t.Errorf("%d plies counted for the side to move, want %d", len(got.ToMove), g.Cells()+1)
			}
			got.ToMove = nil
			if !reflect.DeepEqual(got, want) {
				t.Errorf("tier by tier:\n%+v\nenumerated:\n%+v", got, want)
			}
		})
	}
}

// Each engine opens as the oracle its plan names, and says so.
func TestOracle(t *testing.T) {
	rl := rules.New(spec(3, 3, 3, false, false))
	for _, tt := range []struct {
		req  Request
		name perfect.Engine
	}{
		{Request{Rules: rl, Scope: One}, "memory"},
		{Request{Rules: rl, Scope: Many}, "memory"},
		{Request{Rules: rl, Scope: Many, Named: "search"}, "search"},
	} {
		p, err := For(tt.req)
		if err != nil {
			t.Fatal(err)
		}
		o, err := p.Oracle(context.Background(), oracle.Options{})
		if err != nil {
			t.Fatal(err)
		}
		a, err := o.Analyze(context.Background(), game.Board{})
		if err != nil || a.Engine != tt.name || o.Name() != tt.name || a.Value != 0 || a.Depth != 9 {
			t.Errorf("%+v: %s answers %s, value %d depth %d, %v; want %s, a draw in 9", tt.req, o.Name(), a.Engine, a.Value, a.Depth, err, tt.name)
		}
		if err := o.Close(); err != nil {
			t.Error(err)
		}
	}
}

// Answer and AnswerAll give what the opened oracle gives, by the engine
// planned, and in the order asked.
func TestAnswer(t *testing.T) {
	rl := rules.New(spec(3, 3, 3, false, false))
	won, err := rules.Position(rl, "", "0,3,1,4")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		named  string
		engine perfect.Engine
	}{{"memory", "memory"}, {"table", "memory"}, {"search", "search"}} {
		t.Run(tc.named, func(t *testing.T) {
			p, err := For(Request{Rules: rl, Scope: Many, Named: tc.named})
			if err != nil {
				t.Fatal(err)
			}
			a, err := p.Answer(context.Background(), game.Board{}, oracle.Options{}, 0)
			if err != nil || a.Engine != tc.engine || a.Value != 0 || a.Depth != 9 {
				t.Errorf("Answer: %s, value %d depth %d, %v; want %s, a draw in 9", a.Engine, a.Value, a.Depth, err, tc.engine)
			}
			as, err := p.AnswerAll(context.Background(), []game.Board{won, {}}, oracle.Batch{Phase: "test"}, oracle.Options{})
			if err != nil || len(as) != 2 || as[0].Value != 1 || as[0].Depth != 1 || as[1].Value != 0 {
				t.Fatalf("AnswerAll: %+v, %v; want X wins in 1, then a draw", as, err)
			}
		})
	}
}

// AnswerAll by an engine that searches answers with one searcher a worker:
// the same analyses for any number of workers, in the order asked.
func TestAnswerAllWorkers(t *testing.T) {
	rl := rules.New(spec(4, 5, 4, true, false))
	var bs []game.Board
	for _, moves := range []string{"", "3", "33", "3342", "11", "5544", "2233", "3", "12345"} {
		b, err := rules.Play(rl, game.Board{}, moves)
		if err != nil {
			t.Fatal(err)
		}
		bs = append(bs, b)
	}
	var want []perfect.Analysis
	for _, workers := range []int{1, 2, 3} {
		p, err := For(Request{Rules: rl, Scope: Many, Named: "search", Workers: workers, Memory: 64 << 20})
		if err != nil {
			t.Fatal(err)
		}
		as, err := p.AnswerAll(context.Background(), bs, oracle.Batch{Phase: "test"}, oracle.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = as
		}
		if !reflect.DeepEqual(as, want) {
			t.Errorf("%d workers: the analyses differ from one worker's", workers)
		}
	}
}

// A sample drawn by noisy perfect play at E 0.25 meets the positions strong
// play meets: at ply 12 of Connect Four, where the book answers every draw
// and label, fewer than one in ten is decided within three moves, where
// random play draws about a third such; and the positions are the same
// for one worker and two.
func TestNoisyDrawMeetsStrongPlay(t *testing.T) {
	rl := rules.New(spec(6, 7, 4, true, false))
	tests := []struct {
		name     string
		epsilon  *float64
		low, top int // the decided positions of 500 fall in [low, top)
	}{
		{"noisy perfect play, E 0.25", new(0.25), 0, 50},
		{"random play", nil, 125, 250},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &positions.Choice{From: "sample", Sample: &positions.Sample{N: 500, Seed: 3, Plies: positions.Plies{Low: 12, High: 12}, Epsilon: tt.epsilon}}
			var first []game.Board
			for _, workers := range []int{1, 2} {
				p, err := For(Request{Rules: rl, Scope: Many, Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				bs, _, err := p.Positions(context.Background(), c, workers, 1<<30)
				if err != nil {
					t.Fatal(err)
				}
				if first == nil {
					first = bs
				} else if !reflect.DeepEqual(bs, first) {
					t.Fatalf("%d workers drew other positions than one", workers)
				}
			}
			p, _ := For(Request{Rules: rl, Scope: Many, Workers: 2})
			as, err := p.AnswerAll(context.Background(), first, oracle.Batch{Phase: "test"}, oracle.Options{ValueOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			decided := 0
			for _, a := range as {
				if a.Value != perfect.Draw && a.Depth <= 3 {
					decided++
				}
			}
			if decided < tt.low || decided >= tt.top {
				t.Errorf("%d of 500 decided within 3 moves, want %d to %d", decided, tt.low, tt.top-1)
			}
		})
	}
}
