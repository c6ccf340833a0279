package relevance

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// BM25 over the analysed terms: the question's clauses, their expansions
// and synthetic terms (lexQuery), scored against each candidate (bm25).

// lexQuery is BM25's query: the question's words, each a clause of its own,
// and what expansions bring (a thesaurus's terms and phrases, WordNet's
// synonyms). What a word brings is blended into the word's clause, as
// Lucene's SynonymQuery does: its frequency counts, by its weight, as the
// word's, and the clause's IDF is that of the events having either. So an
// event saying "refund" and "money back" gains little over one saying
// "refund" twice, while a rare synonym alone would outweigh the common word
// (by its IDF); what no word of the question brought (a misspelt word's
// respellings, the amount, an acronym) is a clause of its own.
type lexQuery struct {
	terms  []string
	hashes []uint64 // termHash of each term
	// weights are a clause's weight for its own term (of < 0), and a blended
	// term's share of its clause's frequency.
	weights []float64
	of      []int // the clause (a term's index) a term is blended into; -1: its own
	// synth are terms no analysis has (thesaurus phrases, AcronymTerm), with
	// their frequencies per candidate; done puts them last.
	synth       []synthTerm
	phraseWords []string // the words of the phrases brought
	words       int      // the question's own words: terms[:words]
	// unstated are, per candidate, the answer types' terms that count for
	// nothing in it (unstate); nil: none.
	unstated [][]uint64
}

// unstate makes the terms hs count for nothing in each candidate marked:
// what an event seems to state but does not state for this question (the
// time of one counted from the question's thing, relativeTimes; the reason
// of one saying only the question's own problem, problemsOnly).
func (q *lexQuery) unstate(marked []bool, hs ...uint64) {
	for i, m := range marked {
		if !m {
			continue
		}
		if q.unstated == nil {
			q.unstated = make([][]uint64, len(marked))
		}
		q.unstated[i] = append(q.unstated[i], hs...)
	}
}

type synthTerm struct {
	term   string
	weight float64
	of     int
	tf     []int32
	phrase []string // a thesaurus phrase's terms
}

// newLexQuery makes a clause of each of the question's words, a Chinese
// character alone at weight char (its pairs at 1).
func newLexQuery(words []string, char float64) *lexQuery {
	n := len(words) + 8 // room for a few expansions without growing
	q := &lexQuery{words: len(words), terms: make([]string, 0, n), hashes: make([]uint64, 0, n), weights: make([]float64, 0, n), of: make([]int, 0, n)}
	for _, t := range words {
		q.addWord(t, 1, char)
	}
	return q
}

// addWord adds a word as a clause of its own at weight, a Chinese
// character alone at weight·char (char 0: the same).
func (q *lexQuery) addWord(t string, weight, char float64) {
	if r, size := utf8.DecodeRuneInString(t); size == len(t) && isCJK(r) && char > 0 {
		weight *= char
	}
	q.add(t, weight, -1)
}

func (q *lexQuery) add(term string, weight float64, of int) {
	q.addHashed(term, termHash(term), weight, of)
}

func (q *lexQuery) addHashed(term string, h uint64, weight float64, of int) {
	q.terms = append(q.terms, term)
	q.hashes = append(q.hashes, h)
	q.weights = append(q.weights, weight)
	q.of = append(q.of, of)
}

// bring adds what an expansion brings, blended into the clause of the first
// of the question's own words it came from (or a clause of its own), unless
// the query has it already: a term, or a phrase that some doc has whole.
func (q *lexQuery) bring(e expansion, weight float64, docs []doc) {
	of := -1
	for _, f := range e.from {
		if k := slices.Index(q.terms[:q.words], f); k >= 0 {
			of = k
			break
		}
	}
	if e.phrase == nil {
		h := e.hash
		if h == 0 {
			h = termHash(e.term)
		}
		if !slices.Contains(q.hashes, h) {
			q.addHashed(e.term, h, weight, of)
		}
		return
	}
	if slices.ContainsFunc(q.synth, func(s synthTerm) bool { return slices.Equal(s.phrase, e.phrase) }) {
		return
	}
	if tf := phraseMatches(e.phrase, docs); tf != nil {
		q.phraseWords = append(q.phraseWords, e.phrase...)
		q.synth = append(q.synth, synthTerm{term: PhraseTerm, weight: weight, of: of, tf: tf, phrase: e.phrase})
	}
}

// expanded are the terms and phrases the query holds besides the question's
// own words, its answer types and the synthetic terms (see Fusion.Expanded).
func (q *lexQuery) expanded() []string {
	out := make([]string, 0, len(q.terms)-q.words+len(q.synth))
	for j := q.words; j < len(q.terms); j++ {
		if t := q.terms[j]; !isAnswerTerm(q.hashes[j]) && t != PhraseTerm && t != AcronymTerm && t != DescriptionTerm {
			out = append(out, t)
		}
	}
	for _, st := range q.synth {
		if st.phrase != nil {
			out = append(out, strings.Join(st.phrase, " "))
		}
	}
	return out
}

// done returns the query with its synthetic terms last.
func (q *lexQuery) done() *lexQuery {
	for _, st := range q.synth {
		q.add(st.term, st.weight, st.of)
	}
	return q
}

