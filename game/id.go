package game

// A state id is the base-3 number sum(cell_i * 3^i) with Empty=0, X=1, O=2.
// It is stable across runs and versions: the key that joins every table.
// Ids are computed eight cells at a time through two small tables. They fit
// 64 bits up to MaxIDCells cells (3^40 < 2^64 < 3^41); larger boards have
// none: there a position is keyed by its board text.

// MaxIDCells is the largest board whose state ids fit a uint64.
const MaxIDCells = 40

// HasIDs says whether the boards of s have state ids.
func (s Spec) HasIDs() bool { return s.Cells() <= MaxIDCells }

const chunk = 6561 // 3^8, the ids of eight cells

var (
	// enc[m] is the base-3 number with a 1 in every digit j where bit j of m is set.
	enc = func() (t [256]uint16) {
		for m := range 256 {
			p := 1
			for j := range 8 {
				if m>>j&1 == 1 {
					t[m] += uint16(p)
				}
				p *= 3
			}
		}
		return t
	}()
	// dec[v] gives the X and O bytes of the eight-cell id v. Each X byte
	// x is paired with the O bytes that are subsets of its complement,
	// walked as o = (o-1) & free down to 0: 3^8 pairs, one per id, where
	// all 2^16 pairs would be tried otherwise (this runs at every start).
	// The table is made on the heap: built in a frame of its own, its
	// 13 KB would grow the starting goroutine's stack at every start.
	dec = func() *[chunk][2]uint8 {
		t := new([chunk][2]uint8)
		for x := range 256 {
			free := 255 &^ x
			for o := free; ; o = (o - 1) & free {
				t[int(enc[x])+2*int(enc[o])] = [2]uint8{uint8(x), uint8(o)}
				if o == 0 {
					break
				}
			}
		}
		return t
	}()
)

// ID gives the state id of a board of at most MaxIDCells cells.
func ID(b Board) uint64 {
	var id, p uint64 = 0, 1
	for x, o := uint64(b.X), uint64(b.O); x|o != 0; x, o = x>>8, o>>8 {
		id += p * uint64(enc[x&0xff]+2*enc[o&0xff])
		p *= chunk
	}
	return id
}

// FromID gives the board of a state id.
func FromID(id uint64) Board {
	var b Board
	for shift := 0; id != 0; shift += 8 {
		d := dec[id%chunk]
		b.X |= Mask(d[0]) << shift
		b.O |= Mask(d[1]) << shift
		id /= chunk
	}
	return b
}

var pow3 = func() (t [MaxIDCells + 1]uint64) {
	t[0] = 1
	for i := 1; i < len(t); i++ {
		t[i] = 3 * t[i-1]
	}
	return t
}()

// Pow3 gives 3^i for i from 0 to MaxIDCells: the weight of cell i in a state id,
// and 3^n the number of raw boards of n cells.
func Pow3(i int) uint64 { return pow3[i] }
