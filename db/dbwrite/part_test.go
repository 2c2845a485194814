package dbwrite

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// tierGame is the game the tier files of these tests name.
var tierGame = rules.Spec{Spec: game.Spec{Rows: 3, Cols: 3, K: 3}}

// writeTier writes the codes of ply p to dir as a tier file compressed
// whole: what AssembleTier must equal.
func writeTier(dir string, p int, codes []byte) (int64, string, error) {
	return writeUnit(filepath.Join(dir, db.TierName(p)), db.TierPieces(tierGame, p, int64(len(codes)), db.CompressBlocks(codes), db.Version))
}

// testCodes gives n codes that compress to blocks of several lengths.
func testCodes(n int) []byte {
	codes := make([]byte, n)
	for i := range codes {
		codes[i] = byte(i*i/7) % 200
	}
	return codes
}

// A tier assembled from parts is the tier file writeTier writes of the same
// codes, byte for byte, and each part reads back its codes; writing a part
// again writes the same bytes.
func TestParts(t *testing.T) {
	dir := t.TempDir()
	codes := testCodes(5*db.BlockLen + 100)
	size, sum, err := writeTier(dir, 3, codes)
	if err != nil {
		t.Fatal(err)
	}
	cuts := []int{0, 2 * db.BlockLen, 4 * db.BlockLen, len(codes)}
	var parts []Part
	for k := range len(cuts) - 1 {
		part, err := WritePart(dir, 3, k, int64(cuts[k]), codes[cuts[k]:cuts[k+1]])
		if err != nil {
			t.Fatal(err)
		}
		first := read(t, filepath.Join(dir, PartName(3, k)))
		if _, err := WritePart(dir, 3, k, int64(cuts[k]), codes[cuts[k]:cuts[k+1]]); err != nil {
			t.Fatal(err)
		}
		if again := read(t, filepath.Join(dir, PartName(3, k))); !bytes.Equal(again, first) {
			t.Errorf("part %d written twice: other bytes", k)
		}
		got := make([]byte, cuts[k+1]-cuts[k])
		if _, err := ReadPart(dir, 3, k, int64(cuts[k]), got); err != nil || !bytes.Equal(got, codes[cuts[k]:cuts[k+1]]) {
			t.Errorf("part %d read back: %v, other codes", k, err)
		}
		parts = append(parts, part)
	}
	whole := read(t, filepath.Join(dir, db.TierName(3)))
	gotSize, gotSum, err := AssembleTier(dir, tierGame, 3, int64(len(codes)), parts)
	if err != nil {
		t.Fatal(err)
	}
	assembled := read(t, filepath.Join(dir, db.TierName(3)))
	digest := sha256.Sum256(assembled)
	if !bytes.Equal(assembled, whole) || gotSize != size || gotSum != sum || hex.EncodeToString(digest[:]) != sum {
		t.Errorf("assembled tier: %d bytes, SHA-256 %s; want writeTier's %d, %s", gotSize, gotSum, size, sum)
	}
}

// A part that is damaged, names another range, or does not cover its ply
// with the others is refused, with words that say what is wrong.
func TestPartRefused(t *testing.T) {
	codes := testCodes(3 * db.BlockLen / 2)
	tests := []struct {
		name    string
		damage  func(data []byte) []byte
		first   int64
		message string
	}{
		{"a header byte", func(d []byte) []byte { d[13]++; return d }, 0, "names another range"},
		{"a table byte", func(d []byte) []byte { d[partHeaderLen+1]++; return d }, 0, "fails its checksum"},
		{"a block's byte", func(d []byte) []byte { d[len(d)-1]++; return d }, 0, "block 1 fails its checksum"},
		{"cut short", func(d []byte) []byte { return d[:len(d)-3] }, 0, "lies outside the file"},
		{"bytes after", func(d []byte) []byte { return append(d, 0) }, 0, "bytes follow"},
		{"another range", func(d []byte) []byte { return d }, db.BlockLen, "names another range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := WritePart(dir, 2, 0, 0, codes); err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(dir, PartName(2, 0))
			if err := os.WriteFile(name, tt.damage(read(t, name)), 0o666); err != nil {
				t.Fatal(err)
			}
			_, err := ReadPart(dir, 2, 0, tt.first, make([]byte, len(codes)))
			if err == nil || !strings.Contains(err.Error(), tt.message) || !strings.Contains(err.Error(), "remove it") {
				t.Errorf("got %v, want an error saying %q and how to mend it", err, tt.message)
			}
		})
	}
	dir := t.TempDir()
	a, _ := WritePart(dir, 2, 0, 0, codes[:db.BlockLen])
	b, _ := WritePart(dir, 2, 1, db.BlockLen, codes[db.BlockLen:])
	for _, parts := range [][]Part{{b, a}, {a}, {a, a}} {
		if _, _, err := AssembleTier(dir, tierGame, 2, int64(len(codes)), parts); err == nil {
			t.Errorf("parts from ranks %v assembled, want an error", firsts(parts))
		}
	}
}

func firsts(parts []Part) []int64 {
	var f []int64
	for _, p := range parts {
		f = append(f, p.first)
	}
	return f
}

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
