// Package lru is a bounded cache of two generations, for hot paths that must
// not grow without bound: when the current generation is full it becomes the
// previous one and the oldest is dropped; a hit in the previous one moves up.
// O(1), at most twice max entries, safe for concurrent use.
package lru

import "sync"

// Cache maps keys of type K to values of type V. A key (and value) without
// pointers, such as a fixed-size hash, keeps a large cache cheap for the
// garbage collector: a string key is an object of its own to mark per entry.
type Cache[K comparable, V any] struct {
	mu        sync.Mutex
	max       int
	cur, prev map[K]V
}

// New returns a cache of at most 2×max entries.
func New[K comparable, V any](max int) *Cache[K, V] {
	return &Cache[K, V]{max: max, cur: map[K]V{}, prev: map[K]V{}} // grown on use: a process that never uses a cache pays nothing
}

// Get returns k's value, computing it with make (outside the lock) when absent.
func (c *Cache[K, V]) Get(k K, make func() V) V {
	if v, ok := c.Lookup(k); ok {
		return v
	}
	v := make()
	c.Put(k, v)
	return v
}

// GetMany is Get for several keys under one lock: set(i, v) receives
// keys[i]'s value, the absent ones computed with compute(i) outside the lock
// and cached under one more. A request ranking hundreds of events takes the
// lock twice, not hundreds of times.
func (c *Cache[K, V]) GetMany(keys []K, set func(i int, v V), compute func(i int) V) {
	var missing []int
	c.mu.Lock()
	for i, k := range keys {
		if v, ok := c.cur[k]; ok {
			set(i, v)
		} else if v, ok := c.prev[k]; ok {
			c.put(k, v)
			set(i, v)
		} else {
			missing = append(missing, i)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return
	}
	made := make([]V, len(missing))
	for k, i := range missing {
		made[k] = compute(i)
		set(i, made[k])
	}
	c.mu.Lock()
	for k, i := range missing {
		c.put(keys[i], made[k])
	}
	c.mu.Unlock()
}

// Lookup returns k's value, if cached.
func (c *Cache[K, V]) Lookup(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.cur[k]; ok {
		return v, true
	}
	if v, ok := c.prev[k]; ok {
		c.put(k, v)
		return v, true
	}
	var zero V
	return zero, false
}

// Put caches v under k.
func (c *Cache[K, V]) Put(k K, v V) {
	c.mu.Lock()
	c.put(k, v)
	c.mu.Unlock()
}

func (c *Cache[K, V]) put(k K, v V) {
	if len(c.cur) >= c.max {
		c.prev, c.cur = c.cur, make(map[K]V, c.max) // it filled once: it will again
	}
	c.cur[k] = v
}
