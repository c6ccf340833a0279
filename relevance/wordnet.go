package relevance

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/freshctx/freshctx/internal/lru"
	"github.com/kljensen/snowball/english"
)

// WordNetDir is where Debian's wordnet-base puts the WordNet 3.0 database.
var WordNetDir = "/usr/share/wordnet"

// wordnet maps a lemma to the synonyms of its most common senses. It is loaded
// on first use from WordNetDir; without the files, expansion is off.
//
// The index of ~150,000 lemmas is held without pointers (a map from the
// lemma's hash to its entry, the lemmas in one byte arena, the references in
// one slice), so the garbage collector never scans it: as a map of strings to
// slices it was most of contextapi's live heap (~38 MB), marked on every cycle.
type wordnet struct {
	once   sync.Once
	ids    map[uint64]uint32 // termHash(lemma) -> index in lemmas
	lemmas []wnLemma
	arena  []byte  // the lemmas' bytes
	refs   []wnRef // synset references, each lemma's most common sense first
	data   map[byte]*os.File
	base   map[string][]string // irregular inflection -> base forms (paid -> pay), from the *.exc files
	infl   map[string][]string // a noun's or verb's base form -> its irregular inflections (pay -> paid)

	// background: WarmUpInBackground started the load, so a question does not
	// wait for it; loaded: the load is done (see Loading).
	background, loaded atomic.Bool

	expansions *lru.Cache[string, []string] // stemmed synonyms by word and senses
}

// wordCacheEntries bounds the per-word cache of expansions (twice this at most).
const wordCacheEntries = 10_000

// WarmUpInBackground starts loading WordNet (about a second, ~25 MB) and returns
// at once (contextapi, at start); without it, the first question loads it.
// Until the load is done, questions are not expanded: Expand returns nothing
// rather than make every question of the first second wait for it (measured:
// 0.4-1.1 s each in a burst of 32 at start, past any budget). CC-CEDICT
// (CEDICTFile) is loaded after it the same way: about 0.4 s more, ~12 MB.
func WarmUpInBackground() {
	wn.background.Store(true)
	go LoadLexicons()
}

// Lexicons reports what question expansion holds once loaded: WordNet's
// lemmas and the CC-CEDICT keys (English words and Chinese words) it
// translates; 0 for one that is missing (or not loaded yet).
func Lexicons() (wordnetLemmas, cedictWords int) {
	if wn.loaded.Load() {
		wordnetLemmas = len(wn.lemmas)
	}
	if dict.loaded.Load() {
		cedictWords = len(dict.keys)
	}
	return wordnetLemmas, cedictWords
}

// LoadLexicons loads WordNet and CC-CEDICT now, if they are not loaded yet,
// and returns when they are: what the first question would otherwise wait
// for without WarmUpInBackground.
func LoadLexicons() {
	wn.once.Do(wn.load)
	dict.once.Do(dict.load)
}

// Loading reports that WarmUpInBackground's load of WordNet or CC-CEDICT is
// still under way: questions are ranked without synonyms meanwhile (and
// without translations until CC-CEDICT's is done).
func Loading() bool { return wn.background.Load() && (!wn.loaded.Load() || !dict.loaded.Load()) }

// stemmedSynonyms is synonyms, stemmed and without stop words, cached per
// form.
func (w *wordnet) stemmedSynonyms(f wordForm, senses int) []string {
	return w.expansions.Get(f.form+"/"+f.pos+"/"+strconv.Itoa(senses), func() []string {
		var out []string
		for _, s := range w.synonyms(f, senses) {
			// An abbreviation WordNet writes with its full stop ("dr." for
			// "doctor") is the term a text's "Dr." or "Dr" makes, without it;
			// one with stops inside ("o.k.", "a.m.") is none, as a text's
			// words split there. (A lemma of two letters only when it is a
			// unit or such an abbreviation: "kilometre" finds "km", not "ca"
			// for "calcium" nor "ad" for "advertisement".)
			abbr := strings.HasSuffix(s, ".")
			if s = strings.TrimSuffix(s, "."); strings.Contains(s, ".") {
				continue
			}
			if (len(s) >= 3 || abbr && len(s) == 2 || quantityUnits[s]) && !stopWords[s] {
				out = append(out, english.Stem(s, false))
			}
		}
		return out
	})
}

