package api

import (
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/freshctx/freshctx/store"
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

// renderContext writes the prompt-ready text, cut to maxTokens: first the
// events, newest first, one line each naming its source, id and time; then the
// knowledge chunks, best first, each naming its document. It returns the text, its
// estimated tokens, and how many events and chunks were left out.
func renderContext(entity string, events []Scored, hits []store.Hit, now time.Time, maxTokens int) (string, int, int, int) {
	byTime := append([]Scored(nil), events...)
	sort.SliceStable(byTime, func(i, j int) bool { return byTime[i].Time.After(byTime[j].Time) })
	var b strings.Builder
	tokens := 0
	write := func(s string) bool {
		t := estimateTokens(s)
		if tokens+t > maxTokens {
			return false
		}
		b.WriteString(s)
		tokens += t
		return true
	}
	header := fmt.Sprintf("Recent events for %s, newest first (now %s):\n", entity, now.UTC().Format(time.RFC3339))
	if len(byTime) == 0 {
		header = fmt.Sprintf("No recent events for %s in the requested window (now %s).\n", entity, now.UTC().Format(time.RFC3339))
	}
	if !write(header) {
		return "", 0, len(byTime), len(hits)
	}
	omitted := 0
	for i, e := range byTime {
		line := fmt.Sprintf("- [%s, %s ago] %s %s: %s\n", e.Time.UTC().Format(time.RFC3339), ago(now.Sub(e.Time)), e.Source, e.ID, e.Text)
		if !write(line) {
			omitted = len(byTime) - i
			write(fmt.Sprintf("(%d older events omitted to fit %d tokens)\n", omitted, maxTokens))
			break
		}
	}
	if len(hits) == 0 || omitted > 0 {
		return b.String(), tokens, omitted, len(hits)
	}
	omittedDocs := 0
	if !write("\nRelevant knowledge:\n") {
		return b.String(), tokens, omitted, len(hits)
	}
	for i, h := range hits {
		title := ""
		if h.Title != "" {
			title = fmt.Sprintf(" %q", h.Title)
		}
		line := fmt.Sprintf("- [%s %s%s, part %d] %s\n", h.Source, h.DocID, title, h.Chunk+1, strings.Join(strings.Fields(h.Text), " "))
		if !write(line) {
			omittedDocs = len(hits) - i
			write(fmt.Sprintf("(%d knowledge passages omitted to fit %d tokens)\n", omittedDocs, maxTokens))
			break
		}
	}
	return b.String(), tokens, omitted, omittedDocs
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
