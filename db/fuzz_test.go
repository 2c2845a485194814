package db

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// FuzzTierFile reads arbitrary bytes as the tier file of ply 1: opening it
// and reading its blocks give an error or codes, never a panic, and a file
// that reads whole gives as many codes as its placements.
func FuzzTierFile(f *testing.F) {
	dir := f.TempDir()
	codes := make([]byte, 3*BlockLen/2)
	for i := range codes {
		codes[i] = byte(i % 7)
	}
	if _, _, err := writeTier(dir, 1, codes); err != nil {
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

// FuzzPartFile reads arbitrary bytes as a part file of ply 2 from rank 0:
// an error or the codes, never a panic.
func FuzzPartFile(f *testing.F) {
	dir := f.TempDir()
	codes := testCodes(3 * BlockLen / 2)
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
