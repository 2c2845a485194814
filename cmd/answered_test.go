package cmd

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/book"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Every command that answers perfect play says, in its text and its JSON,
// which engine the planner picked and why.
func TestEveryAnswerSaysWho(t *testing.T) {
	sample := []string{"--sample", "5", "--plies", "2", "--seed", "1"}
	tests := []struct {
		name   string
		role   string
		args   []string // the JSON run adds --json; render has none
		engine string
		why    string
	}{
		{"grade, every position", "agent-first", []string{"grade"}, "memory", "every position is asked"},
		{"grade, games", "agent-first", []string{"grade", "--games", "2"}, "memory", "the whole game fits in memory, solved exhaustively once"},
		{"grade, a sample by search", "agent-first", append([]string{"grade", "--engine", "search"}, sample...), "search", "named"},
		{"verify solver, every position", "solver", []string{"verify", "solver"}, "memory", "every position is asked"},
		{"verify solver, a sample", "solver", append([]string{"verify", "solver"}, sample...), "memory", "the whole game fits in memory, solved exhaustively once"},
		{"judge", "uva", []string{"judge", "uva10111", "--cases", "0"}, "memory", "the whole game fits in memory"},
		{"export, every position", "", []string{"export"}, "memory", "every position is asked"},
		{"export, a sample by search", "", append([]string{"export", "--engine", "search"}, sample...), "search", "named"},
		{"render, a sample", "", append([]string{"render", "--engine", "search"}, sample...), "search", "named"},
		{"render, one position", "", []string{"render", "--moves", "2"}, "memory", "the game from this position fits in memory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if args[0] == "judge" {
				longtest.Skip(t, "the judge solves free 4x4 whole, and runs a program")
			}
			if args[0] != "judge" { // a small board: the programs are slow under -race
				args = append(slices.Clone(args), "--size", "2x3")
			}
			switch {
			case args[0] == "export" || args[0] == "render" && len(args) > 3:
				args = append(args, "--out", filepath.Join(t.TempDir(), "out"))
			case args[0] == "render":
				args = append(args, "--out", filepath.Join(t.TempDir(), "position.svg"))
			}
			if tt.role != "" {
				args = append(args, "--", self(t))
			}
			text, errOut, code := fakeRun(t, tt.role, "", args...)
			want := "by " + tt.engine + " (" + tt.why
			if code != 0 || !strings.Contains(text, want) {
				t.Fatalf("%v: exit %d, stdout\n%s\nstderr %s\nwant exit 0 and stdout with %q", args, code, text, errOut, want)
			}
			if args[0] == "render" {
				return
			}
			out, errOut, code := fakeRun(t, tt.role, "", append([]string{"--json"}, args...)...)
			var got struct{ Engine, Why string }
			if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
				t.Fatalf("%v --json: exit %d, %v\n%s\n%s", args, code, err, out, errOut)
			}
			if got.Engine != tt.engine || !strings.HasPrefix(got.Why, tt.why) {
				t.Errorf("JSON engine %q, why %q; want %q, a why starting %q", got.Engine, got.Why, tt.engine, tt.why)
			}
		})
	}
}

// Each answer names the engine that gave the position's value: the book
// to its last ply, search past it (the planner's engine staying "book"),
// the table on a board solved in memory.
func TestAnsweredBy(t *testing.T) {
	last := bookLast(t)
	tests := []struct {
		name   string
		args   []string
		engine string
		by     string
		text   string // in the text output
	}{
		{"in the book", []string{"--game", "connect-four", "--moves", "443"}, "book", "book", "answered by book ("},
		{"at ply 22, past the book", []string{"--game", "connect-four", "--moves", "1234567123456712345671", "--value-only"}, "book", "search", fmt.Sprintf("answered by search, past the book's last ply %d (", last)},
		{"tic-tac-toe", []string{"--moves", "15"}, "memory", "memory", "answered by memory ("},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, "", append([]string{"solve", "--json"}, tt.args...)...)
			var got struct {
				Engine     string
				AnsweredBy string `json:"answered_by"`
			}
			if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
				t.Fatalf("exit %d, %v: %s", code, err, errOut)
			}
			if got.Engine != tt.engine || got.AnsweredBy != tt.by {
				t.Errorf("engine %q, answered_by %q; want %q and %q", got.Engine, got.AnsweredBy, tt.engine, tt.by)
			}
			if text, _, _ := run(t, "", append([]string{"solve"}, tt.args...)...); !strings.Contains(text, tt.text) {
				t.Errorf("text says\n%s\nwant %q", text, tt.text)
			}
		})
	}
}

