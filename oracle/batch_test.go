package oracle

import (
	"context"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
)

// stopping answers as its Oracle does, counting the calls, and cancels
// stop after the answer of the call numbered at (from 1).
type stopping struct {
	Oracle
	calls atomic.Int64
	at    int64
	stop  context.CancelFunc
}

func (s *stopping) Analyze(ctx context.Context, b game.Board) (perfect.Analysis, error) {
	a, err := s.Oracle.Analyze(ctx, b)
	if s.calls.Add(1) == s.at {
		s.stop()
	}
	return a, err
}

// atOnce is its Oracle, saying it answers every board at once, as a book
// says of its positions: the journal keeps its answers unsynced.
type atOnce struct{ Oracle }

func (atOnce) Instant(game.Board) bool { return true }

// A batch with a journal, stopped part way, resumes from the answers it
// kept: the run after asks only for the rest, and the answers are those of
// a batch never stopped. A damaged journal loses only its damaged tail; a
// journal of another batch is replaced; a file that is no journal is
// refused and left as it is.
func TestJournal(t *testing.T) {
	// By search: the table solves each board from scratch, seconds a board
	// under the race detector, and the journal is the same for either.
	rl, boards, whole, want := searchedBatch(t, 5, 12)
	tests := []struct {
		name   string
		damage func(t *testing.T, path string) // after the stop, before the resume
		asked  int64                           // by the resumed run
	}{
		{"stopped after 5", func(*testing.T, string) {}, 7},
		{"its last record cut short", func(t *testing.T, path string) { cut(t, path, 3) }, 8},
		{"its last record's length damaged", func(t *testing.T, path string) { lengthOfLast(t, path, maxRecord+1) }, 8},
		{"a journal of another batch", func(t *testing.T, path string) {
			if _, err := openJournal(path, [32]byte{1}, func(int, perfect.Analysis) {}); err != nil {
				t.Fatal(err)
			}
		}, 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := stoppedAt5(t, whole, rl, boards)
			tt.damage(t, path)
			again := &stopping{Oracle: whole}
			got, err := All(context.Background(), []Oracle{again}, rl, boards, Batch{Phase: "test", Journal: path})
			if err != nil {
				t.Fatal(err)
			}
			if n := again.calls.Load(); n != tt.asked {
				t.Errorf("the resumed run asked for %d positions, want %d", n, tt.asked)
			}
			if !reflect.DeepEqual(got, want) {
				t.Error("the resumed run's answers differ from an unstopped run's")
			}
			if err := RemoveJournal(path); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the journal is still there after RemoveJournal: %v", err)
			}
		})
	}
	t.Run("answers given at once, kept unsynced", func(t *testing.T) {
		path := stoppedAt5(t, atOnce{whole}, rl, boards)
		again := &stopping{Oracle: whole}
		got, err := All(context.Background(), []Oracle{again}, rl, boards, Batch{Phase: "test", Journal: path})
		if err != nil {
			t.Fatal(err)
		}
		if n := again.calls.Load(); n != 7 || !reflect.DeepEqual(got, want) {
			t.Errorf("the resumed run asked for %d positions, want 7, and its answers are an unstopped run's: %t", n, reflect.DeepEqual(got, want))
		}
	})
	t.Run("whole answers, then values alone", func(t *testing.T) {
		alone, err := Search(rl, Options{Workers: 1, ValueOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		path := stoppedAt5(t, whole, rl, boards)
		again := &stopping{Oracle: alone}
		got, err := All(context.Background(), []Oracle{again}, rl, boards, Batch{Phase: "test", Journal: path, ValueOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if n := again.calls.Load(); n != int64(len(boards)) {
			t.Errorf("the run of values alone asked for %d positions, want all %d: the whole answers are another batch's", n, len(boards))
		}
		for i, a := range got {
			if !a.ValueOnly || a.Moves != nil || a.Value != want[i].Value || a.Depth != want[i].Depth {
				t.Fatalf("answer %d: value only %v, %d moves, %d in %d; want the value alone, %d in %d", i, a.ValueOnly, len(a.Moves), a.Value, a.Depth, want[i].Value, want[i].Depth)
			}
		}
	})
	// An earlier version's journal, unversioned or of records of another
	// shape, is refused with a word and left: its answers would decode
	// with the fields they lack empty.
	v := recordVersion()
	for name, head := range map[string]string{
		"an unversioned journal":         journalMagicV1 + strings.Repeat("k", 32),
		"a journal of another version":   journalMagic + "\x01\x02\x03\x04\x05\x06\x07\x08" + strings.Repeat("k", 32),
		"a journal of this version only": journalMagic + string(v[:]) + strings.Repeat("k", 32),
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ".out.answers")
			if err := os.WriteFile(path, []byte(head), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := All(context.Background(), []Oracle{whole}, rl, boards, Batch{Phase: "test", Journal: path})
			if old := errors.As(err, new(*OldJournalError)); old != (name != "a journal of this version only") {
				t.Fatalf("All over %s: %v; want it refused as an earlier version's: %t", name, err, !old)
			}
		})
	}
	t.Run("a file that is no journal", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), ".out.answers")
		if err := os.WriteFile(path, []byte("my notes\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := All(context.Background(), []Oracle{whole}, rl, boards, Batch{Phase: "test", Journal: path})
		if err == nil || !strings.Contains(err.Error(), "is no journal") {
			t.Fatalf("All over a file of mine: %v, want a refusal", err)
		}
		if err := RemoveJournal(path); err == nil {
			t.Error("RemoveJournal removed a file that is no journal")
		}
		if data, _ := os.ReadFile(path); string(data) != "my notes\n" {
			t.Errorf("the file now holds %q", data)
		}
	})
}

