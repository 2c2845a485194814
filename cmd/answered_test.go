package cmd

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
		{"grade, every position", "agent-first", []string{"grade"}, "table", "every position is asked"},
		{"grade, games", "agent-first", []string{"grade", "--games", "2"}, "table", "the whole game fits in memory, solved exhaustively once"},
		{"grade, a sample by search", "agent-first", append([]string{"grade", "--oracle", "search"}, sample...), "search", "named"},
		{"verify solver, every position", "solver", []string{"verify", "solver"}, "table", "every position is asked"},
		{"verify solver, a sample", "solver", append([]string{"verify", "solver"}, sample...), "table", "the whole game fits in memory, solved exhaustively once"},
		{"judge", "uva", []string{"judge", "uva10111", "--cases", "0"}, "table", "the whole game fits in memory"},
		{"export, every position", "", []string{"export"}, "table", "every position is asked"},
		{"export, a sample by search", "", append([]string{"export", "--oracle", "search"}, sample...), "search", "named"},
		{"render, a sample", "", append([]string{"render", "--oracle", "search"}, sample...), "search", "named"},
		{"render, one position", "", []string{"render", "--moves", "2"}, "table", "the game from this position fits in memory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if args[0] == "judge" && testing.Short() {
				t.Skip("solves 4x4 and runs a program: heavy under -race, runs without -short")
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