// stemmedAntonyms is antonyms, stemmed and without stop words, cached per word.
func (w *wordnet) stemmedAntonyms(word string) []string {
	return w.expansions.Get(word+"/!", func() []string {
		var out []string
		for _, a := range w.antonyms(word) {
			if !stopWords[a] {
				out = append(out, english.Stem(a, false))
			}
		}
		return out
	})
}

type wnRef struct {
	offset int64
	pos    byte // n, v, a or r
	// unused: none of the lemma's senses in this part of speech was ever
	// tagged in WordNet's corpus while one in another was (the noun "come",
	// whose one sense is semen): its synonyms are left out (synonyms)
	unused bool
}

// wnLemma is a lemma's place in the arena and its references.
type wnLemma struct{ at, n, refs, nrefs uint32 }

// lookup returns word's synset references (nil when WordNet has no such lemma).
func (w *wordnet) lookup(word string) []wnRef {
	i, ok := w.ids[termHash(word)]
	if !ok {
		return nil
	}
	l := w.lemmas[i]
	if string(w.arena[l.at:l.at+l.n]) != word {
		return nil // another lemma with the same hash
	}
	return w.refs[l.refs : l.refs+l.nrefs]
}

var wn = wordnet{expansions: lru.New[string, []string](wordCacheEntries)}

// posFiles names each part of speech's files, in the order they are read.
var posFiles = []struct{ pos, name string }{{"n", "noun"}, {"v", "verb"}, {"a", "adj"}, {"r", "adv"}}

func (w *wordnet) load() {
	defer w.loaded.Store(true)
	w.data, w.base, w.infl = map[byte]*os.File{}, map[string][]string{}, map[string][]string{}
	index := map[string][]wnRef{} // while loading; then packed without pointers
	used := map[string]string{}   // the parts of speech in which a lemma's senses were tagged
	defer func() {
		for word, refs := range index {
			if u := used[word]; u != "" {
				for i := range refs {
					refs[i].unused = strings.IndexByte(u, refs[i].pos) < 0
				}
			}
		}
		w.pack(index)
	}()
	for _, pf := range posFiles {
		pos, name := pf.pos, pf.name
		if b, err := os.ReadFile(filepath.Join(WordNetDir, name+".exc")); err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				if fs := strings.Fields(line); len(fs) >= 2 && !strings.Contains(fs[0], "_") {
					w.base[fs[0]] = append(w.base[fs[0]], fs[1:]...)
					if pos == "n" || pos == "v" {
						for _, b := range fs[1:] {
							w.infl[b] = append(w.infl[b], fs[0])
						}
					}
				}
			}
		}
		f, err := os.Open(filepath.Join(WordNetDir, "index."+name))
		if err != nil {
			return
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, " ") {
				continue // licence header
			}
			fs := strings.Fields(line)
			if len(fs) < 6 {
				continue
			}
			senses, _ := strconv.Atoi(fs[2])
			ptrs, _ := strconv.Atoi(fs[3])
			first := 4 + ptrs + 2
			if first-1 < len(fs) {
				if tagged, err := strconv.Atoi(fs[first-1]); err == nil && tagged > 0 {
					used[fs[0]] += pos
				}
			}
			for i := first; i < len(fs) && i < first+senses; i++ {
				off, err := strconv.ParseInt(fs[i], 10, 64)
				if err == nil {
					index[fs[0]] = append(index[fs[0]], wnRef{pos: pos[0], offset: off})
				}
			}
		}
		f.Close()
		d, err := os.Open(filepath.Join(WordNetDir, "data."+name))
		if err != nil {
			return
		}
		w.data[pos[0]] = d
	}
}

