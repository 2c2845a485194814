package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"math/bits"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/grade"
	"github.com/tateti-lab/tateti-lab/internal/fakeprog"
	"github.com/tateti-lab/tateti-lab/internal/longtest"
	"github.com/tateti-lab/tateti-lab/internal/proctest"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/solve"
)

// fakeRun runs the command line with the fake program in role (and fault)
// as the user's program.
func fakeRun(t *testing.T, role, fault string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	t.Setenv(fakeprog.Env, role)
	t.Setenv(fakeprog.Fault, fault)
	return run(t, "", args...)
}

// connectFourPositions is a file of two Connect Four positions in Pons'
// format (ply 37, X wins; ply 34, X wins).
const connectFourPositions = "testdata/connect-four-positions.txt"

func TestVerifySolver(t *testing.T) {
	c4 := connectFourPositions
	connectFour := []string{"--gravity", "--size", "6x7", "--k", "4", "--positions", c4}
	tests := []struct {
		name   string
		role   string
		args   []string
		code   int
		stdout string
	}{
		{"right on every position", "solver", []string{"--check", "value,depth,best"}, 0, "ok: the program agrees on all 4,520 positions"},
		{"finished positions too", "solver", []string{"--all-boards", "--check", "value,depth,best"}, 0, "ok: the program agrees on all 5,478 positions"},
		{"one wrong value", "solver-wrong", nil, 1, ". X .    expected value 0\n    . . .    got      value -1"},
		{"the contest-programming report's move not undone", "solver-noundo", nil, 1, "FAILED: the program disagrees on"},
		{"a depth error passes a value check", "solver-depth", nil, 0, "ok: the program agrees"},
		{"a depth error", "solver-depth", []string{"--check", "value,depth"}, 1, "a line of perfect play:"},
		{"a sample", "solver", []string{"--sample", "100", "--seed", "3"}, 0, "ok: the program agrees on all 100 positions"},
		{"misère gravity", "solver", []string{"--misere", "--gravity", "--size", "4x3", "--check", "value,depth,best"}, 0, "ok: the program agrees on all"},
		{"every position, by search", "solver", []string{"--max-ply", "9", "--engine", "search", "--check", "value,depth,best"}, 0, "ok: the program agrees on all 4,520 positions"},
		{"a sample by random play", "solver", []string{"--sample", "50", "--plies", "3-6", "--check", "value,depth,best"}, 0, "ok: the program agrees on all 50 positions"},
		{"connect four from a file", "solver", append([]string{"--check", "value,depth,best"}, connectFour...), 0, "ok: the program agrees on all 2 positions"},
		{"connect four, a depth error", "solver-depth", append([]string{"--check", "value,depth"}, connectFour...), 1, "XXXOOXX (ply 34)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append([]string{"verify", "solver"}, tt.args...), "--", self(t))
			out, errOut, code := fakeRun(t, tt.role, "", args...)
			if code != tt.code || !strings.Contains(out, tt.stdout) {
				t.Fatalf("exit %d, want %d and stdout containing %q\nstdout:\n%s\nstderr:\n%s", code, tt.code, tt.stdout, out, errOut)
			}
		})
	}
}

