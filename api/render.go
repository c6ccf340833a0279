package api

import (
	"fmt"
	"sort"
	"strconv"
	"time"
	"unicode"

	"github.com/freshctx/freshctx/store"
)

// estimateTokens approximates how many tokens a model's tokenizer makes of s:
// about four characters per token for Latin-script text, one token per CJK
// character, two characters per token for other scripts. It errs high, so a
// rendered context fits the budget it was cut for.
func estimateTokens[T string | []byte](s T) int {
	var latin, cjk, other int
	for _, r := range string(s) { // no copy: the compiler ranges over the bytes
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
	byTime := make([]*Scored, len(events))
	for i := range events {
		byTime[i] = &events[i]
	}
	sort.SliceStable(byTime, func(i, j int) bool { return byTime[i].Time.After(byTime[j].Time) })
	r := renderer{b: make([]byte, 0, 256+160*len(events)+400*len(hits)), max: maxTokens}
	stamp := now.UTC().Format(time.RFC3339)
	header := "Recent events for %s, newest first (now %s):"
	if len(byTime) == 0 {
		header = "No recent events for %s in the requested window (now %s)."
	}
	if !r.linef(header, entity, stamp) {
		return "", 0, len(byTime), len(hits)
	}
	omitted := 0
	for i, e := range byTime {
		start := len(r.b)
		r.b = append(r.b, "- ["...)
		r.b = e.Time.UTC().AppendFormat(r.b, time.RFC3339)
		r.b = append(r.b, ", "...)
		r.b = appendAgo(r.b, now.Sub(e.Time))
		r.b = append(r.b, " ago] "...)
		r.b = append(r.b, e.Source...)
		r.b = append(r.b, ' ')
		r.b = append(r.b, e.ID...)
		r.b = append(r.b, ": "...)
		r.b = append(r.b, e.Text...)
		if !r.line(start) {
			omitted = len(byTime) - i
			r.linef("(%d older events omitted to fit %d tokens)", omitted, maxTokens)
			break
		}
	}
	if len(hits) == 0 || omitted > 0 {
		return string(r.b), r.tokens, omitted, len(hits)
	}
	omittedDocs := 0
	if !r.linef("\nRelevant knowledge:") {
		return string(r.b), r.tokens, omitted, len(hits)
	}
	for i, h := range hits {
		start := len(r.b)
		r.b = append(r.b, "- ["...)
		r.b = append(r.b, h.Source...)
		r.b = append(r.b, ' ')
		r.b = append(r.b, h.DocID...)
		if h.Title != "" {
			r.b = append(r.b, ' ')
			r.b = strconv.AppendQuote(r.b, h.Title)
		}
		r.b = append(r.b, ", part "...)
		r.b = strconv.AppendInt(r.b, int64(h.Chunk+1), 10)
		r.b = append(r.b, "] "...)
		r.b = appendFields(r.b, h.Text)
		if !r.line(start) {
			omittedDocs = len(hits) - i
			r.linef("(%d knowledge passages omitted to fit %d tokens)", omittedDocs, maxTokens)
			break
		}
	}
	return string(r.b), r.tokens, omitted, omittedDocs
}

// renderer is renderContext's text and its token count so far.
type renderer struct {
	b           []byte
	tokens, max int
}

// line ends the line begun at b[start:] and keeps it if it fits the budget;
// otherwise it takes it back and reports false.
func (r *renderer) line(start int) bool {
	r.b = append(r.b, '\n')
	t := estimateTokens(r.b[start:])
	if r.tokens+t > r.max {
		r.b = r.b[:start]
		return false
	}
	r.tokens += t
	return true
}

// linef writes a formatted line, as line does.
func (r *renderer) linef(format string, args ...any) bool {
	start := len(r.b)
	r.b = fmt.Appendf(r.b, format, args...)
	return r.line(start)
}

// appendFields appends s with every run of white space made one space and none at
// either end, as strings.Join(strings.Fields(s), " ") would.
func appendFields(b []byte, s string) []byte {
	start, wrote := -1, false
	field := func(f string) {
		if wrote {
			b = append(b, ' ')
		}
		b, wrote = append(b, f...), true
	}
	for i, r := range s {
		switch {
		case !unicode.IsSpace(r):
			if start < 0 {
				start = i
			}
		case start >= 0:
			field(s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		field(s[start:])
	}
	return b
}

// appendAgo appends d as a short age: 42s, 7m, 2h5m.
func appendAgo(b []byte, d time.Duration) []byte {
	switch {
	case d < 0:
		return append(b, "0s"...)
	case d < time.Minute:
		return append(strconv.AppendInt(b, int64(d.Seconds()), 10), 's')
	case d < time.Hour:
		return append(strconv.AppendInt(b, int64(d.Minutes()), 10), 'm')
	default:
		b = append(strconv.AppendInt(b, int64(d.Hours()), 10), 'h')
		return append(strconv.AppendInt(b, int64(d.Minutes())%60, 10), 'm')
	}
}
