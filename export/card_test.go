package export

import (
	"context"
	goflag "flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

var update = goflag.Bool("update", false, "rewrite the golden files under testdata/")

var solvedGames sync.Map // rules.Spec to *solve.Result: each game solved once

// solvedOnce gives rl's game solved, once for all the tests.
func solvedOnce(rl rules.Rules) *solve.Result {
	if r, ok := solvedGames.Load(rl.Spec()); ok {
		return r.(*solve.Result)
	}
	r, err := solve.Game(context.Background(), rl, 2)
	if err != nil {
		panic(err)
	}
	solvedGames.Store(rl.Spec(), r)
	return r
}

// label gives every step-th position of rl's game as a chosen set that
// choice describes, no paths counted.
func label(rl rules.Rules, step int, choice positions.Choice) Source {
	as := every(rl, step)
	return Label(rl, as, positions.None(len(as)), choice)
}

// every gives the analyses of every step-th position of rl's game.
func every(rl rules.Rules, step int) []perfect.Analysis {
	r := solvedOnce(rl)
	var as []perfect.Analysis
	for i := 0; i < r.Enum.Len(); i += step {
		as = append(as, r.Analysis(i))
	}
	return as
}

// The data card an export writes says what the manifest says, in words
// a user reads: its goldens are read by eye once and then held.
func TestCard(t *testing.T) {
	ttt := rules.Classic(game.Default)
	gravity := rules.New(rules.Spec{Spec: game.Spec{Rows: 3, Cols: 4, K: 3}, Gravity: true})
	plies, _ := positions.ParsePlies("2-6", 9)
	eps := 0.25
	sample := positions.Choice{From: "sample", Sample: &positions.Sample{N: 120, Seed: 3, Plies: plies, Epsilon: &eps}}
	tests := []struct {
		name    string
		src     Source
		formats []string
	}{
		{"tic-tac-toe", Game(solvedOnce(ttt)), Formats},
		{"tic-tac-toe-sample", label(ttt, 37, sample), []string{"csv"}},
		{"gravity-3x4-file", label(gravity, 5, positions.Choice{From: "file", File: "positions.txt", SHA256: "5d41402abc4b2a76b9719d911017c592"}), []string{"parquet"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			w, err := Write(context.Background(), tt.src, Options{Target: target(t, dir, tt.formats), Meta: meta})
			if err != nil {
				t.Fatal(err)
			}
			if w.Card != CardName {
				t.Errorf("Written.Card = %q, want %q", w.Card, CardName)
			}
			got, err := os.ReadFile(filepath.Join(dir, CardName))
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "card-"+tt.name+".md")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("the card differs from %s (go test ./export -run TestCard -update rewrites it):\n%s", golden, got)
			}
		})
	}
}

// The figures are the rows' own: counted again here from the solved game,
// apart from the writer's tally, for the whole game and a chosen set.
func TestFigures(t *testing.T) {
	rl := rules.Classic(game.Default)
	r := solvedOnce(rl)
	_, w := write(t, r, "csv")
	want := map[int]*PlyFigures{}
	for i := range r.Enum.Len() {
		a := r.Analysis(i)
		p := want[a.Board.Ply()]
		if p == nil {
			p = &PlyFigures{Ply: a.Board.Ply(), Soon: new(int64)}
			want[p.Ply] = p
		}
		p.Rows++
		switch {
		case a.Value > 0:
			p.XWins++
		case a.Value == 0:
			p.Draws++
		default:
			p.OWins++
		}
		if a.Status.Terminal() {
			p.Over++
		} else if a.Depth <= SoonPlies {
			*p.Soon++
		}
	}
	if got := len(w.Figures.Plies); got != len(want) {
		t.Fatalf("%d plies in the figures, want %d", got, len(want))
	}
	for _, got := range w.Figures.Plies {
		if !reflect.DeepEqual(got, *want[got.Ply]) {
			t.Errorf("ply %d: figures %+v (ends soon %d), want %+v (ends soon %d)", got.Ply, got, *got.Soon, *want[got.Ply], *want[got.Ply].Soon)
		}
	}
	if w.Figures.Classes != 0 {
		t.Errorf("a whole game's figures count %d classes, want none said", w.Figures.Classes)
	}
	// A chosen set: every 11th position, and its images under the
	// symmetries, some of which are in it.
	as := every(rl, 11)
	classes := map[uint64]bool{}
	for _, a := range as {
		classes[a.CanonicalID] = true
	}
	cw, err := Write(context.Background(), Label(rl, as, positions.None(len(as)), positions.Choice{From: "file"}), Options{Target: target(t, t.TempDir(), []string{"csv"}), Meta: meta})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cw.Figures.Classes, int64(len(classes)); got != want || want == int64(len(as)) {
		t.Errorf("classes = %d, want %d of %d rows (some rows images of others)", got, want, len(as))
	}
}

// A README.md that no export wrote is its user's: kept, and no card is
// written beside it; a card an export wrote is replaced by the next.
func TestCardKeepsUsersReadme(t *testing.T) {
	rl := rules.Classic(game.Default)
	tests := []struct {
		name     string
		readme   string // "" for none
		wantCard bool
	}{
		{"none", "", true},
		{"a user's", "# my notes\n", false},
		{"a user's, front matter", "---\nlicense: mit\n---\n", false},
		{"an earlier card", string(Card(&Manifest{Tool: "tateti-lab", Version: "old", Game: rl.Spec(), Figures: &Figures{}})), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.readme != "" {
				if err := os.WriteFile(filepath.Join(dir, CardName), []byte(tt.readme), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			w, err := Write(context.Background(), label(rl, 500, positions.Choice{From: "file"}), Options{Target: target(t, dir, []string{"csv"}), Meta: meta})
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(dir, CardName))
			if err != nil {
				t.Fatal(err)
			}
			isCard := strings.Contains(string(got), "## Figures")
			if isCard != tt.wantCard || (w.Card != "") != tt.wantCard {
				t.Errorf("card written %v (Written.Card %q), want %v", isCard, w.Card, tt.wantCard)
			}
			if !tt.wantCard && string(got) != tt.readme {
				t.Errorf("the user's README.md became %q, want it kept: %q", got, tt.readme)
			}
			if tt.wantCard && strings.Contains(string(got), " old ") {
				t.Errorf("the earlier card was kept, want it replaced:\n%s", got)
			}
		})
	}
}
