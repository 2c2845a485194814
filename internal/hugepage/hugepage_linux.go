package hugepage

import (
	"syscall"
	"unsafe"
)

// Advise asks that the whole huge pages inside the backing array of s, up
// to its capacity, be huge pages when first touched. It is best done
// before the array is written. Arrays under MinBytes are left alone, and
// a refusal of the system (an old kernel, huge pages off) is ignored: the
// advice only changes how fast memory comes, never what it holds.
func Advise[T any](s []T) {
	var zero T
	if uintptr(cap(s))*unsafe.Sizeof(zero) >= MinBytes {
		advise(s)
	}
}

// advise advises the whole huge pages inside the backing array of s, up
// to its capacity, whatever its size.
func advise[T any](s []T) {
	var zero T
	bytes := uintptr(cap(s)) * unsafe.Sizeof(zero)
	if bytes == 0 {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(s[:1]))
	start := uintptr(p)
	lo, hi := (start+Size-1)&^(Size-1), (start+bytes)&^(Size-1)
	if lo >= hi {
		return
	}
	// The range lies inside the array, which s keeps alive.
	mem := unsafe.Slice((*byte)(unsafe.Add(p, lo-start)), hi-lo)
	_ = syscall.Madvise(mem, syscall.MADV_HUGEPAGE)
}
