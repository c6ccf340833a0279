//go:build !unix

package embed

// offHeap returns n zeroed bytes: on the heap, where no anonymous mapping is at hand.
func offHeap(n int) []byte { return make([]byte, n) }
