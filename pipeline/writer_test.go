package pipeline

import (
	"math"
	"testing"
)

// Backfill versions sit below every live version and keep their own order.
func TestBackfillVersionOrder(t *testing.T) {
	vs := []int64{0, 1, 1 << 32, math.MaxInt64}
	for i, v := range vs {
		b := BackfillVersion(v)
		if b >= 0 {
			t.Fatalf("BackfillVersion(%d) = %d, want negative", v, b)
		}
		if i > 0 && b <= BackfillVersion(vs[i-1]) {
			t.Fatalf("backfillVersion does not keep order at %d", v)
		}
	}
	if !stale(0, false, BackfillVersion(math.MaxInt64)) || stale(BackfillVersion(5), false, 0) {
		t.Fatal("a live version must make any backfill version stale, and not the other way round")
	}
}
