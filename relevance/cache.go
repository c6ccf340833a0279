package relevance

import "sync"

// doc is an event's analysis as the scores use it.
type doc struct {
	tf  map[string]int
	n   int // terms, with repeats
	ids map[string]bool
}

func newDoc(text string) *doc {
	a := Analyze(text)
	d := &doc{tf: make(map[string]int, len(a.Terms)), n: len(a.Terms), ids: make(map[string]bool, len(a.IDs))}
	for _, t := range a.Terms {
		d.tf[t]++
	}
	for _, id := range a.IDs {
		d.ids[id] = true
	}
	return d
}

// lru2 is a bounded cache of two generations: when the current one is full it
// becomes the previous one and the oldest is dropped; a hit in the previous one
// moves up. O(1), at most twice max entries, safe for concurrent use.
type lru2[V any] struct {
	mu        sync.Mutex
	max       int
	cur, prev map[string]V
}

func newLRU2[V any](max int) *lru2[V] {
	return &lru2[V]{max: max, cur: make(map[string]V, max), prev: map[string]V{}}
}

// get returns k's value, computing it with make (outside the lock) when absent.
func (c *lru2[V]) get(k string, make func() V) V {
	c.mu.Lock()
	if v, ok := c.cur[k]; ok {
		c.mu.Unlock()
		return v
	}
	if v, ok := c.prev[k]; ok {
		c.put(k, v)
		c.mu.Unlock()
		return v
	}
	c.mu.Unlock()
	v := make()
	c.mu.Lock()
	c.put(k, v)
	c.mu.Unlock()
	return v
}

func (c *lru2[V]) put(k string, v V) {
	if len(c.cur) >= c.max {
		c.prev, c.cur = c.cur, map[string]V{}
	}
	c.cur[k] = v
}

// CacheEntries bounds the analysis cache (twice this many texts at most): the
// analyses of recent texts by text hash, so a request scores its candidates
// without analysing (stemming, segmenting) them again.
const CacheEntries = 50_000

var analyses = newLRU2[*doc](CacheEntries)

// analysisOf is text's analysis, cached under hash (empty: not cached).
func analysisOf(hash []byte, text string) *doc {
	if len(hash) == 0 {
		return newDoc(text)
	}
	return analyses.get(string(hash), func() *doc { return newDoc(text) })
}
