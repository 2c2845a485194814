package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is the import path of the repository's module.
const module = "github.com/tateti-lab/tateti-lab"

// layers are the layers of docs/architecture.md, from the ground up, each
// with its packages in order: a package may import any package of a layer
// below its own, and a package of its own layer listed before it; nothing
// else of this module. The test, in the style of Go's own
// go/build/deps_test.go, holds every package's non-test files to them.
var layers = []struct {
	name string
	pkgs []string
}{
	{"the ground", []string{"internal/par", "internal/gc", "internal/hugepage", "internal/interrupt", "internal/progress",
		"internal/sysmem", "internal/term", "internal/atomicfile", "internal/crc32c", "internal/lazyregexp", "internal/journal", "internal/release", "internal/figure", "internal/longtest", "internal/proctest", "internal/fakeprog"}},
	{"the board", []string{"game", "rules", "perfect", "checker", "index"}},
	{"positions and search", []string{"enumerate", "solve", "search", "positions"}},
	{"the game on disk", []string{"db", "db/dbwrite", "tier", "book"}},
	{"engines", []string{"oracle/oracletest", "oracle", "plan", "choose"}},
	{"proofs and grading", []string{"internal/extproc", "internal/protocol", "verify", "external", "grade", "judge"}},
	{"output", []string{"export", "view", "report"}},
	{"the front", []string{"web", "cmd", "beam", "book/fold", "."}},
}

// testOnly are the packages for tests alone: any package's tests may
// import them, as Go's deps_test.go lets tests import testing, but no
// package's own files but another of them.
var testOnly = []string{"internal/longtest", "internal/proctest", "internal/fakeprog", "oracle/oracletest"}

// never are the imports a layer's rule would allow but the design does
// not: output is handed what the engines answered, never an engine, and
// the explorer's server is handed its oracle, never the planner (only the
// front, cmd, asks the planner and opens engines); the game on disk owes
// nothing to the exhaustive solve in memory, and its database nothing to
// the enumeration (their words are perfect's); and the database's reader
// writes no file, which its writer (db/dbwrite) does, so that a prober
// imports the reader alone.
var never = map[string][]string{
	"beam":   {"cmd", "web"}, // a front of its own: the command line's rules come from choose
	"export": {"oracle", "plan"},
	"report": {"oracle", "plan"},
	"web":    {"plan", "report"},
	"db":     {"enumerate", "solve", "internal/atomicfile"},
	"tier":   {"solve"},
}

// place gives the layer of pkg and its place in it; false for a package no
// layer names.
func place(pkg string) (layer, at int, ok bool) {
	for l, ly := range layers {
		if i := slices.Index(ly.pkgs, pkg); i >= 0 {
			return l, i, true
		}
	}
	return 0, 0, false
}

// imports gives the module's packages imported by the non-test Go files of
// each package of the tree at root, by the package's path from the root.
func imports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir // beam/, a module of its own, is walked: it imports this one's packages
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg, _ := filepath.Rel(root, filepath.Dir(path))
		pkg = filepath.ToSlash(pkg)
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if rest, ok := strings.CutPrefix(p, module+"/"); ok && !slices.Contains(out[pkg], rest) {
				out[pkg] = append(out[pkg], rest)
			}
		}
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// against gives the imports of the tree at root that go against the
// layers, each as a sentence naming the import.
func against(t *testing.T, root string) []string {
	var bad []string
	for pkg, imps := range imports(t, root) {
		l, at, ok := place(pkg)
		if !ok {
			bad = append(bad, pkg+" is in no layer of docs/architecture.md: give it one")
			continue
		}
		for _, imp := range imps {
			il, iat, ok := place(imp)
			switch {
			case !ok:
				bad = append(bad, pkg+" imports "+imp+", which is in no layer")
			case il > l:
				bad = append(bad, pkg+" ("+layers[l].name+") imports "+imp+", of "+layers[il].name+" above it")
			case il == l && iat >= at:
				bad = append(bad, pkg+" imports "+imp+", listed after it in "+layers[l].name)
			case slices.Contains(never[pkg], imp):
				bad = append(bad, pkg+" imports "+imp+", which it never may (docs/architecture.md)")
			case slices.Contains(testOnly, imp) && !slices.Contains(testOnly, pkg):
				bad = append(bad, pkg+" imports "+imp+", which is for tests alone")
			}
		}
	}
	slices.Sort(bad)
	return bad
}

// Every package imports only what its layer may (docs/architecture.md),
// and the page names every layer's packages.
func TestLayers(t *testing.T) {
	if bad := against(t, "."); len(bad) > 0 {
		t.Errorf("imports against the layers of docs/architecture.md:\n%s", strings.Join(bad, "\n"))
	}
	doc, err := os.ReadFile(filepath.Join("docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ly := range layers {
		if !strings.Contains(string(doc), ly.name) {
			t.Errorf("docs/architecture.md does not name the layer %q", ly.name)
		}
		for _, pkg := range ly.pkgs {
			if pkg != "." && !strings.Contains(string(doc), "`"+pkg+"`") {
				t.Errorf("docs/architecture.md does not name the package `%s`", pkg)
			}
		}
	}
}

// The explorer's server is handed views and its oracle, never the tool's
// runs: none of the proofs, the grading or the running of programs is
// among its dependencies, whatever imports what between.
func TestWebDeps(t *testing.T) {
	imps := imports(t, ".")
	seen := map[string]bool{}
	var walk func(pkg string)
	walk = func(pkg string) {
		for _, imp := range imps[pkg] {
			if !seen[imp] {
				seen[imp] = true
				walk(imp)
			}
		}
	}
	walk("web")
	for _, pkg := range []string{"grade", "judge", "verify", "external", "internal/extproc", "report", "plan"} {
		if seen[pkg] {
			t.Errorf("web depends on %s, want its server apart from the tool's runs", pkg)
		}
	}
}

// The test sees an import against the layers: a package of the board
// importing one of positions and search, one importing a package listed
// after it in its own layer, export importing the planner, a package
// importing one for tests alone, and the Beam front the command line.
func TestLayersCatch(t *testing.T) {
	root := t.TempDir()
	write := func(pkg, imp string) {
		dir := filepath.Join(root, pkg)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		src := "package x\n\nimport _ \"" + module + "/" + imp + "\"\n"
		if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("checker", "enumerate")
	write("game", "rules")
	write("db", "game")
	write("export", "plan")
	write("verify", "internal/fakeprog")
	write("beam", "cmd")
	got := against(t, root)
	want := []string{
		"beam imports cmd, which it never may (docs/architecture.md)",
		"checker (the board) imports enumerate, of positions and search above it",
		"export imports plan, which it never may (docs/architecture.md)",
		"game imports rules, listed after it in the board",
		"verify imports internal/fakeprog, which is for tests alone",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
