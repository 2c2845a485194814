package dbwrite

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
)

// partFiles gives the bytes of the part files of codes cut at cuts, ply p.
func partFiles(t *testing.T, p int, codes []byte, cuts []int) [][]byte {
	t.Helper()
	var files [][]byte
	for k := range len(cuts) - 1 {
		_, data, err := EncodePart(p, int64(cuts[k]), codes[cuts[k]:cuts[k+1]])
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, bytes.Join(data, nil))
	}
	return files
}

// opener opens files[k] as task k's part file, and after reads readings
// opens changed[k] instead, when there is one.
func opener(files [][]byte, changed map[int][]byte, reads int) func(int) (io.ReadCloser, error) {
	opened := 0
	return func(k int) (io.ReadCloser, error) {
		opened++
		if c, ok := changed[k]; ok && opened > reads {
			return io.NopCloser(bytes.NewReader(c)), nil
		}
		return io.NopCloser(bytes.NewReader(files[k])), nil
	}
}

// A tier written from its parts a part at a time is the tier file of the
// same codes compressed whole, with its size and SHA-256.
func TestWriteTier(t *testing.T) {
	codes := testCodes(5*db.BlockLen + 100)
	cuts := []int{0, 2 * db.BlockLen, 4 * db.BlockLen, len(codes)}
	want := bytes.Join(db.TierPieces(tierGame, 4, int64(len(codes)), db.CompressBlocks(codes), db.Version), nil)
	wantSize, wantSum := Sum([][]byte{want})
	var got bytes.Buffer
	size, sum, err := WriteTier(&got, tierGame, 4, int64(len(codes)), len(cuts)-1, opener(partFiles(t, 4, codes, cuts), nil, 0))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) || size != wantSize || sum != wantSum {
		t.Errorf("got %d bytes, SHA-256 %s; want the whole ply's %d, %s", size, sum, wantSize, wantSum)
	}
}

// Parts that do not cover the ply in order, or a part that changes
// between its two readings, are refused with words that say so.
func TestWriteTierRefused(t *testing.T) {
	codes := testCodes(3*db.BlockLen + 7)
	files := partFiles(t, 2, codes, []int{0, db.BlockLen, 3 * db.BlockLen, len(codes)})
	odd := append(partFiles(t, 2, codes, []int{0, db.BlockLen + 1}), files[1:]...) // the first part ends inside a block
	other := partFiles(t, 2, testCodes(len(codes) + 1)[1:], []int{0, db.BlockLen, 3 * db.BlockLen, len(codes)})
	tests := []struct {
		name    string
		files   [][]byte
		n       int
		changed map[int][]byte
		message string
	}{
		{"a part missing", [][]byte{files[0], files[2]}, 2, nil, "task 1: its header names another range"},
		{"two parts swapped", [][]byte{files[1], files[0], files[2]}, 3, nil, "task 0: its header names another range"},
		{"too few", files[:2], 2, nil, "the parts hold 49152 codes, want 49159"},
		{"a part off the blocks", odd, 3, nil, "task 1: a part from rank 16385"},
		{"a part changed", files, 3, map[int][]byte{1: other[1]}, "task 1: the part changed between its two readings"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := WriteTier(io.Discard, tierGame, 2, int64(len(codes)), tt.n, opener(tt.files, tt.changed, tt.n))
			if err == nil || !strings.Contains(err.Error(), tt.message) {
				t.Errorf("got %v, want an error saying %q", err, tt.message)
			}
		})
	}
}
