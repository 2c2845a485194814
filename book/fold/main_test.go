package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/tier"
)

// fold replaces a book's folder whole with the folded book: a small
// gravity book to ply 4 folded over an earlier folder leaves a folded
// book there, readable, and nothing of the earlier one, nor any staging
// folder beside it.
func TestFold(t *testing.T) {
	ctx := context.Background()
	rl := rules.New(rules.Spec{Spec: game.Spec{Rows: 4, Cols: 4, K: 3}, Gravity: true})
	src := filepath.Join(t.TempDir(), "book")
	if _, err := tier.SolveBook(ctx, rl, 4, src, 2); err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	into := filepath.Join(parent, "connect-four")
	if err := os.MkdirAll(into, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(into, "stale.bin"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := fold(ctx, src, into, rl); err != nil {
		t.Fatal(err)
	}
	m, err := db.ReadableFS(os.DirFS(into), ".", rl.Spec())
	if err != nil || m.Version != db.Folded {
		t.Fatalf("the folded book: %v, version %d; want a readable folded book", err, m.Version)
	}
	if _, err := os.Stat(filepath.Join(into, "stale.bin")); err == nil {
		t.Error("the earlier book's file is still there, want the folder replaced whole")
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 {
		t.Errorf("beside the book: %v, want it alone", entries)
	}
}

// Without a book named, fold says how to name one.
func TestNoBook(t *testing.T) {
	var stderr bytes.Buffer
	err := run(context.Background(), nil, &stderr)
	if err == nil || !strings.Contains(err.Error(), "TATETI_BOOK=DIR") {
		t.Fatalf("run with no -from: %v, want it to say how to name the book", err)
	}
}
