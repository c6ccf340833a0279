package relevance

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/freshctx/freshctx/internal/lru"
)

// CEDICTFile is CC-CEDICT, the Chinese-English dictionary, in its own text
// format ("取消 取消 [qu3 xiao1] /to cancel; to call off/"): make setup puts
// it here. It bridges the two languages: an English question's words bring
// the Chinese words that translate them ("clothes" finds "衣服一箱"), a
// Chinese question's words their English glosses ("会议室" finds "Meeting
// room Borealis booked"). Without the file, the bridge is off.
var CEDICTFile = "/usr/local/share/freshctx/cedict_ts.u8"

// maxTranslations bounds an English word's translations: a word with more
// ("order", "pay": dozens) means too many things for each of them to be
// evidence, and brings only those that mean nothing else (订单, not 命令, "a
// command"; load), or none if they are still too many.
const maxTranslations = 16

// dictionary maps an English word or two-word phrase (stemmed, as a
// question's words are) to the Chinese words of two to four characters whose
// glosses say just it, and each such Chinese word to those glosses. Single
// characters are left out: one stands for too many things. Like WordNet's
// index it is held without pointers (one map from a key's hash to its list,
// the texts in one arena), so the garbage collector never scans it.
type dictionary struct {
	once   sync.Once
	loaded atomic.Bool
	keys   map[uint64]uint32 // termHash of a key -> index in lists
	lists  []uint32          // a key's list: lists[k] is its start in refs, lists[k+1] its end
	refs   []uint32          // index in texts
	texts  []uint32          // a text's start in arena; texts[i+1] its end
	arena  []byte

	brings       *lru.Cache[string, []expansion] // what a key's translations bring, by key
	translations *lru.Cache[string, []string]    // Translations, by question
}

var dict = dictionary{brings: lru.New[string, []expansion](wordCacheEntries), translations: lru.New[string, []string](wordCacheEntries)}

// glossNoise marks a gloss that is no translation (a surname, a variant, a
// classifier, a note on usage or a name), lower-cased.
var glossNoise = []string{"surname", "variant of", "see ", "cl:", "abbr.", "used in", "classifier", "(tw)", "pr.", "old name", "slang",
	"archaic", "dialect", "place name", "name of", "province", "county", "district", "capital of", "radical", "korean", "japanese"}

// glossFiller are words a gloss has that a question's words are not matched
// on ("to cancel", "sb's", "sth").
var glossFiller = map[string]bool{"sb": true, "sth": true, "sb's": true, "sth's": true, "one's": true, "oneself": true, "etc": true, "someone": true, "something": true}

func (d *dictionary) load() {
	defer d.loaded.Store(true)
	f, err := os.Open(CEDICTFile)
	if err != nil {
		return
	}
	defer f.Close()
	toZH := map[string][]string{}   // English key -> Chinese words
	toEN := map[string][]string{}   // Chinese word -> English glosses
	keysOf := map[string][]string{} // Chinese word -> the keys of its glosses
	var order []string              // keys in the order met, for a stable packing
	// pair records that the English key (its gloss as a question's expansion
	// brings it) and the Chinese word translate each other
	pair := func(key, zh, gloss string) {
		if _, ok := toZH[key]; !ok {
			order = append(order, key)
		}
		if !slices.Contains(toZH[key], zh) {
			toZH[key] = append(toZH[key], zh)
		}
		if _, ok := toEN[zh]; !ok {
			order = append(order, zh)
		}
		if !slices.Contains(toEN[zh], gloss) {
			toEN[zh] = append(toEN[zh], gloss)
		}
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.SplitN(line, " ", 3)
		if len(fs) < 3 {
			continue
		}
		zh := fs[1]
		if n := utf8.RuneCountInString(zh); n < 2 || n > 4 || strings.IndexFunc(zh, func(r rune) bool { return !isCJK(r) }) >= 0 {
			continue
		}
		_, glosses, ok := strings.Cut(fs[2], "/")
		if !ok {
			continue
		}
		for _, g := range strings.FieldsFunc(glosses, func(r rune) bool { return r == '/' || r == ';' }) {
			key, gloss := glossKey(g)
			if key == "" {
				continue
			}
			pair(key, zh, gloss)
			if !slices.Contains(keysOf[zh], key) {
				keysOf[zh] = append(keysOf[zh], key)
			}
		}
	}
	// The names of places and people (names.go): most are no gloss here (a
	// province, a district), and a name is its own key and gloss.
	for name, zhs := range chineseNames() {
		for _, zh := range zhs {
			pair(stem(name), zh, name)
		}
	}
	// A word with more than maxTranslations keeps the ones that mean only it
	// (every gloss of theirs is it: 订单 "(purchase) order", not 命令 "order;
	// command"), if those are few enough.
	for k, zhs := range toZH {
		if len(zhs) > maxTranslations {
			if zhs = slices.DeleteFunc(zhs, func(zh string) bool { return len(keysOf[zh]) != 1 }); len(zhs) > maxTranslations {
				zhs = nil
			}
			toZH[k] = zhs
		}
	}
	d.pack(order, toZH, toEN)
}

