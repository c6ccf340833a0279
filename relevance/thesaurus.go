package relevance

import (
	_ "embed"
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
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
	byFirst map[string][]entry // by its first stemmed word
	cjk     []entry            // entries matched by their text
}

type entry struct {
	words   []string   // stemmed, stop words kept ("money back": money, back); a CJK entry's character pairs
	text    string     // a CJK entry's text
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
// customer support in general, written by hand.
var DefaultThesaurus = func() *Thesaurus {
	t := &Thesaurus{byFirst: map[string][]entry{}}
	if err := t.parse("thesaurus.txt", builtinThesaurus); err != nil {
		panic(err)
	}
	return t
}()

// Entries is how many entries (a line's words or phrases that bring
// something) the thesaurus holds.
func (t *Thesaurus) Entries() int {
	n := len(t.cjk)
	for _, es := range t.byFirst {
		n += len(es)
	}
	return n
}

// LoadThesaurus reads thesaurus files into one (see Thesaurus for the
// format); Builtin names the built-in one. An error names the file and line.
func LoadThesaurus(paths ...string) (*Thesaurus, error) {
	t := &Thesaurus{byFirst: map[string][]entry{}}
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

// ParseThesaurus parses one thesaurus; name is used in errors ("name:line: …").
func ParseThesaurus(name, text string) (*Thesaurus, error) {
	t := &Thesaurus{byFirst: map[string][]entry{}}
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
			own := map[string]bool{}
			for _, term := range Analyze(m).Terms {
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
				e.text = normalise(m)
				for _, term := range Analyze(m).Terms { // its character pairs: the question's terms it blends into
					if utf8.RuneCountInString(term) > 1 {
						e.words = append(e.words, term)
					}
				}
				t.cjk = append(t.cjk, e)
				continue
			}
			e.words = stemmedWords(m)
			if len(e.words) == 0 {
				return fmt.Errorf("%s:%d: %q has no word", name, n+1, m)
			}
			t.byFirst[e.words[0]] = append(t.byFirst[e.words[0]], e)
		}
	}
	return nil
}

// bring adds what member o brings to a question that says e: its term, a CJK
// word's character pairs, or a phrase of content words as one; a phrase with a
// stop word ("send back", "log on") brings nothing, since an event's analysis
// has no stop words to match it by (it still matches in the question).
func (e *entry) bring(o string, own map[string]bool) {
	terms := Analyze(o).Terms
	switch {
	case strings.IndexFunc(o, isCJK) >= 0:
		for _, t := range terms {
			if utf8.RuneCountInString(t) > 1 && !own[t] { // pairs: one character alone says little
				own[t] = true
				e.expands = append(e.expands, t)
			}
		}
	case len(stemmedWords(o)) == 1:
		for _, t := range terms {
			if !own[t] {
				own[t] = true
				e.expands = append(e.expands, t)
			}
		}
	case len(terms) == len(stemmedWords(o)):
		e.phrases = append(e.phrases, terms)
	}
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

// normalise is s in NFKC, lower-cased (ASCII needs only the latter).
func normalise(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.ToLower(norm.NFKC.String(s))
		}
	}
	return strings.ToLower(s)
}

// stemmedWords are s's words (letters and digits; hyphens and other marks
// split them), lower-cased and stemmed, stop words kept (unstemmed).
func stemmedWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(normalise(s), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r)) || isCJK(r)
	}) {
		if !stopWords[w] { // stop words are kept as they are: stemming one is a cache look-up for nothing
			w = stem(w)
		}
		out = append(out, w)
	}
	return out
}

// expansion is what a question's word or phrase brings: a term, or a phrase
// counted as one term (PhraseTerm); from are the stemmed words that brought
// it (BM25 blends it into the first of them the question has, lexQuery).
type expansion struct {
	term   string
	hash   uint64 // termHash(term), when known (0: not)
	phrase []string
	from   []string
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

// matches returns the entries that match question, in the order they do.
func (t *Thesaurus) matches(question string) []match {
	if t == nil {
		return nil
	}
	var out []match
	words := stemmedWords(question)
	for i, w := range words {
		for k := range t.byFirst[w] {
			e := &t.byFirst[w][k]
			if i+len(e.words) <= len(words) && equal(words[i:i+len(e.words)], e.words) {
				out = append(out, match{e, words[i : i+len(e.words)]})
			}
		}
	}
	if len(t.cjk) > 0 && strings.IndexFunc(question, isCJK) >= 0 {
		q := normalise(question)
		for k := range t.cjk {
			if e := &t.cjk[k]; strings.Contains(q, e.text) {
				out = append(out, match{e, e.words})
			}
		}
	}
	return out
}

// Expand returns what the thesaurus brings for question, in the order its
// entries match (a term or phrase two entries bring comes twice).
func (t *Thesaurus) Expand(question string) []expansion {
	var out []expansion
	for _, m := range t.matches(question) {
		m.each(func(e expansion) { out = append(out, e) })
	}
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
	for i := range docs {
		if !slices.ContainsFunc(hs, func(h uint64) bool { return docs[i].count(h) == 0 }) {
			if tf == nil {
				tf = make([]int32, len(docs))
			}
			tf[i] = 1
		}
	}
	return tf
}

func equal(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}
