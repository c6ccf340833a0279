package relevance

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/freshctx/freshctx/internal/lru"
	"github.com/kljensen/snowball/english"
)

// WordNetDir is where Debian's wordnet-base puts the WordNet 3.0 database.
var WordNetDir = "/usr/share/wordnet"

// wordnet maps a lemma to the synonyms of its most common senses. It is loaded
// on first use from WordNetDir; without the files, expansion is off.
type wordnet struct {
	once  sync.Once
	index map[string][]wnRef // lemma -> synset references, most common sense first
	data  map[string]*os.File

	expansions *lru.Cache[[]string] // stemmed synonyms by word and senses
}

// wordCacheEntries bounds the per-word cache of expansions (twice this at most).
const wordCacheEntries = 10_000

// WarmUp loads WordNet now (about a second, ~25 MB) instead of on the first
// question; contextapi calls it in the background at start.
func WarmUp() { wn.once.Do(wn.load) }

// stemmedSynonyms is synonyms, stemmed and without stop words, cached per word.
func (w *wordnet) stemmedSynonyms(word string, senses int) []string {
	return w.expansions.Get(word+"/"+strconv.Itoa(senses), func() []string {
		var out []string
		for _, s := range w.synonyms(word, senses) {
			if len(s) >= 3 && !stopWords[s] {
				out = append(out, english.Stem(s, false))
			}
		}
		return out
	})
}

type wnRef struct {
	pos    string
	offset int64
}

var wn = wordnet{expansions: lru.New[[]string](wordCacheEntries)}

var posFiles = map[string]string{"n": "noun", "v": "verb", "a": "adj", "r": "adv"}

func (w *wordnet) load() {
	w.index, w.data = map[string][]wnRef{}, map[string]*os.File{}
	for pos, name := range posFiles {
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
			for i := first; i < len(fs) && i < first+senses; i++ {
				off, err := strconv.ParseInt(fs[i], 10, 64)
				if err == nil {
					w.index[fs[0]] = append(w.index[fs[0]], wnRef{pos: pos, offset: off})
				}
			}
		}
		f.Close()
		d, err := os.Open(filepath.Join(WordNetDir, "data."+name))
		if err != nil {
			return
		}
		w.data[pos] = d
	}
}

// synonyms returns the words of the first senses of word (lower case, single
// words; multi-word lemmas split into their words).
func (w *wordnet) synonyms(word string, senses int) []string {
	w.once.Do(w.load)
	refs := w.index[word]
	var out []string
	n := map[string]int{}
	for _, r := range refs {
		if n[r.pos] >= senses {
			continue
		}
		n[r.pos]++
		f := w.data[r.pos]
		if f == nil {
			continue
		}
		buf := make([]byte, 4096)
		k, _ := f.ReadAt(buf, r.offset)
		line := string(buf[:k])
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		fs := strings.Fields(line)
		if len(fs) < 4 {
			continue
		}
		cnt, err := strconv.ParseInt(fs[3], 16, 32)
		if err != nil {
			continue
		}
		for i := 0; i < int(cnt) && 4+2*i < len(fs); i++ {
			lemma := strings.ToLower(fs[4+2*i])
			if j := strings.IndexByte(lemma, '('); j > 0 {
				lemma = lemma[:j]
			}
			out = append(out, strings.Split(lemma, "_")...)
		}
	}
	return out
}

// Expand returns the stemmed synonyms of the question's words (from WordNet's
// most common senses) that are not already among its terms: extra lexical
// evidence for a paraphrase that shares no word with the event it asks about.
func Expand(question string, senses int) []string {
	have := map[string]bool{}
	for _, t := range Analyze(question).Terms {
		have[t] = true
	}
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(question), func(r rune) bool { return !('a' <= r && r <= 'z') && r != '-' }) {
		if len(w) < 3 || stopWords[w] {
			continue
		}
		forms := []string{w}
		for _, suf := range []string{"s", "es", "ed", "ing"} {
			if strings.HasSuffix(w, suf) && len(w) > len(suf)+2 {
				forms = append(forms, strings.TrimSuffix(w, suf))
			}
		}
		for _, f := range forms {
			for _, t := range wn.stemmedSynonyms(f, senses) {
				if !have[t] {
					have[t] = true
					out = append(out, t)
				}
			}
		}
	}
	return out
}
