package export

import (
	"fmt"
	"reflect"
	"strings"

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
	History        []int32   `col:"history"` // nil where not known
	Cells          []int32   `col:"cells"`
	MoverCells     []int32   `col:"mover_cells"`
	MoverValue     int8      `col:"mover_value"`
	MoveValues     []*int32  `col:"move_values"` // nil where no legal move
	Legal          []bool    `col:"legal"`
	Policy         []float32 `col:"policy"`
	Split          string    `col:"split"`

	toMove  string  // what ToMove points to
	history []int32 // what History holds, where known
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

// set sets the fields to cells, cell i in Cell<i>, those past its end 0:
// plain assignments, which the compiler keeps as fast as a copy.
func (c *cellFields) set(cells []int8) {
	var a [game.MaxCells]int8
	copy(a[:], cells)
	c.Cell0, c.Cell1, c.Cell2, c.Cell3, c.Cell4, c.Cell5, c.Cell6, c.Cell7 = a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
	c.Cell8, c.Cell9, c.Cell10, c.Cell11, c.Cell12, c.Cell13, c.Cell14, c.Cell15 = a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15]
	c.Cell16, c.Cell17, c.Cell18, c.Cell19, c.Cell20, c.Cell21, c.Cell22, c.Cell23 = a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23]
	c.Cell24, c.Cell25, c.Cell26, c.Cell27, c.Cell28, c.Cell29, c.Cell30, c.Cell31 = a[24], a[25], a[26], a[27], a[28], a[29], a[30], a[31]
	c.Cell32, c.Cell33, c.Cell34, c.Cell35, c.Cell36, c.Cell37, c.Cell38, c.Cell39 = a[32], a[33], a[34], a[35], a[36], a[37], a[38], a[39]
	c.Cell40, c.Cell41, c.Cell42, c.Cell43, c.Cell44, c.Cell45, c.Cell46, c.Cell47 = a[40], a[41], a[42], a[43], a[44], a[45], a[46], a[47]
	c.Cell48, c.Cell49, c.Cell50, c.Cell51, c.Cell52, c.Cell53, c.Cell54, c.Cell55 = a[48], a[49], a[50], a[51], a[52], a[53], a[54], a[55]
	c.Cell56, c.Cell57, c.Cell58, c.Cell59, c.Cell60, c.Cell61, c.Cell62, c.Cell63 = a[56], a[57], a[58], a[59], a[60], a[61], a[62], a[63]
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
	r.set(s.Cells)
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
	r.history, r.History = widen(r.history, s.History), nil
	if s.History != nil {
		if r.history == nil { // known and empty: the empty board's, not a null
			r.history = []int32{}
		}
		r.History = r.history
	}
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
	reflect.TypeFor[int8](), reflect.TypeFor[*int64](), reflect.TypeFor[[]int32]()}

// parquetTag is the struct tag that makes a record's field column c: its
// name and encoding (for a list, its elements'), a text as a string, and
// the elements of a list of int8 as INT(8).
func (c *col[R]) parquetTag() reflect.StructTag {
	opts, elem := c.name, ""
	if c.kind.isList() {
		if c.kind == optListKind {
			opts += ",optional"
		}
		opts += ",list"
		if c.encoding != "" {
			elem += "," + c.encoding
		}
		if c.kind == listKind || c.kind == nullListKind || c.kind == optListKind {
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
