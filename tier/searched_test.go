package tier

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/internal/crc32c"
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
	want := make([]byte, j.Size(p))
	if err := j.SearchRange(context.Background(), p, 0, j.Size(p), have, want); err != nil {
		t.Fatal(err)
	}
	kept, err := openSearched(dir, rl.Spec(), p)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]byte, j.Size(p))
	err = j.searchRange(context.Background(), p, 0, j.Size(p), have, got, kept, 2)
	if err := errors.Join(err, kept.close()); err != nil {
		t.Fatal(err)
	}
	positions := reached.ByPly[p]
	if n := int64(len(kept.codes)); n >= positions || n < positions/2 {
		t.Errorf("%d of %d positions searched, want about half: the mirror images found", n, positions)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("the codes with the searched kept differ from searching every position")
	}

	again, err := openSearched(dir, rl.Spec(), p)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(again.codes, kept.codes) {
		t.Fatalf("read back: %d codes, want the %d written", len(again.codes), len(kept.codes))
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
	third, err := openSearched(dir, rl.Spec(), p)
	if err != nil {
		t.Fatal(err)
	}
	third.close()
	if size := fileSize(t, name); len(third.codes) != k || size != int64(at) {
		t.Errorf("after a damaged record: %d codes and %d bytes, want %d and %d", len(third.codes), size, k, at)
	}

}

// A file of searched codes is keyed to its build: the answers of another
// game, ply or format are refused by name, as is a file of someone else's;
// a file cut short inside its header (a kill before it was written) holds
// no answer and is begun again.
func TestSearchedKeyed(t *testing.T) {
	own := spec(4, 5, 4, true, false)
	const p = 10
	head := searchedHeader(own, p)
	record := make([]byte, searchedRecord) // rank 0, code 0, and a sum
	copy(record[9:], binary.LittleEndian.AppendUint32(nil, crc32c.Checksum(record[:9])))
	tests := []struct {
		name    string
		data    []byte
		codes   int    // answers read when kept
		want    string // in the refusal, "" when kept
		foreign bool   // not even named as ours: a folder holding it is refused
	}{
		{"its own", slices.Concat(head, record), 1, "", false},
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
			s, err := openSearched(dir, own, p)
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
			if got := len(s.codes); got != tt.codes {
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
