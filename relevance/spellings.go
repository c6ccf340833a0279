package relevance

import (
	_ "embed"
	"slices"
	"sync"

	"github.com/kljensen/snowball/english"

	"github.com/freshctx/freshctx/internal/textutil"
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

// spellings are the table parsed, on first use: stems maps a British stem to
// its American one (stem folds with it), words each word of the table, British
// or American, to its other spelling, plurals too ("colours" and "colors":
// OtherSpellings). The package's stemmed cue words make that first use its
// loading (~2 ms: each pair's two words stemmed once).
var spellings = sync.OnceValue(func() (t struct{ stems, words map[string]string }) {
	t.stems, t.words = map[string]string{}, map[string]string{}
	textutil.EachPair(spellingsTable, "relevance/spellings.txt", func(brit, amer string) {
		if b, a := english.Stem(brit, false), english.Stem(amer, false); b != a {
			t.stems[b] = a
		}
		for _, s := range []string{"", "s"} {
			if _, ok := t.words[brit+s]; !ok {
				t.words[brit+s] = amer + s
			}
			if _, ok := t.words[amer+s]; !ok {
				t.words[amer+s] = brit + s
			}
		}
	})
	return t
})

// OtherSpellings are the question's words that have another spelling, in
// that spelling ("colour" → "color", "center" → "centre"): what a full-text
// search that stems each spelling apart (PostgreSQL's english configuration)
// can also look for.
func OtherSpellings(question string) []string {
	var out []string
	for _, w := range plainWords(question) {
		if o, ok := spellings().words[w]; ok && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}
