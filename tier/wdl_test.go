package tier

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/db/dbwrite"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// readWDL reads every ply's codes of the win/draw/loss database in dir.
func readWDL(t *testing.T, j *WDLJob, dir string) [][]byte {
	t.Helper()
	plies := make([][]byte, j.cells+1)
	for p := range plies {
		plies[p] = make([]byte, j.CodeBytes(p))
		if err := db.ReadTier(context.Background(), dir, j.rl.Spec(), p, plies[p], 2); err != nil {
			t.Fatal(err)
		}
	}
	return plies
}

// The win/draw/loss database values every position in progress that play
// reaches as the exhaustive solve does, for the side to move, and the
// empty board's value; its positions by ply hold the reachable ones in
// progress, and every code of a ply is a position's. Opened (db.Values),
// it gives every reachable position's value, finished ones the rules'.
func TestWDLAgreesWithSolve(t *testing.T) {
	t.Parallel() // its own folders and games: its long cases run beside the others
	tests := []struct {
		name string
		spec rules.Spec
		long bool
	}{
		{"3x3", spec(3, 3, 3, false, false), false},
		{"misère 3x3", spec(3, 3, 3, false, true), false},
		{"gravity 4x4", spec(4, 4, 4, true, false), false},
		{"gravity misère 3x4 k=3", spec(3, 4, 3, true, true), false},
		{"gravity 4x5", spec(4, 5, 4, true, false), true},
		{"gravity 5x4", spec(5, 4, 4, true, false), true},
		{"gravity 5x5", spec(5, 5, 4, true, false), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.long {
				longtest.Skip(t, "a larger board exhaustively")
			}
			rl := rules.New(tt.spec)
			dir := filepath.Join(t.TempDir(), "db")
			m, err := SolveWDL(context.Background(), rl, dir, 2)
			if err != nil {
				t.Fatal(err)
			}
			want, err := solve.Lean(context.Background(), rl, 2)
			if err != nil {
				t.Fatal(err)
			}
			j, err := NewWDLJob(rl)
			if err != nil {
				t.Fatal(err)
			}
			plies, d := readWDL(t, j, dir), j.Diagram()
			if m.Value != want.Value[0] {
				t.Errorf("empty board %d, want %d", m.Value, want.Value[0])
			}
			vals, err := db.OpenValues(dir, rl)
			if err != nil {
				t.Fatal(err)
			}
			defer vals.Close()
			inProgress := make([]int64, len(plies))
			for i := range want.Enum.IDs {
				b := want.Enum.Board(i)
				if got, ok, err := vals.Value(b); err != nil || !ok || got != want.Value[i] {
					t.Fatalf("%s: Values gave %d (%v, %v), want %d for X", tt.spec.Format(b), got, ok, err, want.Value[i])
				}
				switch st := want.Enum.Status[i]; {
				case st.Terminal() && st != game.Draw:
					continue // a line: the rules' to value, not the database's
				case st == game.Draw: // a full board: Values gives the rules' draw, and the last ply holds it too
					if r := d.Rank(b); r < 0 || db.PackedValue(db.PackedAt(plies[b.Ply()], r)) != want.Value[i] {
						t.Fatalf("%s: a full board the last ply does not hold as drawn (rank %d)", tt.spec.Format(b), r)
					}
				}
				inProgress[b.Ply()]++ // ranked: Values found it, or the case above
			}
			for p, ply := range m.Plies {
				if ply.Positions != d.Size(p) || ply.Positions < inProgress[p] {
					t.Errorf("ply %d: %d positions valued of %d ranked, %d reachable in progress", p, ply.Positions, d.Size(p), inProgress[p])
				}
			}
		})
	}
}

