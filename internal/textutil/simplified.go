package textutil

import (
	_ "embed"
	"strings"
	"sync"
	"unicode/utf8"
)

// TraditionalTable is traditional.txt: Traditional Chinese characters and
// their Simplified forms, one pair a line, derived from CC-CEDICT
// (relevance's TestTraditionalTableIsCEDICTs derives it again and compares).
//
//go:embed traditional.txt
var TraditionalTable string

// simplifiedOf maps a Traditional character to its Simplified form; parsed
// on first use (~3,600 pairs).
var simplifiedOf = sync.OnceValue(func() map[rune]rune {
	m := make(map[rune]rune, 4096)
	EachPair(TraditionalTable, "internal/textutil/traditional.txt", func(t, s string) {
		tr, n1 := utf8.DecodeRuneInString(t)
		sr, n2 := utf8.DecodeRuneInString(s)
		if n1 != len(t) || n2 != len(s) {
			panic("internal/textutil/traditional.txt: not a pair of characters: " + t + " " + s)
		}
		m[tr] = sr
	})
	return m
})

// EachPair calls f with each pair of a derived table's lines ("hangzhou
// 杭州", "colour color", "們 们"), its comments left out; a line that is no
// pair of words is a broken build (file names the table).
func EachPair(table, file string, f func(a, b string)) {
	for line := range strings.Lines(table) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		a, b, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || a == "" || b == "" || strings.ContainsRune(b, ' ') {
			panic(file + ": not a pair of words: " + line)
		}
		f(a, b)
	}
}

// Simplified is s with its Traditional Chinese characters in their
// Simplified forms (s itself when it has none): the fold both the entity
// ranking (relevance) and the knowledge full text (store/pgstore) read
// Chinese through, so that "訂單" and "订单" are one word. A character that
// is Simplified too (乾, 著) is never folded.
func Simplified(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return r >= 0x3400 }) < 0 {
		return s // (no CJK: the table is not even parsed)
	}
	m := simplifiedOf()
	return strings.Map(func(r rune) rune { // (s itself when no rune changes)
		if r >= 0x3400 {
			if x, ok := m[r]; ok {
				return x
			}
		}
		return r
	}, s)
}
