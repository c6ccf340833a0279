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
	bit    uint32
	target bool
}

// daysNamed are the weekdays a text (normalised) names, in order, then its
// months (monthNumbers; a number before 月: monthBefore).
func daysNamed(t text) []dayMention {
	var out []dayMention
	for i, w := range t.words {
		if n := dayNumbers[w]; n > 0 {
			out = append(out, dayMention{1 << n, i > 0 && moveTargets[t.words[i-1]]})
		}
		if n := monthNumbers[w]; n > 0 {
			out = append(out, dayMention{1 << (7 + n), i > 0 && moveTargets[t.words[i-1]]})
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
	for k := 0; ; {
		j := strings.Index(s[k:], "月")
		if j < 0 {
			break
		}
		at := k + j
		k = at + len("月")
		if n := monthBefore(strings.TrimRight(s[:at], " ")); n > 0 {
			out = append(out, dayMention{1 << (7 + n), false})
		}
	}
	return out
}

// monthNumbers are the months' numbers by their English names in full (not
// "may", a verb as often).
var monthNumbers = map[string]uint8{"january": 1, "february": 2, "march": 3, "april": 4, "june": 6, "july": 7,
	"august": 8, "september": 9, "october": 10, "november": 11, "december": 12}

// monthBefore is the month a number right before 月 names (s ends where 月
// began): "3", "12", 三, 十二; 0 for none ("3 个 月" counts months).
func monthBefore(s string) uint8 {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i < len(s) {
		if n := s[i:]; len(n) <= 2 {
			v := 0
			for _, c := range n {
				v = v*10 + int(c-'0')
			}
			if v >= 1 && v <= 12 {
				return uint8(v)
			}
		}
		return 0
	}
	for k, m := range cjkMonths {
		if strings.HasSuffix(s, m) {
			return uint8(12 - k)
		}
	}
	return 0
}

// cjkMonths are the Chinese numbers of the months, the longer first (十二
// before 二), December first.
var cjkMonths = [...]string{"十二", "十一", "十", "九", "八", "七", "六", "五", "四", "三", "二", "一"}

// dayMask is the bits of the weekdays (1-7) and months (8-19) a text names.
func dayMask(days []dayMention) uint32 {
	var m uint32
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
func aboutAnotherDay(event string, asked uint32) bool {
	if asked == 0 {
		return false
	}
	days := daysNamed(newText(event))
	named := dayMask(days)
	for _, kind := range [...]uint32{weekdayBits, monthBits} {
		if asked&kind == 0 || named&kind == 0 || named&asked&kind != 0 {
			continue
		}
		for _, d := range days {
			if d.bit&kind != 0 && !d.target {
				return true
			}
		}
	}
	return false
}

// weekdayBits and monthBits are dayMask's bits of each kind.
const (
	weekdayBits uint32 = 0xFE
	monthBits   uint32 = 0xFFF00
)

// anotherDay answers aboutAnotherDay for one request's candidates, reading
// each candidate's text once however many stories ask about it (nil when the
// question names no day: no event is about another).
type anotherDay struct {
	asked uint32
	cands []Candidate
	seen  []int8 // 0 not read yet, 1 no, 2 yes
}

func newAnotherDay(asked uint32, cands []Candidate) *anotherDay {
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
