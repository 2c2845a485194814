package positions

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/journal"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

var connectFour = rules.New(rules.Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true})

func TestParsePlies(t *testing.T) {
	tests := []struct {
		name, text string
		want       Plies
		wantErr    string
	}{
		{"one ply", "8", Plies{8, 8}, ""},
		{"a range", "10-14", Plies{10, 14}, ""},
		{"the last ply", "41", Plies{41, 41}, ""},
		{"past the board", "42", Plies{}, "from 0 to 41"},
		{"backwards", "14-10", Plies{}, "want a number"},
		{"negative", "-1", Plies{}, "want a number"},
		{"words", "eight", Plies{}, `"eight"`},
		{"empty", "", Plies{}, "want a number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParsePlies(tt.text, 42)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParsePlies(%q) error %v, want one with %q", tt.text, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParsePlies(%q) = %v, %v; want %v", tt.text, got, err, tt.want)
			}
			if got.String() != tt.text {
				t.Errorf("String() = %q, want %q", got.String(), tt.text)
			}
		})
	}
}

func TestDraw(t *testing.T) {
	tests := []struct {
		name string
		rl   rules.Rules
		s    Sample
	}{
		{"connect four, plies 10 to 14", connectFour, Sample{N: 200, Seed: 1, Plies: Plies{10, 14}}},
		{"connect four, quiet ply 8", connectFour, Sample{N: 200, Seed: 2, Plies: Plies{8, 8}, Quiet: true}},
		{"3x3, every ply", rules.Classic(game.Spec{Rows: 3, Cols: 3, K: 3}), Sample{N: 50, Seed: 3, Plies: Plies{0, 8}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.s.Draw(context.Background(), tt.rl, nil)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := tt.s.Draw(context.Background(), tt.rl, nil)
			if !slices.Equal(got, again) {
				t.Errorf("two draws with seed %d differ", tt.s.Seed)
			}
			if len(got) != tt.s.N {
				t.Fatalf("%d positions, want %d", len(got), tt.s.N)
			}
			keys := map[game.Board]bool{}
			for _, b := range got {
				key := b
				if tt.s.Quiet {
					key, _ = game.Least(b, tt.rl.Symmetries())
				}
				if keys[key] {
					t.Errorf("%s comes twice", tt.rl.Spec().Format(b))
				}
				keys[key] = true
				if over, _ := tt.rl.Outcome(b); over || b.Ply() < tt.s.Plies.Low || b.Ply() > tt.s.Plies.High {
					t.Errorf("%s: ply %d, over %v; want plies %s in progress", tt.rl.Spec().Format(b), b.Ply(), over, tt.s.Plies)
				}
				if err := rules.CheckReachable(tt.rl, b); err != nil {
					t.Error(err)
				}
				if tt.s.Quiet && !rules.Quiet(tt.rl, b) {
					t.Errorf("%s is not quiet", tt.rl.Spec().Format(b))
				}
			}
		})
	}
}

func TestDrawTooMany(t *testing.T) {
	defer func(was int) { maxStale = was }(maxStale)
	maxStale = 64 // play stops early, as it does past a million games
	// 3x3 has 9 positions of ply 1, 3 up to symmetry.
	s := Sample{N: 4, Seed: 1, Plies: Plies{1, 1}, Quiet: true}
	_, err := s.Draw(context.Background(), rules.Classic(game.Spec{Rows: 3, Cols: 3, K: 3}), nil)
	if err == nil || !strings.Contains(err.Error(), "plies 1 hold 3 positions, fewer than the 4 asked for") {
		t.Fatalf("error %v, want one saying 3 of 4 were found", err)
	}
}

