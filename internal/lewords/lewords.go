// Package lewords reads little-endian 32- and 64-bit words (float32 vectors,
// uint64 hashes) out of bytes a cache handed back, in place where the machine
// allows it: the caches' values are kilobytes per event, read on every request.
package lewords

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// nativeLittleEndian: this machine lays words out as they are stored.
var nativeLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// View returns b's little-endian words. On a little-endian machine, with b
// aligned to the word's size, they are read in place: the result shares b's
// memory, so neither may ever be written. Otherwise they are copied. A
// trailing part shorter than a word is ignored.
func View[T float32 | uint64](b []byte) []T {
	size := int(unsafe.Sizeof(T(0)))
	n := len(b) / size
	if n == 0 {
		return nil
	}
	if p := unsafe.Pointer(unsafe.SliceData(b)); nativeLittleEndian && uintptr(p)%uintptr(size) == 0 {
		return unsafe.Slice((*T)(p), n)
	}
	out := make([]T, n)
	for i := range out {
		switch o := any(&out[i]).(type) {
		case *float32:
			*o = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		case *uint64:
			*o = binary.LittleEndian.Uint64(b[8*i:])
		}
	}
	return out
}

// ViewString is View over a string's bytes (a reply from Redis), which are
// never written either.
func ViewString[T float32 | uint64](s string) []T {
	return View[T](unsafe.Slice(unsafe.StringData(s), len(s)))
}