// searchedBatch gives n random positions of gravity 4x4 k=4, drawn from
// seed, an oracle that searches them with one worker, and its answers.
func searchedBatch(t *testing.T, seed uint64, n int) (rules.Rules, []game.Board, Oracle, []perfect.Analysis) {
	t.Helper()
	rl := rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 4}, Gravity: true})
	rng := rand.New(rand.NewPCG(seed, seed+1))
	boards := make([]game.Board, n)
	for i := range boards {
		boards[i] = randomPosition(rl, rng)
	}
	o, err := Search(rl, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	want, err := All(context.Background(), []Oracle{o}, rl, boards, Batch{Phase: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return rl, boards, o, want
}

// stoppedAt5 runs a batch of boards by o with a journal, stopped after its
// fifth answer, and gives the journal's path.
func stoppedAt5(t *testing.T, o Oracle, rl rules.Rules, boards []game.Board) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), ".out.answers")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := &stopping{Oracle: o, at: 5, stop: cancel}
	if _, err := All(ctx, []Oracle{first}, rl, boards, Batch{Phase: "test", Journal: path}); !errors.Is(err, context.Canceled) {
		t.Fatalf("the stopped run gave %v, want %v", err, context.Canceled)
	}
	return path
}

// lengthOfLast writes n as the length of the last record of the journal
// at path.
func lengthOfLast(t *testing.T, path string, n uint32) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	last := -1
	for at := len(journalMagic) + len(recordVersion()) + 32; at+8 <= len(data); at += 8 + int(binary.LittleEndian.Uint32(data[at:])) {
		last = at
	}
	if last < 0 {
		t.Fatal("the journal holds no record")
	}
	binary.LittleEndian.PutUint32(data[last:], n)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// cut removes the last n bytes of the file at path.
func cut(t *testing.T, path string, n int64) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, fi.Size()-n); err != nil {
		t.Fatal(err)
	}
}

