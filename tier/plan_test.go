package tier

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/tateti-lab/tateti-lab/rules"
)

// A whole game solved tier by tier has the summary of the game enumerated
// in memory, under every rule set, and its counts for the side to move
// beside.
func TestWholeAgrees(t *testing.T) {
	for _, g := range []rules.Spec{
		spec(3, 3, 3, false, false), spec(3, 3, 3, false, true), spec(3, 4, 3, false, false),
		spec(4, 4, 4, true, false), spec(3, 4, 3, true, true),
	} {
		t.Run(g.String(), func(t *testing.T) {
			t.Setenv("TMPDIR", t.TempDir())
			rl := rules.New(g)
			want, err := Whole(context.Background(), rl, Plan{Method: Enumerated}, 2)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Whole(context.Background(), rl, Plan{Method: Tiers}, 2)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.ToMove) != g.Cells()+1 {
				t.Errorf("%d plies counted for the side to move, want %d", len(got.ToMove), g.Cells()+1)
			}
			got.ToMove = nil
			if !reflect.DeepEqual(got, want) {
				t.Errorf("tier by tier:\n%+v\nenumerated:\n%+v", got, want)
			}
		})
	}
}

// PlanFor enumerates what fits, goes tier by tier when only two plies do,
// and refuses, with both estimates, when neither does.
func TestPlanFor(t *testing.T) {
	tests := []struct {
		name   string
		memory uint64
		method Method
		err    string
	}{
		{"no limit", 0, Enumerated, ""},
		{"the enumeration fits", 1e9, Enumerated, ""},
		{"two plies fit", 100e6, Tiers, ""},
		{"neither fits", 1e6, 0, "needs about 439.5 MB of memory"},
	}
	rl := rules.New(spec(4, 4, 4, false, false))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := PlanFor(rl, tt.memory, 2)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), "a tier solve holds up to") {
					t.Fatalf("got %v, want an error saying %q and the tier solve's memory", err, tt.err)
				}
				return
			}
			if err != nil || p.Method != tt.method {
				t.Fatalf("got method %v (%v), want %v", p.Method, err, tt.method)
			}
		})
	}
}
