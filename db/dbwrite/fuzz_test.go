package dbwrite

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
)

// FuzzPartFile reads arbitrary bytes as a part file of ply 2 from rank 0:
// an error or the codes, never a panic.
func FuzzPartFile(f *testing.F) {
	dir := f.TempDir()
	codes := testCodes(3 * db.BlockLen / 2)
	if _, err := WritePart(dir, 2, 0, 0, codes); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(filepath.Join(dir, PartName(2, 0)))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:50])
	f.Add([]byte(partMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, PartName(2, 0)), data, 0o666); err != nil {
			t.Fatal(err)
		}
		ReadPart(dir, 2, 0, 0, make([]byte, len(codes)))
	})
}
