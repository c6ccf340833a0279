package relevance

import (
	"slices"
	"strings"

	"github.com/freshctx/freshctx/internal/lru"
)

// doc is an event's analysis as the scores use it: its distinct terms and
// identifiers as sorted 64-bit hashes, with each term's count. It holds no
// pointers, so a full analysis cache (100,000 texts) costs the garbage
// collector nothing to scan; with a map per text it was the largest share of
// the API's CPU at ~10 candidates per request.
type doc struct {
	terms []uint64 // sorted, distinct
	tf    []int32  // tf[i]: how often terms[i] occurs
	n     int      // terms, with repeats
	ids   []uint64 // sorted, distinct
	// nums are the numbers of its prefixed identifiers (O-5001 → 5001), sorted:
	// a question saying "order 5001" names the event saying "O-5001".
	nums []uint64
	own  []ident // its identifiers, to ask other events whether they name them
}

// ident is an identifier as matching needs it: its hash and, for a prefixed
// one (O-5001), its number's; bare says it is a number alone (5001).
type ident struct {
	full, num uint64
	bare      bool
}

// identify describes an identifier (lower case, as Analyze gives it).
func identify(id string) ident {
	q := ident{full: termHash(id)}
	if n, ok := numberOf(id); ok {
		q.num = termHash(n)
	} else {
		q.bare = strings.Trim(id, "0123456789") == ""
	}
	return q
}

// identities describes ids, each once.
func identities(ids []string) []ident {
	var out []ident
	for _, id := range ids {
		q := identify(id)
		if !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	return out
}

// names reports the event names the identifier q: the same identifier, a bare
// number against the same number behind a prefix, or the reverse ("order 5001"
// and O-5001); two different prefixes never match.
func (d *doc) names(q ident) bool {
	if d.hasID(q.full) || q.num != 0 && d.hasID(q.num) {
		return true
	}
	_, ok := slices.BinarySearch(d.nums, q.full)
	return q.bare && ok
}

func newDoc(text string) *doc {
	a := Analyze(text)
	d := &doc{n: len(a.Terms), terms: make([]uint64, 0, len(a.Terms))}
	for _, t := range a.Terms {
		d.terms = append(d.terms, termHash(t))
	}
	slices.Sort(d.terms)
	d.tf = make([]int32, 0, len(d.terms))
	k := 0
	for i, h := range d.terms {
		if i > 0 && h == d.terms[k-1] {
			d.tf[k-1]++
			continue
		}
		d.terms[k] = h
		d.tf = append(d.tf, 1)
		k++
	}
	d.terms = slices.Clip(d.terms[:k])
	d.ids = hashes(a.IDs)
	d.own = identities(a.IDs)
	for _, q := range d.own {
		if q.num != 0 {
			d.nums = append(d.nums, q.num)
		}
	}
	slices.Sort(d.nums)
	d.nums = slices.Compact(d.nums)
	return d
}

// numberOf is the number of a prefixed identifier: letters, at most one
// separator, then three or more digits (o-5001, inv1040, ra-3301).
func numberOf(id string) (string, bool) {
	i := 0
	for i < len(id) && id[i] >= 'a' && id[i] <= 'z' {
		i++
	}
	if i == 0 || i > 6 {
		return "", false
	}
	if i < len(id) && (id[i] == '-' || id[i] == '_' || id[i] == '/') {
		i++
	}
	digits := id[i:]
	if len(digits) < 3 {
		return "", false
	}
	for j := 0; j < len(digits); j++ {
		if digits[j] < '0' || digits[j] > '9' {
			return "", false
		}
	}
	return digits, true
}

// count is how often the term of hash h occurs.
func (d *doc) count(h uint64) int {
	if i, ok := slices.BinarySearch(d.terms, h); ok {
		return int(d.tf[i])
	}
	return 0
}

// hasID reports the identifier of hash h occurs.
func (d *doc) hasID(h uint64) bool {
	_, ok := slices.BinarySearch(d.ids, h)
	return ok
}

// termHash is FNV-1a, 64 bits: a collision between two terms of one question
// and one event is negligible.
func termHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// hashes are the sorted, distinct hashes of xs.
func hashes(xs []string) []uint64 {
	out := make([]uint64, len(xs))
	for i, x := range xs {
		out[i] = termHash(x)
	}
	slices.Sort(out)
	return slices.Compact(out)
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
