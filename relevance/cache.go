package relevance

import (
	"hash/maphash"
	"slices"
	"strings"

	"github.com/freshctx/freshctx/internal/lru"
)

// doc is an event's analysis as the scores use it: its distinct terms and
// identifiers as sorted 64-bit hashes, with each term's count, all in one
// pointer-free slab. The analysis cache holds docs by value under fixed-size
// keys, so a cached analysis is one object for the garbage collector to mark
// (with a slice per part and a string key it was six or seven, and at ~10
// candidates per request and 100,000 cached texts the collector's marking was
// a quarter of the API's CPU).
//
// The slab holds, in order: the terms (sorted, distinct), each term's count,
// the identifiers (sorted, distinct), the numbers of its prefixed identifiers
// (O-5001 → 5001, sorted: a question saying "order 5001" names the event
// saying "O-5001"), and its identifiers as idents (full, num, bare), to ask
// other events whether they name them.
type doc struct {
	slab               []uint64
	nTerms, nIDs, nNum int32
	nOwn               int32
	n                  int32 // terms, with repeats
}

func (d *doc) terms() []uint64 { return d.slab[:d.nTerms] }
func (d *doc) tf(i int) int    { return int(d.slab[int(d.nTerms)+i]) }
func (d *doc) ids() []uint64   { o := 2 * d.nTerms; return d.slab[o : o+d.nIDs] }
func (d *doc) nums() []uint64  { o := 2*d.nTerms + d.nIDs; return d.slab[o : o+d.nNum] }

// own is its k-th identifier, k < nOwn.
func (d *doc) own(k int) ident {
	o := int(2*d.nTerms+d.nIDs+d.nNum) + 3*k
	return ident{full: d.slab[o], num: d.slab[o+1], bare: d.slab[o+2] == 1}
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
	_, ok := slices.BinarySearch(d.nums(), q.full)
	return q.bare && ok
}

func newDoc(text string) doc {
	a := Analyze(text)
	terms := make([]uint64, len(a.Terms))
	for i, t := range a.Terms {
		terms[i] = termHash(t)
	}
	slices.Sort(terms)
	var tf []uint64
	k := 0
	for i, h := range terms {
		if i > 0 && h == terms[k-1] {
			tf[k-1]++
			continue
		}
		terms[k] = h
		tf = append(tf, 1)
		k++
	}
	terms = terms[:k]
	ids := hashes(a.IDs)
	own := identities(a.IDs)
	var nums []uint64
	for _, q := range own {
		if q.num != 0 {
			nums = append(nums, q.num)
		}
	}
	slices.Sort(nums)
	nums = slices.Compact(nums)
	slab := make([]uint64, 0, 2*len(terms)+len(ids)+len(nums)+3*len(own))
	slab = append(append(append(append(slab, terms...), tf...), ids...), nums...)
	for _, q := range own {
		bare := uint64(0)
		if q.bare {
			bare = 1
		}
		slab = append(slab, q.full, q.num, bare)
	}
	return doc{slab: slab, nTerms: int32(len(terms)), nIDs: int32(len(ids)), nNum: int32(len(nums)), nOwn: int32(len(own)), n: int32(len(a.Terms))}
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
	if i, ok := slices.BinarySearch(d.terms(), h); ok {
		return d.tf(i)
	}
	return 0
}

// hasID reports the identifier of hash h occurs.
func (d *doc) hasID(h uint64) bool {
	_, ok := slices.BinarySearch(d.ids(), h)
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

var analyses = lru.New[[2]uint64, doc](CacheEntries)

// analysisSeeds key the analysis cache: 128 bits of the text's hash, so a key
// holds no pointer.
var analysisSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// analysisOf is text's analysis, cached under hash (empty: not cached).
func analysisOf(hash []byte, text string) doc {
	if len(hash) == 0 {
		return newDoc(text)
	}
	key := [2]uint64{maphash.Bytes(analysisSeeds[0], hash), maphash.Bytes(analysisSeeds[1], hash)}
	return analyses.Get(key, func() doc { return newDoc(text) })
}