// A sampled export across the book's last ply has an answered_by column:
// book to its last ply, search past it, never book; the manifest counts
// the rows by source.
func TestExportAnsweredBy(t *testing.T) {
	last := bookLast(t)
	dir := t.TempDir()
	plies := fmt.Sprintf("%d-%d", last-1, last+2)
	out, errOut, code := run(t, "", "export", "--game", "connect-four", "--sample", "12", "--plies", plies, "--seed", "3", "--value-only", "--format", "csv", "--out", dir, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m struct {
		Positions struct {
			Engine     string
			AnsweredBy map[string]int `json:"answered_by"`
		}
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	states := readCSV(t, filepath.Join(dir, "states.csv"))
	by, ok := states.col["answered_by"]
	if !ok {
		t.Fatal("no answered_by column in states.csv")
	}
	count := map[string]int{}
	for _, r := range states.rows {
		want := "book"
		if ply, _ := strconv.Atoi(r[states.col["ply"]]); ply > last {
			want = "search"
		}
		if r[by] != want {
			t.Errorf("%s: answered_by %q, want %q", r[0], r[by], want)
		}
		count[r[by]]++
	}
	if !maps.Equal(count, m.Positions.AnsweredBy) || count["book"] == 0 || count["search"] == 0 || m.Positions.Engine != "book" {
		t.Errorf("rows by source %v, the manifest %v (engine %q); want them equal, both sources, engine book", count, m.Positions.AnsweredBy, m.Positions.Engine)
	}
}

// On a 6x7 sample every list of moves is of actions: best_moves 0 to 6,
// and the moves table's move the column of its cell.
func TestExportActions(t *testing.T) {
	dir := t.TempDir()
	if _, errOut, code := run(t, "", "export", "--game", "connect-four", "--sample", "20", "--plies", "3-7", "--format", "csv", "--out", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	states := readCSV(t, filepath.Join(dir, "states.csv"))
	for _, r := range states.rows {
		var best []int
		if err := json.Unmarshal([]byte(r[states.col["best_moves"]]), &best); err != nil || len(best) == 0 {
			t.Fatalf("%s: best_moves %q (%v)", r[0], r[states.col["best_moves"]], err)
		}
		for _, a := range best {
			if a < 0 || a > 6 {
				t.Errorf("%s: best_moves %v, want columns 0 to 6", r[0], best)
			}
		}
	}
	moves := readCSV(t, filepath.Join(dir, "moves.csv"))
	for _, r := range moves.rows {
		move, _ := strconv.Atoi(r[moves.col["move"]])
		cell, _ := strconv.Atoi(r[moves.col["cell"]])
		if move < 0 || move > 6 || cell%7 != move {
			t.Errorf("%s: move %d, cell %d; want the move the cell's column", r[0], move, cell)
		}
	}
}

// --epsilon draws a sample by noisy perfect play, recorded in the
// manifest; outside 0 to 1 or without --sample it is refused, nothing
// written.
func TestExportEpsilon(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	out, errOut, code := run(t, "", "export", "--game", "connect-four", "--sample", "30", "--plies", "6-8", "--epsilon", "0.25", "--value-only", "--format", "csv", "--out", dir, "--json")
	if code != 0 || !strings.Contains(out, `"epsilon": 0.25`) {
		t.Fatalf("exit %d, manifest\n%s\nstderr %s; want the epsilon recorded", code, out, errOut)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"past 1", []string{"--sample", "3", "--plies", "5", "--epsilon", "1.5"}, "--epsilon 1.5 is not a probability, want 0 to 1"},
		{"negative", []string{"--sample", "3", "--plies", "5", "--epsilon", "-0.1"}, "--epsilon -0.1 is not a probability"},
		{"without --sample", []string{"--max-ply", "3", "--epsilon", "0.5"}, "--epsilon goes with --sample N"},
	}
	for _, tt := range tests {
		refused := filepath.Join(t.TempDir(), "refused")
		_, errOut, code := run(t, "", append([]string{"export", "--game", "connect-four", "--out", refused}, tt.args...)...)
		if _, err := os.Stat(refused); code != exitUsage || !strings.Contains(errOut, tt.want) || err == nil {
			t.Errorf("%s: exit %d, %q, written %t; want 2, %q and nothing written", tt.name, code, errOut, err == nil, tt.want)
		}
	}
}

// bookLast gives the last ply of Connect Four's book built in.
func bookLast(t *testing.T) int {
	t.Helper()
	c4, err := rules.Named("connect-four")
	if err != nil {
		t.Fatal(err)
	}
	b, ok, err := book.For(c4.Spec)
	if !ok || err != nil {
		t.Fatalf("no book for connect-four: %v", err)
	}
	return b.Last()
}

// The manifest records the epsilon a user gave, and only that: none for a
// sample drawn by random play without --epsilon (not 1, which reads as
// noisy play), 0 for --epsilon -0.
func TestExportEpsilonRecorded(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // the sample's epsilon in the manifest, "" for none
	}{
		{"random play, no --epsilon", nil, ""},
		{"minus zero", []string{"--epsilon", "-0"}, `"epsilon": 0`},
		{"random play asked for", []string{"--epsilon", "1"}, `"epsilon": 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			args := append([]string{"export", "--sample", "3", "--plies", "2", "--format", "csv", "--out", dir, "-q"}, tt.args...)
			if _, errOut, code := run(t, "", args...); code != 0 {
				t.Fatalf("exit %d, %s", code, errOut)
			}
			data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
			if err != nil {
				t.Fatal(err)
			}
			var m struct {
				Positions struct{ Sample map[string]json.RawMessage }
			}
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			got := ""
			if e, ok := m.Positions.Sample["epsilon"]; ok {
				got = `"epsilon": ` + string(e)
			}
			if got != tt.want {
				t.Errorf("the manifest's sample says %q, want %q", got, tt.want)
			}
		})
	}
}
