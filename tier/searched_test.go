package tier

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	kept, err := openSearched(dir, p)
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

	again, err := openSearched(dir, p)
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
	at := len(searchedMagic) + k*searchedRecord
	damaged := append([]byte{}, data[:len(data)-4]...) // the last record cut short
	damaged[at+8] ^= 1                                 // record k's code
	if err := os.WriteFile(name, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	third, err := openSearched(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	third.close()
	if size := fileSize(t, name); len(third.codes) != k || size != int64(at) {
		t.Errorf("after a damaged record: %d codes and %d bytes, want %d and %d", len(third.codes), size, k, at)
	}

	os.WriteFile(name, []byte("someone else's"), 0o644)
	if _, err := openSearched(dir, p); err == nil || !strings.Contains(err.Error(), "no file of searched codes; remove it") {
		t.Errorf("a foreign file: %v, want it refused", err)
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
