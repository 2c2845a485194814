package search

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
)

// knownDir names the folder of BenchmarkKnown's position files.
var knownDir = flag.String("known", "", "BenchmarkKnown: a folder of 7x6 position files (lines of moves as columns from 0, a space and the score), as Steininger's c4 keeps them in tst/data/7x6")

// BenchmarkKnown solves the positions of each file of the folder -known
// names, as Christophe Steininger's c4 times them in its own test (a table
// emptied before each file and kept from position to position), with one
// worker and with two, fails on a score not the file's, and reports the
// mean time and nodes a position: the same positions timed in both solvers
// on one machine. Without -known there is nothing to time, and it says so.
func BenchmarkKnown(b *testing.B) {
	if *knownDir == "" {
		b.Skip("name a folder of position files with -known (c4's tst/data/7x6)")
	}
	files, err := filepath.Glob(filepath.Join(*knownDir, "*.txt"))
	if err != nil || len(files) == 0 {
		b.Fatalf("-known %s: no *.txt files (%v); name c4's tst/data/7x6", *knownDir, err)
	}
	for _, file := range files {
		ps, err := readKnown(file)
		if err != nil {
			b.Fatal(err)
		}
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", strings.TrimSuffix(filepath.Base(file), ".txt"), workers), func(b *testing.B) {
				s, err := New(gravity(6, 7, 4), Options{TableBits: MaxTableBits, Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				var spent time.Duration
				var nodes uint64
				for b.Loop() {
					s.Reset()
					spent, nodes = 0, s.Nodes()
					for _, p := range ps {
						start := time.Now()
						r, err := s.Solve(context.Background(), uint64(p.board.X), uint64(p.board.O))
						spent += time.Since(start)
						if err != nil {
							b.Fatal(err)
						}
						if r.Value != p.value || r.Depth != p.depth {
							b.Fatalf("%s: value %d depth %d, want %d and %d", p.line, r.Value, r.Depth, p.value, p.depth)
						}
					}
				}
				b.ReportMetric(float64(spent.Microseconds())/float64(len(ps)), "µs/position")
				b.ReportMetric(float64(s.Nodes()-nodes)/float64(len(ps)), "nodes/position")
			})
		}
	}
}

// A known position: its line in the file, the board, and its value and
// depth from the file's score.
type known struct {
	line  string
	board game.Board
	value perfect.Value
	depth perfect.Depth
}

// readKnown reads a file of known positions of 7x6.
func readKnown(file string) ([]known, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []known
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p, err := parseKnown(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, len(out)+1, err)
		}
		out = append(out, p)
	}
	return out, sc.Err()
}

// parseKnown reads a line of moves, columns from 0, a space and the score
// as c4 gives it: for the side to move, s > 0 a win, s < 0 a loss, 0 a
// draw; from the first player's side, S, a win of the first player's
// comes at move 43-2S of the game, a loss at 44+2S (moves counted from
// 1), a draw at move 42.
func parseKnown(line string) (known, error) {
	moves, score, ok := strings.Cut(line, " ")
	sc, err := strconv.Atoi(score)
	if !ok || err != nil {
		return known{}, fmt.Errorf("%q: want moves, a space and a score", line)
	}
	var b game.Board
	var heights [7]int
	for _, c := range moves {
		col := int(c - '0')
		if col < 0 || col > 6 || heights[col] == 6 {
			return known{}, fmt.Errorf("%q: %q is not a playable column", line, c)
		}
		b = b.Play((5-heights[col])*7+col, b.ToMove())
		heights[col]++
	}
	played := len(moves)
	if played%2 == 1 {
		sc = -sc
	}
	p := known{line: line, board: b}
	switch {
	case sc > 0:
		p.value, p.depth = perfect.XWins, perfect.Depth(43-2*sc-played)
	case sc < 0:
		p.value, p.depth = perfect.OWins, perfect.Depth(44+2*sc-played)
	default:
		p.depth = perfect.Depth(42 - played)
	}
	return p, nil
}