// Any worker count writes the same files, in tasks of a block of codes
// (gravity 4x5's larger plies have several; under -short, the race
// detector's run, where 4x5 takes minutes, gravity 3x6: up to six a ply,
// half the boards); a second run on the finished folder gives its
// manifest and changes nothing.
func TestWDLWorkersAgree(t *testing.T) {
	t.Parallel() // its own folders and games: it runs beside the others
	rl := rules.New(spec(4, 5, 4, true, false))
	if testing.Short() {
		rl = rules.New(spec(3, 6, 4, true, false))
	}
	var sums [][]string
	for _, workers := range []int{1, 2} {
		dir := filepath.Join(t.TempDir(), "db")
		j, err := NewWDLJob(rl)
		if err != nil {
			t.Fatal(err)
		}
		j.taskLen = 4 * db.BlockLen
		m, err := j.solve(context.Background(), dir, workers)
		if err != nil {
			t.Fatal(err)
		}
		again, err := SolveWDL(context.Background(), rl, dir, workers)
		if err != nil || !slices.Equal(again.Plies, m.Plies) || again.Value != m.Value {
			t.Fatalf("a second run gave %+v (%v), want %+v", again, err, m)
		}
		var s []string
		for _, ply := range m.Plies {
			s = append(s, ply.SHA256)
		}
		sums = append(sums, append(s, again.Checksum))
	}
	for i := range sums[1:] {
		if !slices.Equal(sums[i+1], sums[0]) {
			t.Fatalf("workers %d wrote other files than 1 worker", i+2)
		}
	}
}

// A folder that holds one kind of database refuses a build of the other
// kind of the same game, finished or not.
func TestWDLFolderKinds(t *testing.T) {
	rl := rules.New(spec(3, 4, 3, true, false))
	heights := filepath.Join(t.TempDir(), "heights")
	if _, err := Solve(context.Background(), rl, heights, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := SolveWDL(context.Background(), rl, heights, 1); err == nil {
		t.Fatal("a win/draw/loss build into a finished database of values and depths: no error")
	}
	wdl := filepath.Join(t.TempDir(), "wdl")
	if _, err := SolveWDL(context.Background(), rl, wdl, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := Solve(context.Background(), rl, wdl, 1); err == nil {
		t.Fatal("a build of values and depths into a finished win/draw/loss database: no error")
	}
	if err := os.Remove(filepath.Join(wdl, db.ManifestName)); err != nil {
		t.Fatal(err)
	}
	if _, err := Solve(context.Background(), rl, wdl, 1); err == nil {
		t.Fatal("a build of values and depths into an unfinished win/draw/loss database: no error")
	}
}

// A resumed win/draw/loss solve reports a task only when it solves it: a
// part read back, done by an earlier run, would make the pace look fast
// and the time left short (a 6x6 resume said 17 minutes of hours).
func TestWDLProgressSkipsReadBack(t *testing.T) {
	rl := rules.New(spec(4, 4, 4, true, false))
	j, err := NewWDLJob(rl)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "db")
	unlock, err := claim(dir, j.marker())
	if err != nil {
		t.Fatal(err)
	}
	const p = 16 // the last ply: no ply after it to solve from
	codes := make([]byte, j.CodeBytes(p))
	j.SolveRange(p, 0, j.Size(p), nil, codes)
	if _, err := dbwrite.WritePart(dir, p, 0, 0, codes); err != nil {
		t.Fatal(err)
	}
	unlock()
	r := &reports{got: map[string][]int64{}}
	if _, err := SolveWDL(progress.With(context.Background(), r), rl, dir, 1); err != nil {
		t.Fatal(err)
	}
	got, want := r.got["solve"], make([]int64, 0, p)
	for q, done := p-1, j.Size(p); q >= 0; q-- {
		done += j.Size(q)
		want = append(want, done)
	}
	if !slices.Equal(got, want) {
		t.Errorf("reports %v, want %v: none for the ply read back, one a task after", got, want)
	}
}

// A damaged tier stops a resumed win/draw/loss build, named with its fix;
// once it is removed, the build makes it again, the same bytes. db check
// names a tier missing from a finished database.
func TestWDLDamagedTier(t *testing.T) {
	rl := rules.New(spec(4, 4, 4, true, false))
	dir := filepath.Join(t.TempDir(), "db")
	want, err := SolveWDL(context.Background(), rl, dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	tier := filepath.Join(dir, db.TierName(8))
	if err := os.Remove(filepath.Join(dir, db.ManifestName)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(tier)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tier, flipped(data, len(data)-1), 0o666); err != nil {
		t.Fatal(err)
	}
	_, err = SolveWDL(context.Background(), rl, dir, 2)
	if err == nil || !strings.Contains(err.Error(), db.TierName(8)) || !strings.Contains(err.Error(), "remove it to solve its ply again") {
		t.Fatalf("a resume over a damaged tier: %v, want it named with its fix", err)
	}
	if err := os.Remove(tier); err != nil {
		t.Fatal(err)
	}
	got, err := SolveWDL(context.Background(), rl, dir, 2)
	if err != nil || !slices.Equal(got.Plies, want.Plies) {
		t.Fatalf("after the damaged tier's removal: %v, plies %v, want %v", err, got.Plies, want.Plies)
	}
	if err := os.Remove(filepath.Join(dir, db.TierName(5))); err != nil {
		t.Fatal(err)
	}
	checked, err := db.Check(context.Background(), dir, Rule, 2)
	if err != nil || checked.OK || checked.Tiers[5].Problem != "the file is missing" {
		t.Fatalf("db check of a database without ply 5: %v, %+v, want the file named missing", err, checked.Tiers[5])
	}
}

// The win/draw/loss solve's forward pass counts, ply by ply, the positions
// play reaches, finished boards among them, as the enumeration does: the
// boards with no line it marks, and each finished board with a line once,
// gravity and free, normal and misère; 1 and 3 workers in tasks of a block
// alike.
func TestWDLReach(t *testing.T) {
	t.Parallel() // its own folders and games: it runs beside the others
	tests := []struct {
		name string
		spec rules.Spec
	}{
		{"3x3", spec(3, 3, 3, false, false)},
		{"misère 3x4 k=3", spec(3, 4, 3, false, true)},
		{"gravity 4x4", spec(4, 4, 4, true, false)},
		{"gravity 4x5", spec(4, 5, 4, true, false)},
		{"gravity 5x4 k=3", spec(5, 4, 3, true, false)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && tt.spec.Cells() > 16 {
				t.Skip("a board of 20 cells: under -short, the others")
			}
			if tt.spec.K == 4 && tt.spec.Cells() == 20 {
				longtest.Skip(t, "gravity 4x5 k=4, beside 5x4 k=3's twenty cells")
			}
			rl := rules.New(tt.spec)
			e, err := enumerate.Positions(context.Background(), rl, 2)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]int64, tt.spec.Cells()+1)
			for p := range want {
				want[p] = int64(e.Start[p+1] - e.Start[p])
			}
			j, err := NewWDLJob(rl)
			if err != nil {
				t.Fatal(err)
			}
			j.taskLen = 4 * db.BlockLen
			for _, workers := range []int{1, 3} {
				got, err := j.Reach(context.Background(), workers)
				if err != nil || !slices.Equal(got, want) {
					t.Fatalf("%d workers: %v (%v), want %v", workers, got, err, want)
				}
			}
		})
	}
}

