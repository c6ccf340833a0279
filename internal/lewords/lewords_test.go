package lewords

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"
	"unsafe"
)

// Words come back as written, read in place when aligned (on a little-endian
// machine) and copied when not.
func TestView(t *testing.T) {
	fs := []float32{1.5, -2.25, float32(math.SmallestNonzeroFloat32), 3e38}
	us := []uint64{0, 1, math.MaxUint64, 0x0102030405060708}
	fb := make([]byte, 8+4*len(fs)) // room to misalign
	for i, f := range fs {
		binary.LittleEndian.PutUint32(fb[8+4*i:], math.Float32bits(f))
	}
	ub := make([]byte, 8+8*len(us))
	for i, u := range us {
		binary.LittleEndian.PutUint64(ub[8+8*i:], u)
	}
	if got := View[float32](fb[8:]); !slices.Equal(got, fs) {
		t.Errorf("float32s %v, want %v", got, fs)
	}
	if got := View[uint64](ub[8:]); !slices.Equal(got, us) {
		t.Errorf("uint64s %v, want %v", got, us)
	}
	if got := ViewString[uint64](string(ub[8:])); !slices.Equal(got, us) {
		t.Errorf("uint64s from a string %v, want %v", got, us)
	}
	if nativeLittleEndian && unsafe.SliceData(View[uint64](ub[8:])) != (*uint64)(unsafe.Pointer(&ub[8])) {
		t.Error("aligned words were copied on a little-endian machine")
	}
	odd := append([]byte{0}, ub[8:]...)[1:] // one byte past an aligned start
	if got := View[uint64](odd); !slices.Equal(got, us) {
		t.Errorf("misaligned uint64s %v, want %v", got, us)
	}
	if View[float32](nil) != nil || View[uint64]([]byte{1, 2, 3}) != nil {
		t.Error("fewer bytes than a word must give nil")
	}
}
