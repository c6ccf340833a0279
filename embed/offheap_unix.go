//go:build unix

package embed

import (
	"syscall"
	"unsafe"
)

// offHeap returns n zeroed bytes outside the Go heap (an anonymous private
// mapping, never unmapped: the word vectors live as long as the process), or
// on the heap if the mapping fails.
func offHeap(n int) []byte {
	if n == 0 {
		return nil
	}
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]byte, n)
	}
	return b
}

// offHeapOf is offHeap for n values of a type without pointers.
func offHeapOf[T int32 | uint32 | float32](n int) []T {
	var zero T
	b := offHeap(n * int(unsafe.Sizeof(zero)))
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n)
}
