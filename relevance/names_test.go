package relevance

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// cedictEntry matches a CC-CEDICT line: Traditional, Simplified, pinyin and
// glosses.
var cedictEntry = regexp.MustCompile(`^\S+ (\S+) \[([^\]]*)\] /(.*)/\s*$`)

// namePairs derives the romanised names of Chinese places and people from
// CC-CEDICT (path): an entry of two to four characters whose pinyin is
// capitalised (CC-CEDICT's mark of a proper noun) and whose glosses write its
// syllables, or the first two or more of them, joined as one capitalised word
// ("杭州市 [Hang2 zhou1 Shi4] /Hangzhou, sub-provincial city …/": Hangzhou,
// 杭州). Not a name that English has only as a common word (WordNet, in dir,
// writes it in lower case and never capitalised: "guide", "jingle", "aide"),
// which would bring Chinese place names to questions that mean the word;
// "Shanghai" is a name there too.
func namePairs(path, dir string) ([][2]string, error) {
	common, err := lowerCaseLemmas(dir)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	seen := map[[2]string]bool{}
	var pairs [][2]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		m := cedictEntry.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		zh, glosses := []rune(m[1]), m[3]
		syllables := strings.Fields(m[2])
		if len(zh) < 2 || len(zh) > 4 || len(syllables) != len(zh) || slices.ContainsFunc(zh, func(r rune) bool { return !isCJK(r) }) ||
			!unicode.IsUpper(rune(syllables[0][0])) {
			continue
		}
		for i, s := range syllables {
			syllables[i] = strings.ToLower(strings.TrimRight(s, "012345"))
		}
		if slices.ContainsFunc(syllables, func(s string) bool {
			return s == "" || strings.IndexFunc(s, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0
		}) {
			continue // (ü as "u:", a letter of its own, a mark)
		}
		for n := len(syllables); n >= 2; n-- {
			name := strings.Join(syllables[:n], "")
			if !writesName(glosses, name) {
				continue
			}
			p := [2]string{name, string(zh[:n])}
			if !common[name] && !seen[p] {
				seen[p] = true
				pairs = append(pairs, p)
			}
			break
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(pairs, func(a, b [2]string) int { return strings.Compare(a[0]+" "+a[1], b[0]+" "+b[1]) })
	return pairs, nil
}

// writesName reports whether glosses have name capitalised as a word of its
// own ("Hangzhou," but not "Hangzhouese").
func writesName(glosses, name string) bool {
	word := strings.ToUpper(name[:1]) + name[1:]
	for i := 0; ; {
		j := strings.Index(glosses[i:], word)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(word)
		before, _ := utf8.DecodeLastRuneInString(glosses[:at])
		after, _ := utf8.DecodeRuneInString(glosses[end:])
		if (at == 0 || !unicode.IsLetter(before)) && (end == len(glosses) || !unicode.IsLetter(after)) {
			return true
		}
		i = end
	}
}

// lowerCaseLemmas are the single-word lemmas WordNet's data files (in dir)
// write in lower case and never capitalised: English's common words.
func lowerCaseLemmas(dir string) (map[string]bool, error) {
	out, named := map[string]bool{}, map[string]bool{}
	err := eachSynset(dir, func(words []string) {
		for _, w := range words {
			if w, _, _ = strings.Cut(w, "("); strings.ContainsAny(w, "_-.'") {
				continue
			}
			if l := strings.ToLower(w); w == l {
				out[w] = true
			} else {
				named[l] = true
			}
		}
	})
	if err != nil {
		return nil, err
	}
	for w := range named {
		delete(out, w)
	}
	return out, nil
}

const namesHeader = `# Romanised names of Chinese places and people and the Chinese words they
# write (relevance/names.go), one pair a line. Derived from CC-CEDICT (MDBG,
# CC BY-SA 4.0: this table is under the same licence) and WordNet, not written
# by hand: to derive it again, run
#   FRESHCTX_WRITE_NAMES=1 go test -run TestNamesAreCEDICTs ./relevance
# An entry of two to four characters with capitalised pinyin (a proper noun)
# whose glosses write its syllables, or the first two or more, joined as one
# capitalised word; not a name WordNet has only as a common (lower-case) word.
`

// The names' table is CC-CEDICT's, derived again (when the dictionary and
// WordNet are installed) and compared; FRESHCTX_WRITE_NAMES=1 writes it.
func TestNamesAreCEDICTs(t *testing.T) {
	for _, p := range []string{CEDICTFile, filepath.Join(WordNetDir, "data.noun")} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("%v: make setup installs CC-CEDICT and WordNet", err)
		}
	}
	pairs, err := namePairs(CEDICTFile, WordNetDir)
	if err != nil {
		t.Fatal(err)
	}
	derivedTable(t, "names.txt", "FRESHCTX_WRITE_NAMES", pairLines(namesHeader, pairs), namesTable)
}
