package oracle

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
)

// A journal record's payload is its journalRecord written field by field,
// in the order the struct declares them, to the leaves, with no names
// (recordVersion names the shape): an int as a zigzag varint, an unsigned
// one as a varint, a bool as a byte, a string as its length and bytes, a
// slice as its length plus one (0 for nil) and its elements, a pointer as
// 0 for nil or 1 and what it points to. Unexported fields are left out,
// as recordVersion leaves them out. Being ours, it round-trips exactly (a
// nil slice stays nil, an empty one empty) and costs a program nothing at
// start, where encoding/gob sets up its types (about a millisecond here).

// appendRecord appends the payload of r to b.
func appendRecord(b []byte, r *journalRecord) ([]byte, error) {
	return appendValue(b, reflect.ValueOf(r).Elem())
}

// appendValue appends v to b, as the payload's layout says.
func appendValue(b []byte, v reflect.Value) ([]byte, error) {
	var err error
	switch v.Kind() {
	case reflect.Bool:
		return append(b, boolByte(v.Bool())), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return binary.AppendVarint(b, v.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return binary.AppendUvarint(b, v.Uint()), nil
	case reflect.String:
		return append(binary.AppendUvarint(b, uint64(v.Len())), v.String()...), nil
	case reflect.Pointer:
		if v.IsNil() {
			return append(b, 0), nil
		}
		return appendValue(append(b, 1), v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			return append(b, 0), nil
		}
		b = binary.AppendUvarint(b, uint64(v.Len())+1)
		for i := 0; i < v.Len() && err == nil; i++ {
			b, err = appendValue(b, v.Index(i))
		}
		return b, err
	case reflect.Struct:
		for i := 0; i < v.NumField() && err == nil; i++ {
			if v.Type().Field(i).IsExported() {
				b, err = appendValue(b, v.Field(i))
			}
		}
		return b, err
	}
	return b, fmt.Errorf("a journal record cannot hold a %s", v.Type())
}

func boolByte(x bool) byte {
	if x {
		return 1
	}
	return 0
}

// errRecord is a payload that does not read as a record: damage, which
// ends what a journal holds.
var errRecord = errors.New("not a journal record")

// readRecord reads the payload b into r; errRecord when it is not one
// whole record, with no bytes left over.
func readRecord(b []byte, r *journalRecord) error {
	*r = journalRecord{}
	rest, err := readValue(b, reflect.ValueOf(r).Elem())
	if err == nil && len(rest) != 0 {
		err = errRecord
	}
	return err
}

// readValue reads v from the front of b and gives what follows it.
func readValue(b []byte, v reflect.Value) ([]byte, error) {
	switch v.Kind() {
	case reflect.Bool:
		set, rest, err := readFlag(b)
		v.SetBool(set)
		return rest, err
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, k := binary.Varint(b)
		if k <= 0 || v.OverflowInt(n) {
			return nil, errRecord
		}
		v.SetInt(n)
		return b[k:], nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, rest, err := readUvarint(b)
		if err == nil && v.OverflowUint(n) {
			err = errRecord
		}
		v.SetUint(n)
		return rest, err
	case reflect.String:
		n, rest, err := readLength(b, 0)
		if err != nil {
			return nil, err
		}
		v.SetString(string(rest[:n]))
		return rest[n:], nil
	case reflect.Pointer:
		return readPointer(b, v)
	case reflect.Slice:
		return readSlice(b, v)
	case reflect.Struct:
		var err error
		for i := 0; i < v.NumField() && err == nil; i++ {
			if v.Type().Field(i).IsExported() {
				b, err = readValue(b, v.Field(i))
			}
		}
		return b, err
	}
	return nil, errRecord
}

// readPointer reads into the pointer v: nil, or what it points to.
func readPointer(b []byte, v reflect.Value) ([]byte, error) {
	set, rest, err := readFlag(b)
	if err != nil || !set {
		return rest, err
	}
	v.Set(reflect.New(v.Type().Elem()))
	return readValue(rest, v.Elem())
}

// readFlag reads the byte a bool or a pointer's presence is written as,
// 0 or 1, from the front of b.
func readFlag(b []byte) (bool, []byte, error) {
	if len(b) == 0 || b[0] > 1 {
		return false, nil, errRecord
	}
	return b[0] == 1, b[1:], nil
}

// readSlice reads into the slice v: nil, or its length and elements.
func readSlice(b []byte, v reflect.Value) ([]byte, error) {
	n, rest, err := readLength(b, 1)
	if err != nil || n == 0 {
		return rest, err
	}
	n-- // the length was written plus one
	v.Set(reflect.MakeSlice(v.Type(), n, n))
	for i := 0; i < n && err == nil; i++ {
		rest, err = readValue(rest, v.Index(i))
	}
	return rest, err
}

// readLength reads a length, written plus plus (1 for a slice, whose 0 is
// nil), that the bytes left can hold (an element takes a byte at least),
// and gives it with what follows.
func readLength(b []byte, plus uint64) (int, []byte, error) {
	n, rest, err := readUvarint(b)
	if err != nil || n > uint64(len(rest))+plus || n > math.MaxInt32 {
		return 0, nil, errRecord
	}
	return int(n), rest, nil
}

// readUvarint reads a varint from the front of b.
func readUvarint(b []byte) (uint64, []byte, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 {
		return 0, nil, errRecord
	}
	return n, b[k:], nil
}