// pack turns the loading index into the pointer-free one, lemmas in sorted
// order (so that a hash collision always keeps the same lemma).
func (w *wordnet) pack(index map[string][]wnRef) {
	words := make([]string, 0, len(index))
	size, nrefs := 0, 0
	for word, refs := range index {
		words = append(words, word)
		size += len(word)
		nrefs += len(refs)
	}
	slices.Sort(words)
	w.ids = make(map[uint64]uint32, len(words))
	w.lemmas = make([]wnLemma, 0, len(words))
	w.arena = make([]byte, 0, size)
	w.refs = make([]wnRef, 0, nrefs)
	for _, word := range words {
		h := termHash(word)
		if _, dup := w.ids[h]; dup {
			continue
		}
		w.ids[h] = uint32(len(w.lemmas))
		w.lemmas = append(w.lemmas, wnLemma{at: uint32(len(w.arena)), n: uint32(len(word)), refs: uint32(len(w.refs)), nrefs: uint32(len(index[word]))})
		w.arena = append(w.arena, word...)
		w.refs = append(w.refs, index[word]...)
	}
}

// synonyms returns the words of the first senses of word (lower case). Multi-word
// lemmas are left out: their words alone match what the lemma does not mean
// ("refund" → "give back" → "back" matched "I sent the shoes back").
func (w *wordnet) synonyms(f wordForm, senses int) []string {
	w.once.Do(w.load)
	refs, word := f.refs(), f.form
	var out []string
	n := map[byte]int{}
	for _, r := range refs {
		if n[r.pos] >= senses || r.unused {
			continue
		}
		n[r.pos]++
		fs := w.synset(r.pos, r.offset)
		for _, lemma := range synsetWords(fs) {
			if !strings.Contains(lemma, "_") {
				out = append(out, lemma)
			}
		}
		// Derivationally related forms of the word itself ("+" pointers: pay ->
		// payment, deliver -> delivery): the same meaning as another part of speech.
		out = append(out, w.pointed(fs, word, "+")...)
	}
	return out
}

// antonyms returns the direct antonyms of word's most common adjective sense
// ("open" → "shut", "available" → "unavailable", "paid" → "unpaid"): its
// lexical "!" pointers. Multi-word lemmas are left out.
func (w *wordnet) antonyms(word string) []string {
	w.once.Do(w.load)
	for _, r := range w.lookup(word) {
		if r.pos == 'a' {
			return w.pointed(w.synset(r.pos, r.offset), word, "!")
		}
	}
	return nil
}

// agentNouns are the nouns naming the one who does what the verb (a form
// of it) says, in any of its senses: its derivationally related forms ("+")
// that are nouns of persons (WordNet's lexicographer file noun.person):
// "tunes" → tuner, "inspected" → inspector, "walks" → walker.
func (w *wordnet) agentNouns(word string) []string {
	return w.expansions.Get(word+"/agent", func() []string {
		w.once.Do(w.load)
		var out []string
		var buf [16]wordForm
		for _, f := range forms(buf[:0], word) {
			for _, r := range f.refs() {
				if r.pos != 'v' {
					continue
				}
				for _, n := range w.pointedWhere(w.synset('v', r.offset), f.form, "+", func(target []string) bool {
					return len(target) > 2 && target[2] == "n" && target[1] == nounPerson
				}) {
					if !slices.Contains(out, n) {
						out = append(out, n)
					}
				}
			}
		}
		return out
	})
}

// doers calls f with the term of each noun naming the one who does what a
// who question's words after "who" say (agentNouns), and the term of the
// word it came from: "who tunes pt-208?" asks for the tuner. None while
// WordNet loads or without it.
func doers(words []string, f func(noun, from string)) {
	if Loading() {
		return
	}
	for k, w := range words {
		if w != "who" && w != "whom" {
			continue
		}
		for _, v := range words[k+1:] {
			if len(v) < 3 || stopWords[v] {
				continue
			}
			for _, n := range wn.agentNouns(v) {
				f(stem(n), stem(v))
			}
		}
		return
	}
}

