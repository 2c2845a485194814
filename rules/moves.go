package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tateti-lab/tateti-lab/game"
)

// Play plays the moves written in text from b, in turn, and gives the board
// they make. Under free placement a move is a cell number (0 to cells-1,
// row-major); under gravity it is a column in Connect-Four notation, numbered
// from 1 at the left. Moves are separated by commas or spaces; under gravity
// on boards of at most 9 columns they may also run together, one digit a move
// ("4453"), and so may cells on a free board of at most 10 cells ("15" on
// tic-tac-toe is cell 1, then cell 5).
func Play(r Rules, b game.Board, text string) (game.Board, error) {
	b, _, err := playMoves(r, b, text, false)
	return b, err
}

// PlayCells is Play, and gives the cells the moves played, in order.
func PlayCells(r Rules, b game.Board, text string) (game.Board, []int, error) {
	return playMoves(r, b, text, true)
}

// playMoves is Play, and gives the cells played where keep is set: a
// program's lines (solve --stdin) are read by Play, and keep none. The
// moves are first played asking of each only that the board lets it be
// played (checked false), and whether the game was over before the last
// move once at the end: lines and a full board only grow, so a move played
// after the end leaves the board before the last move over. A line that
// fails so is played again with every move checked in turn (moveCell),
// which names the first wrong move.
func playMoves(r Rules, b game.Board, text string, keep bool) (game.Board, []int, error) {
	if out, cells, err := playEach(r, b, text, keep, false); err == nil {
		return out, cells, nil
	}
	return playEach(r, b, text, keep, true)
}

// errOver is what playEach unchecked gives for moves that run past the
// end of the game, to be played again checked.
var errOver = errors.New("a move after the game is over")

// playEach is playMoves, each move checked (moveCell) or not (cellOf,
// the game's end asked once at the end).
func playEach(r Rules, b game.Board, text string, keep, checked bool) (game.Board, []int, error) {
	s := r.Spec()
	toks := strings.FieldsFunc(text, func(c rune) bool { return c == ',' || c == ' ' })
	if strings.Contains(strings.ReplaceAll(text, " ", ""), ",,") || strings.HasPrefix(strings.TrimSpace(text), ",") || strings.HasSuffix(strings.TrimSpace(text), ",") {
		return game.Board{}, nil, fmt.Errorf("moves %q have an empty move between commas; write one move between each two, such as 4,0,8", game.Echo(text))
	}
	var cells []int
	played, before := 0, b // before: the board before the last move
	play := func(tok string) error {
		var cell int
		var err error
		if checked {
			cell, err = moveCell(r, b, tok)
		} else {
			cell, err = cellOf(r, b, r.Playable(b), tok)
		}
		if err != nil {
			return fmt.Errorf("moves %q: move %d: %w", game.Echo(text), played+1, err)
		}
		before, b, played = b, b.Play(cell, b.ToMove()), played+1
		if keep {
			cells = append(cells, cell)
		}
		return nil
	}
	if len(toks) == 1 && (s.Gravity && s.Cols <= 9 || !s.Gravity && s.Cells() <= 10) {
		one := toks[0] // one digit a move: columns from 1, or cells from 0
		if keep {
			cells = make([]int, 0, len(one))
		}
		for i, size := 0, 0; i < len(one); i += size {
			_, size = utf8.DecodeRuneInString(one[i:])
			if err := play(one[i : i+size]); err != nil {
				return game.Board{}, nil, err
			}
		}
	} else {
		if keep {
			cells = make([]int, 0, len(toks))
		}
		for _, tok := range toks {
			if err := play(tok); err != nil {
				return game.Board{}, nil, err
			}
		}
	}
	if !checked && played > 0 {
		if st, _ := r.Turn(before); st.Terminal() {
			return game.Board{}, nil, errOver
		}
	}
	return b, cells, nil
}

// Position reads the board text (the empty board when text is ""), which
// must be able to arise in play, and plays the moves on it as Play does.
func Position(r Rules, text, moves string) (game.Board, error) {
	var b game.Board
	if text != "" {
		var err error
		if b, err = r.Spec().Parse(text); err != nil {
			return b, err
		}
		if err := CheckReachable(r, b); err != nil {
			return b, err
		}
	}
	return Play(r, b, moves)
}

// ParsePosition reads one position written either way a line of positions
// may give it: a board, as Position reads it ('XO./.X./..O'; any text with
// a mark, an empty cell or a slash), or moves from the empty board, as
// Play reads them (4453, or 4,0,8).
func ParsePosition(r Rules, text string) (game.Board, error) {
	b, _, err := parseLine(r, text, false)
	return b, err
}

// ParseLine is ParsePosition, and gives the cells played from the empty
// board where text gives moves; nil where it gives a board, whose moves
// are not known.
func ParseLine(r Rules, text string) (game.Board, []int, error) {
	return parseLine(r, text, true)
}

