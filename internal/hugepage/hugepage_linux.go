package hugepage

import (
	"syscall"
	"unsafe"
)

// size is the huge page of x86-64, and of arm64 with 4 KB pages; where
// huge pages are of another size, the advice is still given, in 2 MB
// aligned ranges, and the system applies it as it can.
const size = 2 << 20

// Advise asks that the whole huge pages inside the backing array of s, up
// to its capacity, be huge pages when first touched. It is best done
// before the array is written. Arrays under MinBytes are left alone, and
// a refusal of the system (an old kernel, huge pages off) is ignored: the
// advice only changes how fast memory comes, never what it holds.
func Advise[T any](s []T) {
	var zero T
	bytes := uintptr(cap(s)) * unsafe.Sizeof(zero)
	if bytes < MinBytes {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(s[:1]))
	start := uintptr(p)
	lo, hi := (start+size-1)&^(size-1), (start+bytes)&^(size-1)
	if lo >= hi {
		return
	}
	// The range lies inside the array, which s keeps alive.
	mem := unsafe.Slice((*byte)(unsafe.Add(p, lo-start)), hi-lo)
	_ = syscall.Madvise(mem, syscall.MADV_HUGEPAGE)
}
