package export

import (
	"strconv"

	"github.com/tateti-lab/tateti-lab/rules"
)

// A kind is how a column's values are typed, held in a row, and stored.
type kind uint8

const (
	int8Kind       kind = iota // an int8 field; Parquet INT32 (TINYINT)
	int64Kind                  // an int64 field
	bytesKind                  // a string held as a []byte field
	stringKind                 // a string field
	nullStringKind             // a string field, null where it is empty
	boolKind                   // a bool field
	listKind                   // list<int8>, an []int8 field
	nullListKind               // list<int8> whose elements may be null: an []int8 field, nullElem for a null
	boolListKind               // list<bool>, a []bool field
	floatListKind              // list<float>, a []float32 field; Parquet FLOAT
	cellKind                   // a cell's int8: in a record, field Cell<i> (records.go); in CSV, one of the cells' fields
	nullInt64Kind              // an int64 field, null where it is negative
	optListKind                // list<int8> that may itself be null: an []int8 field, nil for a null
)

// nullElem stands for a null element in the field of a nullListKind column.
const nullElem = -128

// typeNames are the kinds as the manifest names them.
var typeNames = [...]string{"int8", "int64", "string", "string", "string", "bool",
	"list<int8>", "list<int8>", "list<bool>", "list<float>", "int8", "int64", "list<int8>"}

// isList says whether values of k are lists.
func (k kind) isList() bool { return k >= listKind && k <= floatListKind || k == optListKind }

// A col is one column of a table of rows R: everything the manifest, the
// Parquet writer and the CSV writer know of it, in one place. Its value is
// read from a row by the typed accessor of its kind, the one set of them.
type col[R any] struct {
	name, description string
	kind              kind
	// encoding is the Parquet encoding: dict (few values; for a list, of its
	// elements), delta, plain, or empty for parquet-go's default.
	encoding string
	int8     func(*R) int8      // int8Kind
	int64    func(*R) int64     // int64Kind, nullInt64Kind
	text     func(*R) []byte    // bytesKind, and the string kinds (see word)
	bool     func(*R) bool      // boolKind
	list     func(*R) []int8    // listKind, nullListKind, optListKind
	bools    func(*R) []bool    // boolListKind
	floats   func(*R) []float32 // floatListKind
	// csvRun, for the cell columns, gives the CSV fields of all of them at
	// once, written by the first; the others are inRun.
	csvRun func(*R) []byte
	inRun  bool
	// repeats says that successive rows often hold the same value (the moves
	// of one position): the CSV writer keeps its text from row to row. Only
	// a table's first column, an int64, may.
	repeats bool
}

// num8 is an int8 column; Parquet INT32 (TINYINT).
func num8[R any](name, enc, desc string, get func(*R) int8) col[R] {
	return col[R]{name: name, description: desc, kind: int8Kind, encoding: enc, int8: get}
}

// num64 is an int64 column of kind k: int64Kind, or nullInt64Kind, null
// where the value is negative.
func num64[R any](name string, k kind, enc, desc string, get func(*R) int64) col[R] {
	return col[R]{name: name, description: desc, kind: k, encoding: enc, int64: get}
}

// text is a string column held as bytes.
func text[R any](name, enc, desc string, get func(*R) []byte) col[R] {
	return col[R]{name: name, description: desc, kind: bytesKind, encoding: enc, text: get}
}

// word is a string column of kind k, stringKind or nullStringKind (null
// where empty), whose values are mostly among the few values: their bytes
// are made once, found by a scan (a row's string is most often the very
// constant the scan compares it with), and any other value's bytes are made
// for its row.
func word[R any](name string, k kind, enc, desc string, get func(*R) string, values ...string) col[R] {
	made := make([][]byte, len(values))
	for i, v := range values {
		made[i] = []byte(v)
	}
	return col[R]{name: name, description: desc, kind: k, encoding: enc, text: func(r *R) []byte {
		s := get(r)
		for i, v := range values {
			if s == v {
				return made[i]
			}
		}
		if s == "" && k == nullStringKind {
			return nil
		}
		return []byte(s)
	}}
}

// flag is a bool column.
func flag[R any](name, enc, desc string, get func(*R) bool) col[R] {
	return col[R]{name: name, description: desc, kind: boolKind, encoding: enc, bool: get}
}

// list8 is a list<int8> column of kind k: listKind; nullListKind, whose
// nullElem elements are nulls; or optListKind, null where the list is nil.
func list8[R any](name string, k kind, enc, desc string, get func(*R) []int8) col[R] {
	return col[R]{name: name, description: desc, kind: k, encoding: enc, list: get}
}

// bools is a list<bool> column.
func bools[R any](name, enc, desc string, get func(*R) []bool) col[R] {
	return col[R]{name: name, description: desc, kind: boolListKind, encoding: enc, bools: get}
}

// floats is a list<float> column; Parquet FLOAT.
func floats[R any](name, enc, desc string, get func(*R) []float32) col[R] {
	return col[R]{name: name, description: desc, kind: floatListKind, encoding: enc, floats: get}
}

