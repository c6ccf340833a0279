//go:build !unix

package embed

// offHeap returns n zeroed bytes: on the heap, where no anonymous mapping is at hand.
func offHeap(n int) []byte { return make([]byte, n) }

// offHeapOf returns n zeroed values on the heap.
func offHeapOf[T int32 | uint32 | float32](n int) []T { return make([]T, n) }
