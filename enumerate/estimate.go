package enumerate

import (
	"fmt"
	"math/bits"

	"github.com/tateti-lab/tateti-lab/game"
	"github.com/tateti-lab/tateti-lab/index"
	"github.com/tateti-lab/tateti-lab/internal/figure"
	"github.com/tateti-lab/tateti-lab/rules"
)

// Estimate is what exhausting a game will need, known before it starts.
type Estimate struct {
	// Placements counts the raw boards with fair counts (X has as many marks
	// as O or one more), under gravity no floating mark, and no k in a row in
	// any row or column (under gravity: column) of the side that did not
	// move last: at least as many as the reachable positions (lines.go).
	Placements uint64 `json:"placements"`
	// PositionBytes is the memory to enumerate and solve that many
	// positions, BytesPerPosition each; LayerBytes what building the
	// largest layer takes beside them (past index.DenseCells cells); Bytes
	// their sum.
	PositionBytes uint64 `json:"position_bytes"`
	LayerBytes    uint64 `json:"layer_bytes"`
	Bytes         uint64 `json:"bytes"`
	largest       uint64 // the placements of the largest count of marks
}

// BytesPerPosition is what enumerate and solve keep for each position: id,
// status, paths, canonical id and orbit (26), the index (4 at most), value,
// depth, best moves and move counts (9), with some room.
const BytesPerPosition = 44

// EstimateFor gives the estimate for the game of rs from the empty board.
func EstimateFor(rs rules.Spec) Estimate { return EstimateFrom(rs, game.Board{}) }

// EstimateFrom gives the estimate for the positions that can follow root
// (itself included) in the game of rs: the boards that add marks to root's
// empty cells, as many X as O or one more in all, and under gravity no mark
// above an empty cell.
func EstimateFrom(rs rules.Spec, root game.Board) Estimate {
	x0, o0 := bits.OnesCount64(uint64(root.X)), bits.OnesCount64(uint64(root.O))
	// byCount[x][o]: positions that add x X marks and o O marks, at most.
	byCount := placements(rs, root, x0, o0)
	var e Estimate
	for x := range byCount {
		for o := range byCount[x] {
			if d := (x0 + x) - (o0 + o); d == 0 || d == 1 {
				e.Placements += byCount[x][o]
				e.largest = max(e.largest, byCount[x][o])
			}
		}
	}
	e.PositionBytes = e.Placements * BytesPerPosition
	if rs.Cells() > index.DenseCells {
		// Building a layer sorts the children of the one before, up to one
		// a legal move, and merges them into a copy.
		e.LayerBytes = e.largest * uint64(rs.Cols) * 8 * 2
	}
	e.Bytes = e.PositionBytes + e.LayerBytes
	return e
}

// CheckMemory returns an error when the estimate of rs is more than
// available bytes (0: unknown, no limit), naming every part of it.
func CheckMemory(rs rules.Spec, available uint64) error {
	return checkMemory(rs, EstimateFor(rs), available, "")
}

// CheckFits says whether the whole game of rs can be exhausted in
// available bytes: its board is small enough (CheckSize), and its
// positions fit (CheckMemory).
func CheckFits(rs rules.Spec, available uint64) error {
	if err := CheckSize(rs); err != nil {
		return err
	}
	return CheckMemory(rs, available)
}

// CheckMemoryFrom is CheckMemory for the positions that can follow root.
func CheckMemoryFrom(rs rules.Spec, root game.Board, available uint64) error {
	if root == (game.Board{}) {
		return CheckMemory(rs, available)
	}
	return checkMemory(rs, EstimateFrom(rs, root), available, "from "+rs.Format(root)+" ")
}

func checkMemory(rs rules.Spec, e Estimate, available uint64, from string) error {
	if available == 0 || e.Bytes <= available {
		return nil
	}
	layer := ""
	if e.LayerBytes > 0 {
		layer = fmt.Sprintf(", and %s to build the largest layer", figure.Bytes(e.LayerBytes))
	}
	advice := "try a smaller board"
	if from != "" {
		advice = "try a position with more marks, or a smaller board"
	}
	return fmt.Errorf("%s %sneeds about %s of memory: up to %s positions at %d bytes each (%s)%s; the memory a run may use is %s (TATETI_MEMORY caps it); %s",
		rs, from, figure.Bytes(e.Bytes), figure.Commas(int64(e.Placements)), BytesPerPosition, figure.Bytes(e.PositionBytes), layer, figure.Bytes(available), advice)
}
