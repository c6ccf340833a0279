//go:build unix

package embed

import "syscall"

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
