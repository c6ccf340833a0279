package relevance

import (
	_ "embed"
	"strings"
	"sync"
	"unicode/utf8"
)

// Traditional Chinese characters are folded to their Simplified forms before
// a text is analysed (normalise), as upper case is folded to lower: "什麼時候
// 到貨？" asks what "什么时候到货？" does, its cues are the ones the analysis
// knows (什么时候 asks for a time), and it finds "订单 已 发货" and "訂單 已 發貨"
// alike. The table (traditional.txt) is derived from CC-CEDICT's
// single-character entries (TestTraditionalTableIsCEDICTs); a character that
// is Simplified too (乾, 著) is never folded, so a Simplified text is
// analysed as it was. Only the analysis sees the fold: an event's text is
// stored and returned as it came.

//go:embed traditional.txt
var traditionalTable string

// simplifiedOf maps a Traditional character to its Simplified form; parsed
// on first use (~3,600 pairs).
var simplifiedOf = sync.OnceValue(func() map[rune]rune {
	m := make(map[rune]rune, 4096)
	for line := range strings.Lines(traditionalTable) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		t, s, ok := strings.Cut(strings.TrimSpace(line), " ")
		tr, n1 := utf8.DecodeRuneInString(t)
		sr, n2 := utf8.DecodeRuneInString(s)
		if !ok || n1 != len(t) || n2 != len(s) {
			panic("relevance/traditional.txt: not a pair of characters: " + line)
		}
		m[tr] = sr
	}
	return m
})

// simplified is s with its Traditional characters in their Simplified forms
// (s itself when it has none).
func simplified(s string) string {
	m := simplifiedOf()
	return strings.Map(func(r rune) rune {
		if r < 0x3400 {
			return r
		}
		if x, ok := m[r]; ok {
			return x
		}
		return r
	}, s)
}

// InSimplified is a question written in Traditional Chinese in Simplified
// characters ("" when it has no Traditional character): what a full-text
// search over Simplified articles can also look for.
func InSimplified(question string) string {
	if s := simplified(question); s != question {
		return s
	}
	return ""
}
