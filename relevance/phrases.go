package relevance

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/freshctx/freshctx/internal/textutil"
)

// phraseIndex finds word sequences and CJK texts in a question: the
// thesaurus's entries and the recency and amount cues. A sequence is indexed
// by its first word and matches the question's words (as its owner tokenises
// both: the thesaurus stems them, the cues do not) in order; a CJK text
// matches where the question's normalised text holds it.
type phraseIndex[T any] struct {
	byFirst map[string][]phrase[T]
	cjk     []phrase[T]
	// separable: a verb and its particle match with up to three words
	// between them, its object ("send the shoes back" holds "send back"; not
	// across another particle or an auxiliary: "my money is back" holds no
	// "money back").
	separable bool
}

type phrase[T any] struct {
	words []string // the sequence; for a CJK text, what its owner wants back as the matching words
	text  string   // a CJK text, normalised
	v     T
}

func newPhraseIndex[T any]() phraseIndex[T] {
	return phraseIndex[T]{byFirst: map[string][]phrase[T]{}}
}

// add indexes v under a word sequence (words, not empty) or, with text, a
// CJK text (words are then what each passes on as its match).
func (p *phraseIndex[T]) add(words []string, text string, v T) {
	if text != "" {
		p.cjk = append(p.cjk, phrase[T]{words, normalise(text), v})
		return
	}
	p.byFirst[words[0]] = append(p.byFirst[words[0]], phrase[T]{words: words, v: v})
}

// len is how many phrases the index holds.
func (p *phraseIndex[T]) len() int {
	n := len(p.cjk)
	for _, ps := range p.byFirst {
		n += len(ps)
	}
	return n
}

// each calls f with each phrase the question holds, in order (word sequences
// by where they start, then CJK texts), and the words it matched, until f
// returns false. q's words are tokenised as the index's owner wants them.
func (p *phraseIndex[T]) each(q text, f func(v *T, matched []string) bool) {
	words := q.words
	for i, w := range words {
		for k := range p.byFirst[w] {
			ph := &p.byFirst[w][k]
			if n := len(ph.words); i+n <= len(words) && slices.Equal(words[i:i+n], ph.words) && !f(&ph.v, words[i:i+n]) {
				return
			}
			if p.separable && len(ph.words) == 2 && particles[ph.words[1]] {
				for j := i + 2; j < len(words) && j <= i+4 && !particles[words[j-1]] && !auxiliaries[words[j-1]]; j++ {
					if words[j] == ph.words[1] {
						if !f(&ph.v, ph.words) {
							return
						}
						break
					}
				}
			}
		}
	}
	if len(p.cjk) > 0 && strings.IndexFunc(q.norm, isCJK) >= 0 {
		for k := range p.cjk {
			if ph := &p.cjk[k]; holdsCJK(q.norm, ph.text) && !f(&ph.v, ph.words) {
				return
			}
		}
	}
}

// holdsCJK reports that a text holds a CJK phrase other than right after a
// character that makes a question word with the phrase's first (几 before
// anything, 为 before 什): "几点的飞机" holds no 点的 (what one ordered), as
// 几点 asks the time, and "为什么" holds no 什么. A phrase that begins with a
// question word of its own makes none with 几: that 几 ends a word before it
// ("茶几多少钱？" asks 多少钱 of the coffee table, 茶几).
func holdsCJK(norm, phrase string) bool {
	first, size := utf8.DecodeRuneInString(phrase)
	for from := 0; ; {
		k := strings.Index(norm[from:], phrase)
		if k < 0 {
			return false
		}
		k += from
		prev, _ := utf8.DecodeLastRuneInString(norm[:k])
		if (prev != '几' || asksItself(phrase, first, size)) && !cjkInterrogatives[[2]rune{prev, first}] {
			return true
		}
		from = k + size // (the next one may begin inside this one)
	}
}

// asksItself reports a phrase beginning with a question word of two
// characters (多少钱: 多少), whose first is first, size bytes long.
func asksItself(phrase string, first rune, size int) bool {
	second, _ := utf8.DecodeRuneInString(phrase[size:])
	return cjkInterrogatives[[2]rune{first, second}]
}

// particles are the adverbs that make a phrasal verb with a verb before them.
var particles = map[string]bool{"back": true, "up": true, "off": true, "out": true, "away": true, "down": true, "over": true,
	"in": true, "on": true}

// normalise is s in NFKC, lower-cased, its Traditional Chinese characters
// in their Simplified forms (textutil.Simplified; ASCII needs only lower
// case). A full-width comma, which NFKC makes ",", is followed by a space: it ends a
// clause and never groups a number's digits ("CA1403，6月" is a flight and a
// month, not ca14036; "09:00，06 车" no amount 00.06).
func normalise(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.ToLower(textutil.Simplified(norm.NFKC.String(strings.ReplaceAll(s, "，", "， "))))
		}
	}
	return strings.ToLower(s)
}

// text is a question (or an event's text) normalised, and its words as
// phrases and cues are looked up by: normalised once, split once.
type text struct {
	norm  string   // normalise(s)
	words []string // plainWords(s)
}

