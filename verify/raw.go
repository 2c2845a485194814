package verify

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/tateti-lab/tateti-lab/checker"
	"github.com/tateti-lab/tateti-lab/enumerate"
	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/internal/par"
	"github.com/tateti-lab/tateti-lab/rules"
)

// ReasonCount counts the raw boards of one reachability reason.
type ReasonCount struct {
	Reason string `json:"reason"`
	Boards int64  `json:"boards"`
}

// Pattern is one way the voices differ on boards that cannot arise: every
// voice's answer, the reason the boards cannot arise, how many boards, and the
// first of them.
type Pattern struct {
	Reason   string   `json:"reason"`
	Statuses []string `json:"statuses"`
	Boards   int64    `json:"boards"`
	Example  string   `json:"example"`
}

// RawReport covers every raw board, 3^cells of them.
type RawReport struct {
	Game      rules.Spec    `json:"game"`
	Boards    int64         `json:"boards"`
	ByReason  []ReasonCount `json:"by_reason"` // "reachable" first
	Reachable *CheckReport  `json:"reachable"` // the voices on boards that can arise: they must agree
	// Unreachable boards: the voices may differ there, which is a finding.
	Unreachable *CheckReport `json:"unreachable"`
	Patterns    []Pattern    `json:"unreachable_patterns"`
	// Mismatches counts boards where game's reachability test and the
	// enumeration disagree (must be 0), with the first few.
	Mismatches    int64    `json:"reachability_mismatches"`
	FirstMismatch []string `json:"first_reachability_mismatches"`
}

type rawPart struct {
	reach, unreach *CheckReport
	reasons        []int64
	patterns       map[patternKey]*Pattern
	mismatches     int64
	firstMismatch  []string
}

type patternKey struct {
	reason  rules.Reason
	answers string
}

// AllBoards runs every voice on every raw board of e's game, reachable or not.
// It counts the boards by why they cannot arise (cross-checking the rules'
// reachability test with the enumeration e), requires agreement on the
// reachable ones, and groups the ways the voices differ on the others.
func AllBoards(ctx context.Context, e *enumerate.Result, cs []checker.Checker, workers int) (*RawReport, error) {
	if e.Root != (game.Board{}) {
		return nil, fmt.Errorf("AllBoards needs the enumeration from the empty board")
	}
	n := int(game.Pow3(e.Rules.Spec().Cells()))
	parts := make([]*rawPart, par.Chunks(0, n, workers))
	err := par.Ranges(ctx, 0, n, workers, func(ctx context.Context, k, a, b int) (err error) {
		parts[k], err = scanRaw(ctx, e, cs, a, b)
		return err
	})
	if err != nil {
		return nil, err
	}
	return mergeRaw(e.Rules.Spec(), cs, n, parts), nil
}

// scanRaw runs every voice on the raw boards with ids a to b-1.
func scanRaw(ctx context.Context, e *enumerate.Result, cs []checker.Checker, a, b int) (*rawPart, error) {
	rl := e.Rules
	g, s := rl.Game(), rl.Spec()
	p := &rawPart{reach: newCheckReport(s, cs), unreach: newCheckReport(s, cs),
		reasons: make([]int64, len(rules.Reasons)), patterns: map[patternKey]*Pattern{}}
	cells, answers := make([]game.Cell, s.Cells()), make([]game.Status, len(cs)+1)
	for id := a; id < b; id++ {
		if id&0xffff == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		bd := game.FromID(uint64(id))
		reason := rl.Reachability(bd)
		p.reasons[reason]++
		if _, inEnum := e.Lookup(uint64(id)); inEnum != (reason == rules.Reachable) {
			p.mismatches++
			if len(p.firstMismatch) < MaxExamples {
				p.firstMismatch = append(p.firstMismatch, fmt.Sprintf("%s: %s, enumerated %v", s.Spec.Format(bd), reason, inEnum))
			}
		}
		if reason == rules.Reachable {
			p.reach.add(s.Spec, cs, bd, g.Status(bd), cells, answers)
			continue
		}
		if p.unreach.add(s.Spec, cs, bd, g.Status(bd), cells, answers) {
			continue
		}
		key := patternKey{reason, fmt.Sprint(answers)}
		if pt, ok := p.patterns[key]; ok {
			pt.Boards++
			continue
		}
		pt := &Pattern{Reason: reason.String(), Boards: 1, Example: s.Spec.Format(bd)}
		for _, a := range answers {
			pt.Statuses = append(pt.Statuses, a.String())
		}
		p.patterns[key] = pt
	}
	return p, nil
}

// mergeRaw adds up the parts, in id order, into the report of n raw boards.
func mergeRaw(s rules.Spec, cs []checker.Checker, n int, parts []*rawPart) *RawReport {
	r := &RawReport{Game: s, Boards: int64(n), Reachable: newCheckReport(s, cs), Unreachable: newCheckReport(s, cs),
		FirstMismatch: []string{}, Patterns: []Pattern{}}
	reasons := make([]int64, len(rules.Reasons))
	merged := map[patternKey]*Pattern{}
	for _, p := range parts {
		r.Reachable.merge(p.reach)
		r.Unreachable.merge(p.unreach)
		for i, c := range p.reasons {
			reasons[i] += c
		}
		r.Mismatches += p.mismatches
		r.FirstMismatch = Keep(r.FirstMismatch, p.firstMismatch...)
		// Parts come in id order, so a pattern's first example is the first seen.
		for key, pt := range p.patterns {
			if m, ok := merged[key]; ok {
				m.Boards += pt.Boards
				continue
			}
			merged[key] = pt
		}
	}
	for i, c := range reasons {
		r.ByReason = append(r.ByReason, ReasonCount{Reason: rules.Reasons[i].String(), Boards: c})
	}
	// Sorted once, after the merge, so that the order does not depend on how
	// the boards were split between workers.
	for _, key := range slices.SortedFunc(maps.Keys(merged), comparePatterns) {
		r.Patterns = append(r.Patterns, *merged[key])
	}
	return r
}

// comparePatterns orders patterns by reason, then by the voices' answers.
func comparePatterns(a, b patternKey) int {
	return cmp.Or(cmp.Compare(a.reason, b.reason), cmp.Compare(a.answers, b.answers))
}
