// Package textutil holds the text rules more than one package needs.
package textutil

import (
	"strings"
	"unicode"
)

// Sentences splits text into sentences: after . ! ? followed by white space or
// the end, after the CJK full stops 。！？ (nothing follows them), and at line
// breaks. Each sentence is trimmed; empty ones are dropped.
func Sentences(text string) []string {
	var out []string
	start := 0
	rs := []rune(text)
	for i, r := range rs {
		end := false
		switch r {
		case '。', '！', '？', '\n':
			end = true
		case '.', '!', '?':
			end = i == len(rs)-1 || unicode.IsSpace(rs[i+1])
		}
		if end {
			if s := strings.TrimSpace(string(rs[start : i+1])); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(string(rs[start:])); s != "" {
		out = append(out, s)
	}
	return out
}