func newText(s string) text { return textOf(normalise(s)) }

// questionText is a question's text (newText), its Chinese without the
// spaces between its words (joinedCJK): what a question asks, by its cues
// (什么时候, 多少) and the thesaurus's Chinese entries, it asks written "下次
// 打针 什么 时候？" as written "下次打针什么时候？". Its terms are the
// analysis's, of the text as written (NewQuery).
func questionText(s string) text {
	t := newText(s)
	t.norm = doneYetAsked(joinedSpaced(t.norm))
	return t
}

// doneYetAsked is a question's joined text, a Chinese question whether a
// sum was paid, or a thing named by its number mended, ending in 了没 or
// 了没有 ending in 了吗 instead: "RQ-30551 这个月交了没" asks what
// "RQ-30551 这个月交了吗" does, whether the step was done, and not where the
// account's story stands by now (stillCues' 了没), where a later safety
// check is the newest word; "RX-4470 修好了没" the same of the repair, where
// the visit booked matches 修. Only of paying (payVerbs; +5 −3 on the
// development sets, for every verb +8 −9) and of mending a thing named by a
// number (修; +3 −0; of any thing, "下水道修好了没", +3 −2, whose window tells
// no one object's story).
func doneYetAsked(norm string) string {
	end := strings.TrimRight(norm, "?？!！。. ")
	for _, suffix := range []string{"了没有", "了没"} {
		if strings.HasSuffix(end, suffix) && (strings.ContainsAny(end, payVerbs) || strings.Contains(end, "修") && strings.ContainsAny(end, "0123456789")) {
			return strings.TrimSuffix(end, suffix) + "了吗" + norm[len(end):]
		}
	}
	return norm
}

// joinedSpaced is a normalised text with its Chinese joined (joinedCJK),
// copied only when it holds a space and a Chinese character: an event's
// "已 自动 扣款" read as a question's 已自动扣款 is.
func joinedSpaced(norm string) string {
	if strings.Contains(norm, " ") && strings.IndexFunc(norm, isCJK) >= 0 {
		return string(joinedCJK([]rune(norm)))
	}
	return norm
}

// textOf is the text of a string normalised already.
func textOf(normalised string) text { return text{normalised, wordsOf(normalised)} }

// plainWords are s's words, normalised: runs of letters and digits (hyphens,
// apostrophes and other marks split them: "what's" is "what", "s"), without
// CJK text.
func plainWords(s string) []string { return wordsOf(normalise(s)) }

// wordsOf is plainWords of a text normalised already.
func wordsOf(normalised string) []string {
	return strings.FieldsFunc(normalised, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r)) || isCJK(r)
	})
}

// bareContractions are contractions typed without their apostrophe, as they
// are with it ("whats": "what's"). Not those that are words as well: "its",
// "id" (i'd), "ill" (i'll), "well" (we'll), "were", "lets", "shed", "wed", "hell".
var bareContractions = func() map[string]string {
	m := map[string]string{}
	for _, c := range strings.Fields(`what's where's how's who's when's why's that's there's here's it'll i'm i've
		you're you've they're they've we've can't couldn't didn't don't doesn't isn't wasn't aren't weren't won't
		wouldn't shouldn't haven't hasn't hadn't mustn't`) {
		m[strings.ReplaceAll(c, "'", "")] = c
	}
	return m
}()

// stemmedWords are plainWords stemmed, stop words kept (unstemmed: stemming
// one is a cache look-up for nothing).
func stemmedWords(s string) []string { return stemmed(plainWords(s)) }

// stemmed is stemmedWords of plainWords already made (a copy).
func stemmed(words []string) []string {
	out := slices.Clone(words)
	for i, w := range out {
		if !stopWords[w] {
			out[i] = stem(w)
		}
	}
	return out
}

// chatWords are the short forms customers type in a chat, as the words they
// stand for: "wen is my delivery" asks when (WordNet's "wen" is a cyst), "hw
// much do i owe" how much, "tmrw" is tomorrow. Not those that are words or
// codes as well ("bc", "hr", "min"). (And bareContractions: "whats", a word
// to the analysis, had been taken for "chat", one letter away, and "whats
// wrong" asked no why.)
var chatWords = map[string]string{"u": "you", "ur": "your", "r": "are", "pls": "please", "plz": "please",
	"thx": "thanks", "thanx": "thanks", "hw": "how", "wat": "what", "wut": "what", "wen": "when", "coz": "because",
	"cuz": "because", "abt": "about", "tmrw": "tomorrow", "tmr": "tomorrow", "tmrrw": "tomorrow", "acct": "account",
	"pmt": "payment", "msg": "message", "addr": "address", "ppl": "people", "pkg": "package", "pkgs": "packages"}

// cjkChatWords are the colloquial Chinese question words, as the words the
// cues know: 咋 is 怎么 ("快递咋还没到"), 啥 什么, 为嘛 为什么, 多会儿 什么时候.
var cjkChatWords = strings.NewReplacer("咋", "怎么", "啥", "什么", "为嘛", "为什么", "干嘛", "为什么", "多会儿", "什么时候", "木有", "没有")

