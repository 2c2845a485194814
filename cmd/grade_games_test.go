package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/grade"
	"github.com/tateti-lab/tateti-lab/internal/fakeprog"
)

// grade --games keeps every game: its moves, result, length and the
// agent's time a move; an agent silent past --timeout forfeits that game
// alone, is started again, and the run exits 1; an illegal answer forfeits
// too, and the agent is started again for the next game, so that a stray
// line costs one game and never the run; a line too many at the end
// forfeits the last game. Connect Four, its perfect opponent from the book
// and search.
func TestGradeGamesKept(t *testing.T) {
	tests := []struct {
		name     string
		role     string
		fault    string
		args     []string
		games    int
		forfeits int
		code     int
		why      string // in the forfeit's why
	}{
		{"every game kept", "agent-first", "", []string{"--games", "3"}, 12, 0, 0, ""},
		{"silent once", "agent-first", "silent-once", []string{"--games", "2", "--timeout", "1s"}, 8, 1, exitFailed, `agent program "` + os.Args[0] + `" gave no answer for 1s`},
		{"illegal answers", "agent-empty", "", []string{"--games", "1"}, 4, 4, exitFailed, `an illegal answer, "0": cell 0 is not the lowest empty cell of its column (read as a cell, --move-format's default; an agent that answers columns wants --move-format column, from 0, or pettingzoo)`},
		// A line printed at the start, before the answer to the empty board
		// asked first, is skipped: no answer is put out of step.
		{"a debug line before its answers", "agent-first", "debug", []string{"--games", "2"}, 8, 0, 0, ""},
		// Its crash after ten requests: the empty board, then nine moves;
		// a game the perfect opponent wins before then is no forfeit.
		{"a crash", "agent-first", "crash", []string{"--games", "2"}, 8, 3, exitFailed, "stopped early: exit status 3; the end of its stderr:\nfakeprog: index out of range [9] with length 9"},
		// A start-up of 1.5 s, past --timeout, within --start-timeout: no
		// game forfeited, and no agent_seconds holds it.
		{"a slow start", "agent-first", "slow-start", []string{"--games", "1", "--timeout", "1s", "--start-timeout", "30s"}, 4, 0, 0, ""},
		{"a slow start past its limit", "agent-first", "slow-start", []string{"--games", "1", "--start-timeout", "500ms"}, -1, 0, exitUsage, ""},
		{"a line too many at the end", "agent-first", "extra", []string{"--games", "1"}, 4, 1, exitFailed, `after its last answer, printed more answers than requests: "0"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && tt.fault != "" {
				t.Skip("waits for a silent agent; runs without -short")
			}
			t.Setenv(fakeprog.OnceFile, filepath.Join(t.TempDir(), "once"))
			args := append(append([]string{"grade", "--game", "connect-four", "--json"}, tt.args...), "--", self(t))
			out, errOut, code := fakeRun(t, tt.role, tt.fault, args...)
			var res grade.GamesResult
			if tt.games < 0 { // the agent cannot start
				if code != tt.code || !strings.Contains(errOut, "of its start (set --start-timeout") {
					t.Fatalf("exit %d, stderr %q; want %d and the start-up's limit named", code, errOut, tt.code)
				}
				return
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil || code != tt.code {
				t.Fatalf("exit %d (%v), want %d; stderr %q", code, err, tt.code, errOut)
			}
			if tt.fault == "slow-start" && (res.StartSeconds[0] < 1.4 || slices.Max(res.Games[0].AgentSeconds) > 1) {
				t.Errorf("start-up %.2f s, the first game's answers %v s; want the start-up apart", res.StartSeconds[0], res.Games[0].AgentSeconds)
			}
			forfeits := 0
			for i, g := range res.Games {
				if len(g.Moves) != g.Length || g.Length == 0 && g.Result != grade.Forfeit || len(g.AgentSeconds) == 0 {
					t.Errorf("game %d: %+v, want its moves, length and the agent's times", i, g)
				}
				if g.Result == grade.Forfeit {
					forfeits++
					if !strings.Contains(g.Why, tt.why) {
						t.Errorf("game %d forfeited: %q, want %q", i, g.Why, tt.why)
					}
				}
			}
			if len(res.Games) != tt.games || forfeits != tt.forfeits {
				t.Errorf("%d games, %d forfeited; want %d and %d", len(res.Games), forfeits, tt.games, tt.forfeits)
			}
			// A start a forfeit by a failure, each timed; the start's lines
			// before its first answer kept.
			if starts := 1 + crashes(res.Games); len(res.StartSeconds) != starts {
				t.Errorf("%d start-ups timed, want %d", len(res.StartSeconds), starts)
			}
			if wantSkipped := tt.fault == "debug"; wantSkipped != (len(res.StartSkipped) > 0) || wantSkipped && res.StartSkipped[0] != "debug: started" {
				t.Errorf("start_skipped %q, want the debug line only where printed", res.StartSkipped)
			}
		})
	}
}

// crashes counts the games forfeited by the agent's failure after which
// it was started again: every forfeit but the last game's.
func crashes(games []grade.GameRecord) int {
	n := 0
	for _, g := range games[:len(games)-1] {
		if g.Result == grade.Forfeit {
			n++
		}
	}
	return n
}

// grade --games --out writes a row a game; --epsilon goes with --games
// alone and is a probability.
func TestGradeGamesOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.csv")
	_, errOut, code := fakeRun(t, "agent-first", "", "grade", "--games", "2", "--epsilon", "0.5", "--out", out, "--", self(t))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	games := readCSV(t, out)
	if len(games.rows) != 8 {
		t.Fatalf("%d rows, want 8 games", len(games.rows))
	}
	for _, col := range []string{"game", "opponent", "agent_plays", "result", "length", "moves", "agent_seconds", "answers", "why"} {
		if _, ok := games.col[col]; !ok {
			t.Errorf("no column %s in %v", col, games.col)
		}
	}
	refusals := []struct {
		name string
		args []string
		want string
	}{
		{"epsilon without games", []string{"grade", "--epsilon", "0.2", "--", "x"}, "--epsilon weakens the perfect opponent of --games N; give --games"},
		{"epsilon past 1", []string{"grade", "--games", "2", "--epsilon", "1.5", "--", "x"}, "--epsilon 1.5 is not a probability, want 0 to 1"},
		{"connect four, every position", []string{"grade", "--game", "connect-four", "--", "x"}, "add --games N to play N games from the start against each opponent, or --sample N --plies RANGE"},
	}
	for _, tt := range refusals {
		if _, errOut, code := run(t, "", tt.args...); code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%s: exit %d, %q; want 2 and %q", tt.name, code, errOut, tt.want)
		}
	}
}

// grade --games N --openings FILE plays each opening N times with each
// colour against each opponent, as Kaggle's evaluation plays its openings;
// an opening is a move sequence whose game goes on.
func TestGradeOpenings(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := file("openings.txt", "# two openings\n44\n4453 ignored\n")
	args := []string{"grade", "--game", "connect-four", "--json", "--games", "1", "--openings", good, "--", self(t)}
	out, errOut, code := fakeRun(t, "agent-first", "", args...)
	var res grade.GamesResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 {
		t.Fatalf("exit %d (%v); stderr %q", code, err, errOut)
	}
	want := [][]int{{3, 3}, {3, 3, 4, 2}} // actions: columns from 0
	if len(res.Games) != 2*2*len(want) {
		t.Fatalf("%d games, want %d: each opening with each colour against each opponent", len(res.Games), 2*2*len(want))
	}
	for i, g := range res.Games {
		if w := want[i%len(want)]; !slices.Equal(g.Opening, w) || g.Length != len(g.Moves) || g.Length == 0 {
			t.Errorf("game %d: opening %v, %d moves of length %d; want opening %v and the moves after it", i, g.Opening, len(g.Moves), g.Length, w)
		}
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"without --games", []string{"--openings", file("ttt.txt", "4\n")}, "--openings goes with --games N"},
		{"a board", []string{"--game", "connect-four", "--games", "1", "--openings", file("board.txt", "......./......./......./......./......./...X...\n")}, "opening 1, ......./......./......./......./......./...X..., is a board: give the moves that reach it"},
		{"a game over", []string{"--game", "connect-four", "--games", "1", "--openings", file("over.txt", "1212121\n")}, "ends the game"},
		{"a missing file", []string{"--game", "connect-four", "--games", "1", "--openings", filepath.Join(dir, "none.txt")}, "--openings: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, "", append(append([]string{"grade"}, tt.args...), "--", "true")...)
			if code != exitUsage || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, errOut, exitUsage, tt.want)
			}
		})
	}
}