// nounPerson is the lexicographer file of WordNet's nouns of persons, as a
// synset's line gives it.
const nounPerson = "18"

// pointed returns the single-word lemmas that word's lexical pointers of
// symbol sym lead to from the synset of fields fs (a data file's line).
func (w *wordnet) pointed(fs []string, word, sym string) []string {
	return w.pointedWhere(fs, word, sym, nil)
}

// pointedWhere is pointed, of the target synsets (their fields) keep
// reports true of (nil: all).
func (w *wordnet) pointedWhere(fs []string, word, sym string, keep func(target []string) bool) []string {
	self := slices.Index(synsetWords(fs), word) + 1 // the word's number in the synset
	if self == 0 {
		return nil
	}
	var out []string
	eachPointer(fs, func(s string, off int64, pos byte, src, tgt int) {
		if s != sym || src != self || tgt == 0 {
			return
		}
		if target := w.synset(pos, off); keep == nil || keep(target) {
			if ws := synsetWords(target); tgt <= len(ws) && !strings.Contains(ws[tgt-1], "_") {
				out = append(out, ws[tgt-1])
			}
		}
	})
	return out
}

// synsetWords are the words of the synset whose fields fs are (a data
// file's line), as lemmaOf writes them; nil for a line too short.
func synsetWords(fs []string) []string {
	if len(fs) < 4 {
		return nil
	}
	cnt, err := strconv.ParseInt(fs[3], 16, 32)
	if err != nil {
		return nil
	}
	out := make([]string, 0, cnt)
	for i := 0; i < int(cnt) && 4+2*i < len(fs); i++ {
		out = append(out, lemmaOf(fs[4+2*i]))
	}
	return out
}

// eachPointer calls f with each pointer of the synset whose fields fs are:
// its symbol, the target synset's offset and part of speech (a satellite
// adjective's "s" read as "a"), and the source and target words' numbers
// (0 and 0: a pointer of the synsets as a whole).
func eachPointer(fs []string, f func(sym string, offset int64, pos byte, src, tgt int)) {
	if len(fs) < 4 {
		return
	}
	cnt, err := strconv.ParseInt(fs[3], 16, 32)
	if err != nil {
		return
	}
	p := 4 + 2*int(cnt)
	if p >= len(fs) {
		return
	}
	pcnt, _ := strconv.Atoi(fs[p])
	for i := 0; i < pcnt && p+4+4*i < len(fs); i++ {
		sym, off, pos, st := fs[p+1+4*i], fs[p+2+4*i], fs[p+3+4*i], fs[p+4+4*i]
		o, err := strconv.ParseInt(off, 10, 64)
		if err != nil || len(st) != 4 || pos == "" {
			continue
		}
		src, _ := strconv.ParseInt(st[:2], 16, 32)
		tgt, _ := strconv.ParseInt(st[2:], 16, 32)
		if pos == "s" {
			pos = "a"
		}
		f(sym, o, pos[0], int(src), int(tgt))
	}
}

// synset is the fields of the synset line at offset in pos's data file (nil
// without the file).
func (w *wordnet) synset(pos byte, offset int64) []string {
	f := w.data[pos]
	if f == nil {
		return nil
	}
	buf := make([]byte, 4096)
	k, _ := f.ReadAt(buf, offset)
	line := string(buf[:k])
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	return strings.Fields(line)
}

// lemmaOf is a synset word in lower case, without its syntactic marker ("(a)").
func lemmaOf(word string) string {
	lemma := strings.ToLower(word)
	if j := strings.IndexByte(lemma, '('); j > 0 {
		lemma = lemma[:j]
	}
	return lemma
}

