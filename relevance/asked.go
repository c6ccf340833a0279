package relevance

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Asked splits a customer's message into what it asks and the context it
// gives: a chat message often says something before its question ("I
// contacted you last week and I'm still worried. Where is my refund?", "我
// 上周 联系 过 你们。退款 到 了 吗？") or after it ("is there a lesson
// tonight? it's Monday"). The sentences, and the clauses a comma or a
// semicolon joins (sentences, clauses), that ask (asking) are the
// question, without its courtesies (WithoutCourtesy), followed by the
// identifiers, sums and e-mail addresses the other sentences name (codesOf:
// "My order is O-5001. Where is it?" asks where O-5001 is); the other
// sentences are its context, whose words are looked for too but read for
// nothing a question's words are read for (Query.Context): their "still",
// "last week" or 问题 ask nothing. A message whose parts all ask, or none,
// is all question; so is one whose question names nothing of its own or
// refers back by a pronoun (namesAThing: "还 剩 多少？", "can I send it
// back?" ask about what the message said besides).
func Asked(message string) (question, context string) {
	message = WithoutCourtesy(message)
	if !severalSentences(message) {
		return message, "" // (most questions: nothing split nor allocated)
	}
	var ss []string
	for _, s := range sentences(message) {
		ss = append(ss, clauses(s)...)
	}
	if len(ss) < 2 {
		return message, ""
	}
	var asks, says []string
	for _, s := range ss {
		if asking(s) {
			asks = append(asks, s)
		} else {
			says = append(says, s)
		}
	}
	if len(asks) == 0 || len(says) == 0 {
		return message, ""
	}
	question = WithoutCourtesy(strings.Join(asks, " "))
	if !namesAThing(question) {
		return message, "" // (what it asks is about what the rest says: "我 手机 流量 快 用 完 了。还 剩 多少？")
	}
	context = strings.Join(says, " ")
	if ids := codesOf(context); ids != "" {
		question += " " + ids
	}
	return question, context
}

// sentences splits a message at the ends of its sentences: "?", "!", "？",
// "！", "。", a line break, or a full stop followed by a space and a letter
// or a digit ("Order 5001. Where is it?", "ok. where is it?"); not the full
// stop of an initial or an abbreviation ("J. Smith", "Schillerstr. fine",
// "Dr. Weber"), nor a decimal point ("12.50").
func sentences(m string) []string {
	return split(m, func(start, i, size int, r rune) (end, next int, ok bool) {
		end = i + size
		switch r {
		case '?', '!', '？', '！', '。', '\n':
			for end < len(m) && strings.IndexByte("?!", m[end]) >= 0 {
				end++ // ("really?!")
			}
			return end, end, true
		case '.':
			return end, end, end < len(m) && m[end] == ' ' && sentenceAfter(m[end:]) && !abbreviated(m[start:i])
		}
		return 0, 0, false
	})
}

// split cuts a text into parts where cut says one ends: given the part's
// start and the rune r at i (size bytes), where the part ends and the next
// begins. Parts without a letter or a digit are left out; each is trimmed.
func split(m string, cut func(start, i, size int, r rune) (end, next int, ok bool)) []string {
	var out []string
	add := func(p string) {
		if p = strings.TrimSpace(p); strings.IndexFunc(p, letterOrDigit) >= 0 {
			out = append(out, p)
		}
	}
	start := 0
	for i := 0; i < len(m); {
		r, size := utf8.DecodeRuneInString(m[i:])
		if end, next, ok := cut(start, i, size, r); ok {
			add(m[start:end])
			start, i = next, next
			continue
		}
		i += size
	}
	add(m[start:])
	return out
}

// severalSentences reports a message in which something follows a
// sentence's or a clause's end (sentences and clauses read where they end).
func severalSentences(m string) bool {
	for i, r := range m {
		if strings.ContainsRune("?!？！。\n.,，;；", r) && strings.IndexFunc(m[i+utf8.RuneLen(r):], letterOrDigit) >= 0 {
			return true
		}
	}
	return false
}

// sentenceAfter reports a text after a full stop and a space that may begin
// a sentence: a letter (a chat's sentences often begin in lower case), a
// digit or a Chinese character.
func sentenceAfter(s string) bool {
	r, _ := utf8.DecodeRuneInString(strings.TrimLeft(s, " "))
	return letterOrDigit(r)
}

// abbreviated reports a text ending in a word that a full stop abbreviates:
// one letter (an initial), or a title or a street's abbreviation.
func abbreviated(s string) bool {
	k := strings.LastIndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	w := strings.ToLower(s[k+1:])
	return len(w) == 1 || abbreviations[w] || strings.HasSuffix(w, "str")
}

var abbreviations = map[string]bool{"dr": true, "mr": true, "mrs": true, "ms": true, "st": true, "no": true, "nr": true,
	"vs": true, "etc": true, "approx": true, "prof": true, "jr": true, "sr": true, "co": true, "inc": true, "ltd": true,
	"ca": true, "tel": true, "ref": true, "eg": true, "ie": true, "bzw": true, "ave": true, "rd": true, "mt": true, "dept": true,
	"apt": true, "fig": true, "vol": true, "pp": true}

