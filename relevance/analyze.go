// Package relevance scores an entity's candidate events against a question: a
// lexical score (BM25 over analysed terms), exact identifier matches, vector
// similarity from the configured embedder, and recency that shifts toward the
// newest matching event when the question asks for what is latest. Every
// candidate is scored (the ranking is exact); the components are fused by one
// documented formula (see Score) and can be returned per event for explanation.
package relevance

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"

	"github.com/freshctx/freshctx/internal/lru"
)

// Analysis is a text turned into what the lexical score compares.
type Analysis struct {
	// Terms are the lexical terms, with repeats: English words lower-cased,
	// without stop words and stemmed (Porter2); CJK text as character unigrams
	// (not of particles and pronouns: cjkParticles) and bigrams (not of
	// function words, cjkFunctionWords, nor in or across the edge of a question
	// word, cjkAsked); identifiers as a whole and as their word parts (a bare
	// number against a prefixed identifier is the identifier score's to match).
	Terms []string
	// IDs are the identifiers: tokens that mix letters and digits (INV-1040,
	// R-7001, 1Z88AA0312), numbers of four or more digits (in a question, of
	// three: "status of 311" for LR-311, unless compared: "less than 390"),
	// amounts with a decimal
	// part (129.90), e-mail-like tokens, and things named by a word and a
	// number of one or two digits ("lesson 8": lesson8; numberedThing; no
	// term: its word and number are terms). Lower-cased, and a letter prefix
	// joined to its number without the separator (INV-1040, INV1040, inv_1040
	// and INV/1040 are all inv1040: one identifier, however it is typed); then
	// matched exactly.
	IDs []string
	// groups are the last groups of digits of identifiers written in groups
	// ("00312" of RE-24-00312, which reads re2400312): a customer names the
	// identifier by it (newDoc).
	groups []string
	// pairs are the last groups of two digits of identifiers ("07" of
	// GD-20261203-07): a line opening with one as its label names the
	// identifier a question asks about (labels, openingLabel).
	pairs []string
	// inner are the parts written inside an identifier of three groups or
	// more that a later line names it by (innerParts: "PD-012" of
	// SH-PD-012, "0371" of 2024-0371-08); link keeps those no sibling
	// shares.
	inner []string
}

// Analyze splits text into terms and identifiers, with the terms of the
// answer types it states (MoneyTerm, QuantityTerm, TimeTerm, ReasonTerm,
// PersonTerm, PlaceTerm, InstructionTerm, CountTerm, SaidTerm, VerdictTerm,
// VehicleTerm, LevelTerm, FlightTerm, TitleTerm, ConsentTerm, DurationTerm;
// PersonTerm twice for a person named by surname and title, 张阿姨),
// OfferTerm for a line that only
// offers help or goods and QuestionTerm for one that only asks.
//
// NFKC first (normalise): full-width letters and digits, as Chinese and
// Japanese keyboards type them (Ｄ－３００２１), are the same as ASCII (D-30021).
func Analyze(text string) Analysis { return analyzeText(text, normalise(text)) }

// analyzeText is Analyze of a text and its normalised form (newDoc
// normalises it once for the analysis and the marks).
func analyzeText(text, norm string) Analysis {
	a := analyze(norm, true, true)
	if !slices.Contains(a.Terms, PersonTerm) && namesByGivenName(text) {
		a.Terms = append(a.Terms, PersonTerm) // ("with Tom": a person, though no role says so)
	}
	return a
}

// namesByGivenName reports a person named by a given name after a role,
// "with" or a deed's "by", as the text writes it ("instructor Petra", "Session
// 2 done with Tom", "Friday walk done by Ines"): a capitalised word of
// lower-case letters after it, not a weekday, a month or a function word, and
// after "with" or "by" not one of two capitalised words ("with Royal Mail"
// names a company; "with DPD", "with PayPal" are no given names' shape). Case is the only sign of a name that no word list
// holds, so it is read before the text is normalised. An event naming a role
// states PersonTerm already; one naming a person by name alone ("with Tom")
// states it once, so that a question asking who finds it. (Twice, as for
// 张阿姨, lengthened every event naming a role and a name, and moved the
// questions asking anything else: +4, −2 on the development sets.)
func namesByGivenName(text string) bool { return givenNameIn(letterWords(text)) }

// letterWords are a text's runs of letters, as it writes them (its case kept).
func letterWords(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) })
}

// givenNameIn is namesByGivenName of a text's letterWords.
func givenNameIn(words []string) bool {
	for i := 0; i+1 < len(words); i++ {
		lw := strings.ToLower(words[i])
		by := lw == "by" && i > 0 && doneBy(strings.ToLower(words[i-1]))
		if lw != "with" && !by && !personWords[lw] || !givenNameShape(words[i+1]) {
			continue
		}
		if (lw == "with" || by) && i+2 < len(words) && givenNameShape(words[i+2]) {
			continue
		}
		return true
	}
	return false
}

// doneBy reports a verb whose "by" names who did it ("walk done by Ines",
// "checked by Anna"): a past participle ("-ed", "-en", or an irregular one),
// not "paid" ("paid by Visa").
func doneBy(w string) bool {
	return strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "en") || irregularDone[w]
}

var irregularDone = map[string]bool{"done": true, "made": true, "taught": true, "brought": true, "held": true, "led": true,
	"run": true, "met": true, "built": true, "fixed": true, "sold": true, "bought": true, "caught": true}

// givenNameShape reports a word written as a given name: an upper-case
// letter, then two or more lower-case ones, and no weekday, month or
// function word ("Friday", "The").
func givenNameShape(w string) bool {
	n := 0
	for i, r := range w {
		if i == 0 && !unicode.IsUpper(r) || i > 0 && !unicode.IsLower(r) {
			return false
		}
		n++
	}
	if n < 3 {
		return false
	}
	lw := strings.ToLower(w)
	return !weekdays[lw] && !months[lw] && !stopWords[lw]
}