// detachments are WordNet's rules for finding a regular form's base form (from
// its morphy): the suffix is replaced by the ending; each rule is only a
// candidate, which WordNet either knows as one of the rule's parts of speech
// or not ("changed" is the verb "change", not the noun "chang", a river's
// name; "booker" is no form of the verb "book"). (Morphy's "es" → "e" is
// "s" → "" again, so it is left out.)
var detachments = []struct {
	suffix, ending string
	pos            string // the parts of speech (n, v, a) the rule inflects
}{
	{"s", "", "nv"}, {"es", "", "nv"}, {"ies", "y", "nv"}, {"ed", "", "v"}, {"ed", "e", "v"}, {"ied", "y", "v"}, {"ing", "", "v"}, {"ing", "e", "v"},
	{"men", "man", "n"}, {"er", "", "a"}, {"er", "e", "a"}, {"est", "", "a"}, {"est", "e", "a"},
}

// wordForm is a form of a word and the parts of speech it may be taken as
// ("": any).
type wordForm struct{ form, pos string }

// forms are the word as written and the base forms WordNet may know it by:
// its irregular ones (paid -> pay) and those of its rules of detachment for
// regular forms (its morphy: throttled -> throttle, deliveries -> delivery),
// each with the parts of speech its rule inflects. WordNet must be loaded.
// They are appended to out.
func forms(out []wordForm, w string) []wordForm {
	out = append(out, wordForm{w, ""})
	for _, b := range wn.base[w] {
		out = append(out, wordForm{b, ""})
	}
	for _, r := range detachments {
		if strings.HasSuffix(w, r.suffix) && len(w) > len(r.suffix)+2 {
			out = append(out, wordForm{strings.TrimSuffix(w, r.suffix) + r.ending, r.pos})
		}
	}
	return out
}

// refs are the synsets WordNet knows the form by, as the parts of speech
// its rule allows.
func (f wordForm) refs() []wnRef {
	refs := wn.lookup(f.form)
	if f.pos == "" || len(refs) == 0 {
		return refs
	}
	out := make([]wnRef, 0, len(refs))
	for _, r := range refs {
		if strings.IndexByte(f.pos, r.pos) >= 0 {
			out = append(out, r)
		}
	}
	return out
}

// Expand returns the stemmed synonyms of the question's words (from WordNet's
// most common senses) that are not already among its terms: extra lexical
// evidence for a paraphrase that shares no word with the event it asks about.
func Expand(question string, senses int) []string {
	var out []string
	question = spelledOut(question)
	synonymsOf(question, Analyze(question).Terms, senses, func(e expansion) { out = append(out, e.term) })
	return out
}

// synonymsOf calls f with each of Expand's synonyms and the word it came from;
// terms are the question's (its analysis).
func synonymsOf(question string, terms []string, senses int, f func(expansion)) {
	if Loading() {
		return
	}
	have := make(map[string]bool, len(terms))
	for _, t := range terms {
		have[t] = true
	}
	words := strings.FieldsFunc(strings.ToLower(question), func(r rune) bool { return !('a' <= r && r <= 'z') && r != '-' })
	stems := make([]string, len(words))              // each synonym's from: one word of it
	yesNo := len(words) > 0 && auxiliaries[words[0]] // a question whether something is so
	for k, w := range words {
		if len(w) < 3 || stopWords[w] {
			continue
		}
		wn.once.Do(wn.load)
		var buf [16]wordForm
		stems[k] = stem(w)
		// The word itself, inflected irregularly: its base forms and theirs
		// ("pay" finds "paid", "ate" finds "eat" and "eaten"), which no
		// stemmer joins, also from a regular form of the word ("eating" and
		// "paying", through WordNet's detachment rules: "eat", "pay"). They
		// count as the word (inflected), not as synonyms.
		fs := forms(buf[:0], w)
		for _, fm := range fs {
			b := fm.form
			if fm.pos != "" && (len(wn.infl[b]) == 0 || len(fm.refs()) == 0) {
				continue // a detachment naming no irregular word of its part of speech
			}
			for _, form := range append([]string{b}, wn.infl[b]...) {
				if t := stem(form); !have[t] && !stopWords[form] {
					have[t] = true
					f(expansion{term: t, from: stems[k : k+1], inflected: true})
				}
			}
		}
		if positional[w] {
			continue // (its inflections only: "last" endures, closes)
		}
		for _, form := range fs {
			for _, t := range wn.stemmedSynonyms(form, senses) {
				if !have[t] {
					have[t] = true
					f(expansion{term: t, from: stems[k : k+1]})
				}
			}
		}
		if yesNo {
			// whether it is so is answered by what says it is not: "is the
			// room available?" by "room unavailable", "is the shop open?" by
			// "shop shut today"
			for _, t := range wn.stemmedAntonyms(w) {
				if !have[t] {
					have[t] = true
					f(expansion{term: t, from: stems[k : k+1]})
				}
			}
		}
	}
	collocationsOf(words, stems, senses, have, f)
}

