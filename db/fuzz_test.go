package db

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// tierGame is the game the tier files of these tests name.
var tierGame = rules.Spec{Spec: game.Spec{Rows: 3, Cols: 3, K: 3}}

// FuzzTierFile reads arbitrary bytes as the tier file of ply 1: opening it
// and reading its blocks give an error or codes, never a panic, and a file
// that reads whole gives as many codes as its placements.
func FuzzTierFile(f *testing.F) {
	dir := f.TempDir()
	codes := make([]byte, 3*BlockLen/2)
	for i := range codes {
		codes[i] = byte(i % 7)
	}
	if err := os.WriteFile(filepath.Join(dir, TierName(1)), bytes.Join(TierPieces(tierGame, 1, int64(len(codes)), CompressBlocks(codes), Version), nil), 0o666); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(filepath.Join(dir, TierName(1)))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:60])
	f.Add([]byte("TTDBTIER"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, TierName(1)), data, 0o666); err != nil {
			t.Fatal(err)
		}
		tf, err := openTier(os.DirFS(dir), dir, tierGame, 1, int64(len(codes)))
		if err != nil {
			return
		}
		defer tf.closer.Close()
		got, err := tf.all(context.Background(), 1)
		if err == nil && len(got) != len(codes) {
			t.Fatalf("%d codes, want %d", len(got), len(codes))
		}
	})
}
