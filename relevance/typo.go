package relevance

import (
	"slices"
	"strings"
)

// minTypoLen is the shortest word taken for a misspelling: shorter words are
// one edit away from too many others (card, care, cart).
const minTypoLen = 5

// respellings returns, for each word of the question that is no English word
// (WordNet knows none of its forms), at least minTypoLen letters long, and
// that no candidate contains, the stems one edit away from its stem (a letter
// deleted, inserted, replaced, or two adjacent ones swapped) that candidates
// do contain: "refnud" finds "refund", "delivry" "delivery". Questions are
// typed in a hurry; an event's text is not. have are the question's terms
// already (never returned).
func respellings(question string, have []string, docs []doc) []string {
	var window hashSet // the candidates' terms, built on first need
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(question), func(r rune) bool { return r < 'a' || r > 'z' }) {
		if len(w) < minTypoLen || stopWords[w] || knows(w) {
			continue
		}
		if window.slots == nil {
			n := 0
			for i := range docs {
				n += int(docs[i].nTerms)
			}
			window = newHashSet(n)
			for i := range docs {
				for _, h := range docs[i].terms() {
					window.add(h)
				}
			}
		}
		t := stem(w)
		if window.has(termHash(t)) {
			continue // no misspelling: the events have it
		}
		oneEditAway(t, func(v []byte) {
			if window.has(termHash(v)) {
				if s := string(v); !slices.Contains(have, s) && !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		})
	}
	return out
}

// oneEditAway calls f with each lower-case word one edit from w
// (Damerau-Levenshtein distance 1 over a-z), in a buffer f must not keep.
func oneEditAway(w string, f func([]byte)) {
	buf := make([]byte, 0, len(w)+1)
	for i := 0; i < len(w); i++ {
		f(append(append(buf[:0], w[:i]...), w[i+1:]...)) // deleted
		if i+1 < len(w) && w[i] != w[i+1] {
			v := append(buf[:0], w...)
			v[i], v[i+1] = v[i+1], v[i]
			f(v) // swapped
		}
		v := append(buf[:0], w...)
		for c := byte('a'); c <= 'z'; c++ {
			if c != w[i] {
				v[i] = c
				f(v) // replaced
			}
		}
	}
	for i := 0; i <= len(w); i++ {
		v := append(append(append(buf[:0], w[:i]...), 'a'), w[i:]...)
		for c := byte('a'); c <= 'z'; c++ {
			v[i] = c
			f(v) // inserted
		}
	}
}

// hashSet is a set of term hashes (open addressing, linear probing): cheaper
// to fill for one question than sorting or a map.
type hashSet struct {
	slots []uint64 // 0: empty; a hash of 0 is stored as 1
	mask  uint64
}

func newHashSet(n int) hashSet {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return hashSet{slots: make([]uint64, size), mask: uint64(size - 1)}
}

func (s *hashSet) add(h uint64) {
	h = max(h, 1)
	for i := h & s.mask; ; i = (i + 1) & s.mask {
		switch s.slots[i] {
		case 0:
			s.slots[i] = h
			return
		case h:
			return
		}
	}
}

func (s *hashSet) has(h uint64) bool {
	h = max(h, 1)
	for i := h & s.mask; ; i = (i + 1) & s.mask {
		switch s.slots[i] {
		case 0:
			return false
		case h:
			return true
		}
	}
}