// positional are the words that give a place in an order ("the last day",
// "my next payment", "my first order"), whose WordNet senses are other
// words' ("last" endures, closes; "first" is foremost, "second" tells):
// they bring no synonyms nor antonyms.
var positional = map[string]bool{"last": true, "next": true, "first": true, "previous": true, "second": true}

// auxiliaries open a question whether something is so ("is it open?", "did
// it work?").
var auxiliaries = map[string]bool{"is": true, "are": true, "was": true, "were": true, "am": true, "did": true, "does": true, "do": true,
	"has": true, "have": true, "had": true, "will": true, "can": true, "could": true, "should": true}

// objects may stand between a verb and its particle ("put it together").
var objects = map[string]bool{"it": true, "them": true, "this": true, "that": true, "me": true, "us": true, "him": true, "her": true}

// collocationsOf calls f with the synonyms of the question's two-word
// collocations that WordNet knows ("down payment" → deposit, "put it
// together" → assemble), blended into the clause of their first content
// word; two stop words ("get in") are no collocation here.
func collocationsOf(words, stems []string, senses int, have map[string]bool, f func(expansion)) {
	for k := 0; k+1 < len(words); k++ {
		for _, n := range []int{k + 1, k + 2} {
			if n >= len(words) || n == k+2 && !objects[words[k+1]] {
				continue
			}
			var from []string
			for _, st := range []string{stems[k], stems[n]} {
				if st != "" {
					from = append(from, st)
				}
			}
			if len(from) == 0 {
				continue // stop words alone ("get in")
			}
			var buf [16]wordForm
			for _, form := range forms(buf[:0], words[k]) {
				lemma := wordForm{form.form + "_" + words[n], form.pos}
				if len(lemma.refs()) == 0 {
					continue
				}
				for _, t := range wn.stemmedSynonyms(lemma, senses) {
					if !have[t] {
						have[t] = true
						f(expansion{term: t, from: from})
					}
				}
			}
		}
	}
}

// knows reports whether WordNet knows word by one of its forms (as Expand
// looks words up; an irregular inflection is known by being listed). It says
// yes while WordNet is loading and when it is missing, so that nothing is
// taken for a misspelling then.
func knows(word string) bool { return knowsAs(word, 0) }

// knowsAs is knows for one part of speech (n, v, a or r; 0: any).
func knowsAs(word string, pos byte) bool {
	if Loading() {
		return true
	}
	wn.once.Do(wn.load)
	if len(wn.lemmas) == 0 || pos == 0 && (len(wn.base[word]) > 0 || wn.lookup(word) != nil) {
		return true // (the last: most words, without building their forms)
	}
	var buf [16]wordForm
	return slices.ContainsFunc(forms(buf[:0], word), func(f wordForm) bool {
		return slices.ContainsFunc(f.refs(), func(r wnRef) bool { return pos == 0 || r.pos == pos })
	})
}

// maxKinds bounds the kinds a noun may bring (kindsOf): a noun with more
// ("room", "animal", "drug") is too general for any of them to answer
// which one is meant.
const maxKinds = 40