// The forward pass over a finished win/draw/loss database counts each
// ply's positions play reaches by value for the side to move, and its
// finished boards by status, as the database of values and depths of the
// same game counts its plies; 1 and 3 workers alike.
func TestWDLReachValues(t *testing.T) {
	t.Parallel() // its own folders and games: it runs beside the others
	tests := []struct {
		name string
		spec rules.Spec
	}{
		{"3x3", spec(3, 3, 3, false, false)},
		{"misère 3x4 k=3", spec(3, 4, 3, false, true)},
		{"gravity 4x4", spec(4, 4, 4, true, false)},
		{"gravity misère 4x4 k=3", spec(4, 4, 3, true, true)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rl := rules.New(tt.spec)
			m, err := Solve(context.Background(), rl, filepath.Join(t.TempDir(), "heights"), 2)
			if err != nil {
				t.Fatal(err)
			}
			j, err := NewWDLJob(rl)
			if err != nil {
				t.Fatal(err)
			}
			j.taskLen = 4 * db.BlockLen
			dir := filepath.Join(t.TempDir(), "wdl")
			if _, err := j.solve(context.Background(), dir, 2); err != nil {
				t.Fatal(err)
			}
			for _, workers := range countWorkers() {
				got, err := j.ReachValues(context.Background(), dir, workers)
				if err != nil {
					t.Fatal(err)
				}
				if err := Tidy(dir); err != nil { // or the next count would resume from this one's last ply
					t.Fatal(err)
				}
				for p, want := range m.Plies {
					want.File, want.Placements, want.Bytes, want.SHA256 = "", 0, 0, ""
					if got[p] != want {
						t.Fatalf("%d workers, ply %d: %+v, want %+v", workers, p, got[p], want)
					}
				}
			}
		})
	}
}

