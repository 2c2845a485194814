package book

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// The docs name the built-in book's last ply where they say what it
// answers; each such place says the manifest's, so that a book built
// deeper cannot leave them behind (reference.md said 8 of a 12-ply book).
func TestDocsNameTheLastPly(t *testing.T) {
	b := builtIn(t)
	said := regexp.MustCompile(`(?:positions to ply|book's last ply) (\d+)`)
	found := 0
	for _, doc := range []string{"README.md", "docs/reference.md", "docs/protocols.md"} {
		text, err := os.ReadFile(filepath.Join("..", doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range said.FindAllSubmatch(text, -1) {
			found++
			if ply, _ := strconv.Atoi(string(m[1])); ply != b.Last() {
				t.Errorf("%s says %q; the book's last ply is %d", doc, m[0], b.Last())
			}
		}
	}
	if found == 0 {
		t.Error("no doc names the book's last ply; want reference.md to")
	}
}
