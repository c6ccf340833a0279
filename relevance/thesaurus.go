package relevance

import (
	_ "embed"
	"fmt"
	"os"
	"strings"
	"sync"
	"unicode/utf8"
)

// A Thesaurus names, for words and phrases of a question, the words that
// events use for the same thing: "money back" for a refund, "log in" for a
// sign-in, "送到" for "送达". WordNet's synonyms are general English; a
// thesaurus holds the business's own (Score weighs its terms by
// Weights.Thesaurus). The format is Solr's and Elasticsearch's synonym files':
//
//	refund, money back, reimbursement    (each of them looks for the others)
//	bitcoin, btc => crypto, cryptocurrency (one way: left looks for right)
//
// Entries match the question's words stemmed and in order ("log in" matches
// "logged in"); an entry with Chinese (or other CJK) text matches where the
// question holds it.
type Thesaurus struct {
	// entries by their stemmed words (stop words kept: "money back" is money,
	// back), or by their CJK text, which passes on its character pairs as the
	// question's words it matched (the terms it blends into)
	entries phraseIndex[entry]
}

type entry struct {
	expands []string   // the terms it brings (analysed, without its own)
	hashes  []uint64   // termHash of each of expands
	phrases [][]string // the phrases it brings, as their terms: all of them or none
}

// PhraseTerm is the term a thesaurus phrase counts as in BM25 (see Score):
// an event has it when it has every term of the phrase ("power outage": power
// and outag). No analysed text has it.
const PhraseTerm = "\x00phrase"

//go:embed thesaurus.txt
var builtinThesaurus string

// Builtin names the built-in thesaurus among LoadThesaurus's files.
const Builtin = "builtin"

// DefaultThesaurus is the built-in thesaurus (relevance/thesaurus.txt):
// customer support in general, written by hand. It is parsed on first use
// (~8 ms), not when the package loads: ingest and the tools never use it.
var DefaultThesaurus = sync.OnceValue(func() *Thesaurus {
	t := newThesaurus()
	if err := t.parse("thesaurus.txt", builtinThesaurus); err != nil {
		panic(err)
	}
	return t
})

// Entries is how many entries (a line's words or phrases that bring
// something) the thesaurus holds.
func (t *Thesaurus) Entries() int { return t.entries.len() }

// LoadThesaurus reads thesaurus files into one (see Thesaurus for the
// format); Builtin names the built-in one (the built-in one alone is
// DefaultThesaurus, parsed once). An error names the file and line.
func LoadThesaurus(paths ...string) (*Thesaurus, error) {
	if len(paths) == 1 && paths[0] == Builtin {
		return DefaultThesaurus(), nil
	}
	t := newThesaurus()
	for _, p := range paths {
		text := builtinThesaurus
		if p != Builtin {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			text = string(b)
		}
		if err := t.parse(p, text); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// newThesaurus is an empty thesaurus: its entries match a verb and its
// particle apart too ("send the boots back" holds "send back").
func newThesaurus() *Thesaurus {
	t := &Thesaurus{newPhraseIndex[entry]()}
	t.entries.separable = true
	return t
}

// ParseThesaurus parses one thesaurus; name is used in errors ("name:line: …").
func ParseThesaurus(name, text string) (*Thesaurus, error) {
	t := newThesaurus()
	return t, t.parse(name, text)
}

func (t *Thesaurus) parse(name, text string) error {
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		from, to := line, line
		oneWay := false
		if l, r, ok := strings.Cut(line, "=>"); ok {
			from, to, oneWay = l, r, true
			if strings.Contains(r, "=>") {
				return fmt.Errorf("%s:%d: more than one \"=>\"", name, n+1)
			}
		}
		lhs, err := members(from)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, n+1, err)
		}
		rhs, err := members(to)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, n+1, err)
		}
		if !oneWay && len(lhs) < 2 {
			return fmt.Errorf("%s:%d: %q names one thing: give two or more, separated by commas, or \"a => b\"", name, n+1, line)
		}
		for _, m := range lhs {
			e := entry{}
			terms := analyze(normalise(m), false, false).Terms
			own := map[string]bool{}
			for _, term := range terms {
				own[term] = true
			}
			for _, o := range rhs {
				if o != m {
					e.bring(o, own)
				}
			}
			if len(e.expands)+len(e.phrases) == 0 {
				continue // nothing the entry does not say itself
			}
			for _, term := range e.expands {
				e.hashes = append(e.hashes, termHash(term))
			}
			if strings.IndexFunc(m, isCJK) >= 0 {
				t.entries.add(characterPairs(terms), m, e)
				continue
			}
			words := stemmedWords(m)
			if len(words) == 0 {
				return fmt.Errorf("%s:%d: %q has no word", name, n+1, m)
			}
			t.entries.add(words, "", e)
		}
	}
	return nil
}