// analyze is Analyze of a text normalised already, with the answer types'
// terms or without them (a thesaurus entry's words are words only), of an
// event or of a question (NewQuery: no OfferTerm, and only the answer types
// a question's own words state for what it asks, as "was my card declined?"
// looks for problems; not a place: "did someone buy the seat I was selling?"
// asks no way).
func analyze(normalised string, answers, event bool) Analysis {
	var a Analysis
	rs := containersJoined(hexPairsJoined([]rune(normalised)))
	var prevWord []rune // the token before, and where it ends
	prevEnd := -1
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case isCJK(r):
			j := span(rs, i, isCJK)
			run := rs[i:j]
			q := cjkAsked(run)
			if len(run) >= 2 && whenAfterWhat(run[0], run[1]) && strings.HasSuffix(strings.TrimRight(string(rs[max(0, i-4):i]), " "), "什么") {
				// (spaced as a segmenter leaves it: "什么 时候")
				if q == nil {
					q = make(questionWord, len(run))
				}
				q[0], q[1] = true, true
			}
			for k := range run {
				if !cjkParticles[run[k]] && !q.at(k) {
					a.Terms = append(a.Terms, string(run[k]))
				}
				if k+1 < len(run) && !q.at(k) && !q.at(k+1) && !cjkFunctionWords[[2]rune(run[k:k+2])] {
					a.Terms = append(a.Terms, string(run[k:k+2]))
				}
				// an ordinal's number as the digits an event prints ("第一讲"
				// is "第 1 讲", "第二期" "第 2 期")
				// ("第 三 天", spaced as a segmenter leaves it, is 第三天)
				if run[k] == '第' {
					if n := cjkNumeral(cjkAfter(rs, i+k+1)); n > 0 {
						a.Terms = append(a.Terms, strconv.Itoa(n))
					}
				}
				// a month in Chinese numerals as the digits an event prints
				// ("三月" is "3 月", "十二 月" "12 月")
				if run[k] == '月' {
					before := strings.TrimRight(string(rs[max(0, i+k-4):i+k]), " ")
					if last, _ := utf8.DecodeLastRuneInString(before); cjkNumeral(last) > 0 {
						a.Terms = append(a.Terms, strconv.Itoa(int(monthBefore(before))))
					}
				}
			}
			i = j
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			j := i
			for j < len(rs) && (unicode.IsLetter(rs[j]) && !isCJK(rs[j]) || unicode.IsDigit(rs[j]) ||
				(isJoiner(rs[j]) && j+1 < len(rs) && (unicode.IsLetter(rs[j+1]) && !isCJK(rs[j+1]) || unicode.IsDigit(rs[j+1])))) {
				j++
			}
			if end, id := groupedNumber(rs, i, j); end > j {
				// a number written in groups ("tracking 7734 2210 9981", an IBAN,
				// "1Z 999 AA1 01 2345 6784") is one identifier, its groups an
				// event's words: two parcels of one sender share groups, and a
				// question pastes the number whole. A question's groups are no
				// words of it: its identifier names the events, and its groups
				// would count again for the one writing it so (most often the
				// one introducing it, not the answer)
				gs := strings.Fields(string(rs[i:end]))
				if event {
					a.Terms = append(a.Terms, gs...)
				}
				// (not a phone's area code: "7700" of +44 7700 900456, which
				// the customer's other line shares)
				a.inner = innerParts(a.inner, gs, !(i > 0 && rs[i-1] == '+') && !trunkPrefixed(rs[i:i+utf8.RuneCountInString(gs[0])]))
				a.IDs = append(a.IDs, id)
				a.Terms = append(a.Terms, id)
				prevWord, prevEnd = rs[i:end], end
				i = end
				continue
			}
			if end := spacedAmount(rs, i, j); end > j {
				// "另 加 2 600 元" says 2600, as "2,600" does and a question
				// writes it; in an event a word, not an identifier: the same
				// sum in two events ("房租 19 500 元" of two months) makes
				// them no one object's story (as identifiers: +5 −6 on the
				// development sets; as words, +2 −0)
				nIDs := len(a.IDs)
				var buf [32]byte // (its digits and separators, ASCII: one string made)
				n := 0
				for _, r := range rs[i:end] {
					if r != ' ' && n < len(buf) {
						buf[n], n = byte(r), n+1
					}
				}
				a.addToken(string(buf[:n])) // (a sum of more than 32 of them is none a question writes)
				if event {
					a.IDs = a.IDs[:nIDs]
				}
				prevWord, prevEnd = rs[i:end], end
				i = end
				continue
			}
			nIDs, nTerms := len(a.IDs), len(a.Terms)
			a.addToken(string(rs[i:j]))
			if len(a.IDs) == nIDs && j-i == 3 && afterHash(rs, i) {
				// "#881": a number the "#" says is a reference (a ticket's,
				// an order's), though three digits alone name nothing ("300
				// points")
				if tok := string(rs[i:j]); isNumber(tok) {
					a.IDs = append(a.IDs, tok)
				}
			}
			if !event && len(a.IDs) > nIDs && prevEnd == i-1 && labelWords[string(prevWord)] && nTerms > 0 && a.Terms[nTerms-1] == stem(string(prevWord)) {
				// a question's "number 55109", "ref 8812": the label (the
				// term before the identifier's) says only that an identifier
				// follows, no word of the question
				a.Terms = slices.Delete(a.Terms, nTerms-1, nTerms)
			}
			// an ordinal's number, as for 第一 above ("the first walk" is "Walk
			// 1", "on the 6th" the 6th); not "at first", nor "the first time"
			// (once, of tries: no thing's number)
			if n, ok := ordinalNumber(string(rs[i:j])); ok && namesAPlace(string(prevWord), wordAfter(rs, j)) {
				a.Terms = append(a.Terms, n)
			}
			if string(rs[i:j]) == "day" && perWords[string(prevWord)] && prevEnd == i-1 && len(a.Terms) > nTerms && a.Terms[len(a.Terms)-1] == "day" {
				// "a day", "per day" is daily: a rate ("practise 15 minutes a
				// day"), no day a question asks for ("what day is it?"), and
				// "daily" as "a month" is "monthly"
				a.Terms[len(a.Terms)-1] = stem("daily")
			}
			if string(rs[i:j]) == "due" && wordAfter(rs, j) == "to" && len(a.Terms) > nTerms && a.Terms[len(a.Terms)-1] == "due" {
				// "due to" is because of: no sum due ("late due to
				// traffic" owes nothing)
				a.Terms = a.Terms[:len(a.Terms)-1]
			}
			if string(rs[i:j]) == "may" && (isDay(string(prevWord)) || isDay(tokenAfter(rs, j))) {
				a.Terms = append(a.Terms, "may") // the month, not the stop word ("due 25 May", "May 3rd")
			}
			if id := numberedThing(rs, prevWord, prevEnd, i, j); id != "" {
				a.IDs = append(a.IDs, id) // (its word and number are terms already)
			}
			prevWord, prevEnd = rs[i:j], j
			i = j
		default:
			i++
		}
	}
	if id := openingPair(rs); id != "" && !slices.Contains(a.IDs, id) {
		a.IDs = append(a.IDs, id)
		a.Terms = append(a.Terms, id)
	}
	if !event {
		// A question's bare number of three digits names an object as a longer
		// one does ("status of 311" for LR-311); an event's does not ("300
		// points" names nothing). A term of its own, not part of an amount:
		// "300.50" names no 300.
		// Not a number compared ("why is my payout less than 390?", "over
		// 500"), of three digits or more ("why is WP-8820 more than
		// 2400?"), nor one after an identifier (onlyAnAmount): an amount,
		// which names no object.
		var words []string
		for _, w := range a.Terms {
			if len(w) < 3 || strings.Trim(w, "0123456789") != "" {
				continue
			}
			k := slices.Index(a.IDs, w) // (an identifier of four digits or more may be an amount; three digits may be an identifier)
			if k >= 0 && len(w) == 3 || k < 0 && len(w) > 3 {
				continue
			}
			if words == nil {
				words = wordsOf(normalised)
			}
			switch amount := onlyAnAmount(words, w); {
			case k >= 0 && amount:
				a.IDs = slices.Delete(a.IDs, k, k+1)
			case k < 0 && !amount:
				a.IDs = append(a.IDs, w)
			}
		}
	}
	var t text // the text as words, made once for what reads them
	if answers || event {
		t = textOf(normalised)
	}
	if answers {
		rs := joinedCJK(rs)
		for _, at := range answerTypes {
			if (event || !at.eventOnly) && at.states(rs, t) {
				if at.term == ReasonTerm && event && !statesCause(rs, t) {
					a.Terms = append(a.Terms, DelayTerm) // (a delay alone, no fault: a question's words state a reason)
					continue
				}
				a.Terms = append(a.Terms, at.term)
				if at.term == PersonTerm && namesSomeone(rs) {
					a.Terms = append(a.Terms, at.term) // (twice: a person by name, 张阿姨, 李师傅)
				}
			}
		}
	}
	if event && offers(t) {
		a.Terms = append(a.Terms, OfferTerm)
	}
	if event && saysNow(t.words) {
		a.Terms = append(a.Terms, NowTerm)
	}
	if event && (asksSomething(normalised) || saidByCustomer(rs)) {
		a.Terms = append(a.Terms, QuestionTerm)
	}
	return a
}