// stemmedKinds are the kinds of the noun's most common sense, stemmed: the
// single-word lemmas of its hyponyms ("~", "~i") and theirs ("tooth" →
// molar, incisor, canine, premolar …), none when there are more than
// maxKinds. A lemma WordNet also knows as a verb is left out: in an event
// it is more often the verb ("stand", a kind of seat, in "standing";
// "hit", a kind of dose). Cached per noun.
func (w *wordnet) stemmedKinds(noun string) []string {
	return w.expansions.Get(noun+"/~", func() []string {
		w.once.Do(w.load)
		var first *wnRef
		for _, r := range w.lookup(noun) {
			if r.pos == 'n' && !r.unused {
				first = &r
				break
			}
		}
		if first == nil {
			return nil
		}
		fs := w.synset('n', first.offset)
		if len(fs) < 2 || !concreteNouns[fs[1]] {
			return nil
		}
		var out []string
		var walk func(fs []string, depth int) bool
		walk = func(fs []string, depth int) bool {
			for _, off := range hyponyms(fs) {
				target := w.synset('n', off)
				for _, lemma := range synsetWords(target) {
					if !strings.Contains(lemma, "_") && len(lemma) >= 3 && !stopWords[lemma] && !w.isVerb(lemma) {
						if t := english.Stem(lemma, false); !slices.Contains(out, t) {
							out = append(out, t)
						}
					}
				}
				if len(out) > maxKinds || depth > 1 && !walk(target, depth-1) {
					return false
				}
			}
			return true
		}
		if !walk(fs, 2) {
			return nil
		}
		return out
	})
}

// concreteNouns are the lexicographer files of WordNet's nouns of things
// one can point at (animal, artifact, body, food, object, plant,
// substance), whose kinds name which one: a tooth's molar, a coffee's
// espresso. An abstract noun's kinds are other abstractions, which events
// use in other senses: a plan's "schedule", "policy" and "system", a fee's
// "commission", a class's "case" and "number".
var concreteNouns = map[string]bool{"05": true, "06": true, "08": true, "13": true, "17": true, "20": true, "27": true}

// hyponyms are the noun synsets (offsets) the synset whose fields fs are
// points to as its kinds ("~", and "~i" for instances), as a whole.
func hyponyms(fs []string) []int64 {
	var out []int64
	eachPointer(fs, func(sym string, off int64, pos byte, src, tgt int) {
		if (sym == "~" || sym == "~i") && pos == 'n' && src == 0 && tgt == 0 {
			out = append(out, off)
		}
	})
	return out
}

// kindsOf calls f with the kinds (stemmedKinds) of the noun a "which …" or
// "what kind of …" question asks for ("dt4410 which tooth?": molar), each
// blended into the noun's clause. None while WordNet loads or without it.
func kindsOf(words []string, f func(expansion)) {
	if Loading() {
		return
	}
	for k, w := range words {
		if w != "which" && w != "what" {
			continue
		}
		n, ok := nounAfter(words, k)
		if !ok || n >= len(words) || len(words[n]) < 3 || stopWords[words[n]] || auxiliaries[words[n]] || strings.HasSuffix(words[n], "ed") {
			return // (no noun: "what happened?", "what changed?")
		}
		// the word as written, else a base form of it ("teeth", a noun of
		// its own, the dentition: tooth)
		wn.once.Do(wn.load)
		var buf [16]wordForm
		for _, fm := range forms(buf[:0], words[n]) {
			if kinds := wn.stemmedKinds(fm.form); len(kinds) > 0 {
				from := []string{stem(words[n])}
				for _, t := range kinds {
					f(expansion{term: t, from: from})
				}
				return
			}
		}
		return
	}
}

// isVerb reports that WordNet knows lemma as a verb too.
func (w *wordnet) isVerb(lemma string) bool {
	return slices.ContainsFunc(w.lookup(lemma), func(r wnRef) bool { return r.pos == 'v' })
}
