package lru

import "testing"

// At most 2×max entries; a hit in the previous generation moves up and
// survives the next swap; make runs only on a miss.
func TestGenerations(t *testing.T) {
	c := New[[2]uint64, int](2)
	calls := 0
	get := func(k uint64) int {
		return c.Get([2]uint64{k, k}, func() int { calls++; return int(k) * 10 })
	}
	for k := uint64(1); k <= 4; k++ {
		get(k) // 1, 2 fill cur; 3 swaps them to prev; 4 joins 3
	}
	if len(c.cur)+len(c.prev) > 4 {
		t.Fatalf("%d entries, want at most 4", len(c.cur)+len(c.prev))
	}
	// 2 is in the previous generation: the hit moves it up (cur is full, so the
	// generations swap and 1, hit never again, is dropped).
	if v := get(2); v != 20 || calls != 4 {
		t.Fatalf("hit in the previous generation: %d after %d computations, want 20 after 4", v, calls)
	}
	get(5)
	if _, ok := c.Lookup([2]uint64{2, 2}); !ok {
		t.Error("2 moved up on its hit and must still be there")
	}
	if _, ok := c.Lookup([2]uint64{1, 1}); ok {
		t.Error("1 was never hit again and must be gone")
	}
}

// GetMany gives what Get gives for each key, computing only the absent ones,
// and caches them.
func TestGetMany(t *testing.T) {
	c := New[[2]uint64, int](8)
	c.Put([2]uint64{1, 1}, 10)
	keys := [][2]uint64{{1, 1}, {2, 2}, {3, 3}}
	out := make([]int, len(keys))
	var made []int
	c.GetMany(keys, func(i, v int) { out[i] = v }, func(i int) int { made = append(made, i); return int(keys[i][0]) * 10 })
	if out[0] != 10 || out[1] != 20 || out[2] != 30 || len(made) != 2 || made[0] != 1 || made[1] != 2 {
		t.Fatalf("values %v, computed %v: want [10 20 30], computed for 1 and 2", out, made)
	}
	if v, ok := c.Lookup([2]uint64{3, 3}); !ok || v != 30 {
		t.Errorf("a computed value should be cached: %d, %v", v, ok)
	}
}
