package relevance

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// TimeTerm is the term of an event that states a time or a date ("on Friday
// 11:00", "arriving in 10 minutes", "周日上午 9 点"); a question asking when
// (AsksTime) looks for it like for a word of its own, as a question asking how
// much looks for MoneyTerm: the answer to "when" is an event that says when.
// No text analyses to it otherwise (it is not a letter).
const TimeTerm = "◷"

// timeWords mark a question that asks when.
var timeWords = []string{"when", "what time", "which day", "what day", "which date", "what date", "how long", "how soon",
	"eta", "什么时候", "啥时候", "何时", "几点", "哪天", "哪一天", "几号", "多久", "多长时间"}

var timeCues = newCueSet(timeWords)

// AsksTime reports whether the question asks when.
func AsksTime(q string) bool { return timeCues.in(q) }

// Words that state a time on their own, and those that do beside a number.
var (
	timeAlone = map[string]bool{"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true,
		"saturday": true, "sunday": true, "weekend": true, "today": true, "tomorrow": true, "tonight": true,
		"yesterday": true, "noon": true, "midday": true, "midnight": true}
	// months count beside a number only ("20 May", "May 20"; "may" is also a verb)
	months = map[string]bool{"january": true, "february": true, "march": true, "april": true, "may": true,
		"june": true, "july": true, "august": true, "september": true, "october": true, "november": true,
		"december": true, "jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true,
		"aug": true, "sep": true, "sept": true, "oct": true, "nov": true, "dec": true}
	// after a number: a time of day, or how soon ("in 10 minutes", "within 3 days");
	// not months or years, which are a contract's or a plan's length more often
	timeUnits = map[string]bool{"am": true, "pm": true, "minute": true, "minutes": true, "min": true, "mins": true,
		"hour": true, "hours": true, "hr": true, "hrs": true, "day": true, "days": true, "week": true, "weeks": true}
	// Chinese words that state a time, and what states one after a number (9 点, 20 分钟, 5 月 3 日)
	cjkTimeWords = []string{"周一", "周二", "周三", "周四", "周五", "周六", "周日", "周天", "周末", "星期", "礼拜",
		"上午", "下午", "晚上", "早上", "中午", "凌晨", "傍晚", "今天", "明天", "后天", "昨天", "今晚", "明早", "下周", "本周", "这周"}
	cjkAfterNumber = []string{"点", "时", "分钟", "小时", "天", "日", "号", "月", "周"}
	// cjkTimeRunes are the characters of those words: a run with none of
	// them states no time
	cjkTimeRunes = "周星礼拜上下午晚早中凌傍今明后昨天本这点时分钟小日号月"
)

// statesTime reports that the text (normalised: NFKC, lower case) states a
// time or a date: a clock time (11:00, 10am, 9 pm), a weekday, today or
// tomorrow, a day of a month (20 May, 2026-05-20, 20.05.2026), how soon
// (in 10 minutes, 3 days), or their Chinese words (周日, 下午, 9 点, 5 月 3 日).
// Like statesMoney it looks at each token beside its neighbours, without a
// regular expression.
func statesTime(rs []rune) bool {
	prevNumber, prevMonth := false, false
	var buf [12]byte
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsDigit(r):
			j, parts, digits := i, 1, 0
			for j < len(rs) && (unicode.IsDigit(rs[j]) || (rs[j] == '.' || rs[j] == '-' || rs[j] == '/') && j+1 < len(rs) && unicode.IsDigit(rs[j+1])) {
				if unicode.IsDigit(rs[j]) {
					digits++
				} else {
					parts++
				}
				j++
			}
			switch {
			case parts >= 3 && digits >= 4: // 2026-05-20, 20.05.2026, 20/05/26
				return true
			case parts == 1 && digits <= 2 && j+2 < len(rs) && rs[j] == ':' && unicode.IsDigit(rs[j+1]) && unicode.IsDigit(rs[j+2]) &&
				(j+3 == len(rs) || !unicode.IsDigit(rs[j+3])): // 11:00
				return true
			case prevMonth && parts == 1 && digits <= 4: // May 20, May 2026
				return true
			}
			prevNumber, prevMonth = parts <= 2, false
			i = j
		case unicode.IsLetter(r) && !isCJK(r):
			j := i
			for j < len(rs) && unicode.IsLetter(rs[j]) && !isCJK(rs[j]) {
				j++
			}
			w := asciiWord(rs[i:j], &buf) // (no time word is longer, nor other than ASCII)
			if in(timeAlone, w) || prevNumber && (in(timeUnits, w) || in(months, w)) {
				return true
			}
			prevNumber, prevMonth = false, in(months, w)
			i = j
		case isCJK(r):
			j, timely := i, false
			for j < len(rs) && isCJK(rs[j]) {
				timely = timely || strings.ContainsRune(cjkTimeRunes, rs[j])
				j++
			}
			if timely { // (the run as a string only when it may state a time)
				run := string(rs[i:j])
				if prevNumber && hasPrefixAny(run, cjkAfterNumber) || containsAny(run, cjkTimeWords) {
					return true
				}
			}
			prevNumber, prevMonth = false, false
			i = j
		case unicode.IsSpace(r):
			i++
		default:
			prevNumber, prevMonth = false, false
			i++
		}
	}
	return false
}

// asciiWord is the word's bytes in buf, or nothing when it is longer than buf
// or not ASCII.
func asciiWord(rs []rune, buf *[12]byte) []byte {
	if len(rs) > len(buf) {
		return nil
	}
	for k, r := range rs {
		if r >= utf8.RuneSelf {
			return nil
		}
		buf[k] = byte(r)
	}
	return buf[:len(rs)]
}

// in looks the word up without allocating a string for it.
func in(m map[string]bool, w []byte) bool { return m[string(w)] }

func hasPrefixAny(s string, xs []string) bool {
	for _, x := range xs {
		if strings.HasPrefix(s, x) {
			return true
		}
	}
	return false
}

func containsAny(s string, xs []string) bool {
	for _, x := range xs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}