// Within a batch's limit, a position not settled comes back with what was
// proved; the others are answered.
func TestBatchLimit(t *testing.T) {
	c4 := rules.New(rules.Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true})
	late, err := rules.Play(c4, game.Board{}, "2252576253462244111563365343671351441")
	if err != nil {
		t.Fatal(err)
	}
	o, err := Search(c4, Options{Memory: 64 << 20, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	as, err := All(context.Background(), []Oracle{o}, c4, []game.Board{{}, late}, Batch{Phase: "test", Limit: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if as[0].Proved == nil || as[1].Proved != nil {
		t.Errorf("proved: empty board %v, late position %v; want the empty board alone not settled", as[0].Proved, as[1].Proved)
	}
}

// The head of a batch's progress says the position, what an earlier run
// answered, the rate and the time left.
func TestBatchHead(t *testing.T) {
	tests := []struct {
		name                 string
		done, before, n, ran int
		took                 time.Duration
		want                 string
	}{
		{"the first", 0, 0, 200, 0, 0, "position 1 of 200"},
		{"ten a second", 20, 0, 200, 20, 2 * time.Second, "position 21 of 200, 10 a second, about 18s left"},
		{"resumed", 60, 50, 200, 10, 5 * time.Second, "position 61 of 200 (50 answered before), 2 a second, about 1m10s left"},
		{"fast", 2000, 0, 3000, 2000, 80 * time.Millisecond, "position 2001 of 3000, 25000 a second, about 0s left"},
		{"the last minutes' pace", 1000, 0, 2000, 100, 10 * time.Minute, "position 1001 of 2000, 0.167 a second, about 1h40m0s left"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := batchHead(tt.done, tt.before, tt.n, tt.ran, tt.took); got != tt.want {
				t.Errorf("batchHead = %q, want %q", got, tt.want)
			}
		})
	}
}

// Several oracles answer a batch side by side, each the next position not
// yet taken: the answers are one oracle's, in the order of the boards, each
// position asked once; resumed from a journal, the rest only.
func TestAllSideBySide(t *testing.T) {
	rl, boards, one, want := searchedBatch(t, 7, 16)
	searchers := func(n int) ([]Oracle, *atomic.Int64) {
		var asked atomic.Int64
		ors := make([]Oracle, n)
		for i := range ors {
			s, err := Search(rl, Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			ors[i] = counting{s, &asked}
		}
		return ors, &asked
	}
	for _, n := range []int{2, 3, 16} {
		ors, asked := searchers(n)
		got, err := All(context.Background(), ors, rl, boards, Batch{Phase: "test"})
		if err != nil || !reflect.DeepEqual(got, want) || asked.Load() != int64(len(boards)) {
			t.Errorf("%d searchers: %v, %d asked, the same answers %t; want one searcher's, each board asked once", n, err, asked.Load(), reflect.DeepEqual(got, want))
		}
	}
	path := stoppedAt5(t, one, rl, boards)
	ors, asked := searchers(3)
	got, err := All(context.Background(), ors, rl, boards, Batch{Phase: "test", Journal: path})
	if err != nil || !reflect.DeepEqual(got, want) || asked.Load() != int64(len(boards)-5) {
		t.Errorf("3 searchers resuming: %v, %d asked, the same answers %t; want one searcher's, the %d not kept asked", err, asked.Load(), reflect.DeepEqual(got, want), len(boards)-5)
	}
}

// counting answers as its Oracle does, counting the calls in asked.
type counting struct {
	Oracle
	asked *atomic.Int64
}

func (c counting) Analyze(ctx context.Context, b game.Board) (perfect.Analysis, error) {
	c.asked.Add(1)
	return c.Oracle.Analyze(ctx, b)
}

// Of boards that are images of each other, a batch asks the first alone
// where its answer says the others' (no best line), and each image's
// answer is the one the oracle gives when asked it: on a board of eight
// symmetries and under gravity, with every move's value and depth, without
// depths and the value alone; resumed from a journal as well.
func TestAllAsksAClassOnce(t *testing.T) {
	ttt := rules.New(rules.Spec{Spec: game.Spec{Rows: 3, Cols: 3, K: 3}})
	c4 := rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 5, K: 4}, Gravity: true})
	for _, tc := range []struct {
		name string
		rl   rules.Rules
		o    Options
	}{
		{"tic-tac-toe every move", ttt, Options{NoLines: true}},
		{"gravity 4x5 every move", c4, Options{NoLines: true}},
		{"gravity 4x5 without depths", c4, Options{NoDepths: true}},
		{"gravity 4x5 the value alone", c4, Options{ValueOnly: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			boards, classes := imagedBoards(tc.rl, 30)
			tc.o.Workers = 1
			o, err := Search(tc.rl, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			var want []perfect.Analysis
			if err := Each(context.Background(), o, tc.rl, boards, "test", func(_ int, a perfect.Analysis) error { want = append(want, a); return nil }); err != nil {
				t.Fatal(err)
			}
			var asked atomic.Int64
			batch := Batch{Phase: "test", ValueOnly: tc.o.ValueOnly, NoDepths: tc.o.NoDepths}
			got, err := All(context.Background(), []Oracle{counting{o, &asked}}, tc.rl, boards, batch)
			if err != nil || asked.Load() != int64(classes) {
				t.Fatalf("%v, %d of %d boards asked; want %d, one a class", err, asked.Load(), len(boards), classes)
			}
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("board %d, %s: got %+v, want %+v, the oracle's own answer", i, tc.rl.Spec().Format(boards[i]), got[i], want[i])
				}
			}
			batch.Journal = filepath.Join(t.TempDir(), ".out.answers")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if _, err := All(ctx, []Oracle{&stopping{Oracle: o, at: 5, stop: cancel}}, tc.rl, boards, batch); !errors.Is(err, context.Canceled) {
				t.Fatalf("the stopped run gave %v, want %v", err, context.Canceled)
			}
			asked.Store(0)
			got, err = All(context.Background(), []Oracle{counting{o, &asked}}, tc.rl, boards, batch)
			if err != nil || !reflect.DeepEqual(got, want) || asked.Load() != int64(classes-5) {
				t.Errorf("resumed: %v, %d asked, the same answers %t; want the %d classes not answered", err, asked.Load(), reflect.DeepEqual(got, want), classes-5)
			}
		})
	}
}

// imagedBoards gives n random positions of rl in progress, each followed
// by one of its images under rl's symmetries (itself at times), and how
// many classes they fall in.
func imagedBoards(rl rules.Rules, n int) ([]game.Board, int) {
	rng := rand.New(rand.NewPCG(9, 10))
	perms := rl.Symmetries()
	var boards []game.Board
	classes := map[game.Board]bool{}
	for len(boards) < 2*n {
		b := randomTo(rl, rng, 1+rng.IntN(rl.Spec().Cells()-3))
		if over, _ := rl.Outcome(b); over {
			continue
		}
		least, _ := game.Least(b, perms)
		classes[least] = true
		boards = append(boards, b, game.Transform(b, perms[rng.IntN(len(perms))]))
	}
	return boards, len(classes)
}
