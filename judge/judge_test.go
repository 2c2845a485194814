package judge

import (
	"fmt"
	"testing"
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
