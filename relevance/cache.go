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

// analysisCache keeps the analyses of recent texts by text hash, so a request
// scores its candidates without analysing (stemming, segmenting) them again.
// Two generations bound it: when the current one is full it becomes the
// previous one and the oldest is dropped; a hit in the previous one moves up.
type analysisCache struct {
	mu        sync.Mutex
	max       int
	cur, prev map[string]*doc
}

// CacheEntries bounds the analysis cache (twice this many texts at most).
const CacheEntries = 50_000

var analyses = &analysisCache{max: CacheEntries, cur: map[string]*doc{}, prev: map[string]*doc{}}

func (c *analysisCache) get(hash []byte, text string) *doc {
	if len(hash) == 0 {
		return newDoc(text)
	}
	k := string(hash)
	c.mu.Lock()
	if d, ok := c.cur[k]; ok {
		c.mu.Unlock()
		return d
	}
	if d, ok := c.prev[k]; ok {
		c.put(k, d)
		c.mu.Unlock()
		return d
	}
	c.mu.Unlock()
	d := newDoc(text)
	c.mu.Lock()
	c.put(k, d)
	c.mu.Unlock()
	return d
}

func (c *analysisCache) put(k string, d *doc) {
	if len(c.cur) >= c.max {
		c.prev, c.cur = c.cur, make(map[string]*doc, c.max)
	}
	c.cur[k] = d
}
