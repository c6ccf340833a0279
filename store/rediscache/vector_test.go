package rediscache

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// A vector comes back as it was written, whether it is read in place or copied
// (a misaligned string is copied).
func TestVectorsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 3, 384, 1536} {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		v[0] = float32(math.SmallestNonzeroFloat32)
		enc := encodeVector(v)
		s := string(enc)
		if got := decodeVector(s); !slices.Equal(got, v) {
			t.Fatalf("%d dimensions: decoded %v, want %v", n, got[:1], v[:1])
		}
		if nativeLittleEndian && unsafe.SliceData(decodeVector(s)) != (*float32)(unsafe.Pointer(unsafe.StringData(s))) {
			t.Errorf("%d dimensions: copied on a little-endian machine", n)
		}
		odd := string(append([]byte{0}, enc...))[1:] // one byte past an aligned start
		if got := decodeVector(odd); !slices.Equal(got, v) {
			t.Fatalf("%d dimensions, misaligned: decoded %v, want %v", n, got[:1], v[:1])
		}
	}
	if decodeVector("") != nil {
		t.Error("an empty vector must decode to nil")
	}
}