// glossKey is a gloss's key (its words stemmed, without filler, one or two
// of them) and the gloss as a question's expansion brings it ("to cancel" ->
// "cancel"); "" when it is no short translation.
func glossKey(g string) (key, gloss string) {
	g = strings.ToLower(g)
	for _, n := range glossNoise {
		if strings.Contains(g, n) {
			return "", ""
		}
	}
	for { // without what is in brackets: "(cooked) rice" is rice
		i := strings.IndexByte(g, '(')
		j := strings.IndexByte(g, ')')
		if i < 0 || j < i {
			break
		}
		g = g[:i] + " " + g[j+1:]
	}
	var ws []string
	for _, w := range strings.Fields(g) {
		if len(ws) == 0 && (w == "to" || w == "a" || w == "an" || w == "the") || glossFiller[w] {
			continue
		}
		if stopWords[w] {
			return "", "" // "down payment" is no payment, "go through with" no going
		}
		if strings.IndexFunc(w, func(r rune) bool { return !('a' <= r && r <= 'z') && r != '-' && r != '\'' }) >= 0 {
			return "", "" // a number, a letter of another script, a symbol
		}
		ws = append(ws, w)
	}
	var content []string
	for _, w := range ws {
		content = append(content, stem(w))
	}
	if len(content) == 0 || len(content) > 2 {
		return "", ""
	}
	return strings.Join(content, " "), strings.Join(ws, " ")
}

// pack turns the loading maps into the pointer-free index (a key with no
// translation left out).
func (d *dictionary) pack(order []string, toZH, toEN map[string][]string) {
	d.keys = make(map[uint64]uint32, len(order))
	textIndex := map[string]uint32{}
	text := func(s string) uint32 {
		if i, ok := textIndex[s]; ok {
			return i
		}
		i := uint32(len(d.texts))
		textIndex[s] = i
		d.texts = append(d.texts, uint32(len(d.arena)))
		d.arena = append(d.arena, s...)
		return i
	}
	for _, k := range order {
		list, ok := toZH[k]
		if !ok {
			list = toEN[k]
		}
		if len(list) == 0 {
			continue
		}
		h := termHash(k)
		if _, dup := d.keys[h]; dup {
			continue
		}
		d.keys[h] = uint32(len(d.lists))
		d.lists = append(d.lists, uint32(len(d.refs)))
		for _, s := range list {
			d.refs = append(d.refs, text(s))
		}
	}
	d.lists = append(d.lists, uint32(len(d.refs)))
	d.texts = append(d.texts, uint32(len(d.arena)))
}

// each calls f with each translation of the key at index k in lists, but a
// gloss that is only an adverb ("already", "together", "anything"): it says
// nothing an event or an article is about.
func (d *dictionary) each(k uint32, f func(string)) {
	for _, r := range d.refs[d.lists[k]:d.lists[k+1]] {
		if t := string(d.arena[d.texts[r]:d.texts[r+1]]); isName(t) || !adverbOnly(t) {
			f(t)
		}
	}
}

// brought is what the translations of key (a stemmed English key or a
// Chinese word) bring, as a question's expansions without their from: the
// character pairs of Chinese words (a word of two characters is its pair),
// the stems of English glosses (a gloss of two content words as a phrase).
// Cached per key.
func (d *dictionary) brought(key string) []expansion {
	k, ok := d.keys[termHash(key)]
	if !ok {
		return nil
	}
	return d.brings.Get(key, func() []expansion {
		var e entry
		own := map[string]bool{}
		d.each(k, func(t string) { e.bring(t, own) })
		out := make([]expansion, 0, len(e.expands)+len(e.phrases))
		for _, t := range e.expands {
			out = append(out, expansion{term: t, hash: termHash(t)})
		}
		for _, p := range e.phrases {
			out = append(out, expansion{phrase: p})
		}
		return out
	})
}

// translationsOf calls f with what the dictionary brings for the question:
// for its English words and pairs of words, the character pairs of the
// Chinese words that translate them (a word of two characters is its pair);
// for the Chinese words its text holds, their glosses' words (a gloss of two
// content words as a phrase: both or none). terms are the question's
// analysis's.
func translationsOf(q text, terms []string, f func(expansion)) {
	if Loading() { // (WarmUpInBackground loads the dictionary after WordNet)
		return
	}
	dict.once.Do(dict.load)
	if len(dict.keys) == 0 {
		return
	}
	bring := func(key string, from []string) {
		for _, e := range dict.brought(key) {
			if e.phrase == nil && slices.Contains(terms, e.term) {
				continue // the question's own word
			}
			e.from = from
			f(e)
		}
	}
	englishKeys(q, bring)
	chineseWords(q, terms, func(word string, from []string) { bring(word, from) })
}

