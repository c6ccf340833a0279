package relevance

import (
	"strings"
	"unicode/utf8"
)

// dayNumbers are the weekdays' numbers (Monday 1 … Sunday 7) by their English
// names in full ("sat" and "sun" are words too), cjkDayNumbers by the Chinese
// character after 周, 星期 or 礼拜 (日 and 天 are Sunday).
var dayNumbers = map[string]uint8{"monday": 1, "tuesday": 2, "wednesday": 3, "thursday": 4, "friday": 5,
	"saturday": 6, "sunday": 7}

var cjkDayNumbers = map[rune]uint8{'一': 1, '二': 2, '三': 3, '四': 4, '五': 5, '六': 6, '日': 7, '天': 7}

// moveTargets are the words before a day that make it where something moved
// to ("moved to Saturday", "改约 周四"), not the day of the thing it is about.
var moveTargets = map[string]bool{"to": true, "until": true, "till": true, "instead": true}

// dayMention is one weekday a text names: its bit, and whether it is where
// something moved to.
type dayMention struct {
	bit    uint8
	target bool
}

// daysNamed are the weekdays a text (normalised) names, in order.
func daysNamed(t text) []dayMention {
	var out []dayMention
	for i, w := range t.words {
		if n := dayNumbers[w]; n > 0 {
			out = append(out, dayMention{1 << n, i > 0 && moveTargets[t.words[i-1]]})
		}
	}
	s := t.norm
	for _, p := range []string{"周", "星期", "礼拜"} {
		for k := 0; ; {
			j := strings.Index(s[k:], p)
			if j < 0 {
				break
			}
			start, at := k+j, k+j+len(p)
			k = at
			r, _ := utf8.DecodeRuneInString(s[at:])
			if n := cjkDayNumbers[r]; n > 0 {
				last, _ := utf8.DecodeLastRuneInString(strings.TrimRight(s[:start], " "))
				out = append(out, dayMention{1 << n, strings.ContainsRune("到为至约成", last)})
			}
		}
	}
	return out
}

// dayMask is the bits of the weekdays a text names.
func dayMask(days []dayMention) uint8 {
	var m uint8
	for _, d := range days {
		m |= d.bit
	}
	return m
}

// aboutAnotherDay reports that an event is about another day's thing than the
// days a question names (asked, dayMask): it names none of them, and a day
// it names is not where something moved to. For "when is my Thursday room?",
// "Tuesday booking cancelled: Atlas has a broken screen; moved you to room
// Boreal" is about Tuesday's booking, though it says a room changed; "Your
// Friday appointment moved to Saturday" is about Friday's; "Appointment moved
// to Saturday" may be about any.
func aboutAnotherDay(event string, asked uint8) bool {
	if asked == 0 {
		return false
	}
	days := daysNamed(newText(event))
	if dayMask(days)&asked != 0 {
		return false
	}
	for _, d := range days {
		if !d.target {
			return true
		}
	}
	return false
}

// anotherDay answers aboutAnotherDay for one request's candidates, reading
// each candidate's text once however many stories ask about it (nil when the
// question names no day: no event is about another).
type anotherDay struct {
	asked uint8
	cands []Candidate
	seen  []int8 // 0 not read yet, 1 no, 2 yes
}

func newAnotherDay(asked uint8, cands []Candidate) *anotherDay {
	if asked == 0 {
		return nil
	}
	return &anotherDay{asked: asked, cands: cands, seen: make([]int8, len(cands))}
}

// of reports that the j-th candidate is about another day's thing.
func (a *anotherDay) of(j int) bool {
	if a == nil {
		return false
	}
	if a.seen[j] == 0 {
		a.seen[j] = 1
		if aboutAnotherDay(a.cands[j].Text, a.asked) {
			a.seen[j] = 2
		}
	}
	return a.seen[j] == 2
}
