package hugepage

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
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
	first := (start + size - 1) &^ (size - 1)
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