// englishKeys calls f with each key of the question's English words that may
// be in the dictionary, and the stemmed words it came from: the question's
// words, stemmed, stop words out; a word alone only when it names a thing or
// an act (WordNet knows it as a noun or a verb: "clothes", "delivered", not
// "through" or "late") or is a name (names.go: "Hangzhou"), and is not the
// word after "how" ("much", "long": the question's cue, not its subject), a
// pair of words always ("meeting room", "go through").
func englishKeys(q text, f func(key string, from []string)) {
	var content []string
	var noun []bool // (or verb)
	words := wordsOf(q.norm)
	for k, w := range words {
		if r, _ := utf8.DecodeRuneInString(w); !isCJK(r) && !stopWords[w] && len(w) > 1 && (k == 0 || words[k-1] != "how") {
			content = append(content, stem(w))
			noun = append(noun, knowsAs(w, 'n') || knowsAs(w, 'v') || isName(w))
		}
	}
	for i, s := range content {
		if noun[i] {
			f(s, content[i:i+1])
		}
		if i+1 < len(content) {
			f(s+" "+content[i+1], content[i:i+2])
		}
	}
}

// chineseWords calls f with each text of two to four CJK characters in the
// question that may be a dictionary word, and its first pair as the question's
// term it came from (for BM25's clause), which must be a term of the question:
// not a question or function word ("多少", "已经").
func chineseWords(q text, terms []string, f func(word string, from []string)) {
	for _, run := range cjkRuns(q.norm) {
		at := run.at
		for i := 0; i+2 < len(at); i++ {
			first := run.text[at[i]:at[i+2]]
			if !slices.Contains(terms, first) {
				continue
			}
			from := []string{first}
			for n := min(4, len(at)-1-i); n >= 2; n-- {
				f(run.text[at[i]:at[i+n]], from)
			}
		}
	}
}

// adverbOnly reports an English gloss of one word that WordNet knows only as
// an adverb.
func adverbOnly(gloss string) bool {
	return !strings.Contains(gloss, " ") && gloss[0] < utf8.RuneSelf && !knowsAs(gloss, 'n') && !knowsAs(gloss, 'v') && !knowsAs(gloss, 'a')
}

// Translations are the question's words in the other language, as the
// dictionary writes them: for a Chinese question its words' English glosses
// ("refund", "meeting room"), for an English one the Chinese words that
// translate its words (see translationsOf): what a full-text search can also
// look for. Nil without the dictionary, and until it is loaded: a knowledge
// search asks for them on every request, English or Chinese, and never waits
// for the load (WarmUpInBackground or LoadLexicons does it; ranking, where a
// window crosses languages, loads it on first use as it does WordNet). Cached
// per question: a knowledge search asks before its own cache.
func Translations(question string) []string {
	if !dict.loaded.Load() {
		return nil
	}
	return dict.translations.Get(question, func() []string { return translations(question) })
}

func translations(question string) []string {
	var out []string
	add := func(key string, _ []string) {
		if k, ok := dict.keys[termHash(key)]; ok {
			dict.each(k, func(t string) {
				if !slices.Contains(out, t) {
					out = append(out, t)
				}
			})
		}
	}
	q := questionText(question)
	englishKeys(q, add)
	if strings.IndexFunc(question, isCJK) >= 0 {
		chineseWords(q, Analyze(question).Terms, add)
	}
	return out
}

// cjkRun is a run of CJK characters: its text and where each of its
// characters begins in it (and, last, its length).
type cjkRun struct {
	text string
	at   []int
}

// cjkRuns are the runs of two CJK characters or more in s.
func cjkRuns(s string) []cjkRun {
	var out []cjkRun
	start, at := -1, []int(nil)
	end := func(i int) {
		if len(at) > 1 {
			for k := range at {
				at[k] -= start
			}
			out = append(out, cjkRun{s[start:i], append(at, i-start)})
		}
		start, at = -1, nil
	}
	for i, r := range s {
		if !isCJK(r) {
			end(i)
			continue
		}
		if start < 0 {
			start = i
		}
		at = append(at, i)
	}
	end(len(s))
	return out
}

// crossesLanguages reports that some candidate is written in the language the
// question is not: a CJK character for an English question, a lower-case
// Latin letter (a word, not an identifier's capitals) for a Chinese one (the
// analyses' scripts). Only then can a translation match anything.
func crossesLanguages(question string, docs []doc) bool {
	other := uint16(scriptCJK)
	if strings.IndexFunc(question, isCJK) >= 0 {
		other = scriptLatin
	}
	return slices.ContainsFunc(docs, func(d doc) bool { return d.marks&other != 0 })
}
