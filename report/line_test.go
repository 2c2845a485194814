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

// Each answer to a program's line is one write of one line of JSON: the
// line's number first, then the position as its view gives it, or the
// line's error; answers written one after another keep their own bytes.
func TestAnswerLine(t *testing.T) {
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
	for _, tt := range tests {
		if err := AnswerLine(&w, tt.n, tt.a, tt.bad); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
	}
	if len(w) != len(tests) {
		t.Fatalf("%d writes, want one an answer (%d)", len(w), len(tests))
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := w[i]
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
