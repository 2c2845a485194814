package book

import (
	"context"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/rules"
)

// The book built in is folded (db.Folded): its mirror images left out,
// its blocks compressed by zstd, under 3 bits a position by its files.
// TATETI_BOOK=DIR go generate ./book folds a finished build into it
// (book/fold).
func TestFolded(t *testing.T) {
	b := builtIn(t)
	files := b.Files
	m, err := db.ReadableFS(files, b.Where(), connectFour)
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != db.Folded {
		t.Fatalf("the book is of format version %d, want %d (folded): TATETI_BOOK=DIR go generate ./book folds a book", m.Version, db.Folded)
	}
	var bytes int64
	for _, p := range m.Plies {
		bytes += p.Bytes
	}
	if bits := 8 * float64(bytes) / float64(m.Positions); bits > 3 {
		t.Errorf("the book's tiers take %.2f bits a position, want at most 3", bits)
	}
	d, err := db.OpenFS(files, b.Where(), rules.New(connectFour))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Codes(context.Background(), m.Last(), 2); err != nil {
		t.Error(err)
	}
}
