package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// byValue is a ply's positions by value for the side to move.
type byValue struct{ Won, Drawn, Lost int64 }

// publicPlies reads a table of public figures, docs/solved/NAME.public.csv:
// each ply's positions play reaches, won, drawn and lost for the side to
// move.
func publicPlies(t *testing.T, name string) map[int]byValue {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil || len(records) < 2 || strings.Join(records[0], ",") != "ply,won,drawn,lost" {
		t.Fatalf("%s: %v; want a header ply,won,drawn,lost and a row a ply", name, err)
	}
	plies := map[int]byValue{}
	for _, r := range records[1:] {
		var n [4]int64
		for i := range n {
			if n[i], err = strconv.ParseInt(r[i], 10, 64); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		plies[int(n[0])] = byValue{n[1], n[2], n[3]}
	}
	return plies
}

// The positions play reaches that the solved games' manifests record
// (docs/solved), counted here, are the public ones ply by ply: won, drawn
// and lost for the side to move, as markus7800's strong solver counts
// them (docs/solved/README.md). A manifest not counted yet holds none.
func TestSolvedAgreeWithPublic(t *testing.T) {
	manifests, err := filepath.Glob(filepath.Join("docs", "solved", "*.manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, name := range manifests {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Reached []struct {
				Ply int
				byValue
			}
		}
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(m.Reached) == 0 {
			continue
		}
		public := publicPlies(t, strings.Replace(name, ".manifest.json", ".public.csv", 1))
		if len(m.Reached) != len(public) {
			t.Errorf("%s: %d plies counted, the public table %d", name, len(m.Reached), len(public))
		}
		for _, p := range m.Reached {
			if got, want := p.byValue, public[p.Ply]; got != want {
				t.Errorf("%s, ply %d: won, drawn, lost %v; the public %v", name, p.Ply, got, want)
			}
		}
		compared++
	}
	if compared == 0 {
		t.Fatal("no solved game's manifest records the positions play reaches: want Connect Four 6x5's at least")
	}
}
