package report

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/perfect"
	"github.com/tateti-lab/tateti-lab/rules"
	"github.com/tateti-lab/tateti-lab/view"
)

// writes records each write it is given, copied.
type writes []string

func (w *writes) Write(p []byte) (int, error) {
	*w = append(*w, string(p))
	return len(p), nil
}

// The answers to a program's lines are held until Flush and written in
// one write, whole lines of JSON: the line's number first, then the
// position as its view gives it, or the line's error.
func TestLines(t *testing.T) {
	rl := rules.Classic(game.Default)
	answers := []perfect.Analysis{analysis(t, rl, "XX./O../..."), analysis(t, rl, "X../.O./..X")}
	tests := []struct {
		name string
		n    int
		a    perfect.Analysis
		bad  error
	}{
		{"a position", 1, answers[0], nil},
		{"a bad line", 2, perfect.Analysis{}, errors.New(`moves "9": no such cell`)},
		{"another position", 12, answers[1], nil},
	}
	var w writes
	l := NewLines(&w)
	for _, tt := range tests {
		if err := l.Answer(tt.n, tt.a, tt.bad); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
	}
	if len(w) != 0 {
		t.Fatalf("%d writes before Flush, want none", len(w))
	}
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := l.Flush(); err != nil || len(w) != 1 {
		t.Fatalf("%d writes after two flushes (%v), want one: the second has nothing to write", len(w), err)
	}
	got := strings.SplitAfter(w[0], "\n")
	if len(got) != len(tests)+1 || got[len(tests)] != "" {
		t.Fatalf("written %q: want %d lines", w[0], len(tests))
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := got[i]
			if !strings.HasSuffix(got, "}\n") || strings.Count(got, "\n") != 1 {
				t.Fatalf("answer %q: want one line of JSON", got)
			}
			var fields map[string]any
			if err := json.Unmarshal([]byte(got), &fields); err != nil {
				t.Fatalf("answer %q: %v", got, err)
			}
			if line, _ := fields["line"].(float64); int(line) != tt.n || !strings.HasPrefix(got, `{"line":`) {
				t.Errorf("answer %q: line %v first, want %d", got, fields["line"], tt.n)
			}
			want := `"error":` + strings.TrimSuffix(mustJSON(t, tt.bad), "\n")
			if tt.bad == nil {
				pos, err := view.NewPosition(tt.a).MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				want = string(pos[1:]) // the position's fields, after the line
			}
			if !strings.Contains(got, want) {
				t.Errorf("answer %q\nlacks %s", got, want)
			}
		})
	}
}

// Answers past linesHeld bytes are written without waiting for Flush, at
// an answer's end: each write holds whole lines.
func TestLinesHeld(t *testing.T) {
	rl := rules.Classic(game.Default)
	a := analysis(t, rl, "XX./O../...")
	var w writes
	l := NewLines(&w)
	n := 0
	for ; len(w) == 0; n++ {
		if n > linesHeld {
			t.Fatalf("%d answers and nothing written, want a write past %d bytes", n, linesHeld)
		}
		if err := l.Answer(n+1, a, nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := w[0]; len(got) < linesHeld || !strings.HasSuffix(got, "}\n") || strings.Count(got, "\n") != n {
		t.Errorf("the first write: %d bytes, %d lines, ending %q; want at least %d bytes, the %d answers whole", len(got), strings.Count(got, "\n"), got[max(0, len(got)-3):], linesHeld, n)
	}
}

// mustJSON gives err's text as a JSON string, or "" for no error.
func mustJSON(t *testing.T, err error) string {
	if err == nil {
		return ""
	}
	b, jerr := json.Marshal(err.Error())
	if jerr != nil {
		t.Fatal(jerr)
	}
	return string(b)
}