// Every misbehaviour of a program gives exit 2 and a clear message in every
// mode that runs one, with nothing left running.
func TestProgramMisbehaves(t *testing.T) {
	modes := []struct {
		name string
		role string
		args []string
	}{
		{"checker", "seed000", []string{"verify", "checker", "--cells", "0,1,-1", "--results", "0,1,2,3"}},
		{"solver", "solver", []string{"verify", "solver"}},
		{"agent", "agent-first", []string{"grade"}},
	}
	faults := []struct {
		fault string
		args  []string
		want  string
	}{
		{"crash", nil, "stopped early: exit status 3 (10 of"},
		{"hang", []string{"--timeout", "500ms"}, "gave no answer for 500ms"},
		{"short", nil, "exited with status 0 before answering every request (5 of"},
		{"extra", nil, "printed more answers than requests"},
	}
	for _, m := range modes {
		for _, f := range faults {
			t.Run(m.name+" "+f.fault, func(t *testing.T) {
				args := append(append(append([]string{}, m.args...), f.args...), "--", self(t))
				out, errOut, code := fakeRun(t, m.role, f.fault, args...)
				if code != exitUsage || !strings.Contains(errOut, m.name+" program") || !strings.Contains(errOut, f.want) {
					t.Fatalf("exit %d, stderr %q; want exit 2 and %q\nstdout:\n%s", code, errOut, f.want, out)
				}
			})
		}
		t.Run(m.name+" cannot start", func(t *testing.T) {
			args := append(append([]string{}, m.args...), "--", "/nonexistent/program")
			_, errOut, code := fakeRun(t, m.role, "", args...)
			if code != exitUsage || !strings.Contains(errOut, "cannot start") {
				t.Fatalf("exit %d, stderr %q; want exit 2 and cannot start", code, errOut)
			}
		})
		t.Run(m.name+" leaves a child", func(t *testing.T) {
			pids := filepath.Join(t.TempDir(), "pids")
			t.Setenv(fakeprog.PIDFile, pids)
			args := append(append([]string{}, m.args...), "--", self(t))
			if out, errOut, code := fakeRun(t, m.role, "child", args...); code == exitUsage {
				t.Fatalf("exit 2: %s %s", out, errOut)
			}
			for _, pid := range readPIDs(t, pids, 2) {
				if !proctest.WaitGone(pid) {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Fatalf("process %d is still running after the run", pid)
				}
			}
		})
	}
}

func TestGrade(t *testing.T) {
	first := firstCellAccuracy(t)
	tests := []struct {
		name     string
		role     string
		args     []string
		code     int
		accuracy float64
		best     int64 // -1: not checked
	}{
		{"perfect agent", "agent-perfect", nil, 0, 100, 4520},
		{"perfect agent passes", "agent-perfect", []string{"--min-accuracy", "100"}, 0, 100, 4520},
		{"first empty cell", "agent-first", nil, 0, first, -1},
		{"first empty cell fails", "agent-first", []string{"--min-accuracy", "99"}, 1, first, -1},
		// The same positions chosen up to their last ply, answered by search.
		{"first empty cell, by search", "agent-first", []string{"--max-ply", "9", "--engine", "search"}, 0, first, -1},
		{"perfect agent, by search", "agent-perfect", []string{"--max-ply", "9", "--engine", "search"}, 0, 100, 4520},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append([]string{"grade", "--json"}, tt.args...), "--", self(t))
			out, errOut, code := fakeRun(t, tt.role, "", args...)
			var v struct {
				Passed bool `json:"passed"`
				Agent  struct {
					Overall struct {
						Positions, Illegal, Best int64
						Accuracy                 float64
					} `json:"overall"`
				} `json:"agent"`
			}
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("stdout is not the report: %v\n%s\n%s", err, out, errOut)
			}
			o := v.Agent.Overall
			if code != tt.code || o.Positions != 4520 || o.Accuracy != tt.accuracy || (tt.best >= 0 && o.Best != tt.best) {
				t.Fatalf("exit %d, overall %+v; want exit %d, 4520 positions, accuracy %.2f, best %d", code, o, tt.code, tt.accuracy, tt.best)
			}
		})
	}
}

// firstCellAccuracy computes, apart from package grade, how often the first
// empty cell keeps the value of a 3x3 position, in percent cut to hundredths.
func firstCellAccuracy(t *testing.T) float64 {
	sol, err := solve.Game(context.Background(), rules.Classic(game.Default), 2)
	if err != nil {
		t.Fatal(err)
	}
	e := sol.Enum
	var kept, n int64
	for i := range e.Len() {
		if e.Status[i].Terminal() {
			continue
		}
		n++
		moves := sol.Moves(i)
		if moves[0].Value == sol.Value[i] {
			kept++
		}
	}
	return float64(kept*10000/n) / 100
}

