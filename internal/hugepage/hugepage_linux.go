package hugepage

import (
	"runtime"
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

// Map gives an array of n T's (T holding no pointers) in memory of its
// own, mapped from the system: fresh pages, zero without being cleared,
// each taken when first touched, on huge pages from MinMapBytes up, where
// the heap clears an array made from memory it held before, touching
// every page however few are used. From MinMapBytes up, an array starts
// and ends on huge page boundaries: one under Size takes a whole huge
// page once touched, a larger one its last huge page whole. The memory
// is given back to the system by Release, or once the Mapped is
// collected, so its array must be used only while the Mapped is held and
// not released: keep it beside the array. The collector does not count
// the memory: release it when done.
// Where the system refuses the mapping, the array is MakeAligned's.
func Map[T any](n int) *Mapped[T] {
	var zero T
	bytes := n * int(unsafe.Sizeof(zero))
	if bytes == 0 {
		return &Mapped[T]{S: make([]T, n)}
	}
	pad, span := 0, bytes
	if bytes >= MinMapBytes { // room to start on a huge page boundary, and to end on one
		pad, span = Size, (bytes+Size-1)&^(Size-1)
	}
	mem, err := syscall.Mmap(-1, 0, span+pad, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
	if err != nil {
		return &Mapped[T]{S: MakeAligned[T](n)}
	}
	skip := 0
	if pad > 0 {
		skip = (Size - int(uintptr(unsafe.Pointer(&mem[0]))%Size)) % Size
		_ = syscall.Madvise(mem[skip:skip+span], syscall.MADV_HUGEPAGE)
	}
	m := &Mapped[T]{S: unsafe.Slice((*T)(unsafe.Pointer(&mem[skip])), n)}
	c := runtime.AddCleanup(m, func(mem []byte) { _ = syscall.Munmap(mem) }, mem)
	m.release = func() {
		c.Stop() // else the collector would unmap it again, maybe over a new mapping
		_ = syscall.Munmap(mem)
	}
	return m
}
