package tier

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/db/dbwrite"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/crc32c"
	"github.com/tateti-lab/tateti-lab/internal/progress"
	"github.com/tateti-lab/tateti-lab/rules"
)

// A book's searched ply keeps each code it searches in its file: a
// position whose mirror image was searched is not searched again, the
// codes are those of searching every position, and the file read back
// holds them all, so a run stopped mid-task goes on without searching
// any of them; a record cut short or failing its sum is dropped with
// those after it, and a file that is no such file is refused.
func TestSearchedKept(t *testing.T) {
	const p = 10
	rl := rules.New(spec(4, 4, 4, true, false))
	dir := filepath.Join(t.TempDir(), "db")
	j, have, reached := bookTo(t, rl, dir, p)
	want := searchAll(t, j, p, have)
	kept, err := openSearched(dir, rl.Spec(), p, j.Size(p))
	if err != nil {
		t.Fatal(err)
	}
	got := make([]byte, j.Size(p))
	err = j.searchRange(context.Background(), p, 0, j.Size(p), have, got, kept, 2)
	if err := errors.Join(err, kept.close()); err != nil {
		t.Fatal(err)
	}
	positions := reached.ByPly[p]
	if n := int64(codesKept(kept)); n >= positions || n < positions/2 {
		t.Errorf("%d of %d positions searched, want about half: the mirror images found", n, positions)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("the codes with the searched kept differ from searching every position")
	}

	again, err := openSearched(dir, rl.Spec(), p, j.Size(p))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.codes, kept.codes) {
		t.Fatalf("read back: %d codes, want the %d written", codesKept(again), codesKept(kept))
	}
	stopped, cancel := context.WithCancel(context.Background())
	cancel() // a search would stop at once
	clear(got)
	if err := j.searchRange(stopped, p, 0, j.Size(p), have, got, again, 1); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("from the file alone: %v, and the codes equal: %t; want every code found", err, bytes.Equal(got, want))
	}
	again.close()

	name := filepath.Join(dir, SearchedName(p))
	data, _ := os.ReadFile(name)
	const k = 5 // the record damaged
	at := searchedHead + k*searchedRecord
	damaged := append([]byte{}, data[:len(data)-4]...) // the last record cut short
	damaged[at+8] ^= 1                                 // record k's code
	if err := os.WriteFile(name, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	third, err := openSearched(dir, rl.Spec(), p, j.Size(p))
	if err != nil {
		t.Fatal(err)
	}
	third.close()
	if size := fileSize(t, name); codesKept(third) != k || size != int64(at) {
		t.Errorf("after a damaged record: %d codes and %d bytes, want %d and %d", codesKept(third), size, k, at)
	}

}

// A book's searched ply whose file of searched codes was lost (a build
// folder moved without its scratch, its part files kept) takes a
// position's code from its mirror image in a finished task's range rather
// than search it: of the lower half of the ranks, the upper half finished,
// only the positions whose image is in the lower half too are searched,
// once a pair, and the codes are those of searching every position.
func TestSearchedFromFinished(t *testing.T) {
	const p = 10
	rl := rules.New(spec(4, 4, 4, true, false))
	dir := filepath.Join(t.TempDir(), "db")
	j, have, _ := bookTo(t, rl, dir, p)
	want := searchAll(t, j, p, have)
	mid := j.Size(p) / 2
	kept, err := openSearched(dir, rl.Spec(), p, j.Size(p))
	if err != nil {
		t.Fatal(err)
	}
	kept.done = func(r int64) (byte, bool) { return want[r], r >= mid && want[r] != 0 }
	got := make([]byte, mid)
	err = j.searchRange(context.Background(), p, 0, mid, have, got, kept, 1)
	if err := errors.Join(err, kept.close()); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want[:mid]) {
		t.Fatal("the codes with the upper half finished differ from searching every position")
	}
	syms := rl.Symmetries()
	if len(syms) != 2 {
		t.Fatalf("%d symmetries of gravity 4x4, want 2: the identity and the mirror", len(syms))
	}
	positions, searched := 0, 0
	j.layout.Each(p, 0, mid, have, func(r int64, b game.Board) {
		positions++
		if m := j.layout.Rank(game.Transform(b, syms[1])); m < mid && m >= r {
			searched++
		}
	})
	if got := codesKept(kept); got != searched || searched >= positions {
		t.Errorf("%d of the lower half's %d positions searched, want %d: those whose image is not in the upper half, once a pair", got, positions, searched)
	}
}