// asking reports a sentence that asks: one ending in a question mark, one
// opening with a question word or an auxiliary ("where is my refund",
// "can you check"), or a Chinese one holding a question word or particle
// (吗, 什么, 哪, 多少, 几, 怎么, 为什么 …).
func asking(s string) bool {
	if strings.HasSuffix(s, "?") || strings.HasSuffix(s, "？") || strings.HasSuffix(s, "?!") {
		return true
	}
	if ws := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' }); len(ws) > 0 {
		if first := strings.ToLower(ws[0]); questionOpeners[first] || auxiliaries[first] {
			return true
		}
	}
	for _, p := range cjkAsking {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

var questionOpeners = map[string]bool{"what": true, "what's": true, "which": true, "who": true, "who's": true, "whom": true,
	"whose": true, "where": true, "where's": true, "when": true, "when's": true, "why": true, "how": true, "how's": true,
	"would": true, "may": true, "shall": true, "isn't": true, "aren't": true, "didn't": true, "doesn't": true, "hasn't": true, "haven't": true,
	"can't": true, "won't": true, "wasn't": true}

// cjkAsking are the Chinese words and particles of a question.
var cjkAsking = []string{"吗", "呢", "什么", "啥", "哪", "多少", "几", "怎么", "怎样", "为何", "是否", "有没有", "能不能", "可不可以", "是不是", "会不会", "要不要", "多久", "何时"}

// codesOf is what a text names a thing or a sum by, joined by spaces: its
// words holding a digit and a letter, four characters or more ("O-5001",
// "RS-88107"), its numbers of three digits or more ("880126", "1,200",
// "45.50"), and its e-mail addresses ("anna@example.com"); not a year, nor
// a time ("10:30").
func codesOf(s string) string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) && r < utf8.RuneSelf || unicode.IsDigit(r) || strings.ContainsRune("-_/#.,@", r))
	}) {
		f = strings.Trim(f, "-_/#.,@")
		if at := strings.IndexByte(f, '@'); at > 0 && strings.Contains(f[at:], ".") {
			out = append(out, f)
			continue
		}
		digits := 0
		for _, r := range f {
			if unicode.IsDigit(r) {
				digits++
			}
		}
		letters := strings.IndexFunc(f, unicode.IsLetter) >= 0
		if digits > 0 && !isYear(f) && (letters && len(f) >= 4 || !letters && digits >= 3) {
			out = append(out, f)
		}
	}
	return strings.Join(out, " ")
}

// namesAThing reports a question that names what it is about by a word of
// its own: a word of three letters or more that is no stop word, question
// word nor one naming no thing (noThing: "what happened?"; "where is my
// refund?": refund), two Chinese characters that are no question word
// ("退款 到 了 吗？"), or an identifier. One that names nothing ("还 剩
// 多少？", "did I get in?", "what should I do?"), or refers back by a
// pronoun (referring: "can I send it back?"), asks about what the message
// said besides.
func namesAThing(q string) bool {
	a := Analyze(q)
	if len(a.IDs) > 0 {
		return true
	}
	lower := " " + strings.ToLower(q) + " "
	for _, p := range referring {
		if strings.Contains(lower, p) {
			return false // ("the bed is too hard, can I send it back?": it is the bed)
		}
	}
	for _, t := range words(a) {
		if r, _ := utf8.DecodeRuneInString(t); isCJK(r) {
			if utf8.RuneCountInString(t) >= 2 && !slices.Contains(cjkAsking, t) && !newsWord(t) {
				return true
			}
			continue
		}
		if len(t) >= 3 && !stopWords[t] && !questionOpeners[t] && !auxiliaries[t] && strings.IndexFunc(t, unicode.IsLetter) == 0 && !noThing[t] {
			return true
		}
	}
	return false
}

// referring are the words by which a question refers to what the message
// said before it: a pronoun ("can I send it back?", "where is that
// order?"), 它, 这个, 那个.
var referring = []string{" it ", " it?", " it.", " they ", " they?", " them ", " them?", " this ", " this?", " that ", " that?",
	" these ", " those ", "它", "这个", "那个"}

// noThing are the stems of the words a question asks by that name no thing:
// "what happened?", "what's wrong?", "what's the problem?".
var noThing = map[string]bool{"happen": true, "wrong": true, "matter": true, "problem": true, "issu": true, "go": true, "status": true}

// clauses splits a sentence at its commas and semicolons, as a chat joins
// what it says to what it asks ("I'm at work, where is my refund?", "我 上周
// 联系 过 你们，退款 到 了 吗？"): "，", "；", and "," or ";" before a space
// (not a number's "1,200").
func clauses(s string) []string {
	return split(s, func(_, i, size int, r rune) (end, next int, ok bool) {
		return i, i + size, r == '，' || r == '；' || (r == ',' || r == ';') && i+size < len(s) && s[i+size] == ' '
	})
}
