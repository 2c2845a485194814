package judge

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/oracle"
	"github.com/tateti-lab/tateti-lab/rules"
)

func cases(t *testing.T, answers ...string) []Case {
	t.Helper()
	var out []Case
	for k, a := range answers {
		b, err := UVa10111.Spec.Parse(Sample[k%len(Sample)])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Case{Board: b, Answer: a})
	}
	return out
}

func TestCompare(t *testing.T) {
	cs := cases(t, "#####", "(0,1)")
	tests := []struct {
		name    string
		out     []string
		verdict string
		first   int // the case of the first wrong line, 0 for none
		correct int
	}{
		{"exact", []string{"#####", "(0,1)"}, Accepted, 0, 2},
		{"a space inside", []string{"#####", "(0, 1)"}, PresentationError, 2, 2},
		{"a trailing space", []string{"#####", "(0,1) "}, PresentationError, 2, 2},
		{"a blank line between", []string{"#####", "", "(0,1)"}, PresentationError, 2, 2},
		{"a blank line at the end", []string{"#####", "(0,1)", ""}, PresentationError, 3, 2},
		{"a wrong move", []string{"#####", "(2,0)"}, WrongAnswer, 2, 1},
		{"one line short", []string{"#####"}, WrongAnswer, 2, 1},
		{"a line too many", []string{"#####", "(0,1)", "(3,3)"}, WrongAnswer, 3, 2},
		{"nothing", nil, WrongAnswer, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Result{}
			r.compare(cs, tt.out)
			first := 0
			if r.First != nil {
				first = r.First.Case
			}
			if r.Verdict != tt.verdict || first != tt.first || r.Correct != tt.correct {
				t.Fatalf("verdict %s, first wrong case %d, %d correct; want %s, %d, %d", r.Verdict, first, r.Correct, tt.verdict, tt.first, tt.correct)
			}
		})
	}
}

func ExampleInput() {
	b, _ := UVa10111.Spec.Parse("o.../.ox./.xxx/xooo")
	fmt.Print(string(Input([]Case{{Board: b}})))
	// Output:
	// ?
	// o...
	// .ox.
	// .xxx
	// xooo
	// $
}

// Ending reads after "the program" whatever the Runtime Error was.
func TestEnding(t *testing.T) {
	tests := []struct{ exit, want string }{
		{"exit status 3", "ended with exit status 3"},
		{"signal: killed", "ended with signal: killed"},
		{"printed a line longer than 1048576 bytes", "printed a line longer than 1048576 bytes"},
	}
	for _, tt := range tests {
		if got := (&Result{Exit: tt.exit}).Ending(); got != tt.want {
			t.Errorf("Ending() of %q = %q, want %q", tt.exit, got, tt.want)
		}
	}
}

// The table and search give every case the same right answer: the first
// winning move, or none.
func TestCasesByEitherOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("solves free 4x4 and searches its cases, heavy under -race; runs without -short")
	}
	ctx := context.Background()
	rl := rules.New(UVa10111)
	e, err := enumerate.Game(ctx, rl, 2)
	if err != nil {
		t.Fatal(err)
	}
	n := 300
	if testing.Short() {
		n = 30
	}
	var got [2][]Case
	table, err := oracle.Solved(ctx, rl, oracle.Options{Workers: 2, NoLines: true})
	if err != nil {
		t.Fatal(err)
	}
	search, err := oracle.Search(rl, oracle.Options{Memory: 1 << 30, Workers: 2, NoLines: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range []oracle.Oracle{table, search} {
		name := o.Name()
		if got[i], err = Cases(ctx, e, o, n, 5); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if len(got[0]) != n+len(Sample) || len(got[1]) != len(got[0]) {
		t.Fatalf("%d and %d cases, want %d", len(got[0]), len(got[1]), n+len(Sample))
	}
	wins := 0
	for i := range got[0] {
		tab, sea := got[0][i], got[1][i]
		if tab.Board != sea.Board || tab.Answer != sea.Answer {
			t.Errorf("case %d: the table says %s %s, search %s %s", i+1, UVa10111.Spec.Format(tab.Board), tab.Answer, UVa10111.Spec.Format(sea.Board), sea.Answer)
		}
		if tab.Answer != "#####" {
			wins++
		}
	}
	if got, want := got[0][1].Answer, "(0,1)"; got != want { // the problem's sample output
		t.Errorf("the second sample's answer is %s, want %s", got, want)
	}
	// The sample alone needs no enumeration: the same cases without it.
	sample, err := Cases(ctx, nil, search, 0, 5)
	if err != nil || !slices.Equal(sample, got[1][:len(Sample)]) {
		t.Errorf("the sample alone, no game enumerated: %v, %v; want %v", sample, err, got[1][:len(Sample)])
	}
	if wins == 0 || wins == len(got[0]) {
		t.Errorf("%d of %d cases have a winning move: want some of each", wins, len(got[0]))
	}
}

// A program that floods its output is stopped once it has printed a line
// past its answers (Wrong Answer) or more bytes than the output limit
// (Output Limit Exceeded), not read to its time limit; one that takes more
// memory than its bound is stopped (Memory Limit Exceeded).
func TestRunLimits(t *testing.T) {
	cs := cases(t, "#####", "(0,1)", "#####")
	tests := []struct {
		name    string
		argv    []string
		verdict string
	}{
		{"a line forever", []string{"yes"}, WrongAnswer},
		{"blank lines forever", []string{"yes", ""}, OutputLimitExceeded},
		{"one endless line", []string{"sh", "-c", "yes | tr -d '\\n'"}, OutputLimitExceeded},
		{"the answers, then more", []string{"sh", "-c", "printf '#####\\n(0,1)\\n#####\\n'; yes '(1,1)'"}, WrongAnswer},
		{"a child over its memory", []string{"sh", "-c", "python3 -c 'import time; x = bytearray(400 << 20); time.sleep(60)'"}, MemoryLimitExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			r, err := Run(ctx, tt.argv, cs, Limits{Time: time.Minute, Memory: 200 << 20})
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tt.verdict || r.Time > 10*time.Second {
				t.Fatalf("verdict %s after %v, want %s at once", r.Verdict, r.Time, tt.verdict)
			}
			if tt.verdict == OutputLimitExceeded && !strings.Contains(r.Exit, fmt.Sprint(OutputLimit(len(cs)))) {
				t.Errorf("exit %q, want the limit named", r.Exit)
			}
		})
	}
}
