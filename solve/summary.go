package solve

import (
	"github.com/tateti-lab/tateti-lab/perfect"
)

// Summarize computes the summary of a solved enumeration; its root is the
// position the enumeration started from.
func (r *Result) Summarize() perfect.Summary {
	e := r.Enum
	root := e.Root.Ply()
	lo, _ := e.Layer(root)
	s := perfect.Summary{Game: e.Rules.Spec(), Value: r.Value[lo], Depth: r.Depth[lo], Openings: r.Moves(lo)}
	for p := root; p <= e.Rules.Spec().Cells(); p++ {
		lo, hi := e.Layer(p)
		pv := perfect.PlyValues{Ply: p}
		for i := lo; i < hi; i++ {
			pv.Add(r.Value[i])
			s.PositionsByValue.Add(r.Value[i])
		}
		s.ByPly = append(s.ByPly, pv)
	}
	return s
}