// spelledOut is a question with its chat words (chatWords, cjkChatWords) and
// its contractions without apostrophes (bareContractions) written out, and a
// first "y" as "why" ("y was i charged twice"); the question as it is when it
// has none.
func spelledOut(q string) string {
	if strings.ContainsAny(q, "咋啥嘛会木") {
		q = cjkChatWords.Replace(q)
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(q); {
		if !isASCIILetter(q[i]) {
			i++
			continue
		}
		j := i
		for j < len(q) && (isASCIILetter(q[j]) || q[j] >= '0' && q[j] <= '9') {
			j++
		}
		if j-i > 8 { // (no chat word nor contraction is longer)
			i = j
			continue
		}
		w := strings.ToLower(q[i:j])
		full, ok := chatWords[w]
		if !ok {
			full, ok = bareContractions[w]
		}
		if !ok && w == "y" && strings.TrimSpace(q[:i]) == "" {
			full, ok = "why", true
		}
		joined := i > 0 && (q[i-1] == '-' || q[i-1] == '\'' || q[i-1] == '.') || j < len(q) && (q[j] == '-' || q[j] == '\'' || q[j] == '.' && j+1 < len(q) && q[j+1] != ' ')
		if ok && !joined {
			b.WriteString(q[last:i])
			b.WriteString(full)
			last = j
		}
		i = j
	}
	if last == 0 {
		return q
	}
	b.WriteString(q[last:])
	return b.String()
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// courtesyOpenings and courtesyClosings are what a customer says around a
// question and not in it: a greeting, "quick question", "请问" (may I ask),
// "um", thanks. They are no words of what is asked: "请问" matched every "请 …"
// instruction by its 请, "quick question" the lines that ask a question.
var courtesyOpenings = []string{"hi there", "hello there", "hey there", "hi", "hello", "hey", "hiya", "good morning",
	"good afternoon", "good evening", "dear support", "dear team", "excuse me", "sorry to bother you", "sorry",
	"quick question", "a quick question", "one more question", "another question", "i have a question",
	"just a question", "question", "please", "thanks", "thank you",
	// and the fillers a chat message starts with
	"um", "umm", "uh", "uhm", "erm", "hmm", "ok so", "okay so", "so", "well,", "ok,", "okay,", "alright,", "嗯", "呃",
	"你好", "您好", "哈喽", "嗨", "在吗", "在不在", "打扰一下", "打扰了", "不好意思", "我想问一下", "我想问下", "想问一下", "想问下",
	"麻烦问一下", "麻烦问下", "请问一下", "问一下", "请问", "麻烦",
	// (I have a question, as "i have a question")
	"我有个问题", "我有一个问题", "有个问题", "想问个问题", "问个问题"}

var courtesyClosings = []string{"thanks in advance", "thanks a lot", "thank you very much", "thank you", "thanks",
	"many thanks", "cheers", "please", "thx", "ty",
	"谢谢你", "谢谢您", "谢谢", "多谢", "感谢", "麻烦了", "麻烦你了", "辛苦了"}

// WithoutCourtesy is a question without the courtesies it opens and closes
// with (courtesyOpenings, courtesyClosings); the question as it is when it is
// nothing else ("thanks!").
func WithoutCourtesy(q string) string {
	const marks = " \t\n,.!:;-—~，。！：；、…"
	s, cut := strings.Trim(q, marks), false
	for changed := true; changed; cut = cut || changed {
		changed = false
		lower := strings.ToLower(s[:min(len(s), 24)]) // (no courtesy is longer)
		for _, c := range courtesyOpenings {
			if rest, ok := strings.CutPrefix(lower, c); ok && rest != "" && courtesyEnds(c, rest, true) {
				s, changed = strings.TrimLeft(s[len(c):], marks+"?？"), true
				break
			}
		}
		body := strings.TrimRight(s, marks)
		tail := strings.ToLower(body[max(0, len(body)-24):])
		for _, c := range courtesyClosings {
			if !strings.HasSuffix(tail, c) {
				continue
			}
			if before := body[:len(body)-len(c)]; strings.TrimRight(before, marks) != "" && courtesyEnds(c, before, false) {
				s, changed = strings.TrimRight(before, marks), true
				break
			}
		}
	}
	if !cut || strings.TrimRight(s, marks+"?？") == "" {
		return q
	}
	return s
}

// courtesyEnds reports that a courtesy is a whole word or phrase of the text
// it opens (rest follows it) or closes (rest comes before it): "hi" does not
// open "highway", "ty" does not close "city". A Chinese courtesy needs no
// boundary.
func courtesyEnds(c, rest string, opening bool) bool {
	if !isASCIILetter(c[0]) {
		return true
	}
	var r rune
	if opening {
		r, _ = utf8.DecodeRuneInString(rest)
	} else {
		r, _ = utf8.DecodeLastRuneInString(rest)
	}
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '-' || isCJK(r)
}