// Under gravity the first empty cell is mostly not a legal move: those
// answers are reported as illegal, with the board, and the run is graded.
func TestGradeIllegal(t *testing.T) {
	out, errOut, code := fakeRun(t, "agent-empty", "", "grade", "--size", "3x3", "--gravity", "--", self(t))
	if code != exitFailed || strings.Contains(out, "illegal     0") {
		t.Fatalf("exit %d, want 1: an illegal answer is the agent's fault\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "the agent answered \"0\": illegal: cell 0 is not the lowest empty cell of its column") {
		t.Fatalf("stdout does not draw an illegal answer:\n%s", out)
	}
}

// Past the exhaustive limit an agent is graded on a chosen set, answered by
// search: Connect Four positions from a file in Pons' format. The agent that
// answers the first empty cell plays illegal moves there, reported with the
// board and no state id.
func TestGradeConnectFour(t *testing.T) {
	file := connectFourPositions
	tests := []struct {
		name, role string
		want       []string
		code       int // 1 when an answer was illegal
	}{
		{"perfect agent", "agent-perfect", []string{"on 2 positions", "accuracy: 100.00% of moves keep the value; 100.00% are best moves"}, 0},
		{"first empty cell", "agent-empty", []string{"on 2 positions", "the agent answered \"0\": illegal: cell 0 is not the lowest empty cell of its column", "accuracy: 50.00%"}, exitFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := fakeRun(t, tt.role, "", "grade", "--gravity", "--size", "6x7", "--k", "4", "--positions", file, "--", self(t))
			if code != tt.code {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			for _, want := range tt.want {
				if !strings.Contains(out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "(state ") {
				t.Errorf("a 42-cell board has no state id, and the report names one:\n%s", out)
			}
		})
	}
}

func TestJudgeUVa10111(t *testing.T) {
	tests := []struct {
		name   string
		role   string
		fault  string
		args   []string
		code   int
		stdout string
	}{
		{"sample accepted", "uva", "", []string{"--cases", "0"}, 0, "UVa 10111, 2 cases: Accepted"}, // the judge's own engine, memory: a long check
		{"random cases accepted, by search", "uva", "", []string{"--cases", "5", "--seed", "2", "--engine", "search", "--json"}, 0, `"engine": "search"`},
		{"the last winning move", "uva-last", "", []string{"--cases", "0", "--engine", "search"}, 1, "Wrong Answer\n1 cases right before the first wrong one, case 2:"},
		{"a space too many", "uva-space", "", []string{"--cases", "0", "--engine", "search"}, 1, "Presentation Error"},
		{"crash", "uva", "crash", []string{"--cases", "0", "--engine", "search"}, 2, "Runtime Error\nthe program ended with exit status 3\nthe end of its stderr:\nfakeprog: index out of range"},
		{"hang", "uva", "hang", []string{"--cases", "0", "--time-limit", "300ms", "--engine", "search"}, 2, "Time Limit Exceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() {
				t.Skip("each case solves 4x4 first or searches it, and runs a program: heavy under -race, runs without -short")
			}
			if !slices.Contains(tt.args, "--engine") {
				longtest.Skip(t, "the judge solves free 4x4 whole, and runs a program")
			}
			args := append(append([]string{"judge", "uva10111"}, tt.args...), "--", self(t))
			out, errOut, code := fakeRun(t, tt.role, tt.fault, args...)
			if code != tt.code || !strings.Contains(out, tt.stdout) {
				t.Fatalf("exit %d, want %d and stdout containing %q\nstdout:\n%s\nstderr:\n%s", code, tt.code, tt.stdout, out, errOut)
			}
		})
	}
}

// A contest program over its output or memory limit is stopped with that
// verdict, exit 2, without reading its output to the time limit.
func TestJudgeLimits(t *testing.T) {
	tests := []struct {
		name string
		argv []string
		args []string
		want string
	}{
		{"a flood of blank lines", []string{"yes", ""}, nil, "Output Limit Exceeded\nthe program printed more than 1048704 bytes for 2 cases, and was stopped"},
		{"a flood of lines", []string{"yes"}, nil, "Wrong Answer"},
		{"over its memory", []string{"python3", "-c", "import time; x = bytearray(300 << 20); time.sleep(60)"}, []string{"--memory", "100MiB"}, "Memory Limit Exceeded\nthe program used more than the memory limit of 100 MiB (set --memory for more)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			argv := slices.Clone(tt.argv)
			if argv[0] == "python3" {
				argv[0] = python(t, "a program over its memory")
			}
			args := append(append([]string{"judge", "uva10111", "--cases", "0", "--engine", "search", "--time-limit", "20s"}, tt.args...), "--")
			out, errOut, code := run(t, "", append(args, argv...)...)
			want := exitUsage
			if tt.want == "Wrong Answer" {
				want = exitFailed
			}
			if code != want || !strings.Contains(out, tt.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %d and %q", code, out, errOut, want, tt.want)
			}
		})
	}
}

func TestJudgeUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no problem", []string{"judge"}, "name a problem"},
		{"no program", []string{"judge", "uva10111"}, "the program is missing: give it and its arguments after --"},
		{"a program before --", []string{"judge", "uva10111", "x"}, `"x" is not a flag of tateti-lab judge uva10111: give the program and its arguments after --`},
		{"nothing after --", []string{"judge", "uva10111", "--"}, "nothing after --"},
		{"a size", []string{"judge", "uva10111", "--size", "3x3", "--", "x"}, "--size does not go with tateti-lab judge uva10111"},
		{"an unknown oracle", []string{"judge", "uva10111", "--engine", "book", "--", "x"}, `engine "book" is unknown, want auto, memory or search`},
		{"cannot start", []string{"judge", "uva10111", "--cases", "0", "--", "/nonexistent/program"}, "cannot start"},
		{"no memory", []string{"judge", "uva10111", "--memory", "0", "--", "x"}, `--memory "0" is no amount`},
		{"more cases than there are", []string{"judge", "uva10111", "--cases", "99999999999", "--engine", "search", "--", "cat"}, "--cases 99999999999 is more than the 4,656,402 positions the problem allows: give at most that, or --all"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && tt.name == "more cases than there are" {
				t.Skip("enumerates free 4x4 to count the cases, slow under -race; runs without -short")
			}
			_, errOut, code := run(t, "", tt.args...)
			if code != exitUsage || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", code, errOut, tt.want)
			}
		})
	}
}

func TestProgramUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"check without value", []string{"verify", "solver", "--check", "depth", "--", "x"}, `--check "depth" does not name value`},
		{"check of a typo", []string{"verify", "solver", "--check", "value,dpeth", "--", "x"}, `names "dpeth", want value, depth and best`},
		{"values too few", []string{"verify", "solver", "--values", "1,0", "--", "x"}, `--values "1,0" has 2 tokens, want 3`},
		{"column without gravity", []string{"verify", "solver", "--move-format", "column", "--", "x"}, "--move-format: move format column needs gravity"},
		{"values with a checker", []string{"verify", "checker", "--values", "1,0,-1", "--", self(t)}, "unknown flag: --values"},
		{"results with a solver", []string{"verify", "solver", "--results", "a,b,c,d", "--", self(t)}, "unknown flag: --results"},
		{"sample without a program", []string{"verify", "--sample", "10"}, "unknown flag: --sample"},
		{"negative sample", []string{"grade", "--sample", "-1", "--", "x"}, "--sample -1 is not a count"},
		{"games on chosen positions", []string{"grade", "--games", "3", "--max-ply", "2", "--", "x"}, "--max-ply grades positions, and --games plays games"},
		{"connect four whole", []string{"grade", "--gravity", "--size", "6x7", "--k", "4", "--", "x"}, "too many"},
		{"connect four, every position to a solver", []string{"verify", "solver", "--game", "connect-four", "--", "x"}, "verify solver takes every position of 6x7 k=4 gravity, whose 42 cells are too many to exhaust (at most 25): add --sample N --plies RANGE"},
		{"plies without a sample", []string{"grade", "--plies", "3", "--", "x"}, "--plies goes with --sample N"},
		{"grade without an agent", []string{"grade"}, "the program is missing: give it and its arguments after --, such as tateti-lab grade -- python3 prog.py"},
		{"accuracy past 100", []string{"grade", "--min-accuracy", "150", "--", self(t)}, "--min-accuracy 150 is not a percentage"},
		{"accuracy not a number", []string{"grade", "--min-accuracy", "NaN", "--", self(t)}, "--min-accuracy NaN is not a percentage"},
		{"agent not found", []string{"grade", "--", "/nonexistent/agent"}, `cannot start the program "/nonexistent/agent"`},
		// A line past the bound is said the same way by every mode.
		{"positions, an over-long answer", []string{"grade", "--timeout", "3s", "--", "cat", "/dev/zero"}, `agent program "cat /dev/zero" printed a line longer than 1048576 bytes`},
		{"checker closes its output and runs on", []string{"verify", "checker", "--timeout", "300ms", "--", "sh", "-c", "exec >&-; sleep 30"}, "closed its output before answering every request, and gave no exit for 300ms (set --timeout for a longer silence) (0 of 5478 answers read)"},
		{"checker answers forever", []string{"verify", "checker", "--timeout", "300ms", "--", "yes", "open"}, `printed more answers than requests: line 5479 is "open"`},
		{"checker, an over-long answer", []string{"verify", "checker", "--timeout", "3s", "--", "cat", "/dev/zero"}, `checker program "cat /dev/zero" printed a line longer than 1048576 bytes`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, "", tt.args...)
			if code != exitUsage || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", code, errOut, tt.want)
			}
		})
	}
}

