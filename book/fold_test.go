package book

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/rules"
)

// from names a finished Connect Four book (db build --game connect-four
// --max-ply N DIR) to build in: TestFolded folds it into connect-four/,
// replacing the book there, before it checks it.
var from = flag.String("from", "", "fold this finished Connect Four book's folder into connect-four/, the book built in")

// The book built in is folded (db.Folded): its mirror images left out,
// its blocks compressed by zstd, under 3 bits a position by its files.
// With -from DIR, the book in DIR is folded into connect-four/ first, and
// the files written there are checked (the binary embeds them from its
// next build):
//
//	go test ./book -run TestFolded -from DIR
func TestFolded(t *testing.T) {
	b, _, err := For(connectFour)
	if err != nil {
		t.Fatal(err)
	}
	files := b.Files
	if *from != "" {
		replaceBook(t, *from)
		files = os.DirFS("connect-four")
	}
	m, err := db.ReadableFS(files, b.Where(), connectFour)
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != db.Folded {
		t.Fatalf("the book is of format version %d, want %d (folded): go test ./book -run TestFolded -from DIR folds a book", m.Version, db.Folded)
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

// replaceBook folds the book in src into connect-four/, in place of the
// book there.
func replaceBook(t *testing.T, src string) {
	t.Helper()
	folded := filepath.Join(t.TempDir(), "folded")
	if err := db.Fold(context.Background(), src, folded, rules.New(connectFour), 2); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll("connect-four"); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS("connect-four", os.DirFS(folded)); err != nil {
		t.Fatal(err)
	}
}
