package export

import "strconv"

// Figures count what a dataset's states table holds, as its rows are
// written: the manifest carries them and the data card (card.go) shows
// them, so that a sample's skew and its share of lopsided positions are
// said where the data is.
type Figures struct {
	Plies []PlyFigures `json:"plies"` // one entry a ply that has rows, by ply
	// Classes, for a chosen set, counts the symmetry classes its rows fall
	// in (equal canonical_id or canonical_board): Rows less Classes rows are
	// an image of another row under the rules' symmetries (under gravity,
	// mirror pairs). Absent for a whole game's dataset, which holds every
	// image of every position.
	Classes int64 `json:"classes,omitempty"`
}

// PlyFigures count one ply's rows by value (for X), and how many are
// over or end soon with perfect play.
type PlyFigures struct {
	Ply   int   `json:"ply"`
	Rows  int64 `json:"rows"`
	XWins int64 `json:"x_wins"`
	Draws int64 `json:"draws"`
	OWins int64 `json:"o_wins"`
	Over  int64 `json:"over"` // the game is over
	// Soon counts the positions in progress whose game ends within Soon
	// plies with perfect play (depth at most SoonPlies): decided at once;
	// nil (null) when the positions were answered without depths.
	Soon *int64 `json:"ends_within_3"`
}

// SoonPlies is the depth up to which a position in progress counts as
// decided at once (PlyFigures.Soon): three plies, a win now, or a threat
// that cannot be met.
const SoonPlies = 3

// Rows gives the rows of every ply.
func (f *Figures) Rows() int64 { return f.All().Rows }

// All gives the counts of every ply summed (Ply is meaningless there).
func (f *Figures) All() PlyFigures {
	var all PlyFigures
	for _, p := range f.Plies {
		all.add(p)
	}
	return all
}

// add adds q's counts to p's.
func (p *PlyFigures) add(q PlyFigures) {
	p.Rows, p.XWins, p.Draws, p.OWins = p.Rows+q.Rows, p.XWins+q.XWins, p.Draws+q.Draws, p.OWins+q.OWins
	p.Over += q.Over
	if q.Soon != nil {
		p.Soon = new(*q.Soon + p.soon())
	}
}

// soon gives Soon, 0 where it is nil.
func (p *PlyFigures) soon() int64 {
	if p.Soon == nil {
		return 0
	}
	return *p.Soon
}

// tally counts the rows of one piece of the states table: pieces are
// built side by side and their tallies summed in order (add).
type tally struct {
	plies   []PlyFigures // indexed by ply
	classes []string     // for a chosen set, each row's class
}

// count counts the row s of a dataset of shape sh: its class, where the
// set is chosen; whether it ends soon, where depths are known.
func (t *tally) count(s *State, sh shape) {
	for len(t.plies) <= int(s.Ply) {
		t.plies = append(t.plies, PlyFigures{Ply: len(t.plies)})
		if !sh.noDepths {
			t.plies[len(t.plies)-1].Soon = new(int64)
		}
	}
	p := &t.plies[s.Ply]
	p.Rows++
	switch s.Value {
	case 1:
		p.XWins++
	case 0:
		p.Draws++
	default:
		p.OWins++
	}
	switch {
	case s.IsTerminal:
		p.Over++
	case sh.noDepths:
	case s.Depth <= SoonPlies:
		*p.Soon++
	}
	if sh.chosen {
		key := string(s.CanonicalBoard)
		if key == "" {
			key = strconv.FormatInt(s.CanonicalID, 10)
		}
		t.classes = append(t.classes, key)
	}
}

// summer sums the tallies of a table's pieces into Figures.
type summer struct {
	plies   []PlyFigures
	classes map[string]struct{} // nil unless the set is chosen
}

func newSummer(chosen bool) *summer {
	s := &summer{}
	if chosen {
		s.classes = map[string]struct{}{}
	}
	return s
}

// add adds a piece's tally.
func (s *summer) add(t *tally) {
	for len(s.plies) < len(t.plies) {
		s.plies = append(s.plies, PlyFigures{Ply: len(s.plies)})
	}
	for i, p := range t.plies {
		s.plies[i].add(p)
	}
	for _, c := range t.classes {
		s.classes[c] = struct{}{}
	}
}

// figures gives the sum, the plies without rows left out.
func (s *summer) figures() *Figures {
	f := &Figures{Plies: []PlyFigures{}, Classes: int64(len(s.classes))}
	for _, p := range s.plies {
		if p.Rows > 0 {
			f.Plies = append(f.Plies, p)
		}
	}
	return f
}