// grade --games: a perfect agent never loses against perfect or random play;
// the first-legal-cell agent's results lie within what the test computes
// it can get against each opponent, over every choice the opponent can make.
func TestGradeGames(t *testing.T) {
	rl := rules.Classic(game.Default)
	sol, err := solve.Game(context.Background(), rl, 2)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		role string
	}{
		{"perfect agent", "agent-perfect"},
		{"first legal cell", "agent-first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := fakeRun(t, tt.role, "", "grade", "--games", "20", "--seed", "3", "--json", "--", self(t))
			if code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
			}
			var res grade.GamesResult
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			if len(res.Tallies) != 4 {
				t.Fatalf("%d tallies, want 4 (two opponents, two colours)", len(res.Tallies))
			}
			for _, g := range res.Tallies {
				side := game.X
				if g.AgentPlays == "O" {
					side = game.O
				}
				possible := outcomes(sol, game.Board{}, side, g.Opponent == "perfect", tt.role == "agent-perfect")
				got := map[int8]int{1: g.Wins, 0: g.Draws, -1: g.Losses}
				for v, n := range got {
					if n > 0 && !possible[v] {
						t.Errorf("%s against %s as %s: %d games with result %d, which no choice of the opponent allows (%v)", tt.name, g.Opponent, g.AgentPlays, n, v, possible)
					}
				}
				if g.Games != 20 || g.Wins+g.Draws+g.Losses != 20 || g.Illegal != 0 {
					t.Errorf("%+v: want 20 games, each won, drawn or lost, none illegal", g)
				}
				if tt.role == "agent-perfect" && g.Losses > 0 {
					t.Errorf("the perfect agent lost %d games against %s as %s", g.Losses, g.Opponent, g.AgentPlays)
				}
			}
		})
	}
}

// outcomes gives the results (for the agent, playing side) that can end a
// game from b, over every move the opponent may choose: a best move when
// perfect, any legal move otherwise. The agent plays its first best move
// when perfect, its first legal cell otherwise.
func outcomes(sol *solve.Result, b game.Board, side game.Cell, perfectOpponent, perfectAgent bool) map[int8]bool {
	rl := sol.Enum.Rules
	if over, winner := rl.Outcome(b); over {
		return map[int8]bool{int8(perfect.Of(winner).For(side)): true}
	}
	i, _ := sol.Enum.Lookup(game.ID(b))
	moves := rl.Moves(b)
	if (b.ToMove() == side && perfectAgent) || (b.ToMove() != side && perfectOpponent) {
		moves = game.Mask(sol.Best[i])
	}
	if b.ToMove() == side {
		moves &= -moves // the agent's one choice: the first
	}
	out := map[int8]bool{}
	for m := uint64(moves); m != 0; m &= m - 1 {
		for v := range outcomes(sol, b.Play(bits.TrailingZeros64(m), b.ToMove()), side, perfectOpponent, perfectAgent) {
			out[v] = true
		}
	}
	return out
}

// grade --out writes every position's graded answer, as CSV or Parquet,
// and the rows add up to the report's tallies.
func TestGradeResultsFile(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"results.csv", "results.parquet"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			out, errOut, code := fakeRun(t, "agent-first", "", "grade", "--json", "--out", path, "--", self(t))
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			var v struct{ Agent grade.Report }
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatal(err)
			}
			rows := readGraded(t, path)
			kinds := map[string]int64{}
			best := int64(0)
			for _, r := range rows {
				kinds[r.Kind]++
				if r.IsBest {
					best++
				}
				if (r.Move == nil) != (r.Kind == "illegal") || (r.ValueAfter == nil) != (r.Kind == "illegal") {
					t.Fatalf("row %+v: a move and a value after exactly when legal", r)
				}
			}
			o := v.Agent.Overall
			if int64(len(rows)) != o.Positions || kinds["kept"] != o.Kept || kinds["illegal"] != o.Illegal ||
				kinds["win_to_draw"] != o.WinToDraw || kinds["win_to_loss"] != o.WinToLoss || kinds["draw_to_loss"] != o.DrawToLoss || best != o.Best {
				t.Fatalf("rows by kind %v (best %d) do not add up to the report %+v", kinds, best, o)
			}
		})
	}
	_, errOut, code := run(t, "", "grade", "--out", filepath.Join(dir, "results.xlsx"), "--", self(t))
	if code != exitUsage || !strings.Contains(errOut, "ends in neither .parquet nor .csv") {
		t.Fatalf("exit %d, stderr %q; want 2 and the endings", code, errOut)
	}
}