// bring adds what member o brings to a question that says e: its term, a CJK
// word's character pairs, or a phrase of content words as one; a phrase with a
// stop word ("send back", "log on") brings nothing, since an event's analysis
// has no stop words to match it by (it still matches in the question).
func (e *entry) bring(o string, own map[string]bool) {
	terms := analyze(normalise(o), false, false).Terms
	if strings.IndexFunc(o, isCJK) >= 0 {
		if utf8.RuneCountInString(o) > 1 {
			terms = characterPairs(terms) // one character of a word says little
		} // (a word of one character, 券, is itself)
	} else if words := len(stemmedWords(o)); words > 1 {
		if len(terms) == words {
			e.phrases = append(e.phrases, terms)
		}
		return
	}
	for _, t := range terms {
		if !own[t] {
			own[t] = true
			e.expands = append(e.expands, t)
		}
	}
}

// characterPairs are the terms of a CJK text's analysis that are pairs of
// characters (not single ones).
func characterPairs(terms []string) []string {
	var out []string
	for _, t := range terms {
		if utf8.RuneCountInString(t) > 1 {
			out = append(out, t)
		}
	}
	return out
}

// members are the comma-separated entries of one side of a line.
func members(side string) ([]string, error) {
	var out []string
	for _, m := range strings.Split(side, ",") {
		if m = strings.TrimSpace(m); m == "" {
			return nil, fmt.Errorf("an empty entry (two commas, or one at an end)")
		}
		out = append(out, m)
	}
	return out, nil
}

// expansion is what a question's word or phrase brings: a term, or a phrase
// counted as one term (PhraseTerm); from are the stemmed words that brought
// it (BM25 blends it into the first of them the question has, lexQuery).
type expansion struct {
	term   string
	hash   uint64 // termHash(term), when known (0: not)
	phrase []string
	from   []string
	// inflected: the question's word itself, inflected otherwise (pay ->
	// paid): weighed as the word, not as a synonym.
	inflected bool
}

// match is an entry that matched a question, with the question's words that
// matched it.
type match struct {
	e    *entry
	from []string
}

// each calls f with what each matching entry brings: its terms, then its
// phrases.
func (m match) each(f func(expansion)) {
	for i, term := range m.e.expands {
		f(expansion{term: term, hash: m.e.hashes[i], from: m.from})
	}
	for _, p := range m.e.phrases {
		f(expansion{phrase: p, from: m.from})
	}
}

// matches returns the entries that match the question, in the order they do.
func (t *Thesaurus) matches(q text) []match {
	var out []match
	t.entries.each(text{q.norm, stemmed(q.words)}, func(e *entry, from []string) bool {
		out = append(out, match{e, from})
		return true
	})
	return out
}

// phraseMatches is PhraseTerm's frequency in each doc for phrase (1 where the
// doc has all its terms), or nil when no doc does.
func phraseMatches(phrase []string, docs []doc) []int32 {
	var buf [8]uint64
	hs := buf[:0]
	for _, t := range phrase {
		hs = append(hs, termHash(t))
	}
	var tf []int32
docs:
	for i := range docs {
		for _, h := range hs {
			if docs[i].count(h) == 0 {
				continue docs
			}
		}
		if tf == nil {
			tf = make([]int32, len(docs))
		}
		tf[i] = 1
	}
	return tf
}
