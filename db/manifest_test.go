package db_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/db"
)

// A manifest's counts are not trusted (issue 43, case 3): one changed by
// hand after the build fails the manifest's checksum; and one whose counts
// contradict one another is refused even when sealed again, as a faulty
// writer could seal it.
func TestManifestChecked(t *testing.T) {
	byHand := func(old, new string) func(string, db.Manifest) string {
		return func(text string, _ db.Manifest) string { return regexp.MustCompile(old).ReplaceAllString(text, new) }
	}
	sealed := func(edit func(m *db.Manifest)) func(string, db.Manifest) string {
		return func(_ string, m db.Manifest) string {
			edit(&m)
			data, _ := db.ManifestBytes(m) // a Manifest always marshals
			return string(data)
		}
	}
	tests := []struct {
		name string
		edit func(text string, m db.Manifest) string
		want string
	}{
		{"one more position at a ply", byHand(`"positions": 252,`, `"positions": 253,`), "fails its checksum"},
		{"a negative count", byHand(`"positions": 252,`, `"positions": -252,`), "fails its checksum"},
		{"no checksum", byHand(`"checksum": "[0-9a-f]+"`, `"checksum": ""`), "fails its checksum (or has none"},
		{"sealed, positions not won, drawn and lost", sealed(func(m *db.Manifest) { m.Plies[6].Positions++; m.Positions++ }), "ply 6: 1520 won, drawn and lost, and 1521 positions"},
		{"sealed, a negative count", sealed(func(m *db.Manifest) { m.Plies[3].Won, m.Plies[3].Lost = -1, m.Plies[3].Lost+m.Plies[3].Won+1 }), "ply 3: a count below zero"},
		{"sealed, the plies past the game's sum", sealed(func(m *db.Manifest) { m.Positions-- }), "the plies hold 5478 positions, and the game 5477"},
		{"sealed, a ply missing", sealed(func(m *db.Manifest) { m.Plies = m.Plies[:9] }), "9 plies, want 10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, rl := solved(t)
			name := filepath.Join(dir, db.ManifestName)
			m, err := db.ReadManifest(dir)
			text, _ := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			edited := tt.edit(string(text), m)
			if edited == string(text) {
				t.Fatal("the edit changed nothing")
			}
			if err := os.WriteFile(name, []byte(edited), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Open(dir, rl); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Open: %v, want %q", err, tt.want)
			}
		})
	}
}
