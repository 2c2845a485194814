package export

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/positions"
	"github.com/tateti-lab/tateti-lab/rules"
)

// An --out a dataset would damage is refused before any work (issue 43,
// case 1): a database, a manifest.json or a table file no export wrote, and
// what a rename cannot carry (a link, a pipe); an earlier dataset (the
// export's or the Beam pipeline's, known by its manifest's format, or by
// its tool before manifests had one), and a folder of other files, are
// taken.
func TestNewTarget(t *testing.T) {
	earlier := filepath.Join(t.TempDir(), "earlier")
	if _, err := Write(context.Background(), Game(solved(t, game.Default)), Options{Target: target(t, earlier, []string{"csv"}), Meta: meta}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		make func(dir string) error // fills the folder
		want string                 // "": taken
	}{
		{"a new folder", func(string) error { return nil }, ""},
		{"a folder of other files", file("notes.txt", "mine"), ""},
		{"a database being built", file(db.MarkerName, `{"rows":3}`), "holds a database"},
		{"a finished database", file(db.ManifestName, `{"format":"`+db.Format+`","version":1}`), "holds a database"},
		{"a manifest of someone else", file(ManifestName, `{"name":"my project"}`), "holds a manifest.json that no export of tateti-lab wrote"},
		{"a manifest that is not JSON", file(ManifestName, `not json`), "holds a manifest.json that no export of tateti-lab wrote"},
		{"the Beam pipeline's dataset of before manifests had a format", file(ManifestName, `{"tool":"tateti-beam","files":[{}],"tables":[{}]}`), ""},
		{"a dataset's manifest by its format", file(ManifestName, `{"format":"`+Format+`","tool":"any front","files":[{}],"tables":[{}]}`), ""},
		{"another tool's manifest with files and tables", file(ManifestName, `{"tool":"other","files":[{}],"tables":[{}]}`), "holds a manifest.json that no export of tateti-lab wrote"},
		{"a table of someone else", file("states.csv", "a,b\n"), "holds states.csv but no dataset's manifest.json"},
		{"a link", func(dir string) error { return os.Symlink("/etc/hostname", filepath.Join(dir, "link")) }, `holds "link", which is not a regular file`},
		{"a pipe", func(dir string) error { return syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644) }, `holds "pipe", which is not a regular file`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := tt.make(dir); err != nil {
				t.Fatal(err)
			}
			_, err := NewTarget(dir, Formats)
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Fatalf("NewTarget = %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := NewTarget(earlier, Formats); err != nil {
		t.Errorf("NewTarget on an earlier dataset = %v, want it taken", err)
	}
	// A chosen set's manifest says how it was chosen, in fields of its own.
	chosen := filepath.Join(t.TempDir(), "chosen")
	plies, _ := positions.ParsePlies("2", 9)
	as := []perfect.Analysis{solved(t, game.Default).Analysis(1)}
	src := Label(rules.Classic(game.Default), as, positions.None(1), positions.Choice{From: "sample", Sample: &positions.Sample{N: 1, Plies: plies}})
	if _, err := Write(context.Background(), src, Options{Target: target(t, chosen, []string{"csv"}), Meta: meta}); err != nil {
		t.Fatal(err)
	}
	if _, err := NewTarget(chosen, Formats); err != nil {
		t.Errorf("NewTarget on an earlier dataset of a sample = %v, want it taken", err)
	}
}

// file gives a filler of a folder with the file name holding text.
func file(name, text string) func(dir string) error {
	return func(dir string) error { return os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644) }
}
