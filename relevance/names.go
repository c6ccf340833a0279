package relevance

import (
	_ "embed"
	"sync"

	"github.com/freshctx/freshctx/internal/textutil"
)

// The romanised name of a Chinese place or person is a translation of its
// Chinese word: "when do I check in at Hangzhou?" finds "预订：杭州西湖店，12月20日入住",
// and "去上海的航班几点？" finds "Flight MU 5102 to Shanghai". CC-CEDICT's
// glosses leave most names out of the bilingual bridge (a gloss naming a
// province or a district is no translation there), so the pairs are a table
// of their own (names.txt), derived from CC-CEDICT's proper nouns whose
// pinyin the glosses write as a word, without the names English has as
// common words (TestNamesAreCEDICTs): ~3,500 places and people, joined to the
// dictionary when it loads.

//go:embed names.txt
var namesTable string

// chineseNames maps a name (lower case, as a question writes it) to the
// Chinese words it writes; parsed on first use.
var chineseNames = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	textutil.EachPair(namesTable, "relevance/names.txt", func(name, zh string) { m[name] = append(m[name], zh) })
	return m
})

// isName reports a gloss that is a name of the table.
func isName(gloss string) bool {
	_, ok := chineseNames()[gloss]
	return ok
}