// A draw whose new positions grow too rare stops at the end of a block of
// maxStale games that found fewer than maxStale/minYield (where the plies
// are too many to fill from, with an error saying how far it got), and
// goes on while each block finds enough. The keeper is fed games of its
// own: distinct boards, then the same one again.
func TestKeeperYield(t *testing.T) {
	defer func(was int) { maxStale = was }(maxStale)
	maxStale = 2 * minYield // a block must find 2 new positions
	tests := []struct {
		name  string
		noisy bool
		found int // new positions in the second block
		want  string
	}{
		{"two new positions in the block", false, 2, ""},
		{"one, by random play", false, 1, "random play found 2049 of 10000 positions at plies 12-13, then only 1 new in its last 2048 games; ask for fewer, or for other plies"},
		{"one, by noisy perfect play", true, 1, "noisy perfect play found 2049 of 10000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Sample{N: 10000, Seed: 1, Plies: Plies{12, 13}}
			if tt.noisy {
				if err := s.WithEpsilon(0.25); err != nil {
					t.Fatal(err)
				}
			}
			k, err := s.Keeper(connectFour), error(nil)
			for g := 0; g <= 2*maxStale && err == nil; g++ { // the last game is the third block's first
				b := game.Board{X: game.Mask(g)}
				if g >= maxStale+tt.found && g < 2*maxStale {
					b = game.Board{X: 1} // kept before
				}
				err = k.Add(Drawn{Board: b, Kept: true})
			}
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Add = %v, want the draw to go on", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Add = %v, want an error with %q", err, tt.want)
			}
		})
	}
}

// A sample of every position at a ply (Connect Four's 16,422 at ply 6,
// which Check counts) ends: once play finds nothing new, the
// rest are taken from every position there, after what play drew, so a
// smaller sample is still a prefix and any number of players draw the
// same. (maxStale is lowered so that play stops early, as it does past a
// million games on the rarest positions.)
func TestDrawEvery(t *testing.T) {
	defer func(was int) { maxStale = was }(maxStale)
	maxStale = 64
	all := Sample{N: 16422, Seed: 1, Plies: Plies{6, 6}}
	got, err := all.Draw(context.Background(), connectFour, []BestMove{nil, nil})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[game.Board]bool{}
	for _, b := range got {
		if over, _ := connectFour.Outcome(b); over || b.Ply() != 6 || seen[b] {
			t.Fatalf("%s: over %v, ply %d, seen before %v; want each in progress at ply 6, once", connectFour.Spec().Format(b), over, b.Ply(), seen[b])
		}
		seen[b] = true
	}
	if len(got) != all.N {
		t.Fatalf("%d positions, want %d", len(got), all.N)
	}
	fewer := all
	fewer.N -= 500
	some, err := fewer.Draw(context.Background(), connectFour, nil)
	if err != nil || !slices.Equal(some, got[:fewer.N]) {
		t.Errorf("a sample of %d: %v, want the first %d of the whole sample", fewer.N, err, fewer.N)
	}
}

