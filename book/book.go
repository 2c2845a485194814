// Package book owns the opening books built into tateti-lab: for a named
// game, a database of its first plies (docs/database.md, an opening book's
// format), made by `db build --max-ply N` and embedded in the binary, so
// that a fresh clone or a `go install` answers every position up to ply N
// at once, with nothing to download. Each book's folder here is the build's
// folder folded (dbwrite.Fold: the mirror images left out, the blocks
// compressed by zstd) by the program in book/fold, which go generate runs:
// TATETI_BOOK=DIR go generate ./book, DIR the finished build.
package book

//go:generate go run ./fold -from=$TATETI_BOOK -into=connect-four

import (
	"embed"
	"errors"
	"io/fs"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/rules"
)

// files holds the books, a folder each, named as the game is
// (rules.Games).
//
//go:embed connect-four
var files embed.FS

// A Book is an opening book built into tateti-lab.
type Book struct {
	// Name is the game's name, and the book's folder here.
	Name string
	// Manifest is the book's manifest, checked.
	Manifest db.Manifest
	// Files holds the manifest and the tier files.
	Files fs.FS
}

// Where names the book in messages: "book connect-four".
func (b Book) Where() string { return "book " + b.Name }

// For gives the book built in for the game of spec, and false when none
// is; an error when its manifest fails its checks (a binary built from a
// damaged tree).
func For(spec rules.Spec) (b Book, ok bool, err error) {
	for _, g := range rules.Games {
		if g.Spec != spec {
			continue
		}
		if _, err := fs.Stat(files, g.Name); errors.Is(err, fs.ErrNotExist) {
			return Book{}, false, nil // a named game without a book built in
		}
		sub, err := fs.Sub(files, g.Name)
		if err == nil {
			b = Book{Name: g.Name, Files: sub}
			b.Manifest, err = db.ReadableFS(sub, b.Where(), spec)
		}
		return b, err == nil, err
	}
	return Book{}, false, nil
}

// Last gives the book's last ply.
func (b Book) Last() int { return b.Manifest.Last() }

// Bounds gives the book built in for rl's game, opened, when it holds ply
// p: a deeper book's build then starts each search of its last ply, p+1,
// from what this one says of the position's parents (tier.Job.WithPrior),
// the same codes found in about two thirds of the time
// (docs/performance.md). ok is false where no book is built in for the
// game or it stops before ply p. Whoever gets the database closes it.
func Bounds(rl rules.Rules, p int) (d *db.DB, ok bool, err error) {
	b, ok, err := For(rl.Spec())
	if !ok || err != nil || p < 0 || b.Last() < p {
		return nil, false, err
	}
	d, err = db.OpenFS(b.Files, b.Where(), rl)
	return d, err == nil, err
}