// parseLine is ParseLine, the cells kept only where keep is set.
func parseLine(r Rules, text string, keep bool) (game.Board, []int, error) {
	text = strings.TrimSpace(text)
	if strings.ContainsAny(text, "XOxo.-_/") {
		b, err := Position(r, text, "")
		return b, nil, err
	}
	return playMoves(r, game.Board{}, text, keep)
}

// ColumnMove gives the legal move of column col (from 0) on b, the cell a
// mark dropped there lands on, and false when the column has none (it is
// full, or the game is over).
func ColumnMove(r Rules, b game.Board, col int) (cell int, ok bool) {
	return columnCell(r.Spec(), r.Moves(b), col)
}

// columnCell gives the move of column col among the legal moves legal:
// the lowest empty cell of the column a move may take.
func columnCell(s Spec, legal game.Mask, col int) (cell int, ok bool) {
	for cell := s.Cells() - s.Cols + col; cell >= 0; cell -= s.Cols {
		if legal>>cell&1 == 1 {
			return cell, true
		}
	}
	return 0, false
}

// moveCell reads one move on b and gives the cell it plays.
func moveCell(r Rules, b game.Board, tok string) (int, error) {
	st, legal := r.Turn(b)
	if st.Terminal() {
		return 0, fmt.Errorf("%q comes after the game is over (%s)", tok, st)
	}
	return cellOf(r, b, legal, tok)
}

// cellOf reads one move on b, whose moves are legal, and gives the cell
// it plays.
func cellOf(r Rules, b game.Board, legal game.Mask, tok string) (int, error) {
	s := r.Spec()
	n, err := strconv.Atoi(tok)
	if s.Gravity {
		if err != nil || n < 1 || n > s.Cols {
			return 0, fmt.Errorf("%q is not a column, want 1 to %d (Connect-Four notation, 1 is the left)", game.Echo(tok), s.Cols)
		}
		if cell, ok := columnCell(s, legal, n-1); ok {
			return cell, nil
		}
		return 0, fmt.Errorf("column %d is full, want a column with an empty cell", n)
	}
	if err != nil || n < 0 || n >= s.Cells() {
		return 0, fmt.Errorf("%q is not a cell, want 0 to %d (row-major from the top left)", game.Echo(tok), s.Cells()-1)
	}
	if legal>>n&1 == 0 {
		return 0, fmt.Errorf("cell %d holds %v, want an empty cell", n, b.At(n))
	}
	return n, nil
}

// MoveNumber gives the number that names the move to cell, as Play reads
// it and every report says it: under gravity its column in Connect-Four
// notation, from 1 at the left; otherwise the cell, row-major from 0.
func (s Spec) MoveNumber(cell int) int {
	if s.Gravity {
		return cell%s.Cols + 1
	}
	return cell
}

// MoveNoun says what MoveNumber numbers: "column" or "cell".
func (s Spec) MoveNoun() string {
	if s.Gravity {
		return "column"
	}
	return "cell"
}

// Actions gives how many actions a position of s has, as RL libraries
// number them: under gravity one a column (OpenSpiel's, PettingZoo's and
// Kaggle ConnectX's Connect Four), otherwise one a cell.
func (s Spec) Actions() int {
	if s.Gravity {
		return s.Cols
	}
	return s.Cells()
}

// Action gives the action of the move to cell, as Actions numbers them:
// under gravity its column from 0, otherwise the cell.
func (s Spec) Action(cell int) int {
	if s.Gravity {
		return cell % s.Cols
	}
	return cell
}

// FormatMoves writes cells as Play reads them: cell numbers joined by commas,
// or under gravity the columns in Connect-Four notation (digits run together
// on boards of at most 9 columns).
func (s Spec) FormatMoves(cells []int) string {
	toks := make([]string, len(cells))
	for i, c := range cells {
		toks[i] = strconv.Itoa(s.MoveNumber(c))
	}
	if s.Gravity && s.Cols <= 9 {
		return strings.Join(toks, "")
	}
	return strings.Join(toks, ",")
}

// Quiet reports whether b, a position in progress, is quiet: no legal move
// completes a line of the side to move, and none completes one of the
// opponent's, so the side to move neither wins at once nor must stop the
// opponent from doing so. UCI's Connect-4 data set holds the quiet
// positions of ply 8 of Connect Four.
func Quiet(r Rules, b game.Board) bool {
	return Completes(r, b, game.X) == 0 && Completes(r, b, game.O) == 0
}

// Completes gives the cells the side to move may play on b, a position in
// progress, on which side would complete a line of its own: the side to
// move's wins at once, or the threats the other side must stop. (Under
// misère a completed line loses.)
func Completes(r Rules, b game.Board, side game.Cell) game.Mask {
	g := r.Game()
	own := b.X
	if side == game.O {
		own = b.O
	}
	var on game.Mask
	for m := r.Moves(b); m != 0; m &= m - 1 {
		if c := m & -m; g.Won(own | c) {
			on |= c
		}
	}
	return on
}