func TestRead(t *testing.T) {
	tests := []struct {
		name    string
		rl      rules.Rules
		text    string
		want    []string // the boards' moves
		wantErr string
	}{
		{"pons' format", connectFour, "2252576253462244111563365343671351441 -1\n7422341735647741166133573473242566 1\n", []string{"2252576253462244111563365343671351441", "7422341735647741166133573473242566"}, ""},
		{"comments, blanks, repeats", connectFour, "# a comment\n\n4453\n4453\t3\n  44\n", []string{"4453", "44"}, ""},
		{"free cells", rules.Classic(game.Spec{Rows: 3, Cols: 3, K: 3}), "4,0,8\n0\n", []string{"4,0,8", "0"}, ""},
		{"a full column", connectFour, "4444444\n", nil, "line 1: moves \"4444444\": move 7: column 4 is full"},
		{"past the end", rules.Classic(game.Spec{Rows: 3, Cols: 3, K: 3}), "0,3,1,4,2,5\n", nil, "line 1: moves \"0,3,1,4,2,5\": move 6: \"5\" comes after the game is over"},
		{"not a column", connectFour, "44\n48\n", nil, "line 2: "},
		{"nothing", connectFour, "# only a comment\n", nil, "no positions"},
		{"boards and moves", rules.Classic(game.Spec{Rows: 3, Cols: 3, K: 3}), "X../.O./...\n0,4\nx...o....\n", []string{"0,4"}, ""},
		{"a board that cannot arise", rules.Classic(game.Spec{Rows: 3, Cols: 3, K: 3}), "4\nXX./.../...\n", nil, "line 2: "},
		// Issue 43, case 6: a line without end is refused at its bound,
		// not read whole.
		{"a line past the bound", connectFour, "44\n" + strings.Repeat("\x00", MaxLine+1), nil, "line 2 is longer than 65536 bytes"},
		{"a score past the moves, within the bound", connectFour, "44 " + strings.Repeat("9", MaxLine-8) + "\n", []string{"44"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := Read(tt.rl, strings.NewReader(tt.text))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var want []game.Board
			for _, m := range tt.want {
				b, _ := rules.Play(tt.rl, game.Board{}, m)
				want = append(want, b)
			}
			if !slices.Equal(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

// replay plays the cells of h from the empty board.
func replay(h History) game.Board {
	var b game.Board
	for _, c := range h {
		b = b.Play(int(c), b.ToMove())
	}
	return b
}

// A line of moves gives its position's history, the cells played; a
// board gives none; a position that comes again keeps its first line's.
func TestReadHistories(t *testing.T) {
	text := "4453\n......./......./......./......./......./...X...\n44\n4\n"
	bs, hs, err := Read(connectFour, strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	// Columns 4, 4, 5, 3 from 1 land on cells 38, 31, 39, 37 of 6x7.
	want := []History{{38, 31, 39, 37}, nil, {38, 31}}
	if len(bs) != len(want) || len(hs) != len(want) {
		t.Fatalf("%d boards, %d histories, want %d", len(bs), len(hs), len(want))
	}
	for i := range want {
		if !slices.Equal(hs[i], want[i]) {
			t.Errorf("position %d: history %v, want %v", i, hs[i], want[i])
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add("4453 -2\n# x\n\n7422341735647741166133573473242566 1\n")
	f.Add("4444444\n")
	f.Add("......./......./......./......./......./...X...\n")
	f.Fuzz(func(t *testing.T, text string) {
		bs, hs, err := Read(connectFour, strings.NewReader(text))
		if err != nil {
			return
		}
		// Read must give boards of alternating play, and histories that
		// replay to them; whether each can arise is rules.Play's to say,
		// and TestRead's.
		for i, b := range bs {
			x, o := bits.OnesCount64(uint64(b.X)), bits.OnesCount64(uint64(b.O))
			if b.X&b.O != 0 || x-o < 0 || x-o > 1 {
				t.Errorf("read %q: a board of %d X and %d O", text, x, o)
			}
			if hs[i] != nil && replay(hs[i]) != b {
				t.Errorf("read %q: history %v does not make %s", text, hs[i], connectFour.Spec().Format(b))
			}
		}
	})
}

func FuzzParsePlies(f *testing.F) {
	f.Add("10-14")
	f.Add("8")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParsePlies(text, 42)
		if err != nil {
			return
		}
		if p.Low < 0 || p.High < p.Low || p.High > 41 {
			t.Errorf("ParsePlies(%q) = %v", text, p)
		}
		var back Plies
		if data, _ := p.MarshalText(); back.UnmarshalText(data) != nil || back != p {
			t.Errorf("%v written and read back is %v", p, back)
		}
	})
}

func ExampleSample_Draw() {
	s := Sample{N: 3, Seed: 7, Plies: Plies{Low: 8, High: 8}, Quiet: true}
	bs, _ := s.Draw(context.Background(), connectFour, nil)
	for _, b := range bs {
		fmt.Println(b.Ply(), rules.Quiet(connectFour, b))
	}
	// Output:
	// 8 true
	// 8 true
	// 8 true
}

func TestChoiceBoards(t *testing.T) {
	three := rules.Classic(game.Spec{Rows: 3, Cols: 3, K: 3})
	two := 2
	tests := []struct {
		name    string
		c       Choice
		want    int // positions
		counted bool
		wantErr string
	}{
		{"up to ply 2", Choice{From: "max_ply", MaxPly: &two}, 1 + 9 + 72, true, ""},
		// Tic-tac-toe's classes under its 8 symmetries: 1, 3 and 12.
		{"up to ply 2, one per class", Choice{From: "max_ply", MaxPly: &two, OnePerClass: true}, 1 + 3 + 12, true, ""},
		{"a sample", Choice{From: "sample", Sample: &Sample{N: 5, Seed: 1, Plies: Plies{2, 4}}}, 5, false, ""},
		{"a sample, one per class", Choice{From: "sample", Sample: &Sample{N: 40, Seed: 1, Plies: Plies{2, 4}, OnePerClass: true}}, 40, false, ""},
		{"a file, one per class", Choice{From: "file", OnePerClass: true, read: []game.Board{{X: 1}, {X: 1 << 2}, {X: 1 << 4}, {X: 1 << 8}}}, 2, false, ""},
		{"a file not opened", Choice{From: "file", File: "x.txt"}, 0, false, "were not read"},
		{"nothing", Choice{From: "guess"}, 0, false, "want sample, file or max_ply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bs, known, err := tt.c.Boards(context.Background(), three, 1, 1<<30, nil)
			paths := known.Paths
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || len(bs) != tt.want || len(paths) != len(bs) {
				t.Fatalf("%d boards, %d paths, %v; want %d of each", len(bs), len(paths), err, tt.want)
			}
			for i, b := range bs {
				if counted := paths[i] >= 0; counted != tt.counted {
					t.Fatalf("%s: paths %d, want counted %v", three.Spec().Format(b), paths[i], tt.counted)
				}
			}
			if tt.c.OnePerClass || tt.c.Sample != nil && tt.c.Sample.OnePerClass {
				classes := map[game.Board]bool{}
				for _, b := range bs {
					l, _ := game.Least(b, three.Symmetries())
					if classes[l] {
						t.Fatalf("%s: a second board of its class, want one of each", three.Spec().Format(b))
					}
					classes[l] = true
				}
			}
			for i, h := range known.Histories {
				if sampled := tt.c.From == "sample"; (h != nil) != sampled || h != nil && replay(h) != bs[i] {
					t.Fatalf("%s: history %v, want the game that drew it where sampled", three.Spec().Format(bs[i]), h)
				}
			}
			if tt.counted && paths[len(paths)-1] != 1 { // a board of ply 2: X's cell, then O's
				t.Errorf("the last board's paths %d, want 1", paths[len(paths)-1])
			}
		})
	}
}

// TestChoiceQuiet takes UCI's Connect-4 population, the quiet positions of
// ply 8, one of each mirror pair: 67,557 by its description.
func TestChoiceQuiet(t *testing.T) {
	eight := 8
	c := Choice{From: "max_ply", MaxPly: &eight, Quiet: true}
	bs, known, err := c.Boards(context.Background(), connectFour, 2, 1<<30, nil)
	paths := known.Paths
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(bs), 67557; got != want {
		t.Errorf("%d quiet positions of ply 8, want %d", got, want)
	}
	syms := connectFour.Symmetries()
	for i, b := range bs {
		l, _ := game.Least(b, syms)
		over, _ := connectFour.Outcome(b)
		if b.Ply() != 8 || over || !rules.Quiet(connectFour, b) || l != b || paths[i] < 1 {
			t.Fatalf("%s: ply %d, over %v, quiet %v, least %v, paths %d; want ply 8, in progress, quiet, the least of its class, counted",
				connectFour.Spec().Format(b), b.Ply(), over, rules.Quiet(connectFour, b), l == b, paths[i])
		}
	}
}

// A file is read as a stream: /dev/zero, one line without end, is refused
// at the line's bound at once, in little memory (issue 43, case 6).
func TestOpenStreams(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Open(context.Background(), connectFour, "/dev/zero")
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "/dev/zero: line 1 is longer than 65536 bytes") {
		t.Fatalf("Open(/dev/zero) = %v, want the line's bound", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 4*MaxLine {
		t.Errorf("Open(/dev/zero) allocated %d bytes, want at most %d", got, 4*MaxLine)
	}
}

// A sample drawn by noisy perfect play: with E 0 every move is a best one,
// so every position of tic-tac-toe it reaches is a draw, as the empty board
// is; with E 1, as without an E, random play reaches won and lost ones; the
// same seed draws the same positions; and without best moves a noisy draw
// refuses.
func TestDrawNoisy(t *testing.T) {
	rl := rules.Classic(game.Spec{Rows: 3, Cols: 3, K: 3})
	r, err := solve.Game(context.Background(), rl, 1)
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	best := func(_ context.Context, b game.Board) (uint64, error) {
		asked++
		i, _ := r.Enum.Lookup(game.ID(b))
		var m uint64
		for _, mv := range r.Analysis(i).Moves {
			if mv.Best {
				m |= 1 << mv.Cell
			}
		}
		return m, nil
	}
	value := func(b game.Board) perfect.Value {
		i, _ := r.Enum.Lookup(game.ID(b))
		return r.Value[i]
	}
	tests := []struct {
		name    string
		epsilon *float64
		allDraw bool
	}{
		{"perfect play", new(0.0), true},
		{"random play, E 1", new(1.0), false},
		{"random play, no E", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Sample{N: 40, Seed: 4, Plies: Plies{2, 6}, Epsilon: tt.epsilon}
			got, err := s.Draw(context.Background(), rl, []BestMove{byMask(best)})
			if err != nil {
				t.Fatal(err)
			}
			draws := 0
			for _, b := range got {
				if value(b) == perfect.Draw {
					draws++
				}
			}
			if allDraw := draws == len(got); allDraw != tt.allDraw {
				t.Errorf("%d of %d positions drawn, want all %t", draws, len(got), tt.allDraw)
			}
		})
	}
	noisy := Sample{N: 40, Seed: 4, Plies: Plies{2, 6}, Epsilon: new(0.25)}
	a, _ := noisy.Draw(context.Background(), rl, []BestMove{byMask(best)})
	b, _ := noisy.Draw(context.Background(), rl, []BestMove{byMask(best)})
	if !slices.Equal(a, b) || len(a) != 40 {
		t.Errorf("two noisy draws with one seed: %d and %d positions, equal %t; want 40 each, equal", len(a), len(b), slices.Equal(a, b))
	}
	if _, err := noisy.Draw(context.Background(), rl, nil); err == nil {
		t.Error("a noisy draw without best moves gave no error")
	}
}

// Games are played side by side, each from its own stream of choices, and
// their positions kept in the games' order: any number of players draws
// the same positions, and a smaller sample is the start of a larger one
// with the same seed.
func TestDrawPlayers(t *testing.T) {
	rl := rules.Classic(game.Spec{Rows: 3, Cols: 3, K: 3})
	r, err := solve.Game(context.Background(), rl, 1)
	if err != nil {
		t.Fatal(err)
	}
	best := func(_ context.Context, b game.Board) (uint64, error) {
		i, _ := r.Enum.Lookup(game.ID(b))
		return r.Analysis(i).BestCells(), nil
	}
	tests := []struct {
		name string
		s    Sample
	}{
		{"random play", Sample{N: 300, Seed: 5, Plies: Plies{3, 7}}},
		{"noisy perfect play", Sample{N: 300, Seed: 5, Plies: Plies{3, 7}, Epsilon: new(0.25)}},
		{"quiet, all there are", Sample{N: 3, Seed: 6, Plies: Plies{1, 1}, Quiet: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := tt.s.Draw(context.Background(), rl, []BestMove{byMask(best)})
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int{2, 3, 7} {
				got, err := tt.s.Draw(context.Background(), rl, slices.Repeat([]BestMove{byMask(best)}, n))
				if err != nil || !slices.Equal(got, want) {
					t.Errorf("%d players: %d positions, error %v; want one player's %d", n, len(got), err, len(want))
				}
			}
			small := tt.s
			small.N = tt.s.N - 1
			got, _ := small.Draw(context.Background(), rl, []BestMove{byMask(best)})
			if !slices.Equal(got, want[:small.N]) {
				t.Errorf("a sample of %d is not the start of one of %d", small.N, tt.s.N)
			}
		})
	}
}

// teller keeps what a draw tells, phase and text.
type teller struct {
	mu    sync.Mutex
	lines []string
}

func (t *teller) Report(string, int, int64, int64) {}
func (t *teller) Tell(phase, text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, phase+": "+text)
}

// A draw says where it is while it plays: the games played, the positions
// kept of N, the rate and the time left.
func TestDrawProgress(t *testing.T) {
	defer func(was time.Duration) { tellEvery = was }(tellEvery)
	tellEvery = 0
	tl := &teller{}
	s := Sample{N: 300, Seed: 1, Plies: Plies{8, 20}}
	if _, err := s.Draw(progress.With(context.Background(), tl), connectFour, []BestMove{nil, nil}); err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`^draw: game [0-9]+, [1-9][0-9]* of 300 positions kept, [0-9.e+]+ games a second, about [0-9hms.µ]+ left$`)
	for _, l := range tl.lines {
		if want.MatchString(l) {
			return
		}
	}
	t.Errorf("the draw told %d lines, the last %q; want one like %q", len(tl.lines), tl.lines[len(tl.lines)-1], want)
}

// The draw's line counts games read back from the journal of a draw
// resumed apart: they take no time, so its rate, and the time left, are
// of the games played. Where a new position takes many games, it says how
// many.
func TestDrawLine(t *testing.T) {
	now := time.Now()
	tests := []struct {
		name string
		t    *drawn
		want string
	}{
		{"a new draw", &drawn{n: 100, games: 50, seen: 50, have: 25, start: now.Add(-10 * time.Second)},
			"game 50, 25 of 100 positions kept, 5 games a second, about 30s left"},
		{"a draw resumed", &drawn{n: 100, games: 50, back: 40, seen: 50, have: 25, start: now.Add(-10 * time.Second)},
			"game 50, 25 of 100 positions kept (40 games read back), 1 games a second, about 2m30s left"},
		{"nothing played yet", &drawn{n: 100, games: 40, back: 40, seen: 40, have: 20, start: now.Add(-time.Second)},
			"game 40, 20 of 100 positions kept (40 games read back)"},
		{"new positions grown rare", &drawn{n: 100, games: 500, seen: 500, have: 50, start: now.Add(-10 * time.Second)},
			"game 500, 50 of 100 positions kept, 50 games a second, a new position every 10 games, about 10s left"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.t.text(now); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// A draw resumed reads its games back, then relearns them in its first
// game played, which may take minutes: its pace starts after that game,
// so that its first lines do not give days left at one game in those
// minutes.
func TestDrawLineResumed(t *testing.T) {
	ctx := context.Background()
	d := &drawn{n: 100, start: time.Now().Add(-80 * time.Second)} // 80 s of reading back and relearning
	for range 40 {
		d.played(ctx, true)
	}
	d.seen, d.have = 40, 20
	if got, want := d.text(time.Now()), "game 40, 20 of 100 positions kept (40 games read back)"; got != want {
		t.Errorf("before a game is played: got %q, want %q", got, want)
	}
	d.played(ctx, false) // the first game played, after the relearning
	d.games, d.seen, d.have = 51, 50, 25
	got := d.text(time.Now().Add(10 * time.Second))
	if want := "game 51, 25 of 100 positions kept (40 games read back), 1 games a second, about 2m30s left"; got != want {
		t.Errorf("10 s after the first game played, 10 more: got %q, want %q", got, want)
	}
}

// After a pause (the process stopped for an hour), the draw's line gives
// the pace of the games played since, not the average over the pause, and
// the games a position takes of late: its rate and time left are the last
// minutes'.
func TestDrawLinePace(t *testing.T) {
	now := time.Now()
	t0 := now.Add(-time.Hour)
	d := &drawn{n: 1000, start: t0}
	steps := []struct {
		at                time.Time
		games, seen, have int
		want              string
	}{
		{t0.Add(time.Minute), 1000, 1000, 500, "game 1000, 500 of 1000 positions kept, 16.7 games a second, about 1m0s left"},
		{now, 1100, 1100, 520, "game 1100, 520 of 1000 positions kept"}, // the first line after the pause
		{now.Add(time.Minute), 1200, 1200, 540, "game 1200, 540 of 1000 positions kept, 1.67 games a second, about 23m0s left"},
	}
	for _, st := range steps {
		d.games, d.seen, d.have = st.games, st.seen, st.have
		if got := d.text(st.at); got != st.want {
			t.Errorf("at %v: got %q, want %q", st.at.Sub(t0), got, st.want)
		}
	}
}

// A draw stopped part way goes on from the games its journal kept: the
// same positions as a draw never stopped, its games kept not played again
// (their best moves not asked again); a journal of another draw is begun
// anew, a file that is no journal refused and left, and RemoveGames lets
// the journal go.
func TestDrawKept(t *testing.T) {
	s := Sample{N: 150, Seed: 4, Plies: Plies{6, 16}}
	if err := s.WithEpsilon(0.25); err != nil {
		t.Fatal(err)
	}
	asks := 0
	first := func(_ context.Context, b game.Board) (uint64, error) {
		asks++
		return centremost(connectFour, b), nil
	}
	want, wantH, err := s.DrawKept(context.Background(), connectFour, []BestMove{byMask(first)}, "")
	if err != nil {
		t.Fatal(err)
	}
	whole := asks
	path := filepath.Join(t.TempDir(), ".out.games")
	ctx, stop := context.WithCancel(context.Background())
	asks = 0
	stopping := func(ctx context.Context, b game.Board) (uint64, error) {
		if asks == whole/2 {
			stop()
		}
		return first(ctx, b)
	}
	if _, _, err := s.DrawKept(ctx, connectFour, []BestMove{byMask(stopping)}, path); !errors.Is(err, context.Canceled) {
		t.Fatalf("the stopped draw: %v, want it cancelled", err)
	}
	asks = 0
	got, gotH, err := s.DrawKept(context.Background(), connectFour, []BestMove{byMask(first)}, path)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("the draw resumed: %v, and the positions differ: %t", err, !slices.Equal(got, want))
	}
	for i := range wantH { // the games read back from the journal, moves and all
		if !slices.Equal(gotH[i], wantH[i]) || replay(gotH[i]) != got[i] {
			t.Fatalf("position %d resumed with history %v, want %v, the game that drew it", i, gotH[i], wantH[i])
		}
	}
	if asks > whole-whole/3 {
		t.Errorf("the draw resumed asked %d best moves, the whole draw %d: the games kept were played again", asks, whole)
	}
	other := s
	other.Seed = 5
	if _, _, err := other.DrawKept(context.Background(), connectFour, []BestMove{byMask(first)}, path); err != nil {
		t.Errorf("another draw over the journal: %v, want it begun anew", err)
	}
	if err := RemoveGames(path); err != nil || fileExists(path) {
		t.Errorf("RemoveGames: %v, the file left: %t", err, fileExists(path))
	}
	mine := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.DrawKept(context.Background(), connectFour, []BestMove{byMask(first)}, mine); !errors.As(err, new(*journal.ForeignError)) {
		t.Errorf("a draw over a file of someone else: %v, want it refused", err)
	}
	old := filepath.Join(t.TempDir(), ".out.games") // an earlier version's, which drew otherwise
	if err := os.WriteFile(old, []byte(gamesMagicsBefore[1]+"0123456789abcdef0123456789abcdef"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.DrawKept(context.Background(), connectFour, []BestMove{byMask(first)}, old); !errors.As(err, new(*OldGamesError)) || !fileExists(old) {
		t.Errorf("a draw over an earlier version's journal: %v, left: %t; want it refused with a word and left", err, fileExists(old))
	}
	if err := RemoveGames(mine); err == nil || !fileExists(mine) {
		t.Errorf("RemoveGames of someone else's file: %v, left: %t; want it refused and left", err, fileExists(mine))
	}
}

// fileExists reports whether there is a file at path.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// byMask gives the BestMove of best, which gives a position's best cells
// as a mask.
func byMask(best func(ctx context.Context, b game.Board) (uint64, error)) BestMove {
	return func(ctx context.Context, b game.Board, cell int) (bool, error) {
		m, err := best(ctx, b)
		return m>>cell&1 == 1, err
	}
}

// centremost gives the legal moves of b nearest the centre column: a fake
// perfect play, but one that treats a board and its mirror image alike,
// as perfect play does.
func centremost(rl rules.Rules, b game.Board) uint64 {
	cols := rl.Spec().Cols
	near := cols
	var best uint64
	for m := uint64(rl.Moves(b)); m != 0; m &= m - 1 {
		cell := bits.TrailingZeros64(m)
		switch d := max(2*(cell%cols)-(cols-1), (cols-1)-2*(cell%cols)); {
		case d < near:
			near, best = d, 1<<cell
		case d == near:
			best |= 1 << cell
		}
	}
	return best
}
