package cmd

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/rules"
)

// BenchmarkSolveStdin runs `solve --game connect-four --engine search
// --value-only --stdin` on 1,000 lines of moves, Connect Four games of
// random play to plies 25 to 35 (seeded), as a program would pipe them,
// each settled in tens of nodes: what a line costs besides its search
// (parsing, answering, writing), in the time and allocations of a run.
func BenchmarkSolveStdin(b *testing.B) {
	in := randomGames(b, 1000, 25, 35)
	args := []string{"solve", "--game", "connect-four", "--engine", "search", "--value-only", "--stdin"}
	for b.Loop() {
		var errb bytes.Buffer
		if code := Run(context.Background(), args, strings.NewReader(in), io.Discard, &errb); code != 0 {
			b.Fatalf("exit %d: %s", code, errb.String())
		}
	}
}

// randomGames gives n lines of Connect Four moves (columns from 1), each
// a game of random play to a ply from lo to hi, none over.
func randomGames(b *testing.B, n, lo, hi int) string {
	rl := rules.New(rules.Spec{Spec: game.Spec{Rows: 6, Cols: 7, K: 4}, Gravity: true})
	rng := rand.New(rand.NewPCG(1, 25))
	var out strings.Builder
	for lines := 0; lines < n; {
		var bd game.Board
		var moves []byte
		for ply := lo + rng.IntN(hi-lo+1); len(moves) < ply; {
			col := rng.IntN(7)
			cell, ok := rules.ColumnMove(rl, bd, col)
			if !ok {
				continue
			}
			bd = bd.Play(cell, bd.ToMove())
			moves = strconv.AppendInt(moves, int64(col+1), 10)
			if rl.Game().Status(bd).Terminal() {
				break
			}
		}
		if rl.Game().Status(bd).Terminal() {
			continue
		}
		out.Write(append(moves, '\n'))
		lines++
	}
	return out.String()
}
