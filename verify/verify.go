// Package verify owns the proofs that the parts agree: every checker and the
// bitmask status of package game on every position the rules make reachable
// (and on every raw board, counting why the unreachable ones cannot arise);
// the solver against the minimax recurrence and against a naive solver, both
// under the rules. Tests of a user's own programs are package external's.
package verify

import (
	"context"

	"github.com/tateti-lab/tateti-lab/checker"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Reference is the name of the bitmask status of package game, the voice the
// others are compared with.
const Reference = "bitmask"

// MaxExamples is how many disagreeing boards a report keeps, the first ones in
// position order.
const MaxExamples = 5

// Keep appends items to list while it holds fewer than MaxExamples: the
// first examples a report shows.
func Keep[T any](list []T, items ...T) []T {
	if room := MaxExamples - len(list); room < len(items) {
		items = items[:max(room, 0)]
	}
	return append(list, items...)
}

// Tally counts one voice's answers.
type Tally struct {
	Voice    string `json:"voice"`
	XWon     int64  `json:"x_won"`
	OWon     int64  `json:"o_won"`
	Draw     int64  `json:"draw"`
	Open     int64  `json:"in_progress"`
	Agree    int64  `json:"agree"` // boards where the voice says what Reference says
	Disagree int64  `json:"disagree"`
}

func (t *Tally) add(s game.Status, agree bool) {
	switch s {
	case game.XWon:
		t.XWon++
	case game.OWon:
		t.OWon++
	case game.Draw:
		t.Draw++
	default:
		t.Open++
	}
	if agree {
		t.Agree++
	} else {
		t.Disagree++
	}
}

func (t *Tally) merge(u Tally) {
	t.XWon += u.XWon
	t.OWon += u.OWon
	t.Draw += u.Draw
	t.Open += u.Open
	t.Agree += u.Agree
	t.Disagree += u.Disagree
}

// Disagreement is a board on which the voices differ, with every voice's answer
// in the order of the report's voices.
type Disagreement struct {
	Board    string   `json:"board"`
	StateID  uint64   `json:"state_id"`
	Statuses []string `json:"statuses"`
}

// CheckReport is the agreement of the voices on a set of boards.
type CheckReport struct {
	Game     rules.Spec     `json:"game"`
	Boards   int64          `json:"boards"`
	Voices   []string       `json:"voices"` // Reference first, then the checkers
	Tallies  []Tally        `json:"tallies"`
	Agree    int64          `json:"agree"`    // boards on which every voice agrees
	Disagree int64          `json:"disagree"` // boards on which some voice differs
	First    []Disagreement `json:"first_disagreements"`
}

func newCheckReport(s rules.Spec, cs []checker.Checker) *CheckReport {
	r := &CheckReport{Game: s, Voices: []string{Reference}}
	for _, c := range cs {
		r.Voices = append(r.Voices, c.Name())
	}
	r.Tallies = make([]Tally, len(r.Voices))
	for v := range r.Tallies {
		r.Tallies[v].Voice = r.Voices[v]
	}
	r.First = []Disagreement{}
	return r
}

// add asks every checker about one board whose reference status is ref, and
// returns every voice's answer and whether they all agree.
func (r *CheckReport) add(s game.Spec, cs []checker.Checker, b game.Board, ref game.Status, cells []game.Cell, answers []game.Status) bool {
	b.Marks(s, cells)
	answers[0] = ref
	all := true
	for v, c := range cs {
		answers[v+1] = c.Status(cells)
		all = all && answers[v+1] == ref
	}
	r.Boards++
	for v, a := range answers {
		r.Tallies[v].add(a, a == ref)
	}
	if all {
		r.Agree++
		return true
	}
	r.Disagree++
	if len(r.First) < MaxExamples {
		d := Disagreement{Board: s.Format(b), StateID: game.ID(b)}
		for _, a := range answers {
			d.Statuses = append(d.Statuses, a.String())
		}
		r.First = append(r.First, d)
	}
	return false
}

// merge adds a later chunk's report.
func (r *CheckReport) merge(u *CheckReport) {
	r.Boards += u.Boards
	r.Agree += u.Agree
	r.Disagree += u.Disagree
	for v := range r.Tallies {
		r.Tallies[v].merge(u.Tallies[v])
	}
	r.First = Keep(r.First, u.First...)
}

// Positions asks every checker about every position of e and compares each
// answer with the bitmask status, in parallel on up to workers goroutines.
func Positions(ctx context.Context, e *enumerate.Result, cs []checker.Checker, workers int) (*CheckReport, error) {
	s := e.Rules.Spec()
	parts := make([]*CheckReport, par.Chunks(0, e.Len(), workers))
	err := par.Ranges(ctx, 0, e.Len(), workers, func(_ context.Context, k, a, b int) error {
		part := newCheckReport(s, cs)
		cells, answers := make([]game.Cell, s.Cells()), make([]game.Status, len(cs)+1)
		for i := a; i < b; i++ {
			part.add(s.Spec, cs, e.Board(i), e.Status[i], cells, answers)
		}
		parts[k] = part
		return nil
	})
	if err != nil {
		return nil, err
	}
	r := newCheckReport(s, cs)
	for _, p := range parts {
		r.merge(p)
	}
	return r, nil
}