// NowTerm is the term of an event stating what a thing is now ("2 seats
// added, now 7 seats", "total now 342 EUR"): "now" is a stop word, and a
// question asking what something is now looks for such an event
// (Weights.ChangedNow). A question's "now" is no term.
const NowTerm = "now"

// saysNow reports "now" in an event's words, not "until now" or "till now"
// (which say what was).
func saysNow(words []string) bool {
	for i, w := range words {
		if w == "now" && (i == 0 || words[i-1] != "until" && words[i-1] != "till") {
			return true
		}
	}
	return false
}

// namesAPlace reports that an English ordinal names a thing's place in an
// order, by the words around it: not "at first", nor "the first time" or "a
// second time" (once, of tries).
func namesAPlace(prev, next string) bool { return prev != "at" && next != "time" && next != "times" }

// isDay reports a day of a month: one or two digits, or their ordinal ("3rd").
func isDay(w string) bool {
	if n, ok := ordinalNumber(w); ok {
		w = n
	}
	return len(w) >= 1 && len(w) <= 2 && isNumber(w)
}

// wordAfter is the word (letters) after position j, past its spaces.
func wordAfter(rs []rune, j int) string { return runAfter(rs, j, unicode.IsLetter) }

// tokenAfter is the token (letters and digits: "3rd", "12") after position
// j, past its spaces.
func tokenAfter(rs []rune, j int) string {
	return runAfter(rs, j, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
}

// runAfter is the run of runes in after position j, past its spaces.
func runAfter(rs []rune, j int, in func(rune) bool) string {
	for j < len(rs) && rs[j] == ' ' {
		j++
	}
	k := j
	for k < len(rs) && in(rs[k]) {
		k++
	}
	return string(rs[j:k])
}

// cjkAfter is the character at position j of rs, or past the spaces there
// when a Chinese character follows them (0 for none).
func cjkAfter(rs []rune, j int) rune {
	k := j
	for k < len(rs) && rs[k] == ' ' {
		k++
	}
	if k == len(rs) || k > j && !isCJK(rs[k]) {
		return 0
	}
	return rs[k]
}

// cjkNumeral is the number a Chinese numeral one to ten writes (一 1, 十
// 10), 0 for another character.
func cjkNumeral(r rune) int {
	i := strings.IndexRune(cjkDigits, r)
	if i < 0 {
		return 0
	}
	return i/len("一") + 1
}

// joinedCJK is the text without the spaces between two Chinese characters:
// Chinese written with spaces between its words ("请 在 周五 前 上传", as a
// segmenter leaves it) states what it states unspaced ("请在周五前上传").
// The text itself when it has none.
func joinedCJK(rs []rune) []rune {
	k := 1
	for ; k+1 < len(rs); k++ {
		if rs[k] == ' ' && isCJK(rs[k-1]) && isCJK(rs[k+1]) {
			break
		}
	}
	if k+1 >= len(rs) {
		return rs
	}
	out := slices.Clone(rs[:k])
	for ; k < len(rs); k++ {
		if rs[k] != ' ' || k+1 == len(rs) || !isCJK(rs[k-1]) || !isCJK(rs[k+1]) {
			out = append(out, rs[k])
		}
	}
	return out
}

// ordinals are the English ordinals' numbers.
var ordinals = map[string]string{"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5", "sixth": "6",
	"seventh": "7", "eighth": "8", "ninth": "9", "tenth": "10"}

// ordinalNumber is the number of an English ordinal, in words or in digits
// ("second": "2"; "26th": "26", as "26 Dec" writes the day).
func ordinalNumber(w string) (string, bool) {
	if n, ok := ordinals[w]; ok {
		return n, true
	}
	k := strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) })
	if k < 1 || k > 2 || k != len(w)-2 || !ordinalEnding(w[:k], w[k:]) {
		return "", false
	}
	return w[:k], true
}

// cjkDigits are the Chinese numerals one to ten, in order (three bytes each).
const cjkDigits = "一二三四五六七八九十"

// cjkParticles are Chinese characters that alone say nothing of what a text
// is about (grammatical particles and pronouns): they are no terms alone, only
// in their character pairs ("到了" stays a term, "了" is none).
var cjkParticles = map[rune]bool{'的': true, '了': true, '吗': true, '呢': true, '吧': true, '啊': true, '么': true,
	'着': true, '嘛': true, '呀': true, '哦': true, '您': true, '你': true, '我': true, '他': true, '她': true,
	'它': true, '们': true, '是': true, '在': true, '和': true, '与': true, '或': true, '被': true, '把': true,
	'给': true, '这': true, '那': true, '也': true, '都': true, '就': true,
	'什': true, '怎': true, '哪': true, '谁': true} // (interrogatives: what, how, which, who)

