package export

import (
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/tateti-lab/tateti-lab/game"
)

// A record is a row as parquet-go's typed writer (parquet.GenericWriter)
// reads it: a field a column that a table of its kind may have, in the
// tables' column order, each tagged col with the column it holds. The
// columns a table lacks are left out, and the others named and encoded, by
// the struct tags the writer is given at run time (recordTags), from the
// table's columns: what a column is stays said in one place, schema.go.
//
// The typed writer takes a batch of rows a column at a time, where the
// parquet.Value path took a value at a time; it writes the elements of a
// list of int32 as they are, while a list of int8 is widened first, a row
// at a time, so the lists of int8 columns are []int32 here (Parquet INT32
// annotated INT(8) either way).
//
// What may be null is a pointer, nil for a null: parquet-go also takes the
// zero value of a field tagged optional for a null, but misplaces some of
// them (TestNullsReadBack).
//
// A Move is its own record; a State is copied into a stateRecord.

// stateRecord is a row of the states table as a record.
type stateRecord struct {
	StateID int64  `col:"state_id"`
	Board   []byte `col:"board"`
	cellFields
	Ply            int8      `col:"ply"`
	ToMove         *string   `col:"to_move"` // nil when the game is over
	Status         string    `col:"status"`
	Value          int8      `col:"value"`
	Outcome        string    `col:"outcome"`
	Depth          int8      `col:"depth"`
	BestMoves      []int32   `col:"best_moves"`
	NMoves         int8      `col:"n_moves"`
	NWinning       int8      `col:"n_winning"`
	NDrawing       int8      `col:"n_drawing"`
	NLosing        int8      `col:"n_losing"`
	CanonicalID    int64     `col:"canonical_id"`
	CanonicalBoard []byte    `col:"canonical_board"`
	OrbitSize      int8      `col:"orbit_size"`
	Paths          int64     `col:"paths"` // paths of a game: always counted
	CountedPaths   *int64    `col:"paths"` // paths of a chosen set: nil where not counted
	IsTerminal     bool      `col:"is_terminal"`
	AnsweredBy     string    `col:"answered_by"`
	Cells          []int32   `col:"cells"`
	MoverCells     []int32   `col:"mover_cells"`
	MoverValue     int8      `col:"mover_value"`
	MoveValues     []*int32  `col:"move_values"` // nil where no legal move
	Legal          []bool    `col:"legal"`
	Policy         []float32 `col:"policy"`
	Split          string    `col:"split"`

	toMove string // what ToMove points to
}

// cellFields are the cell_i columns, cell_i in field Cell<i>, up to
// game.MaxCells.
type cellFields struct {
	Cell0, Cell1, Cell2, Cell3, Cell4, Cell5, Cell6, Cell7         int8
	Cell8, Cell9, Cell10, Cell11, Cell12, Cell13, Cell14, Cell15   int8
	Cell16, Cell17, Cell18, Cell19, Cell20, Cell21, Cell22, Cell23 int8
	Cell24, Cell25, Cell26, Cell27, Cell28, Cell29, Cell30, Cell31 int8
	Cell32, Cell33, Cell34, Cell35, Cell36, Cell37, Cell38, Cell39 int8
	Cell40, Cell41, Cell42, Cell43, Cell44, Cell45, Cell46, Cell47 int8
	Cell48, Cell49, Cell50, Cell51, Cell52, Cell53, Cell54, Cell55 int8
	Cell56, Cell57, Cell58, Cell59, Cell60, Cell61, Cell62, Cell63 int8
}

// cells views the fields as an array: int8 fields in a row are laid out
// one byte after the other (a test holds the layout to it).
func (c *cellFields) cells() *[game.MaxCells]int8 {
	return (*[game.MaxCells]int8)(unsafe.Pointer(&c.Cell0))
}

// int32s are the values a list element of an int8 column may take, by the
// value as a byte, for the pointers of stateRecord.MoveValues.
var int32s = func() (t [256]int32) {
	for v := range t {
		t[v] = int32(int8(v))
	}
	return t
}()

