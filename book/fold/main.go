// Command fold makes the opening book the binary embeds: it folds a
// finished Connect Four book, as `db build --game connect-four --max-ply N
// DIR` writes it, into book/connect-four (dbwrite.Fold: the mirror images left
// out, the blocks compressed by zstd), in place of the book there. go
// generate runs it from book/, the book's folder named by TATETI_BOOK:
//
//	TATETI_BOOK=DIR go generate ./book
//
// The book is replaced whole or not at all: the folded files are written
// into a folder beside it, which then takes its place.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tateti-lab/tateti-lab/db/dbwrite"
	"github.com/tateti-lab/tateti-lab/rules"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "fold:", err)
		os.Exit(2)
	}
}

// run reads the flags of args and folds the book they name.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("fold", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "", "the finished Connect Four book to fold (db build --game connect-four --max-ply N DIR)")
	into := fs.String("into", "connect-four", "the folder of the book the binary embeds, replaced whole")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *from == "" {
		return errors.New("no book named: give -from DIR, a folder db build --game connect-four --max-ply N DIR wrote (under go generate, set TATETI_BOOK=DIR)")
	}
	c4, err := rules.Named("connect-four")
	if err != nil {
		return err
	}
	return fold(ctx, *from, *into, rules.New(c4.Spec))
}

// fold folds the book of rl's game in src into the folder into, which it
// replaces whole: the folded book is written beside it first.
func fold(ctx context.Context, src, into string, rl rules.Rules) error {
	into = filepath.Clean(into)
	staging := filepath.Join(filepath.Dir(into), "."+filepath.Base(into)+".folding")
	if err := os.RemoveAll(staging); err != nil { // a stopped run's
		return err
	}
	if err := dbwrite.Fold(ctx, src, staging, rl, 2); err != nil {
		os.RemoveAll(staging)
		return err
	}
	old := filepath.Join(filepath.Dir(into), "."+filepath.Base(into)+".old")
	if err := os.RemoveAll(old); err != nil {
		return err
	}
	if err := os.Rename(into, old); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := os.Rename(staging, into); err != nil {
		return err
	}
	return os.RemoveAll(old)
}
