package relevance

import "github.com/freshctx/freshctx/internal/lru"

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

// CacheEntries bounds the analysis cache (twice this many texts at most): the
// analyses of recent texts by text hash, so a request scores its candidates
// without analysing (stemming, segmenting) them again.
const CacheEntries = 50_000

var analyses = lru.New[*doc](CacheEntries)

// analysisOf is text's analysis, cached under hash (empty: not cached).
func analysisOf(hash []byte, text string) *doc {
	if len(hash) == 0 {
		return newDoc(text)
	}
	return analyses.Get(string(hash), func() *doc { return newDoc(text) })
}