// cjkInterrogatives are the Chinese question words of two characters ("what",
// "why", "how", "where", "how many"): no terms, as "what" and "why" are stop
// words in English. A question's "为什么" matched the bot's "有什么可以帮您？" by 什么.
var cjkInterrogatives = map[[2]rune]bool{{'什', '么'}: true, {'为', '什'}: true, {'怎', '么'}: true, {'哪', '里'}: true,
	{'哪', '儿'}: true, {'多', '少'}: true, {'怎', '样'}: true, {'如', '何'}: true, {'为', '何'}: true, {'哪', '个'}: true,
	{'哪', '些'}: true}

// cjkFunctionWords are Chinese function words of two characters, no terms as
// English stop words are none: can, already, whether, a, this, that, we, you,
// my, please, if, then. Their characters stay terms, and so do the pairs across
// their edges (可以取车 is 可, 以, 以取, 取, 取车, 车).
var cjkFunctionWords = map[[2]rune]bool{
	{'可', '以'}: true, {'已', '经'}: true, {'是', '否'}: true, {'能', '否'}: true, {'一', '下'}: true, {'一', '个'}: true,
	{'这', '个'}: true, {'那', '个'}: true, {'我', '们'}: true, {'你', '们'}: true, {'他', '们'}: true, {'我', '的'}: true,
	{'你', '的'}: true, {'您', '的'}: true, {'请', '问'}: true, {'如', '果'}: true, {'然', '后'}: true}

// cjkAsked marks the characters of a CJK run that are a question word of two
// characters (cjkInterrogatives): neither they nor a pair across their edge
// is a term, as "为什么改了时间" is 改, 改了 and 时间, not 为, which matched
// "已为您", nor 么改. (谁, 哪, 什 and 怎 alone are no terms, cjkParticles, but
// their pairs stay: "到哪" says the question asks where a thing has got to.)
// It is nil when the run holds none (most events'), and reads false then.
func cjkAsked(run []rune) questionWord {
	var a questionWord
	for k := 0; k+1 < len(run); k++ {
		if cjkInterrogatives[[2]rune(run[k:k+2])] {
			if a == nil {
				a = make(questionWord, len(run))
			}
			a[k], a[k+1] = true, true
			if k+3 < len(run) && run[k] == '什' && whenAfterWhat(run[k+2], run[k+3]) {
				a[k+2], a[k+3] = true, true
			}
		}
	}
	return a
}

// wordAt is the length of the longest word of in (at most max runes) that rs
// begins with; 0 for none.
func wordAt(rs []rune, max int, in func(string) bool) int {
	for n := min(max, len(rs)); n > 0; n-- {
		if in(string(rs[:n])) {
			return n
		}
	}
	return 0
}

// wordsOnly is rs split into words of in, the longest first at each place
// (wordAt), when it is made of them alone ("元已" of a bill's words is "元",
// "已"); nil when it is not, or empty.
func wordsOnly(rs []rune, max int, in func(string) bool) []string {
	var ws []string
	for i := 0; i < len(rs); {
		n := wordAt(rs[i:], max, in)
		if n == 0 {
			return nil
		}
		ws = append(ws, string(rs[i:i+n]))
		i += n
	}
	return ws
}

// whenAfterWhat reports 时候 or 时间, which after 什么 ask when and name no
// time (什么时候, 什么时间; spaced too, "什么 时候": analyze).
func whenAfterWhat(a, b rune) bool { return a == '时' && (b == '候' || b == '间') }

// questionWord marks a CJK run's characters that belong to a question word
// (cjkAsked).
type questionWord []bool

func (a questionWord) at(k int) bool { return a != nil && a[k] }

// groupedNumber finds a number written in groups from the token rs[i:j]: three
// or more groups of letters and digits, each with a digit and at most six
// long, two of them three or longer, one space apart, eight digits or more in
// all, the first token plain (no "-" or "." in it or before it). It returns
// where the groups end and the number joined ("773422109981"), or j when
// there is none.
func groupedNumber(rs []rune, i, j int) (int, string) {
	if i > 0 && (rs[i-1] == ':' || rs[i-1] == '.' || rs[i-1] == ',' || rs[i-1] == '+' && i > 1 && !unicode.IsSpace(rs[i-2]) || isJoiner(rs[i-1])) {
		return j, "" // (the minutes of 12:30, the cents of 1.50)
	}
	groups, digits, long, end := 0, 0, 0, i
	for k := i; ; {
		e := k
		d := 0
		for e < len(rs) && (unicode.IsDigit(rs[e]) || unicode.IsLetter(rs[e]) && !isCJK(rs[e])) {
			if unicode.IsDigit(rs[e]) {
				d++
			}
			e++
		}
		if e == k || d == 0 || e-k > 6 || groups == 0 && e != j ||
			e < len(rs) && (isJoiner(rs[e]) && e+1 < len(rs) && !unicode.IsSpace(rs[e+1]) || rs[e] == ':' && e+1 < len(rs) && unicode.IsDigit(rs[e+1]) && clockHour(rs[k:e])) {
			// (not a group: "PK-88", "12:30", a word; "… 2290: Flex" ends
			// one, and so does "… 6604：11 月" or "… 4417 26：11 月",
			// whose digits are no clock's hour)
			break
		}
		if groups >= 3 && e+1 < len(rs) && rs[e] == ' ' && beforeUnit(rs[e+1:]) {
			break // (a count, a sum or a date after the number: "… 6604 11 月 电费", "… 2290 12 months")
		}
		groups, digits, end = groups+1, digits+d, e
		if e-k >= 3 {
			long++
		}
		if e+1 >= len(rs) || rs[e] != ' ' {
			break
		}
		k = e + 1
	}
	if groups < 3 || digits < 8 || long < 2 {
		return phoneNumber(rs, i, j) // (not "seats 12 14 16 18")
	}
	var b strings.Builder
	for _, r := range rs[i:end] {
		if r != ' ' {
			b.WriteRune(r)
		}
	}
	return end, b.String()
}

// spacedAmount finds a sum written with its thousands set apart by spaces
// from the token rs[i:j] ("2 600 元", "€ 12 800", "1 250.50 EUR"): one to
// three digits, then groups of three, one space apart, and up to two
// decimals, a currency right before or after. It returns where the sum
// ends, or j when there is none (not "3 号楼 120 元"'s count, nor two numbers
// without a currency: "seats 12 140").
func spacedAmount(rs []rune, i, j int) int {
	if j-i > 3 || !digits(rs[i:j]) || i > 0 && (unicode.IsDigit(rs[i-1]) || strings.ContainsRune(".,:", rs[i-1])) {
		return j
	}
	end := j
	for end+4 <= len(rs) && rs[end] == ' ' && digits(rs[end+1:end+4]) && (end+4 == len(rs) || !unicode.IsDigit(rs[end+4]) && !unicode.IsLetter(rs[end+4])) {
		end += 4
	}
	if end == j {
		return j
	}
	if end+1 < len(rs) && strings.ContainsRune(".,", rs[end]) && unicode.IsDigit(rs[end+1]) {
		k := end + 1 // (its cents: "1 250.50 EUR")
		for k < len(rs) && unicode.IsDigit(rs[k]) {
			k++
		}
		if k-end > 3 {
			return j
		}
		end = k
	}
	if !currencyBefore(rs, i) && !currencyAfter(rs, end) {
		return j
	}
	return end
}