// column is what the manifest says of c.
func (c *col[R]) column() Column {
	return Column{Name: c.name, Type: typeNames[c.kind], Nullable: c.kind == nullStringKind || c.kind == nullInt64Kind || c.kind == optListKind,
		ElementsNullable: c.kind == nullListKind, Description: c.description}
}

// columns gives what the manifest says of each of cols.
func columns[R any](cols []col[R]) []Column {
	out := make([]Column, len(cols))
	for i := range cols {
		out[i] = cols[i].column()
	}
	return out
}

// csvHeader is the header line of cols.
func csvHeader[R any](cols []col[R]) []byte {
	var h []byte
	for i, c := range cols {
		if i > 0 {
			h = append(h, ',')
		}
		h = append(h, c.name...)
	}
	return append(h, '\n')
}

// csvLines writes the lines of a table's CSV file: a list is written as
// JSON, "[0,2,4]" (quoted, for its commas), with null for a null element; a
// null value as an empty field; a boolean as true or false; a float as the
// shortest decimal that reads back as the same float32.
type csvLines[R any] struct {
	cols  []col[R]
	first int64  // the value of a first column that repeats
	text  []byte // and its text
}

// appendRow appends the row r as a line.
func (w *csvLines[R]) appendRow(b []byte, r *R) []byte {
	for i := range w.cols {
		c := &w.cols[i]
		if c.inRun {
			continue
		}
		if i > 0 {
			b = append(b, ',')
		}
		switch c.kind {
		case int8Kind:
			b = appendInt(b, int64(c.int8(r)))
		case int64Kind:
			v := c.int64(r)
			if !c.repeats {
				b = appendInt(b, v)
				break
			}
			if w.text == nil || v != w.first {
				w.first, w.text = v, appendInt(w.text[:0], v)
			}
			b = append(b, w.text...)
		case nullInt64Kind:
			if v := c.int64(r); v >= 0 {
				b = appendInt(b, v)
			}
		case boolKind:
			b = strconv.AppendBool(b, c.bool(r))
		case listKind, nullListKind:
			b = appendCSVList(b, c.list(r), csvInt8)
		case optListKind:
			if l := c.list(r); l != nil {
				b = appendCSVList(b, l, csvInt8)
			}
		case boolListKind:
			b = appendCSVList(b, c.bools(r), strconv.AppendBool)
		case floatListKind:
			b = appendCSVList(b, c.floats(r), csvFloat)
		case cellKind:
			b = append(b, c.csvRun(r)[1:]...) // the fields, each after a comma
		default:
			b = append(b, c.text(r)...)
		}
	}
	return append(b, '\n')
}

// appendCSVList appends l as a quoted JSON array, each element by elem.
func appendCSVList[E any](b []byte, l []E, elem func([]byte, E) []byte) []byte {
	b = append(b, `"[`...)
	for j, v := range l {
		if j > 0 {
			b = append(b, ',')
		}
		b = elem(b, v)
	}
	return append(b, `]"`...)
}

// The elements of lists in CSV: an int8, or null for a nullElem; a bool; a
// float32, as the shortest decimal that reads back as it.
func csvInt8(b []byte, v int8) []byte {
	if v == nullElem {
		return append(b, "null"...)
	}
	return appendInt(b, int64(v))
}
func csvFloat(b []byte, v float32) []byte {
	if n := 1 / v; n >= 1 && n < float32(len(unitFractions)) && n == float32(int(n)) && 1/float32(int(n)) == v {
		return append(b, unitFractions[int(n)]...)
	}
	if v == 0 {
		return append(b, '0')
	}
	return strconv.AppendFloat(b, float64(v), 'g', -1, 32)
}

// unitFractions are the texts of 1/n, as strconv writes them: a policy's
// values are 0 or one over the number of best moves, and writing them a
// row at a time was a twentieth of the export of 4x4.
var unitFractions = func() (t [65]string) {
	for n := 1; n < len(t); n++ {
		t[n] = strconv.FormatFloat(float64(1/float32(n)), 'g', -1, 32)
	}
	return t
}()

// Schema gives the states and moves tables of a game of s, as the manifest
// and the Parquet metadata describe them.
func Schema(s rules.Spec) []Table { return shape{game: s}.tables() }

// tables gives the states and moves tables of a dataset of shape sh.
func (sh shape) tables() []Table {
	key, child := sh.key(), "child_id"
	if !sh.game.HasIDs() {
		child = "child_board"
	}
	fks := []ForeignKey{{Columns: []string{key}, References: "states", RefColumns: []string{key}}}
	if !sh.chosen { // a chosen set holds few of its positions' children
		fks = append(fks, ForeignKey{Columns: []string{child}, References: "states", RefColumns: []string{key}})
	}
	return []Table{
		{Name: "states", PrimaryKey: []string{key}, ForeignKeys: []ForeignKey{}, Columns: columns(stateCols(sh))},
		{Name: "moves", PrimaryKey: []string{key, "move"}, ForeignKeys: fks, Columns: columns(moveCols(sh))},
	}
}
