package api

import (
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"
)

// estimateTokens approximates how many tokens a model's tokenizer makes of s:
// about four characters per token for Latin-script text, one token per CJK
// character, two characters per token for other scripts. It errs high, so a
// rendered context fits the budget it was cut for.
func estimateTokens(s string) int {
	var latin, cjk, other int
	for _, r := range s {
		switch {
		case r < 0x80:
			latin++
		case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r):
			cjk++
		default:
			other++
		}
	}
	return (latin+3)/4 + cjk + (other+1)/2
}

// renderContext writes the prompt-ready text: a header, then one line per event,
// newest first, each naming its source, id and time, cut to maxTokens. It returns
// the text, its estimated tokens, and how many events were left out.
func renderContext(entity string, events []Scored, now time.Time, maxTokens int) (string, int, int) {
	byTime := append([]Scored(nil), events...)
	sort.SliceStable(byTime, func(i, j int) bool { return byTime[i].Time.After(byTime[j].Time) })
	var b strings.Builder
	header := fmt.Sprintf("Recent events for %s, newest first (now %s):\n", entity, now.UTC().Format(time.RFC3339))
	if len(byTime) == 0 {
		header = fmt.Sprintf("No recent events for %s in the requested window (now %s).\n", entity, now.UTC().Format(time.RFC3339))
	}
	tokens := estimateTokens(header)
	if tokens > maxTokens {
		return "", 0, len(byTime)
	}
	b.WriteString(header)
	for i, e := range byTime {
		line := fmt.Sprintf("- [%s, %s ago] %s %s: %s\n", e.Time.UTC().Format(time.RFC3339), ago(now.Sub(e.Time)), e.Source, e.ID, e.Text)
		t := estimateTokens(line)
		if tokens+t > maxTokens {
			omitted := len(byTime) - i
			note := fmt.Sprintf("(%d older events omitted to fit %d tokens)\n", omitted, maxTokens)
			if tokens+estimateTokens(note) <= maxTokens {
				b.WriteString(note)
				tokens += estimateTokens(note)
			}
			return b.String(), tokens, omitted
		}
		b.WriteString(line)
		tokens += t
	}
	return b.String(), tokens, 0
}

func ago(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	default:
		return fmt.Sprintf("%dh%dm", int(d.Hours()), int(d.Minutes())%60)
	}
}