// from copies s into r, reusing r's slices.
func (r *stateRecord) from(s *State) {
	r.StateID, r.Board = s.StateID, s.Board
	copy(r.cells()[:], s.Cells)
	r.Ply, r.Status, r.Value, r.Outcome, r.Depth = s.Ply, s.Status, s.Value, s.Outcome, s.Depth
	r.toMove, r.ToMove = s.ToMove, nil
	if s.ToMove != "" {
		r.ToMove = &r.toMove
	}
	r.BestMoves = widen(r.BestMoves, s.BestMoves)
	r.NMoves, r.NWinning, r.NDrawing, r.NLosing = s.NMoves, s.NWinning, s.NDrawing, s.NLosing
	r.CanonicalID, r.CanonicalBoard, r.OrbitSize = s.CanonicalID, s.CanonicalBoard, s.OrbitSize
	r.Paths, r.CountedPaths = s.Paths, nil
	if s.Paths >= 0 {
		r.CountedPaths = &r.Paths
	}
	r.IsTerminal, r.AnsweredBy = s.IsTerminal, s.AnsweredBy
	r.Cells, r.MoverCells, r.MoverValue = widen(r.Cells, s.Cells), widen(r.MoverCells, s.MoverCells), s.MoverValue
	r.MoveValues = r.MoveValues[:0]
	for _, v := range s.MoveValues {
		var p *int32
		if v != nullElem {
			p = &int32s[uint8(v)]
		}
		r.MoveValues = append(r.MoveValues, p)
	}
	r.Legal, r.Policy, r.Split = s.Legal, s.Policy, s.Split
}

// widen gives l as int32s in dst's array.
func widen(dst []int32, l []int8) []int32 {
	dst = dst[:0]
	for _, v := range l {
		dst = append(dst, int32(v))
	}
	return dst
}

// recordTypes are the kinds' Go types in a record.
var recordTypes = [...]reflect.Type{reflect.TypeFor[int8](), reflect.TypeFor[int64](), reflect.TypeFor[[]byte](),
	reflect.TypeFor[string](), reflect.TypeFor[*string](), reflect.TypeFor[bool](),
	reflect.TypeFor[[]int32](), reflect.TypeFor[[]*int32](), reflect.TypeFor[[]bool](), reflect.TypeFor[[]float32](),
	reflect.TypeFor[int8](), reflect.TypeFor[*int64]()}

// parquetTag is the struct tag that makes a record's field column c: its
// name and encoding (for a list, its elements'), a text as a string, and
// the elements of a list of int8 as INT(8).
func (c *col[R]) parquetTag() reflect.StructTag {
	opts, elem := c.name, ""
	if c.kind.isList() {
		opts += ",list"
		if c.encoding != "" {
			elem += "," + c.encoding
		}
		if c.kind == listKind || c.kind == nullListKind {
			elem += ",int(8)"
		}
	} else if c.encoding != "" {
		opts += "," + c.encoding
	}
	if c.kind == bytesKind {
		opts += ",string"
	}
	tag := `parquet:"` + opts + `"`
	if elem != "" {
		tag += ` parquet-element:"` + elem + `"`
	}
	return reflect.StructTag(tag)
}

// recordTags gives the struct tags that make the record type rec the table
// of cols: a field holds the column named by its col tag (cell_i for
// Cell<i>) whose kind has the field's type, and is left out where cols
// have none. It panics where a column has no field: the record types are
// wrong.
func recordTags[R any](rec reflect.Type, cols []col[R]) []*parquet.StructTagOption {
	var tags []*parquet.StructTagOption
	used := 0
	for _, f := range reflect.VisibleFields(rec) {
		if f.Anonymous || !f.IsExported() { // parquet-go reads neither
			continue
		}
		name, ok := f.Tag.Lookup("col")
		if !ok {
			name = "cell_" + strings.TrimPrefix(f.Name, "Cell")
		}
		tag := reflect.StructTag(`parquet:"-"`)
		for i := range cols {
			if cols[i].name == name && recordTypes[cols[i].kind] == f.Type {
				tag = cols[i].parquetTag()
				used++
			}
		}
		tags = append(tags, &parquet.StructTagOption{ColumnPath: []string{f.Name}, StructTag: tag})
	}
	if used != len(cols) {
		panic(fmt.Sprintf("export: %d of the %d columns have a field in %v", used, len(cols), rec))
	}
	return tags
}