// cjkDateMoney are the Chinese units of a date or a length of days and of
// money: 月, 日, 号, 年, 天, 元, 块.
const cjkDateMoney = "月日号年天元块"

// clockHour reports digits that can be a clock's hour (0 to 24, one or two
// digits).
func clockHour(rs []rune) bool {
	if len(rs) == 0 || len(rs) > 2 {
		return false
	}
	h := 0
	for _, r := range rs {
		if r < '0' || r > '9' {
			return false
		}
		h = 10*h + int(r-'0')
	}
	return h <= 24
}

// beforeUnit reports a text opening with a unit a number before it counts
// in: a unit word (unitWord: "months", "EUR", "GB") or a Chinese unit of
// time or money (cjkDateMoney).
func beforeUnit(rs []rune) bool {
	if len(rs) > 0 && strings.ContainsRune(cjkDateMoney, rs[0]) {
		return true
	}
	k := 0
	for k < len(rs) && unicode.IsLetter(rs[k]) && !isCJK(rs[k]) {
		k++
	}
	return k > 0 && unitWord(strings.ToLower(string(rs[:k])))
}

// phoneNumber finds a phone number written in groups of digits from the
// token rs[i:j], as groupedNumber does a number: after a "+", its country
// code and the groups after it ("+49 30 1234567"); or a trunk prefix's
// area code (a 0 and one to four digits, not 00) and the groups after it
// ("030 1234567", "0151 23456789"); groups of one to eight digits one space
// apart, nine to fifteen digits in all (ten or more after a trunk prefix:
// not "seats 012 14 16 18"). It returns where the groups end and
// the number joined, or j when there is none.
func phoneNumber(rs []rune, i, j int) (int, string) {
	plus := i > 0 && rs[i-1] == '+'
	if !plus && !trunkPrefixed(rs[i:j]) || plus && j-i > 3 {
		return j, ""
	}
	var b strings.Builder
	end := i
	for k := i; ; {
		e := k
		for e < len(rs) && unicode.IsDigit(rs[e]) {
			e++
		}
		if e == k || e-k > 8 || e < len(rs) && (unicode.IsLetter(rs[e]) || isJoiner(rs[e]) && e+1 < len(rs) && !unicode.IsSpace(rs[e+1]) || rs[e] == ':') {
			break // (not a group of digits: a word, an amount, a time)
		}
		b.WriteString(string(rs[k:e]))
		end = e
		if e+1 >= len(rs) || rs[e] != ' ' {
			break
		}
		k = e + 1
	}
	if end == j || b.Len() < 9 || !plus && b.Len() < 10 || b.Len() > 15 {
		return j, ""
	}
	return end, b.String()
}

// afterHash reports a token at rs[i] written after a "#" that follows no
// letter or digit ("Ticket #881", not "C#881").
func afterHash(rs []rune, i int) bool {
	return i > 0 && rs[i-1] == '#' && (i < 2 || !unicode.IsLetter(rs[i-2]) && !unicode.IsDigit(rs[i-2]))
}

// hexPairsJoined is rs with the colons between pairs of hexadecimal digits
// written as dashes, when two pairs or more stand alone and one holds a
// letter: a hardware (MAC) address, "3C:84:6A:1F:20:9B", is one identifier
// as "3C-84-6A-1F-20-9B" is, and "20:9B", its end, one too; a clock
// ("20:30", "12:30:45") holds no letter. rs is changed in place.
func hexPairsJoined(rs []rune) []rune {
	for i := 0; i+4 < len(rs); i++ {
		if i > 0 && letterOrDigit(rs[i-1]) || !hexPair(rs[i:]) || rs[i+2] != ':' || !hexPair(rs[i+3:]) {
			continue
		}
		end, letter := i+5, hexLetter(rs[i:i+2]) || hexLetter(rs[i+3:i+5])
		for end+2 < len(rs) && rs[end] == ':' && hexPair(rs[end+1:]) {
			letter = letter || hexLetter(rs[end+1:end+3])
			end += 3
		}
		if end < len(rs) && letterOrDigit(rs[end]) || !letter {
			i = end
			continue
		}
		for k := i + 2; k < end; k += 3 {
			rs[k] = '-'
		}
		i = end
	}
	return rs
}

// containersJoined is rs with a shipping container's number written apart
// joined by dashes, as one identifier: its owner's three letters and U, J
// or Z, its six-digit serial and its check digit ("msku 402117 3" is
// "msku-402117-3", read as msku4021173, and named by 4021173 and, through
// innerParts, by 402117).
func containersJoined(rs []rune) []rune {
	for i := 0; i+12 < len(rs); i++ {
		if i > 0 && letterOrDigit(rs[i-1]) || !lowerLetters(rs[i:i+4]) || !strings.ContainsRune("ujz", rs[i+3]) ||
			rs[i+4] != ' ' && rs[i+4] != '-' || !digits(rs[i+5:i+11]) || rs[i+11] != ' ' && rs[i+11] != '-' || !digits(rs[i+12:i+13]) ||
			i+13 < len(rs) && letterOrDigit(rs[i+13]) {
			continue
		}
		rs[i+4], rs[i+11] = '-', '-'
		i += 12
	}
	return rs
}

// lowerLetters reports runes that are all lower-case ASCII letters.
func lowerLetters(rs []rune) bool {
	return !slices.ContainsFunc(rs, func(r rune) bool { return r < 'a' || r > 'z' })
}

// digits reports runes that are all ASCII digits.
func digits(rs []rune) bool { return !slices.ContainsFunc(rs, notDigit) }

// hexPair reports two hexadecimal digits opening rs (lower case, as
// normalised), hexLetter that one of the two is a letter.
func hexPair(rs []rune) bool {
	return len(rs) >= 2 && isHex(rs[0]) && isHex(rs[1])
}

func hexLetter(rs []rune) bool { return rs[0] >= 'a' && rs[0] <= 'f' || rs[1] >= 'a' && rs[1] <= 'f' }