// countWorkers gives the worker counts TestWDLReachValues counts with: one
// and three, or three alone in the race detector's run (-short), where
// the counts with workers running side by side are the ones it checks.
func countWorkers() []int {
	if testing.Short() {
		return []int{3}
	}
	return []int{1, 3}
}

// A finished win/draw/loss database whose forward pass was stopped, its
// manifest without the positions play reaches, is finished by counting
// them again: the target says so, and the counts are those of the run
// that was not stopped.
func TestWDLCountsAgain(t *testing.T) {
	rl := rules.New(spec(4, 4, 4, true, false))
	dir := filepath.Join(t.TempDir(), "wdl")
	want, err := SolveWDL(context.Background(), rl, dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Reached) != rl.Spec().Cells()+1 {
		t.Fatalf("the manifest counts %d plies of positions play reaches, want %d", len(want.Reached), rl.Spec().Cells()+1)
	}
	stopped := want
	stopped.Reached = nil
	if err := dbwrite.WriteManifest(dir, stopped); err != nil {
		t.Fatal(err)
	}
	j, err := NewWDLJob(rl)
	if err != nil {
		t.Fatal(err)
	}
	target, err := NewWDLTarget(dir, j, 2, 1<<30, false)
	if err != nil || !target.Finished || !target.Counting {
		t.Fatalf("target finished %v, counting %v (%v); want both", target.Finished, target.Counting, err)
	}
	got, err := SolveWDL(context.Background(), rl, dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Reached, want.Reached) {
		t.Errorf("counted again: %+v\nwant %+v", got.Reached, want.Reached)
	}
	if target, err = NewWDLTarget(dir, j, 2, 1<<30, false); err != nil || target.Counting {
		t.Errorf("counted, the target is counting %v (%v); want false", target.Counting, err)
	}
}

// stopAt cancels a count when it reports ply stop done, and records the
// plies reported.
type stopAt struct {
	stop   int
	cancel context.CancelFunc
	plies  []int
}

func (s *stopAt) Report(_ string, ply int, _, _ int64) {
	if s.plies = append(s.plies, ply); ply == s.stop {
		s.cancel()
	}
}

// A count of the positions play reaches stopped after a ply resumes there:
// it counts only the plies after it, gives the counts of a count never
// stopped, and once done leaves no counts or bits behind.
func TestWDLCountResumes(t *testing.T) {
	rl := rules.New(spec(4, 4, 4, true, false))
	j, err := NewWDLJob(rl)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "wdl")
	want, err := j.solve(context.Background(), dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, stop := range []int{1, 7, 16} {
		ctx, cancel := context.WithCancel(context.Background())
		s := &stopAt{stop: stop, cancel: cancel}
		if _, err := j.ReachValues(progress.With(ctx, s), dir, 2); err == nil {
			t.Fatalf("stopped after ply %d: no error", stop)
		}
		if !exists(filepath.Join(dir, CountsName(stop))) || !exists(filepath.Join(dir, ReachName(stop))) {
			t.Fatalf("stopped after ply %d: its counts or bits are not kept", stop)
		}
		r := &stopAt{stop: -1}
		got, err := j.ReachValues(progress.With(context.Background(), r), dir, 1)
		if err != nil {
			t.Fatal(err)
		}
		if r.plies[0] != stop+1 {
			t.Errorf("stopped after ply %d, counted on from ply %d, want %d", stop, r.plies[0]-1, stop)
		}
		if !reflect.DeepEqual(got, want.Reached) {
			t.Errorf("stopped after ply %d: %+v\nwant %+v", stop, got, want.Reached)
		}
		if err := Tidy(dir); err != nil {
			t.Fatal(err)
		}
		noScratch(t, dir)
	}
}