// bm25 scores every candidate for the query (see lexQuery). IDF mixes two
// views: the candidates' own (what tells this entity's events apart) and,
// where known, the tenant's source statistics (what is rare in what the
// source writes), by corpus share.
func bm25(q *lexQuery, cands []Candidate, docs []doc, stats Stats, corpus float64, sc *scratch) ([]float64, []uint64) {
	out := grow(&sc.out, len(cands))
	clauses := grow(&sc.clauses, len(cands))
	terms := q.terms
	nt := len(terms)
	if nt == 0 {
		return out, clauses
	}
	words := nt - len(q.synth) // the terms looked up in each doc: all but the synthetic ones
	tab := newTermTable(q.hashes[:words])
	// Each doc's non-zero clause frequencies, in clause order: a doc matches a
	// few of the question's terms, and most none (hits[start[i]:start[i+1]]).
	hits := sc.hits[:0]
	defer func() { sc.hits = hits[:0] }() // (grown by append: kept for the next)
	start := grow(&sc.start, len(docs)+1)
	row := make([]float64, nt) // one doc's frequencies per clause, zeroed again at its touched places
	var touched []int32
	local := make([]float64, nt)
	total := 0
	for i := range docs {
		d := &docs[i]
		start[i] = int32(len(hits))
		touched = touched[:0]
		var unstated []uint64
		if q.unstated != nil {
			unstated = q.unstated[i]
		}
		for k, h := range d.terms() {
			if unstated != nil && slices.Contains(unstated, h) {
				continue
			}
			for j := tab.find(h); j >= 0; j = tab.next[j] {
				touched = append(touched, j)
				row[j] = float64(d.tf(k))
			}
		}
		for k, st := range q.synth {
			if st.tf[i] > 0 {
				touched = append(touched, int32(words+k))
				row[words+k] = float64(st.tf[i])
			}
		}
		if len(touched) > 0 {
			// an expansion's frequency counts in the clause of the word it came
			// from, added in clause order
			slices.Sort(touched)
			for _, j := range touched {
				if of := q.of[j]; of >= 0 && row[j] > 0 {
					row[of] += q.weights[j] * row[j]
					row[j] = 0
					touched = append(touched, int32(of))
				}
			}
			slices.Sort(touched)
			touched = slices.Compact(touched)
			for _, j := range touched {
				if row[j] > 0 {
					local[j]++
					hits = append(hits, hit{j, row[j]})
				}
				row[j] = 0
			}
		}
		total += int(d.n)
	}
	start[len(docs)] = int32(len(hits))
	n := float64(len(docs))
	avg := math.Max(float64(total)/math.Max(1, n), 1)
	idf := func(n, df float64) float64 {
		df = math.Min(df, n)
		return math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	localIDF := make([]float64, nt)
	for j := range terms {
		localIDF[j] = q.weights[j] * idf(n, local[j])
	}
	// each source's weights: the candidates' own without the tenant's
	// statistics, else mixed once per source (a window's events mostly come
	// in runs of one source: the last one is tried first)
	var bySource map[string][]float64
	if corpus > 0 && len(stats) > 0 {
		bySource = map[string][]float64{}
	}
	var lastSrc string
	w := localIDF
	for i := range cands {
		if src := cands[i].Source; bySource != nil && (i == 0 || src != lastSrc) {
			var ok bool
			if w, ok = bySource[src]; !ok {
				w = localIDF
				if st, found := stats[src]; found && st.N > 0 {
					w = make([]float64, nt)
					for j, t := range terms {
						w[j] = q.weights[j] * (corpus*idf(st.N, st.DF[t]) + (1-corpus)*idf(n, local[j]))
					}
				}
				bySource[src] = w
			}
			lastSrc = src
		}
		norm := bm25K1 * (1 - bm25B + bm25B*float64(docs[i].n)/avg)
		var score float64
		for _, h := range hits[start[i]:start[i+1]] {
			score += w[h.j] * h.f * (bm25K1 + 1) / (h.f + norm)
			if h.j < 64 {
				clauses[i] |= 1 << h.j
			}
		}
		out[i] = score
	}
	return out, clauses
}

// hit is a doc's frequency of BM25 clause j.
type hit struct {
	j int32
	f float64
}

// termTable finds the question's terms by hash: each doc's few terms are
// looked up in it (open addressing, a table of a few cache lines), instead of
// every question term being searched for in every doc.
type termTable struct {
	keys  []uint64
	slots []int32 // index into keys, -1: empty
	next  []int32 // the next term with the same hash (a term given twice), -1: none
	mask  uint64
	// bloom has the bit of each key's top byte: most of a doc's terms are
	// none of the question's, and most of those are told by one bit
	bloom [4]uint64
}

func newTermTable(keys []uint64) termTable {
	size := 16
	for size < 2*len(keys) {
		size *= 2
	}
	t := termTable{keys: keys, slots: make([]int32, size), next: make([]int32, len(keys)), mask: uint64(size - 1)}
	for i := range t.slots {
		t.slots[i] = -1
	}
	for j, h := range keys {
		t.next[j] = -1
		t.bloom[h>>62] |= 1 << (h >> 56 & 63)
		for p := slot(h) & t.mask; ; p = (p + 1) & t.mask {
			s := t.slots[p]
			if s < 0 {
				t.slots[p] = int32(j)
				break
			}
			if keys[s] == h { // the same term again: chained after the first
				for t.next[s] >= 0 {
					s = t.next[s]
				}
				t.next[s] = int32(j)
				break
			}
		}
	}
	return t
}

// find returns the index of the first term of hash h (then follow next), or -1.
func (t *termTable) find(h uint64) int32 {
	if t.bloom[h>>62]&(1<<(h>>56&63)) == 0 {
		return -1
	}
	for p := slot(h) & t.mask; ; p = (p + 1) & t.mask {
		s := t.slots[p]
		if s < 0 || t.keys[s] == h {
			return s
		}
	}
}

func slot(h uint64) uint64 { return h ^ h>>29 }
