package relevance

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/kljensen/snowball/english"
)

// British and American spellings of one word are one term: "colour" and
// "color", "centre" and "center", "organise" and "organize", "tyre" and "tire"
// are folded to the American form's stem wherever a word is stemmed (stem), in
// events and questions alike, as upper case is folded to lower: a question
// written in one spelling finds events written in the other.
// The pairs (spellings.txt) are derived from WordNet: two lemmas of one synset
// that one of the spelling rules turns into each other
// (TestSpellingsAreWordNets), so "four" never becomes "for" nor "tour" "tor".

//go:embed spellings.txt
var spellingsTable string

// spellingOf maps a British stem to its American one; parsed on first use.
var spellingOf = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for line := range strings.Lines(spellingsTable) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		brit, amer, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || brit == "" || amer == "" || strings.ContainsRune(amer, ' ') {
			panic("relevance/spellings.txt: not a pair of words: " + line)
		}
		if b, a := english.Stem(brit, false), english.Stem(amer, false); b != a {
			m[b] = a
		}
	}
	return m
})