func isHex(r rune) bool { return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' }

func letterOrDigit(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// isJoiner joins the parts of one token: INV-1040, 129.90, a.b@c.org, snake_case.
func isJoiner(r rune) bool {
	return r == '-' || r == '.' || r == '@' || r == '_' || r == '/' || r == ','
}

func (a *Analysis) addToken(tok string) {
	tok = strings.Trim(tok, "-.@_/,")
	if tok == "" {
		return
	}
	if isIdentifier(tok) {
		id := canonicalAmount(tok)
		// A letter prefix is joined to its number without the separator
		// (inv-1040 → inv1040), and INV1040's prefix is a word, as INV-1040's
		// is below.
		if prefix, n, ok := prefixed(id); ok {
			if joined := len(prefix)+len(n) == len(id); joined && len(prefix) >= 2 && !stopWords[prefix] {
				a.Terms = append(a.Terms, stem(prefix))
			}
			id = prefix + n
		} else if isDate(id) {
			// A date is written with dots (2026-12-10 is 2026.12.10): two
			// objects may share it as they may a price, so it is no object's
			// own (identify).
			id = strings.Map(func(r rune) rune {
				if r == '-' || r == '/' {
					return '.'
				}
				return r
			}, id)
		} else if !strings.ContainsAny(id, "@.") {
			if k := strings.LastIndexAny(id, "-_/"); k >= 0 && len(id)-k > 3 && (strings.Trim(id[k+1:], "0123456789") == "" || len(id)-k > 4 && hasDigit(id[k+1:])) {
				// (its last group of digits, or of four letters and digits
				// or more: a licence key's "1AB6")
				a.groups = append(a.groups, id[k+1:])
			} else if k > 0 && len(id)-k == 3 && isDigit(id[k+1]) && isDigit(id[k+2]) {
				a.pairs = append(a.pairs, id[k+1:])
			}
			gs := strings.FieldsFunc(id, func(r rune) bool { return r == '-' || r == '_' || r == '/' })
			// (not the number after a kind's letters: HC-1140-03 is an
			// invoice of HC-1140, whose "1140" names HC-1140)
			a.inner = innerParts(a.inner, gs, len(gs) > 0 && hasDigit(gs[0]))
			// Nor between the other parts of one (INV-2024-1040, inv2024-1040
			// and INV_2024_1040 are inv20241040); an e-mail address or an
			// amount keeps its dots.
			id = withoutSeparators(id)
		}
		a.IDs = append(a.IDs, id)
		a.Terms = append(a.Terms, id)
		if whole, cents, ok := strings.Cut(id, "."); ok && strings.Trim(cents, "0") == "" && strings.Trim(whole, "0123456789") == "" {
			// An amount without cents is also its whole number, as a question
			// writes it ("my 300 back" for 300.00 EUR).
			a.Terms = append(a.Terms, whole)
		}
		a.addListed(tok, id)
	}
	if len(tok) > 3 && tok[1] == '-' && tok[0] >= 'a' && tok[0] <= 'z' && strings.Trim(tok[2:], "abcdefghijklmnopqrstuvwxyz") == "" {
		// a letter joined to a word is one word as written together too
		// ("e-mail" is "email"; "e-tickets", "x-ray"), besides the word
		a.Terms = append(a.Terms, stem(tok[:1]+tok[2:]))
	}
	// The parts of a compound token are words of their own ("check-in", "2-factor").
	for _, w := range strings.FieldsFunc(tok, isJoiner) {
		if hasDigit(w) {
			if !isIdentifier(tok) {
				a.Terms = append(a.Terms, w)
			}
			continue
		}
		if len(w) < 2 || stopWords[w] {
			continue
		}
		a.Terms = append(a.Terms, stem(w))
	}
}

// addListed adds the identifiers inside a path, a link or a list as
// identifiers of their own: "https://carrier.example/track/1Z88AA0312" names
// 1Z88AA0312 and "O-5001/O-5002" both orders, as a question asks for them.
// Not a prefixed identifier's parts ("INV/1040" is inv1040 alone, and its
// number does not stand for another prefix's), nor numbers alone: the year
// of "2026/INV/0042" is no object, and its last number names it as a part
// does (partHashes).
func (a *Analysis) addListed(tok, id string) {
	if !strings.ContainsAny(tok, "/,") || strings.IndexFunc(tok, unicode.IsLetter) < 0 {
		return
	}
	if _, _, ok := prefixed(id); ok {
		return
	}
	for _, part := range strings.FieldsFunc(tok, func(r rune) bool { return r == '/' || r == ',' }) {
		part = strings.Trim(part, "-.@_")
		if part == tok || !isIdentifier(part) || strings.IndexFunc(part, unicode.IsLetter) < 0 || isDomain(part) {
			continue // (a number alone is a part of the whole: partHashes; a link's host is where it is, not what)
		}
		pid := part
		if prefix, n, ok := prefixed(part); ok {
			pid = prefix + n
		}
		if pid != id {
			a.IDs = append(a.IDs, pid)
			a.Terms = append(a.Terms, pid)
		}
	}
}

// stems caches Porter2 stems: an event's words come from a small, repeating
// vocabulary, and stemming is most of what analysing a text costs.
var stems = lru.New[string, string](StemCacheEntries)

// StemCacheEntries bounds the stem cache (twice this many words at most).
const StemCacheEntries = 100_000

// stem is a word's Porter2 stem, in its American spelling (spellings).
func stem(w string) string {
	if len(w) > 32 {
		return undoubled(english.Stem(w, false)) // rare: not worth a cache slot
	}
	return stems.Get(w, func() string {
		s := undoubled(english.Stem(w, false))
		if a, ok := spellings().stems[s]; ok {
			return a // (one spelling of a word: spellings.go)
		}
		if m, ok := monthAbbreviations[s]; ok {
			return m
		}
		return s
	})
}

// monthAbbreviations are the months as events abbreviate them ("from 1
// Feb", "due 14 Oct"), each the stem of its name, as a question writes it
// ("from February"). Not "jan" nor "jun", names as often ("Jan Novak", 王
// Jun), nor "mar", a verb.
var monthAbbreviations = map[string]string{"feb": "februari", "apr": "april", "jul": "juli", "aug": "august",
	"sep": "septemb", "sept": "septemb", "oct": "octob", "nov": "novemb", "dec": "decemb"}

// undoubled is a stem without the last of the double consonant it ends
// in, as Porter2 leaves one after taking off "-ed" or "-ing": "added" and
// "adding" stem to "ad", and so do "add" and "adds" now, as "staff" does to
// "staffed"'s "staf". Not when what is left is a stop word ("off", "inn"),
// nor without a vowel before the pair ("mm").
func undoubled(s string) string {
	n := len(s)
	if n < 3 || s[n-1] != s[n-2] || !strings.ContainsRune("bdfgmnprt", rune(s[n-1])) ||
		!strings.ContainsAny(s[:n-2], "aeiouy") || stopWords[s[:n-1]] {
		return s
	}
	return s[:n-1]
}

func isIdentifier(tok string) bool {
	digits, letters := 0, 0
	for _, r := range tok {
		switch {
		case unicode.IsDigit(r):
			digits++
		case unicode.IsLetter(r):
			letters++
		}
	}
	switch {
	case strings.Contains(tok, "@") && letters > 0:
		return true // e-mail-like
	case digits == 0:
		return isDomain(tok)
	case letters > 0:
		// INV-1040, R-7001, 1Z88AA0312, G12; not a word spelled with a number
		// first (2FA, 3rd, 10am), nor anything shorter than three.
		return digits+letters >= 3 && !numberWord(tok) && !quantityToken(tok)
	case strings.ContainsAny(tok, ".,") && digits >= 3:
		return true // an amount: 129.90, 1,250.00
	default:
		return digits >= 4 && !smallNumbers(tok) // an order or account number, a year
	}
}

// isDomain reports a domain name (shop-birke.de, acme.io, mail.kleinbau.de):
// two or more labels of letters, digits and hyphens, the first two long or
// more, and a last one that is a country's two letters or one of topLevel.
// Not an abbreviation ("e.g.", "a.m."), nor a file's name (report.pdf).
func isDomain(tok string) bool {
	last := strings.LastIndexByte(tok, '.')
	if first := strings.IndexByte(tok, '.'); first < 2 || last == len(tok)-1 || strings.Contains(tok, "..") {
		return false // (no dot, a first label shorter than two, an empty label)
	}
	for i := 0; i < len(tok); i++ {
		if c := tok[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	tld := tok[last+1:]
	return len(tld) == 2 && strings.IndexFunc(tld, func(r rune) bool { return r < 'a' || r > 'z' }) < 0 || topLevel[tld]
}

// topLevel are the generic top-level domains customers' domains are most
// often in (and .example, as documentation writes them).
var topLevel = map[string]bool{"com": true, "net": true, "org": true, "info": true, "biz": true, "io": true, "app": true, "dev": true,
	"shop": true, "store": true, "online": true, "site": true, "tech": true, "cloud": true, "example": true}

// onlyAnAmount reports that each time the words hold the number n, a word
// comparing it comes before it ("less than 390", "over 500", "below 100"),
// or, for three digits, an identifier's digits do: "why is PL-5517 145?"
// asks of one object its sum (+2 −0 on the development sets; of four
// digits, "YT88213301 7765" is one parcel's number in two parts: −1).
func onlyAnAmount(words []string, n string) bool {
	seen := false
	for k, w := range words {
		if w != n {
			continue
		}
		if k == 0 || !comparing[words[k-1]] && !(len(n) == 3 && hasDigit(words[k-1])) {
			return false
		}
		seen = true
	}
	return seen
}

var comparing = map[string]bool{"than": true, "over": true, "under": true, "above": true, "below": true, "about": true,
	"around": true, "approximately": true, "roughly": true, "almost": true, "nearly": true, "least": true, "most": true}

// isDate reports a date written year first (2026-12-10, 2026/12/10) or last
// (10-12-2026, 12/10/2026): three numbers joined by "-" or "/", a year of
// this century or the last, a month and a day (not a pick-up code, 5-2-1188).
func isDate(tok string) bool {
	parts := strings.FieldsFunc(tok, func(r rune) bool { return r == '-' || r == '/' })
	if len(parts) != 3 || strings.Trim(tok, "0123456789-/") != "" {
		return false
	}
	year := func(p string) bool { return len(p) == 4 && (p[:2] == "19" || p[:2] == "20") }
	upTo := func(p string, n int) bool {
		v, err := strconv.Atoi(p)
		return len(p) <= 2 && err == nil && v >= 1 && v <= n
	}
	monthDay := func(a, b string) bool { return upTo(a, 12) && upTo(b, 31) || upTo(a, 31) && upTo(b, 12) }
	return year(parts[0]) && monthDay(parts[1], parts[2]) || year(parts[2]) && monthDay(parts[0], parts[1])
}

// smallNumbers reports numbers of one or two digits joined by "-" or "/": a
// range, a fraction or a day and month ("12-15 March", "pages 12-14", "14/20",
// the "00-12" of "10:00-12:00"), which name no object. As one number of four
// digits they made two bookings of "12-15 March" one object's story.
func smallNumbers(tok string) bool {
	run := 0 // the digits since the last separator
	for i := 0; i < len(tok); i++ {
		switch c := tok[i]; {
		case c == '-' || c == '/':
			run = 0
		case c >= '0' && c <= '9' && run < 2:
			run++
		default: // a third digit, or anything else
			return false
		}
	}
	return true
}

// canonicalAmount writes a number with separators one way: the last
// separator is the decimal point when one or two digits follow it (129,90 and
// 129.90 are 129.90; 1.250,00 and 1,250.00 are 1250.00; 86.4 is 86.40), every other one
// separates thousands and is dropped (1,250 is 1250). Other tokens only lose
// their commas (a list such as 30021,40021 stays one token, as before).
func canonicalAmount(tok string) string {
	groups := strings.FieldsFunc(tok, func(r rune) bool { return r == '.' || r == ',' })
	n := len(groups)
	if n < 2 || strings.Trim(tok, "0123456789.,") != "" || n > 2 && len(groups[0]) > 3 {
		return strings.ReplaceAll(tok, ",", "")
	}
	amount := true
	for _, g := range groups[1 : n-1] {
		amount = amount && len(g) == 3 // thousands between the first group and the last
	}
	switch last := groups[n-1]; {
	case amount && len(last) == 1:
		return strings.Join(groups[:n-1], "") + "." + last + "0" // 86.4 is 86.40, as a question writes a price
	case amount && len(last) == 2:
		return strings.Join(groups[:n-1], "") + "." + last
	case amount && len(last) == 3:
		return strings.Join(groups, "")
	}
	return strings.ReplaceAll(tok, ",", "")
}

// numberWord reports a word spelled with a number first: one or two digits,
// then two letters or more and nothing else (2FA, 3rd, 10am), or a quantity
// joined to its word, of up to three digits ("10-day pass", "100-night trial",
// "1-hour lesson").
func numberWord(tok string) bool {
	i := 0
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
	}
	j := i // where the letters begin
	if j < len(tok) && tok[j] == '-' {
		j++
	}
	if i == 0 || i > 2 && !(i == 3 && j > i) || len(tok)-j < 2 {
		return false
	}
	for _, r := range tok[j:] {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// openingPair is the number a line opens with when it writes an account's
// last two groups, four to six digits and two ("6633 17 贷款 审批 通过",
// "…7720 19 new card ordered"), joined: the groups after the first of "1208
// 6633 17" (innerParts), which a sibling's "6633 71" is not. "" for any
// other: a count, a date or a sum after the number ("6602 11 月", "5501 12
// 元"), one digit after it ("717 2 boxes").
func openingPair(rs []rune) string {
	i := 0
	for i < len(rs) && (rs[i] == '…' || rs[i] == '.' || rs[i] == '*') {
		i++
	}
	j := i
	for j < len(rs) && !notDigit(rs[j]) {
		j++
	}
	if j-i < 4 || j-i > 6 || j+4 >= len(rs) || rs[j] != ' ' || !digits(rs[j+1:j+3]) || rs[j+3] != ' ' {
		return ""
	}
	if next := rs[j+4:]; beforeUnit(next) || strings.ContainsRune(cjkUnits+cjkMeasures, next[0]) || !notDigit(next[0]) {
		return ""
	}
	return string(rs[i:j]) + string(rs[j+1:j+3])
}

// innerParts appends to parts what a line may name an identifier written
// in three groups or more by (groups, as written): its groups from the
// second to the last, joined ("pd012" of SH-PD-012, "663317" of "1208 6633
// 17"), and each group between others of letters and digits ("7f3a" of
// LK-7F3A-22) or, when middle, of digits ("0371" of 2024-0371-08); each with
// three digits or more, or four characters or more with a letter and a
// digit, and no year. Its last group alone is Analysis.groups' (and
// newDoc's); the first names the kind more often than the thing (a year, a
// region, a country).
func innerParts(parts, groups []string, middle bool) []string {
	if len(groups) < 3 {
		return parts
	}
	add := func(p string) {
		if (digitCount(p) >= 3 || len(p) >= 4 && hasDigit(p) && digitCount(p) < len(p)) && !isYear(p) {
			parts = append(parts, p)
		}
	}
	last := groups[len(groups)-1]
	for k := 1; k < len(groups)-1; k++ {
		add(strings.Join(groups[k:], ""))
		// (and the number before a check digit: "402117" of MSKU-402117-3)
		if middle || digitCount(groups[k]) < len(groups[k]) || k == len(groups)-2 && len(last) == 1 && digitCount(last) == 1 {
			add(groups[k])
		}
	}
	return parts
}

// withoutSeparators is an identifier's part written without the dashes,
// underscores and slashes between its parts (INV-2024-1040 is inv20241040).
func withoutSeparators(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '/' {
			return -1
		}
		return r
	}, s)
}

// quantityToken reports a number written with its unit of measure
// (quantityUnits, measures): "1000M" (a line's speed), "300ml", "10g", a
// quantity, no identifier.
func quantityToken(tok string) bool {
	i := strings.IndexFunc(tok, func(r rune) bool { return r < '0' || r > '9' })
	return i > 0 && (quantityUnits[tok[i:]] || measures[tok[i:]])
}

// trunkPrefixed reports a phone number's first group: a trunk prefix and an
// area code (a 0 and one to four digits, not 00: "030", "07700"), as
// phoneNumber reads it and innerParts' caller leaves it out.
func trunkPrefixed(g []rune) bool {
	return len(g) >= 2 && len(g) <= 5 && g[0] == '0' && g[1] != '0' && digits(g)
}

// perWords make a unit after them a rate ("a day", "per day", "every day").
var perWords = map[string]bool{"a": true, "per": true, "each": true, "every": true}

// digitCount is how many digits s has.
func digitCount(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			n++
		}
	}
	return n
}

func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }

// isDigit reports an ASCII digit.
func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func isCJK(r rune) bool {
	if r < 0x1100 { // below Hangul Jamo: no CJK script
		return false
	}
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

// stopWords are English function words; they carry no lexical evidence. A
// variable's initialiser, not an init function (which runs after every package
// variable is initialised): a variable initialised with Analyze sees them.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but if of to in on at by for from with without into onto over under
		about as is are was were be been being am do does did doing have has had having will would shall should
		can could may might must i me my mine we us our ours you your yours he him his she her hers it its they them
		their theirs this that these those there here what which who whom whose when where why how all any both each
		few more most other some such no nor not only own same so than too very s t just don now then also up down
		out off again further once please hi hello thanks thank yes ok okay let get got still yet`) {
		m[w] = true
	}
	return m
}()

// labelWords only say that an identifier follows ("number 55109", "ref
// 8812"), as "#" does.
var labelWords = map[string]bool{"number": true, "no": true, "nr": true, "num": true, "ref": true, "reference": true, "id": true}

// numberedThing is the identifier of a thing named by a word and a small
// number ("lesson 8", "milestone 2", "pitch 14", "platform 22": lesson8): the
// token rs[i:j] is the number, of one or two digits (a question's "order 512"
// names O-512 by its number, as a bare number, not as order512), and word the
// token before it, one space away. Not a quantity or a time ("2.0 km", "10
// minutes", "Saturday 12 June", "Plus 30 GB"), nor a verb's object ("booked 2
// rooms"). Empty when it is none.
func numberedThing(rs, word []rune, wordEnd, i, j int) string {
	if wordEnd < 0 || i != wordEnd+1 || rs[wordEnd] != ' ' || j-i > 2 || len(word) < 3 {
		return ""
	}
	for _, r := range rs[i:j] {
		if r < '0' || r > '9' {
			return ""
		}
	}
	for _, r := range word {
		if r < 'a' || r > 'z' {
			return ""
		}
	}
	w := string(word)
	if stopWords[w] || strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing") || timeAlone[w] || months[w] ||
		timeUnits[w] || currencyCodes[w] || quantityUnits[w] || timePreps[w] || notThings[w] {
		return ""
	}
	// what follows: a unit makes the number a quantity, ":" or "." and a digit a time or an amount
	k := j
	if k+1 < len(rs) && (rs[k] == ':' || rs[k] == '.' || rs[k] == ',') && unicode.IsDigit(rs[k+1]) || k < len(rs) && rs[k] == '%' {
		return ""
	}
	for k < len(rs) && rs[k] == ' ' {
		k++
	}
	e := span(rs, k, isLatin)
	if unitWord(string(rs[k:e])) {
		return ""
	}
	return w + string(rs[i:j])
}

// notThings are words before a number that name no thing ("between 8 and 12").
var notThings = map[string]bool{"between": true, "around": true, "within": true, "per": true, "every": true,
	"approx": true, "approximately": true, "nearly": true, "almost": true, "least": true, "plus": true, "minus": true,
	"total": true, "sum": true, "score": true, "points": true, "level": true, "age": true, "aged": true,
	"size": true, "limit": true, "allow": true}

// quantityUnits are the units after a number that make it a quantity.
var quantityUnits = map[string]bool{"gb": true, "mb": true, "tb": true, "kb": true, "km": true, "m": true, "cm": true,
	"mm": true, "kg": true, "g": true, "l": true, "ml": true, "kwh": true, "mbps": true, "mbit": true, "gbit": true,
	"percent": true, "pct": true, "x": true, "times": true, "night": true, "nights": true, "month": true, "months": true,
	"year": true, "years": true, "pcs": true, "items": true, "item": true, "mg": true, "mcg": true, "µg": true, "iu": true}
