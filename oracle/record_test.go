package oracle

import (
	"errors"
	"reflect"
	"testing"

	"github.com/tateti-lab/tateti-lab/perfect"
)

// A record reads back as it was written, every field of an answer with it:
// fill sets every exported field, to the leaves, so that a field added to
// perfect.Analysis is checked here without a word.
func TestRecordRoundTrip(t *testing.T) {
	var full journalRecord
	fill(t, reflect.ValueOf(&full).Elem(), 1)
	tests := []struct {
		name string
		r    journalRecord
	}{
		{"every field set", full},
		{"the zero record", journalRecord{}},
		{"no moves, nil", journalRecord{I: 3, A: perfect.Analysis{Value: perfect.XWins}}},
		{"no moves, empty", journalRecord{I: 3, A: perfect.Analysis{Moves: []perfect.Move{}, BestLine: []int{}}}},
		{"negative numbers", journalRecord{I: 1 << 40, A: perfect.Analysis{Value: perfect.OWins, Paths: -1, LineEnd: -7}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := appendRecord(nil, &tt.r)
			if err != nil {
				t.Fatal(err)
			}
			var got journalRecord
			if err := readRecord(b, &got); err != nil {
				t.Fatalf("reading back %d bytes: %v", len(b), err)
			}
			if !reflect.DeepEqual(got, tt.r) {
				t.Errorf("got %+v, want %+v", got, tt.r)
			}
		})
	}
}

// fill sets every exported field of v, to the leaves, to values drawn from
// seed: none zero, each slice of two elements, each pointer set.
func fill(t *testing.T, v reflect.Value, seed int) int {
	t.Helper()
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(-seed))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(seed) << 6)
	case reflect.String:
		v.SetString(string(rune('a' + seed%26)))
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		seed = fill(t, v.Elem(), seed)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		seed = fill(t, v.Index(1), fill(t, v.Index(0), seed))
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				seed = fill(t, v.Field(i), seed)
			}
		}
	default:
		t.Fatalf("fill: a %s, which a journal record cannot hold", v.Type())
	}
	return seed + 1
}

// A payload cut short, or followed by more, is no record: a journal ends
// where its records stop reading whole.
func TestRecordDamage(t *testing.T) {
	var full journalRecord
	fill(t, reflect.ValueOf(&full).Elem(), 1)
	b, err := appendRecord(nil, &full)
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(b) {
		var r journalRecord
		if err := readRecord(b[:n], &r); !errors.Is(err, errRecord) {
			t.Fatalf("the first %d of %d bytes: got %v, want %v", n, len(b), err, errRecord)
		}
	}
	var r journalRecord
	if err := readRecord(append(b, 0), &r); !errors.Is(err, errRecord) {
		t.Errorf("a byte too many: got %v, want %v", err, errRecord)
	}
}

// What a record cannot hold is refused when it is written, not lost.
func TestRecordRefusesOtherKinds(t *testing.T) {
	if _, err := appendValue(nil, reflect.ValueOf(map[int]int{1: 2})); err == nil {
		t.Error("a map was written without a word")
	}
}

// Any bytes read as a record or are refused, never a panic; what reads
// writes back to bytes that read the same.
func FuzzReadRecord(f *testing.F) {
	for _, r := range []journalRecord{{}, {I: 5, A: perfect.Analysis{Moves: []perfect.Move{{Cell: 3, Best: true}}, Proved: &perfect.Bounds{Low: -1, High: 1}}}} {
		b, err := appendRecord(nil, &r)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var r journalRecord
		if readRecord(b, &r) != nil {
			return
		}
		again, err := appendRecord(nil, &r)
		if err != nil {
			t.Fatal(err)
		}
		var back journalRecord
		if err := readRecord(again, &back); err != nil || !reflect.DeepEqual(back, r) {
			t.Fatalf("%x read as %+v, written as %x, read back as %+v (%v)", b, r, again, back, err)
		}
	})
}