// readGraded reads a results file of grade --out.
func readGraded(t *testing.T, path string) []grade.Graded {
	t.Helper()
	if strings.HasSuffix(path, ".parquet") {
		rows, err := parquet.ReadFile[grade.Graded](path)
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	tab := readCSV(t, path)
	optional := func(text string) *int8 {
		if text == "" {
			return nil
		}
		n, _ := strconv.Atoi(text)
		v := int8(n)
		return &v
	}
	var rows []grade.Graded
	for _, r := range tab.rows {
		rows = append(rows, grade.Graded{Kind: r[tab.col["kind"]], IsBest: r[tab.col["is_best"]] == "true",
			Move: optional(r[tab.col["move"]]), ValueAfter: optional(r[tab.col["value_after"]])})
	}
	return rows
}

// gamesPlayed gives the games of grade --games --json output out, each
// as its result and moves, the agent's times left out.
func gamesPlayed(t *testing.T, out string) []string {
	t.Helper()
	var res grade.GamesResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	var games []string
	for _, g := range res.Games {
		games = append(games, fmt.Sprint(g.Opponent, g.AgentPlays, g.Result, g.Length, g.Moves, g.Answers, g.Why))
	}
	return games
}

// grade --games plays the same games whoever answers for the perfect
// opponent, and past what the exhaustive solve takes, search answers
// (issue 44: grade --games on 6x7 was refused).
func TestGradeGamesBySearch(t *testing.T) {
	args := []string{"grade", "--gravity", "--size", "4x4", "--k", "4", "--games", "3", "--seed", "5", "--json"}
	table, errOut, code := fakeRun(t, "agent-first", "", slices.Concat(args, []string{"--", self(t)})...)
	if code != 0 {
		t.Fatalf("table: exit %d, stderr %q", code, errOut)
	}
	searched, errOut, code := fakeRun(t, "agent-first", "", slices.Concat(args, []string{"--engine", "search", "--", self(t)})...)
	if code != 0 {
		t.Fatalf("search: exit %d, stderr %q", code, errOut)
	}
	for _, field := range []string{"tallies", "first_loss"} {
		if a, b := jsonField(t, searched, field), jsonField(t, table, field); a != b {
			t.Errorf("%s: %s by search, want the table's %s", field, a, b)
		}
	}
	if a, b := gamesPlayed(t, searched), gamesPlayed(t, table); !slices.Equal(a, b) {
		t.Errorf("the games by search %v, want the table's %v", a, b)
	}
	if got := jsonField(t, searched, "engine"); got != `"search"` {
		t.Errorf("engine %s, want search", got)
	}
	// Under gravity the record's moves are actions, columns from 0, as
	// the JSON says; the text names columns from 1, as --moves takes them.
	var res grade.GamesResult
	if err := json.Unmarshal([]byte(table), &res); err != nil || res.FirstLoss == nil {
		t.Fatalf("no first loss in %s (%v)", table, err)
	}
	if !strings.HasPrefix(res.Numbering, "action: the column from 0") {
		t.Errorf("numbering %q, want the actions named", res.Numbering)
	}
	for _, m := range res.Games[*res.FirstLoss].Moves {
		if m < 0 || m > 3 {
			t.Errorf("move %d of the first loss %v is not a column from 0 to 3", m, res.Games[*res.FirstLoss].Moves)
		}
	}
	text, _, _ := fakeRun(t, "agent-first", "", slices.Concat(args[:len(args)-1], []string{"--", self(t)})...)
	if !strings.Contains(text, "1. X plays column ") {
		t.Errorf("the first loss, as text, does not name columns:\n%s", text)
	}
}