// A book's build resumed from part files alone, the file of searched codes
// lost, reads every finished task's part before any task runs, so that a
// position whose mirror image lies in a finished range is not searched,
// wherever that range is: gravity 4x5's book to ply 10 cut in tasks of a
// block, its later half of tasks finished, searches of the earlier half
// only the positions whose image is in it too, once a pair, and writes the
// same tiers as a build from nothing.
func TestSearchedResumedFromParts(t *testing.T) {
	const p = 10
	rl := rules.New(spec(4, 5, 4, true, false))
	j, have, _ := bookTo(t, rl, filepath.Join(t.TempDir(), "reach"), p)
	want := searchAll(t, j, p, have)
	job, err := cutJob(rl, p, 1)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := build(context.Background(), job, filepath.Join(t.TempDir(), "whole"), 1)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "resumed")
	unlock, err := claim(dir, job.marker()) // the folder as a former run leaves it
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	n := job.Tasks(p)
	half, _ := job.Range(p, n/2) // the first rank of the finished half
	for k := n / 2; k < n; k++ {
		lo, hi := job.Range(p, k)
		if _, err := dbwrite.WritePart(dir, p, k, lo, want[lo:hi]); err != nil {
			t.Fatal(err)
		}
	}
	told := &searchCounts{last: map[string]int{}}
	resumed, err := build(progress.With(context.Background(), told), job, dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(resumed, whole) {
		t.Errorf("resumed, the book's manifest\n%+v\nwant the one built from nothing\n%+v", resumed, whole)
	}
	mirror := rl.Symmetries()[1]
	searched := 0
	j.layout.Each(p, 0, half, have, func(r int64, b game.Board) {
		if m := j.layout.Rank(game.Transform(b, mirror)); m < half && m >= r {
			searched++
		}
	})
	if got := told.sum(); n < 2 || got != searched {
		t.Errorf("%d positions searched in %d tasks, want %d: those of the earlier half whose image is in it too, once a pair", got, n, searched)
	}
}

// searchAll gives the codes of every reachable placement of ply p (have)
// by searching each one.
func searchAll(t *testing.T, j *Job, p int, have []uint64) []byte {
	t.Helper()
	codes := make([]byte, j.Size(p))
	if err := j.SearchRange(context.Background(), p, 0, j.Size(p), have, codes); err != nil {
		t.Fatal(err)
	}
	return codes
}

// searchCounts keeps the last count of positions searched each book task
// told (progress.Tell), by its ranks.
type searchCounts struct {
	mu   sync.Mutex
	last map[string]int
}

func (*searchCounts) Report(string, int, int64, int64) {}

func (c *searchCounts) Tell(_, text string) {
	var p, n int
	var lo, hi int64
	if _, err := fmt.Sscanf(text, "ply %d, ranks %d to %d: %d positions searched", &p, &lo, &hi, &n); err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	key := fmt.Sprint(lo, hi)
	c.last[key] = max(c.last[key], n)
}

// sum gives the positions searched in all.
func (c *searchCounts) sum() int {
	n := 0
	for _, v := range c.last {
		n += v
	}
	return n
}

// A file of searched codes is keyed to its build: the answers of another
// game, ply or format are refused by name, as is a file of someone else's;
// a file cut short inside its header (a kill before it was written) holds
// no answer and is begun again.
func TestSearchedKeyed(t *testing.T) {
	own := spec(4, 5, 4, true, false)
	const p = 10
	head := searchedHeader(own, p)
	const size = 64 // the ply's ranks, as openSearched is told
	rec := func(rank uint64, code byte) []byte {
		r := append(binary.LittleEndian.AppendUint64(nil, rank), code)
		return binary.LittleEndian.AppendUint32(r, crc32c.Checksum(r))
	}
	record := rec(0, 1)
	tests := []struct {
		name    string
		data    []byte
		codes   int    // answers read when kept
		want    string // in the refusal, "" when kept
		foreign bool   // not even named as ours: a folder holding it is refused
	}{
		{"its own", slices.Concat(head, record), 1, "", false},
		{"a rank past the ply, and one after it", slices.Concat(head, record, rec(size, 1), rec(1, 1)), 1, "", false},
		{"empty, a kill before the header", nil, 0, "", false},
		{"cut inside the magic", head[:5], 0, "", false},
		{"cut inside the key", head[:13], 0, "", false},
		{"another game", slices.Concat(searchedHeader(spec(5, 5, 4, true, false), p), record), 0, "searched at ply 10 of 5x5 k=4 gravity (format 1), not at ply 10 of 4x5 k=4 gravity (format 1)", false},
		{"misère", slices.Concat(searchedHeader(spec(4, 5, 4, true, true), p), record), 0, "4x5 k=4 gravity misère (format 1), not", false},
		{"another ply", searchedHeader(own, p-1), 0, "at ply 9 of 4x5", false},
		{"the format before keys", slices.Concat([]byte("TTSRCH01"), record), 0, "no file of searched codes of this tool", false},
		{"someone else's", []byte("someone else's bytes, long enough"), 0, "no file of searched codes of this tool", true},
		{"a damaged key", slices.Concat(head[:9], []byte{head[9] ^ 1}, head[10:]), 0, "no file of searched codes of this tool", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, SearchedName(p))
			if err := os.WriteFile(name, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			if got := isSearched(name); got == tt.foreign {
				t.Errorf("isSearched = %t, want %t", got, !tt.foreign)
			}
			s, err := openSearched(dir, own, p, size)
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.As(err, new(*db.DamagedError)) {
					t.Fatalf("got %v, want a refusal saying %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("got %v, want it kept", err)
			}
			s.close()
			if got := codesKept(s); got != tt.codes {
				t.Errorf("got %d answers, want %d", got, tt.codes)
			}
			if data, _ := os.ReadFile(name); !bytes.HasPrefix(data, head) {
				t.Errorf("the file begins %q, want its header", data[:min(len(data), searchedHead)])
			}
		})
	}
}

func fileSize(t *testing.T, name string) int64 {
	t.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// codesKept gives how many codes s holds.
func codesKept(s *searched) int {
	n := 0
	for _, c := range s.codes {
		if c != 0 {
			n++
		}
	}
	return n
}
