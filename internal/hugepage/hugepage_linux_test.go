package hugepage

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// vmFlags gives the VmFlags of the mapping of /proc/self/smaps that holds
// addr.
func vmFlags(t *testing.T, addr uintptr) []string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			in = lo <= addr && addr < hi
			continue
		}
		if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return strings.Fields(rest)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("no mapping of /proc/self/smaps holds %#x", addr)
	return nil
}

// An advised array's whole huge pages are marked for huge pages (the "hg"
// flag of their mapping), and it holds what is written to it.
func TestAdvise(t *testing.T) {
	s := Make[uint64](3*MinBytes/8, 3*MinBytes/8)
	start := uintptr(unsafe.Pointer(&s[0]))
	first := (start + Size - 1) &^ (Size - 1)
	flags := vmFlags(t, first)
	hg := false
	for _, f := range flags {
		hg = hg || f == "hg"
	}
	if !hg {
		t.Fatalf("the mapping of the advised array at %#x has flags %v, want hg among them", first, flags)
	}
	for i := range s {
		s[i] = uint64(i)
	}
	for i, v := range s {
		if v != uint64(i) {
			t.Fatalf("s[%d] = %d, want %d", i, v, i)
		}
	}
}

// Advise takes slices with no array, or an empty one, without a panic.
func TestAdviseEmpty(t *testing.T) {
	Advise([]byte(nil))
	Advise(make([]byte, 0))
}

// MakeAligned starts an array of at least a huge page on a huge page
// boundary and advises it, and leaves a smaller one as Make does.
func TestMakeAligned(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		aligned bool
	}{
		{"one huge page", Size / 8, true},
		{"a huge page and a half", 3 * Size / 16, true},
		{"under a huge page", Size/8 - 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := MakeAligned[uint64](tt.n)
			if len(s) != tt.n || cap(s) != tt.n {
				t.Fatalf("len %d, cap %d; want %d and %d", len(s), cap(s), tt.n, tt.n)
			}
			start := uintptr(unsafe.Pointer(&s[0]))
			if !tt.aligned {
				return
			}
			if start%Size != 0 {
				t.Fatalf("array at %#x, want it on a %d-byte boundary", start, Size)
			}
			if flags := vmFlags(t, start); !slices.Contains(flags, "hg") {
				t.Errorf("the mapping at %#x has flags %v, want hg among them", start, flags)
			}
			s[len(s)-1] = 7
			if s[len(s)-1] != 7 {
				t.Errorf("the last element holds %d, want 7", s[len(s)-1])
			}
		})
	}
}

// mapped reports whether a mapping of /proc/self/maps holds addr.
func mapped(t *testing.T, addr uintptr) bool {
	t.Helper()
	data, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 && lo <= addr && addr < hi {
			return true
		}
	}
	return false
}

// Map gives n zero elements that hold what is written, from a huge page
// boundary, advised, when they take a huge page or more; Release unmaps
// them at once and empties S, and releasing again does nothing.
func TestMapRelease(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		aligned bool
	}{
		{"a huge page and a half", 3 * Size / 16, true},
		{"a few small pages", 3000, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Map[uint64](tt.n)
			if len(m.S) != tt.n {
				t.Fatalf("len %d, want %d", len(m.S), tt.n)
			}
			start := uintptr(unsafe.Pointer(&m.S[0]))
			if tt.aligned && start%Size != 0 {
				t.Fatalf("array at %#x, want it on a %d-byte boundary", start, Size)
			}
			if tt.aligned && !slices.Contains(vmFlags(t, start), "hg") {
				t.Errorf("the mapping at %#x is not advised for huge pages", start)
			}
			for i, v := range m.S {
				if v != 0 {
					t.Fatalf("S[%d] = %d, want 0", i, v)
				}
			}
			m.S[tt.n-1] = 7
			if m.S[tt.n-1] != 7 {
				t.Fatalf("the last element holds %d, want 7", m.S[tt.n-1])
			}
			m.Release()
			if m.S != nil || mapped(t, start) {
				t.Fatalf("after Release: S %v nil, %#x mapped %t; want nil and not mapped", m.S == nil, start, mapped(t, start))
			}
			m.Release()
		})
	}
}

// Map starts an array of MinMapBytes or more on a huge page of its own,
// advised, and leaves a smaller one where the system puts it. (Whether
// Release unmaps these is TestMapRelease's: the runtime maps memory of
// these sizes for itself, and may take the range back at once.)
func TestMapHugeFrom(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		aligned bool
	}{
		{"an eighth of a huge page", MinMapBytes / 8, true},
		{"under an eighth of a huge page", MinMapBytes/8 - 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Map[uint64](tt.n)
			defer m.Release()
			start := uintptr(unsafe.Pointer(&m.S[0]))
			hg := slices.Contains(vmFlags(t, start), "hg")
			if aligned := start%Size == 0 && hg; aligned != tt.aligned {
				t.Fatalf("array at %#x, advised %t; want on a %d-byte boundary and advised: %t", start, hg, Size, tt.aligned)
			}
			m.S[tt.n-1] = 7
			if m.S[tt.n-1] != 7 {
				t.Fatalf("the last element holds %d, want 7", m.S[tt.n-1])
			}
		})
	}
}

// A Mapped dropped without Release is unmapped once collected.
func TestMapCollected(t *testing.T) {
	start := func() uintptr {
		m := Map[uint64](Size / 8)
		m.S[0] = 1
		return uintptr(unsafe.Pointer(&m.S[0]))
	}()
	if !mapped(t, start) {
		t.Fatalf("%#x not mapped before the collection", start)
	}
	for range 100 {
		runtime.GC()
		if !mapped(t, start) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%#x still mapped after 100 collections", start)
}
