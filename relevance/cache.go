package relevance

import (
	"encoding/binary"
	"hash/maphash"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/freshctx/freshctx/internal/lewords"
	"github.com/freshctx/freshctx/internal/lru"
)

// doc is an event's analysis as the scores use it: its distinct terms and
// identifiers as sorted 64-bit hashes, with each term's count, all in one
// pointer-free slab. The analysis cache holds docs by value under fixed-size
// keys, so a cached analysis is one object for the garbage collector to mark
// (with a slice per part and a string key it was six or seven, and at ~10
// candidates per request and 100,000 cached texts the collector's marking was
// a quarter of the API's CPU).
//
// The slab holds, in order: the terms (sorted, distinct; with a term for each
// acronym the text writes, acronymHash, that no word matches), each term's count,
// the identifiers (sorted, distinct), the numbers of its prefixed identifiers
// (O-5001 → 5001, sorted: a question saying "order 5001" names the event
// saying "O-5001"), and its identifiers as idents (full, num, bare), to ask
// other events whether they name them.
type doc struct {
	slab               []uint64
	nTerms, nIDs, nNum int32
	nOwn               int32
	n                  int32  // terms, with repeats
	marks              uint16 // what its text holds that its terms are not asked for: the marks below
}

// The marks of a text, as doc.marks has them, found once when it is analysed
// rather than in every question's window: its scripts, which the bridge
// between English and Chinese needs to know of (crossesLanguages); a clock
// time, and a day beside it, which "what time" and "which day" ask for
// (timeLacking); and whether its words say that something changed, is
// another now or has a new value (saysChanged, saysReplaced,
// statesCurrent), which a question asking for the newest checks in every
// candidate; and a time counted from a thing ("2 hours before the
// filling"), which a question asking when looks for in every candidate
// stating a time (relativeTimes); and a month as its only time, which
// answers no question asking which day (monthOnlyOf); and a change said to
// take effect later, no value a question asking what is now looks for
// (takesEffectLater); and a change whose subject is the object itself, which
// says what kind of thing it is now (changesItself); and an amount of money
// per period, a standing price (standingPriceOnly); and a person named by
// name, the better answer to "who" than a role (namedOf); and money stated
// as a sum, the better answer to "how much" than a word for money (sumOf).
const (
	scriptCJK     = 1 << iota // a CJK character
	scriptLatin               // a lower-case Latin letter: a word (an identifier's capitals are none)
	markClock                 // a clock time (clockOf)
	markChanged               // a word saying something changed (saysChanged)
	markReplaced              // a word saying a thing is another now (saysReplaced)
	markCurrent               // a thing's new or current value (statesCurrent)
	markRelative              // a length before or after a thing (relativeOf)
	markDay                   // beside a clock time, a day or a date as well (clockOf)
	markMonthOnly             // a month, with no day of it, the only time stated (monthOnlyOf)
	markLater                 // a change said to take effect later (takesEffectLater)
	markItself                // with markReplaced, the object itself is another now (changesItself)
	markPerPeriod             // an amount of money per period (pricedPerPeriod)
	markNamed                 // a person named, not by a role alone (namedOf)
	markSum                   // money stated as a sum, not by a word alone (sumOf)
	markBill                  // a bill or a payment and nothing more (billOf)
)

// clockOf is markClock when a text (normalised: a full-width "９：００" is
// 09:00) holds a clock time: 09:00, 9am, 7 pm, 7 点,
// 七点, noon, midnight (not 9.30, which an amount writes as often); and
// markDay as well when, without its clock times and the parts of a day
// (下午, "afternoon"), it still states a time: a day or a date ("12 月 25 日
// 下午 2 点", "Friday 18:30"; not "下午 2 点 以后").
func clockOf(norm string) uint16 {
	if !clockTime.MatchString(norm) {
		return 0
	}
	rest := dayParts.ReplaceAllString(clockTime.ReplaceAllString(norm, " "), " ")
	if statesTime(joinedCJK([]rune(rest))) {
		return markClock | markDay
	}
	return markClock
}

var dayParts = regexp.MustCompile(`上午|下午|晚上|早上|中午|凌晨|傍晚|morning|afternoon|evening`)

var clockTime = regexp.MustCompile(`\d{1,2}:\d{2}|\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.|点)|[一二三四五六七八九十两]\s*点|noon|midnight|o'clock`)

// relativeOf is markRelative when a text (normalised) holds a length before
// or after a thing (relativeTime, cjkRelativeTime): "no eating 1 hour after
// the filling", "出发 前 7 天".
func relativeOf(norm string) uint16 {
	latin := strings.Contains(norm, "before") || strings.Contains(norm, "after") || strings.Contains(norm, "prior")
	cjk := strings.Contains(norm, "前") || strings.Contains(norm, "后")
	if !latin && !cjk {
		return 0 // (most texts: no expression run)
	}
	if latin && relativeTime.MatchString(norm) || cjk && cjkRelativeTime.MatchString(norm) {
		return markRelative
	}
	return 0
}

// perPeriodOf is markPerPeriod when the analysis (a) states an amount of
// money and the text (normalised) states it per period (pricedPerPeriod).
func perPeriodOf(a *Analysis, norm string) uint16 {
	if slices.Contains(a.Terms, MoneyTerm) && pricedPerPeriod(norm) {
		return markPerPeriod
	}
	return 0
}

// namedOf is markNamed when the analysis (a) states a person and the text
// names one by name: a given name after a role, "with" or a deed's "by"
// ("engineer Tom", "done by Ines": namesByGivenName, read as the text
// writes it), or a Chinese surname with a title (李师傅, 张阿姨:
// namesSomeone), as a question asking who wants.
func namedOf(a *Analysis, text, norm string) uint16 {
	if !slices.Contains(a.Terms, PersonTerm) {
		return 0
	}
	if words := letterWords(text); givenNameIn(words) || namedByChange(words) || strings.IndexFunc(norm, isCJK) >= 0 && namesSomeone(joinedCJK([]rune(norm))) {
		return markNamed
	}
	return 0
}

// sumOf is markSum when the analysis (a) states money and the text states a
// sum of it ("45 EUR", "¥63", "63 元": sumsStated), not only a word for it
// ("Redelivery fee waived", "same price").
func sumOf(a *Analysis, text string) uint16 {
	if slices.Contains(a.Terms, MoneyTerm) && len(sumsStated(text)) > 0 {
		return markSum
	}
	return 0
}

// billOf is sum (markSum or none) and markBill when a text stating a sum is a
// bill or a payment and says nothing more: a word billing or paying
// ("invoice", "paid", "charged", 扣款, 已 付), and besides its identifiers
// and sums only the words of a bill ("by card", "total", 从 余额) and the
// items billed, each before its sum ("Invoice for TH-5517: swap 45 EUR +
// storage 80 EUR"). "BS-3318 done: valve replaced, 120 EUR" is none: it
// says what was done. norm is the text normalised (lower case, simplified
// Chinese), as newDoc has it.
func billOf(norm string, sum uint16) uint16 {
	if sum == 0 {
		return 0
	}
	fs := billFields(norm)
	billed := false
	for k, f := range fs {
		w := strings.TrimFunc(f, notLetterOrDigit)
		switch {
		case w == "" || strings.IndexFunc(w, unicode.IsDigit) >= 0:
		case billingWords[w]:
			billed = true
		case billLineWords[w] || currencyCodes[w]:
		case itemBeforeSum(fs, k):
			// (an item, before its sum)
		default:
			return sum
		}
	}
	if billed {
		return sum | markBill
	}
	return sum
}

// billFields are a text's fields as billOf reads them: its words, with
// Chinese written unspaced split as a segmenter would split it where billOf
// needs it: a number apart from the characters around it ("已缴纳50元" is
// "已缴纳 50 元"), and a Chinese billing word of two characters or more
// apart from the characters before and after it ("补考费已缴纳" is "补考费
// 已 缴纳"; cjkBillingWords). Spaced Chinese keeps its words ("补考费 已
// 缴纳 50 元").
func billFields(norm string) []string {
	if strings.IndexFunc(norm, isCJK) < 0 {
		return strings.Fields(norm)
	}
	var out []string
	fs := strings.Fields(norm)
	for k, f := range fs {
		rs := []rune(f)
		digitAt := func(i int) bool { // (a sum begins at rs[i], or after the field)
			if i < len(rs) {
				return unicode.IsDigit(rs[i])
			}
			return k+1 < len(fs) && fs[k+1][0] >= '0' && fs[k+1][0] <= '9'
		}
		start := 0
		for i := 0; i < len(rs); {
			if i > start && isCJK(rs[i]) != isCJK(rs[i-1]) && !strings.ContainsRune(",，:：.;；、", rs[i]) {
				out = append(out, string(rs[start:i]))
				start = i
			}
			if isCJK(rs[i]) {
				n := wordAt(rs[i:], 3, func(w string) bool { return cjkBillingWords[w] })
				if n == 0 && i > start && digitAt(i+1) && billingWords[string(rs[i])] {
					n = 1 // (one billing character right before a sum: "会员卡扣500元", "月缴2 400元")
				}
				if n > 0 && !(start == i && i+n == len(rs)) {
					if i > start {
						out = append(out, string(rs[start:i]))
					}
					out = append(out, string(rs[i:i+n]))
					i += n
					start = i
					continue
				}
			}
			i++
		}
		if start < len(rs) {
			out = append(out, string(rs[start:]))
		}
	}
	for k := 0; k < len(out); k++ {
		// a run of the words of a bill alone, split into them ("元已" is
		// "元 已")
		if ws := billWordsOf(out[k]); len(ws) > 1 {
			out = slices.Insert(slices.Delete(out, k, k+1), k, ws...)
			k += len(ws) - 1
		}
	}
	return out
}

// billWordsOf is a Chinese field split into billingWords and billLineWords
// when it is made of them alone, longest first ("元已" is "元 已"); nil when
// it is not.
func billWordsOf(f string) []string {
	rs := []rune(strings.TrimFunc(f, notLetterOrDigit))
	if len(rs) < 2 || !isCJK(rs[0]) {
		return nil
	}
	ws := wordsOnly(rs, 3, func(w string) bool { return billingWords[w] || billLineWords[w] })
	if len(ws) > 1 && f != strings.TrimFunc(f, notLetterOrDigit) {
		ws[len(ws)-1] = f[strings.LastIndex(f, ws[len(ws)-1]):] // (keeping what ends the clause: "元已，")
	}
	return ws
}

// cjkBillingWords are billingWords' Chinese words of two characters or more
// (one character alone is a part of too many words: 交通, 扣子).
var cjkBillingWords = func() map[string]bool {
	m := map[string]bool{}
	for w := range billingWords {
		if utf8.RuneCountInString(w) >= 2 && strings.IndexFunc(w, isCJK) == 0 {
			m[w] = true
		}
	}
	return m
}()

// itemBeforeSum reports that the k-th of a text's fields is a word of an
// item billed: at most three words before a sum, in one clause ("swap 45
// EUR", "fitting and storage 79 EUR").
func itemBeforeSum(fs []string, k int) bool {
	for j := k; j < min(k+3, len(fs)); j++ {
		if strings.ContainsAny(fs[j], ":,，：") {
			return false
		}
		if j+1 < len(fs) && strings.IndexFunc(strings.TrimFunc(fs[j+1], notLetterOrDigit), unicode.IsDigit) == 0 {
			return true
		}
	}
	return false
}

// wordSet is the set of s's words.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// notLetterOrDigit is the punctuation a word is trimmed of.
func notLetterOrDigit(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// billingWords bill or pay; billLineWords are the others a bill says.
var billingWords = wordSet(`invoice invoiced paid charged billed bill receipt payment deposit 押金 定金 订金 付 已付 支付 缴 缴费 缴纳 扣 扣款 扣除
	账单 发票 付款 收费 收取 出账 交`)
var billLineWords = wordSet(`total by card cash for at pickup pick-up to your via direct debit received ending pay in full on
	of with and the a an sent amount 已 元 从 共 合计 费 费用 通过 微信 支付宝 银行卡 现金 账户 余额 自动 成功 中`)

// namedByChange reports, of a text's letterWords, a given name after "from"
// or "to" once a word says who does it changed ("Cleaner for Friday changed
// from Ana to Marek", "walker switched to Sanna"; handedTo): of an event
// naming a role, as namedOf reads it, a person; of a plan "upgraded to
// Premium", no one.
func namedByChange(words []string) bool {
	changed := false
	for i, w := range words {
		lw := strings.ToLower(w)
		if handedTo[lw] {
			changed = true
		}
		if changed && (lw == "from" || lw == "to") && i+1 < len(words) && givenNameShape(words[i+1]) {
			return true
		}
	}
	return false
}

// handedTo are the words saying that who does a thing changed.
var handedTo = map[string]bool{"changed": true, "switched": true, "replaced": true, "reassigned": true, "swapped": true, "handed": true,
	"passed": true, "transferred": true}

// monthOnlyOf is markMonthOnly when a Chinese text (normalised) states no
// time but a month, with no day of it ("BJ-2281 12 月 套餐 600 元 已 扣"): no
// answer to which day.
func monthOnlyOf(norm string) uint16 {
	if !strings.Contains(norm, "月") {
		return 0 // (most texts: no expression run)
	}
	joined := string(joinedCJK([]rune(norm)))
	if monthDay.MatchString(joined) || statesTime([]rune(monthNumber.ReplaceAllString(joined, " "))) {
		return 0
	}
	return markMonthOnly
}

// monthDay is a month and a day of it (12 月 25 日), monthNumber a month (12
// 月) or a number of months (3 个 月).
var (
	monthDay    = regexp.MustCompile(`\d{1,2}\s*月\s*\d{1,2}\s*[日号]`)
	monthNumber = regexp.MustCompile(`\d{1,2}\s*个?\s*月`)
)

// scriptsOf are the scripts text is written in.
func scriptsOf(text string) uint16 {
	var s uint16
	for _, r := range text {
		switch {
		case 'a' <= r && r <= 'z':
			s |= scriptLatin
		case isCJK(r):
			s |= scriptCJK
		}
		if s == scriptCJK|scriptLatin {
			break
		}
	}
	return s
}

func (d *doc) terms() []uint64 { return d.slab[:d.nTerms] }
func (d *doc) tf(i int) int    { return int(d.slab[int(d.nTerms)+i]) }
func (d *doc) ids() []uint64   { o := 2 * d.nTerms; return d.slab[o : o+d.nIDs] }
func (d *doc) nums() []uint64  { o := 2*d.nTerms + d.nIDs; return d.slab[o : o+d.nNum] }

// own is its k-th identifier, k < nOwn.
func (d *doc) own(k int) ident {
	o := int(2*d.nTerms+d.nIDs+d.nNum) + 3*k
	kind := d.slab[o+2]
	return ident{full: d.slab[o], num: d.slab[o+1], bare: kind&1 != 0, amount: kind&2 != 0, family: kind &^ 3}
}

// ident is an identifier as matching needs it: its hash and, for a prefixed
// one (O-5001), its number's and its prefix's (family); bare says it is a
// number alone (5001).
type ident struct {
	full, num uint64
	bare      bool
	amount    bool   // a number with a decimal part (129.90): an amount of money; or a dotted number (4.2.1): a version, an address, a date (2026.12.10)
	family    uint64 // the prefix's hash, its two low bits clear (0: none): INV-1040 and INV-1041 are one kind of thing
	// the prefix's term (a question's; 0 for an event's own): an event
	// writing the prefix and a short number apart names it ("BA 982" for
	// "ba982", where 982 alone is no identifier: names)
	prefix uint64
	// the parts of its number a customer names it by (partHashes and
	// labels: at most seven; a question's; nil for an event's own and when
	// it has none): an event
	// naming one as a bare number names it ("...3390 delivered" for
	// JD014600003390). A pointer: an ident is passed by value in the
	// stories' loops over every candidate.
	parts *[8]uint64
	// phone are the phoneForms of a question's number alone (nil for an
	// event's own and for any other): an event naming one of them, or a
	// number one of whose forms is one of them or the whole, names it
	phone *[3]uint64
	// group is the hash of a question's identifier's last group, when it is
	// written in groups (a licence key's "81LP" of 7H2K-Q9XN-81LP, "1090" of
	// T-88-1090; 0 for any other): an event naming it as a word names the
	// identifier ("81LP activation failed", "1090 parking fine")
	group uint64
}

// identify describes an identifier (lower case, as Analyze gives it).
func identify(id string) ident {
	q := ident{full: termHash(id)}
	if prefix, n, ok := prefixed(id); ok {
		q.num = termHash(n)
		q.family = familyOf(prefix)
		q.prefix = termHash(stem(prefix))
	} else {
		rest := strings.Trim(id, "0123456789")
		// an amount (129.90), or a dotted number (4.2.1, 192.168.1.20: a
		// version, an address), which two objects may share as they may a price
		q.bare, q.amount = rest == "", rest == "." || strings.Count(rest, ".") >= 2 && strings.Trim(rest, "0123456789.") == ""
		// a year (2026) is a date too, which two objects share: "房号
		// 3-2-1705 物业费 2026 年" is not about flat 1702 because its bill
		// names the year
		q.amount = q.amount || isYear(id)
		if shape := letterLed(id); shape != "" {
			q.family = familyOf(shape)
		}
	}
	return q
}

// isYear reports a number that may be a year: four digits from 1900 to 2099.
func isYear(id string) bool {
	return len(id) == 4 && (strings.HasPrefix(id, "19") || strings.HasPrefix(id, "20")) && isNumber(id)
}

// familyOf is the family of identifiers of a prefix or a shape (letterLed): its
// hash with the two low bits clear, never 0.
func familyOf(s string) uint64 { return termHash(s)&^3 | 4 }

// letterLed is the kind of an identifier of letters and digits that is no
// prefix and a number ("ak_live_9F2" is aklive9f2, "RX7F2K"): its leading
// letters and its length, which a sibling shares (aklive7c1), or "".
func letterLed(id string) string {
	k := strings.IndexFunc(id, func(r rune) bool { return r < 'a' || r > 'z' })
	if k < 2 || strings.Trim(id, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
		return ""
	}
	return id[:k] + "/" + strconv.Itoa(len(id))
}

// identities describes a's identifiers, each once; a question's (asked)
// with the parts of their numbers an event may name them by (ident.parts).
func identities(a *Analysis, asked bool) []ident {
	var out []ident
	for _, id := range a.IDs {
		q := identify(id)
		if slices.ContainsFunc(out, func(o ident) bool { return o.full == q.full }) {
			continue
		}
		if asked {
			var buf [8]uint64
			hs := labels(partHashes(buf[:0], id), id)
			for _, p := range a.pairs {
				if strings.HasSuffix(id, p) && len(hs) < len(buf) {
					hs = append(hs, labelHash(p)) // ("07 需 更换 配件" for GD-20261203-07)
				}
			}
			for _, p := range a.inner {
				if strings.HasSuffix(id, p) && len(hs) < len(buf) {
					// ("PD-012 营业 到 23 点" for SH-PD-012; not a group
					// between others, which a sibling may share: "6633" of
					// "1208 6633 71" and "1208 6633 17")
					hs = append(hs, termHash(p))
				}
			}
			for _, g := range a.groups {
				if strings.HasSuffix(id, g) && len(g) < len(id) {
					q.group = termHash(g)
				}
			}
			if len(hs) > 0 {
				q.parts = new([8]uint64) // (only for the identifiers that have parts)
				copy(q.parts[:], hs)
			}
			if fs := phoneForms(buf[:0], id); len(fs) > 0 {
				q.phone = new([3]uint64)
				copy(q.phone[:], fs)
			}
		}
		out = append(out, q)
	}
	return out
}

// names reports the event names the identifier q: the same identifier, a bare
// number against the same number behind a prefix, or the reverse ("order 5001"
// and O-5001), one of its kind whose number is q's padded with zeros
// (INC0012345 for "INC12345"), or against an amount without cents ("the 1200 charge" and
// 1,200.00 EUR: the amount's whole number is a term); a question's prefixed
// identifier against its prefix and number written apart ("ba982" and "BA
// 982"); two different prefixes never match.
func (d *doc) names(q ident) bool {
	if d.hasID(q.full) || q.num != 0 && d.hasID(q.num) || q.prefix != 0 && d.count(q.prefix) > 0 && d.count(q.num) > 0 {
		return true
	}
	if q.prefix != 0 && q.family != 0 {
		// a question's prefixed identifier (only a question's has its
		// prefix: an event's own are compared in the stories' loops over
		// every candidate) names one of its kind whose number is its own
		// padded with zeros, which the event holds without them (partHashes):
		// "INC12345" names INC0012345
		if _, ok := slices.BinarySearch(d.nums(), q.num); ok {
			for k := range int(d.nOwn) {
				if d.own(k).family == q.family {
					return true
				}
			}
		}
	}
	if q.parts != nil {
		for _, h := range q.parts {
			if h != 0 && h != q.num && d.hasID(h) {
				return true
			}
		}
	}
	if q.group != 0 && d.count(q.group) > 0 {
		return true
	}
	if !q.bare && (q.num != 0 || q.amount) {
		return false // (an identifier of letters and digits is named by a group too: a licence key's last)
	}
	if q.phone != nil {
		for _, h := range q.phone {
			if h == 0 {
				break // (fewer forms than the array holds)
			}
			if _, ok := slices.BinarySearch(d.nums(), h); ok || d.hasID(h) {
				return true
			}
		}
	}
	_, ok := slices.BinarySearch(d.nums(), q.full)
	return ok || d.count(q.full) > 0
}

func newDoc(text string) doc {
	norm := normalise(text) // (once, for the analysis and the marks)
	a := analyzeText(text, norm)
	terms := make([]uint64, len(a.Terms), len(a.Terms)+1)
	for i, t := range a.Terms {
		terms[i] = termHash(t)
	}
	for _, initials := range acronyms(text) { // not counted in the length (n)
		terms = append(terms, acronymHash(initials))
	}
	slices.Sort(terms)
	var tf []uint64
	k := 0
	for i, h := range terms {
		if i > 0 && h == terms[k-1] {
			tf[k-1]++
			continue
		}
		terms[k] = h
		tf = append(tf, 1)
		k++
	}
	terms = terms[:k]
	ids := hashes(a.IDs)
	if l := openingLabel(norm); l != "" {
		ids = append(ids, labelHash(l)) // (a line opening with a short number: lastThree's other side)
		slices.Sort(ids)
		ids = slices.Compact(ids)
	}
	own := identities(&a, false)
	var nums []uint64
	for _, q := range own {
		if q.num != 0 {
			nums = append(nums, q.num)
		}
	}
	for _, id := range a.IDs {
		nums = lastThree(phoneForms(partHashes(nums, id), id), id)
	}
	for _, g := range a.groups { // (the last group of one written in groups, and its parts: without its zeros)
		nums = partHashes(append(nums, termHash(g)), g)
	}
	for _, p := range a.inner { // (the parts inside one written in groups: innerParts)
		nums = append(nums, termHash(p))
	}
	slices.Sort(nums)
	nums = slices.Compact(nums)
	slab := make([]uint64, 0, 2*len(terms)+len(ids)+len(nums)+3*len(own))
	slab = append(append(append(append(slab, terms...), tf...), ids...), nums...)
	for _, q := range own {
		kind := q.family // the low two bits say bare (1) and amount (2)
		if q.bare {
			kind |= 1
		}
		if q.amount {
			kind |= 2
		}
		slab = append(slab, q.full, q.num, kind)
	}
	d := doc{slab: slab, nTerms: int32(len(terms)), nIDs: int32(len(ids)), nNum: int32(len(nums)), nOwn: int32(len(own)), n: int32(lengthOf(a.Terms)),
		marks: scriptsOf(text) | clockOf(norm) | relativeOf(norm) | monthOnlyOf(norm) | perPeriodOf(&a, norm) | namedOf(&a, text, norm) | billOf(norm, sumOf(&a, text))}
	return d.withChangeMarks(norm)
}

// partHashes are the hashes of the parts of an identifier's number that a
// customer names it by, as a bare number of the question: its last four,
// five and six digits when it has seven or more (SF1460023871, DD20260301,
// CLM-55-20433, a card or an account number: "23871 谁 签收 的？", "the order
// ending 0301", "20433"), and its last four and five when it has six
// (MU-88-1907, which reads mu881907, WS-24-0815 and LIC-AX9-20313 typed
// whole: "1907 entry time changed", "0815: derailleur bent", "20313 renewal
// invoice sent"),
// and the number without its leading zeros when three digits or more are
// left ("8820 什么 时候 看？" for GH-08820). The number of an identifier of
// other parts is the digits it ends in ("0042" for 2026/INV/0042), and its
// last four and five digits when it has five or more (a serial number:
// "99812" for SN 4C2-99812, which reads 4c299812); and an identifier of
// letters and digits is named without the letters it opens with
// (afterLetters), a hardware address by its last four (hardwareAddress:
// "20:9B"), a host's name by its first label (hostLabel: "db-eu-30" for
// db-eu-30.prod), and one ending in letters after its number by its head
// and the head's number (headOf: "R-0093" and "0093" for R-0093-KX), and,
// when the number has five digits or more, by its last four and the
// letters ("3309-RD" for SKU 52-3309-RD). They are appended to hs.
func partHashes(hs []uint64, id string) []uint64 {
	if rest := afterLetters(id); rest != "" {
		hs = append(hs, termHash(rest)) // (TRIP-6C-09 by its 6C-09)
	}
	if hardwareAddress(id) {
		hs = append(hs, termHash(id[8:])) // ("20:9B offline" for 3C:84:6A:1F:20:9B)
	}
	if label := hostLabel(id); label != "" {
		hs = append(hs, termHash(label)) // ("db-eu-30 disk 85% full" for db-eu-30.prod)
	}
	if head := headOf(id); head != "" {
		hs = append(hs, termHash(head)) // ("R-0093 extended" for R-0093-KX)
		if _, n, ok := prefixed(head); ok {
			hs = append(hs, termHash(n)) // ("0093 returned"; "when does 0884 renew?" for GC/0884/B)
		}
		if n, _ := numberPart(head); len(n) >= 5 {
			hs = append(hs, termHash(n[len(n)-4:]+id[len(head):])) // ("1177-GR reorder placed" for SKU 40-1177-GR)
		}
	}
	if tail := serialTail(id); tail != "" {
		hs = append(hs, termHash(tail)) // (5CG2231KQ7 by its KQ7)
	}
	n, serial := numberPart(id)
	if len(n) < 3 {
		return hs
	}
	if serial {
		// the number ending an identifier of other parts (2026inv0042,
		// 1z88aa0312) names it as its number does a prefixed one's
		hs = append(hs, termHash(n))
	}
	if t := strings.TrimLeft(n, "0"); len(t) < len(n) && len(t) >= 3 {
		hs = append(hs, termHash(t))
	}
	if len(n) >= 7 || serial && len(n) >= 5 {
		hs = append(hs, termHash(n[len(n)-4:]), termHash(n[len(n)-5:]), termHash(n[len(n)-min(6, len(n)):]))
	} else if len(n) >= 6 {
		hs = append(hs, termHash(n[len(n)-4:]), termHash(n[len(n)-5:]))
	}
	return hs
}

// numberPart is the number of an identifier: a prefixed one's (inv1040:
// 1040), the digits an identifier of other parts ends in (4c299812: 99812,
// serial), or the whole.
func numberPart(id string) (n string, serial bool) {
	if _, num, ok := prefixed(id); ok {
		return num, false
	}
	if run := id[strings.LastIndexFunc(id, func(r rune) bool { return r < '0' || r > '9' })+1:]; run != id {
		return run, true
	}
	return id, false
}

// hardwareAddress reports an identifier of twelve hexadecimal digits,
// letters and digits both: a network card's (MAC) address, which a line and
// a customer name by its last four ("20:9B").
func hardwareAddress(id string) bool {
	return len(id) == 12 && strings.Trim(id, "0123456789abcdef") == "" && strings.ContainsAny(id, "abcdef") && strings.ContainsAny(id, "0123456789")
}

// hostLabel is the first label of a host's name, of letters and digits both,
// written as an identifier is (without its dashes): "dbeu30" of
// db-eu-30.prod, by which a line and a customer name the host; "" for any
// other (a domain of words, an amount, a date, a version, an address).
func hostLabel(id string) string {
	first, _, ok := strings.Cut(id, ".")
	if !ok || strings.Contains(id, "@") || !hasDigit(first) || strings.Trim(first, "0123456789-_") == "" {
		return ""
	}
	label := withoutSeparators(first)
	if len(label) < 3 || strings.Trim(label, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
		return ""
	}
	return label
}

// headOf is an identifier that ends in one to three letters after its
// number, without them ("r0093" of R-0093-KX, "ord7781" of ORD-7781-EU),
// when the number has three digits or more; "" for any other. A line names
// the object by it ("R-0093 extended by 2 days"), as a system writes a
// rental's code without its branch's letters.
func headOf(id string) string {
	head := strings.TrimRight(id, "abcdefghijklmnopqrstuvwxyz")
	if n := len(id) - len(head); n == 0 || n > 3 || len(head) < 4 {
		return ""
	}
	if k := strings.LastIndexFunc(head, notDigit); len(head)-k-1 < 3 {
		return ""
	}
	return head
}

// afterLetters is an identifier of letters and digits without the letters it
// opens with, when what is left opens with a digit and holds a letter too
// ("6c09" of TRIP-6C-09, "2211c" of AW-2211-C), "" for any other: a
// customer and a line name it so ("when does the bus leave for 6C-09?",
// "2211-C hold expired"), as they name a prefixed identifier (O-5001) by its
// number.
func afterLetters(id string) string {
	i := strings.IndexFunc(id, func(r rune) bool { return r < 'a' || r > 'z' })
	if i < 1 || len(id)-i < 3 || !isDigit(id[i]) || strings.Trim(id[i:], "0123456789") == "" ||
		strings.Trim(id, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
		return ""
	}
	return id[i:]
}

// serialTail is the end of a serial number of letters and digits, from its
// last letters ("kq7" of 5CG2231KQ7), when the serial has eight characters
// or more and the end two letters or more and a digit, or, for one ending
// in a letter, its last four when they hold a digit ("x19a" of PF3KX19A): a
// customer and a line name a serial so ("KQ7 battery replaced", "X19A
// remote wipe done"). "" for any other.
func serialTail(id string) string {
	if len(id) < 8 || strings.Trim(id, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
		return ""
	}
	d := strings.LastIndexFunc(id, notDigit) // (the last letter)
	if d == len(id)-1 && hasDigit(id[len(id)-4:]) && !isDigit(id[len(id)-4]) {
		return id[len(id)-4:] // (from a letter: not the "119a" of a number's end)
	}
	if d < 0 || d == len(id)-1 {
		return ""
	}
	l := strings.LastIndexFunc(id[:d+1], func(r rune) bool { return r < 'a' || r > 'z' }) // (the digit before the last letters)
	if l < 0 || d-l < 2 || len(id)-l-1 > 5 {
		return ""
	}
	return id[l+1:]
}

// openingLabel is the number of three digits a text opens with when it
// labels the line ("118 多 缴 200 元", "#905: box damaged"), or of two ("07
// 需 更换 配件", which a question's identifier ending in the group "-07"
// names: Analysis.pairs), "" for any other: not an amount or a measure
// ("388 元 已 退回", "900 EUR received", "15 分钟", "12 月"), nor a clock's
// hour ("09:30"), nor the first group of a number written in groups ("138
// 0013 8821").
func openingLabel(norm string) string {
	t := strings.TrimLeft(norm, "#")
	n := 0
	for n < len(t) && n < 4 && isDigit(t[n]) {
		n++
	}
	if n < 2 || n > 3 || len(t) < n+2 || t[n] != ' ' && t[n] != ':' {
		return ""
	}
	next, _, _ := strings.Cut(strings.TrimLeft(t[n+1:], ": "), " ")
	next = strings.TrimRight(next, ",.;:")
	if next == "" || isDigit(next[0]) || unitWord(next) || strings.HasPrefix(next, "元") || strings.HasPrefix(next, "块") {
		return ""
	}
	if n == 2 && (t[n] == ':' || strings.IndexFunc(next, func(r rune) bool { return strings.ContainsRune(cjkMeasures+cjkUnits, r) }) == 0) {
		return "" // (a clock's hour, or a count or a date: "15 分钟", "12 月", "20 份")
	}
	return t[:n]
}

// cjkUnits are the Chinese units of time, money and measure a number of two
// digits opening a line counts in (with cjkMeasures), where it is no label.
const cjkUnits = cjkDateMoney + "分点时秒吨岁周米斤克层楼排座"

// labelHash is the hash an event opening with a number as its label
// (openingLabel) has among its identifiers, and a question's long number
// among its parts by its last three: "XF20260901118 退 多少？" names "118 多
// 缴 200 元". A number of three digits elsewhere in a line names nothing so:
// "Customs fee 871 paid" is a sum.
func labelHash(n string) uint64 { return termHash("#" + n) }

// labels appends to hs the labelHash a line names a question's identifier
// by: its last three digits, and its last two, when its number has seven or
// more (as lastThree keeps them for an event's; two for a number typed
// whole whose group of two the question cannot tell: "77 已 开课" for
// KC20261109-77 asked as "KC2026110977"), or its number without leading
// zeros when they leave three ("894 locker 22 assigned" for MC-00894), or a
// prefixed number of three digits, its head's for one ending in letters
// (headOf: "361 moved to 9 Dec" for FL/361/OPO).
func labels(hs []uint64, id string) []uint64 {
	n, _ := numberPart(id)
	if head := headOf(id); head != "" {
		n, _ = numberPart(head)
	}
	if len(n) >= 7 {
		hs = append(hs, labelHash(n[len(n)-3:]), labelHash(n[len(n)-2:]))
	} else if t := strings.TrimLeft(n, "0"); len(t) == 3 && (len(t) < len(n) || len(n) < len(id)) {
		hs = append(hs, labelHash(t))
	}
	return hs
}

// lastThree appends the hash of the last three digits of an event's
// identifier whose number has seven or more, as a customer quotes it alone
// ("033 办完了吗？" for SB20261105033, "218 三月多少？" for 户号 4400218). Only an
// event's: a question naming SF1460023871 is not about the event whose 871
// is a sum.
func lastThree(hs []uint64, id string) []uint64 {
	if n, _ := numberPart(id); len(n) >= 7 {
		hs = append(hs, termHash(n[len(n)-3:]))
	}
	return hs
}

// phoneForms are the hashes of the national numbers a number alone of nine
// to fifteen digits may be the phone number of, appended to hs: without its
// trunk prefix when it has one (0301234567: 301234567), else without the
// country code of one, two or three digits that it may begin with
// (49301234567: 9301234567, 301234567, 01234567). A phone number written
// with its country code, its trunk prefix or neither (+49 30 1234567, 030
// 1234567; +86 138 0013 8000, 13800138000; +1 415 555 0100, 415 555 0100)
// is named by another form of it, one of whose forms, or whole, is one of
// its.
func phoneForms(hs []uint64, id string) []uint64 {
	if len(id) < 9 || len(id) > 15 || strings.Trim(id, "0123456789") != "" || strings.HasPrefix(id, "00") {
		return hs
	}
	if id[0] == '0' {
		return append(hs, termHash(id[1:]))
	}
	return append(hs, termHash(id[1:]), termHash(id[2:]), termHash(id[3:]))
}

// prefixed splits a prefixed identifier into its letter prefix, without the
// separator, and its number (inv-1040: inv, 1040).
func prefixed(id string) (prefix, number string, ok bool) {
	n, ok := numberOf(id)
	if !ok {
		return "", "", false
	}
	return strings.TrimRight(id[:len(id)-len(n)], "-_/"), n, true
}

// numberOf is the number of a prefixed identifier: letters, at most one
// separator, then three or more digits (o-5001, inv1040, ra-3301).
func numberOf(id string) (string, bool) {
	i := 0
	for i < len(id) && id[i] >= 'a' && id[i] <= 'z' {
		i++
	}
	if i == 0 || i > 6 {
		return "", false
	}
	if i < len(id) && (id[i] == '-' || id[i] == '_' || id[i] == '/') {
		i++
	}
	digits := id[i:]
	if len(digits) < 3 {
		return "", false
	}
	for j := 0; j < len(digits); j++ {
		if digits[j] < '0' || digits[j] > '9' {
			return "", false
		}
	}
	return digits, true
}

// count is how often the term of hash h occurs.
func (d *doc) count(h uint64) int {
	if i, ok := slices.BinarySearch(d.terms(), h); ok {
		return d.tf(i)
	}
	return 0
}

// hasID reports the identifier of hash h occurs.
func (d *doc) hasID(h uint64) bool {
	_, ok := slices.BinarySearch(d.ids(), h)
	return ok
}

// termHash is FNV-1a, 64 bits: a collision between two terms of one question
// and one event is negligible.
func termHash[T string | []byte](s T) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// hashes are the sorted, distinct hashes of xs.
func hashes(xs []string) []uint64 {
	out := make([]uint64, len(xs))
	for i, x := range xs {
		out[i] = termHash(x)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// CacheEntries bounds the analysis cache (twice this many texts at most): the
// analyses of recent texts by text hash, so a request scores its candidates
// without analysing (stemming, segmenting) them again.
const CacheEntries = 50_000

var analyses = lru.New[[2]uint64, doc](CacheEntries)

// analysisVersion names how an encoded analysis was made. Bump it whenever
// Analyze or termHash would give another result for some text: a reader then
// analyses the text itself rather than trust an analysis its writer made
// differently (TestEncodedAnalysisVersion fails until it is bumped).
const analysisVersion = 343

// EncodeAnalysis is text's analysis as bytes, for a cache to keep beside the
// event: a reader passes them back as Candidate.Analysis, and the text is not
// analysed again on every read (with ~10 candidates per request and more
// distinct texts than the analysis cache holds, analysing was a fifth of the
// API's CPU). Little-endian 64-bit words: two of header (the counts, the
// version, the marks), then the slab. Nil
// when the text has too many terms to encode (the reader then analyses it).
func EncodeAnalysis(text string) []byte {
	d := newDoc(text)
	for _, n := range []int32{d.nTerms, d.nIDs, d.nNum, d.nOwn} {
		if n > 0xffff {
			return nil
		}
	}
	b := make([]byte, 8*(2+len(d.slab)))
	binary.LittleEndian.PutUint64(b, analysisVersion<<48|uint64(d.nTerms)<<32|uint64(d.nIDs)<<16|uint64(d.nNum))
	binary.LittleEndian.PutUint64(b[8:], uint64(d.nOwn)<<48|uint64(d.marks)<<32|uint64(uint32(d.n)))
	for i, w := range d.slab {
		binary.LittleEndian.PutUint64(b[16+8*i:], w)
	}
	return b
}

// decodeAnalysis is the doc EncodeAnalysis encoded into b, when b is one of
// this version, read in place where the machine allows (lewords.View: b must
// then never be written).
func decodeAnalysis(b []byte) (doc, bool) {
	if len(b) < 16 || len(b)%8 != 0 {
		return doc{}, false
	}
	h0, h1 := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
	d := doc{nTerms: int32(h0 >> 32 & 0xffff), nIDs: int32(h0 >> 16 & 0xffff), nNum: int32(h0 & 0xffff),
		nOwn: int32(h1 >> 48), n: int32(uint32(h1)), marks: uint16(h1 >> 32)}
	words := len(b)/8 - 2
	if h0>>48 != analysisVersion || d.n < 0 || int(2*d.nTerms+d.nIDs+d.nNum+3*d.nOwn) != words {
		return doc{}, false
	}
	d.slab = lewords.View[uint64](b[16:])
	return d, true
}

// analysisSeeds key the analysis cache: 128 bits of the text's hash, so a key
// holds no pointer.
var analysisSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// analysesOf sets docs[i] to cands[i]'s analysis: the encoded one it carries,
// or its text's, cached under its hash (none: not cached); the cached ones are
// looked up together (one lock for the window, not one per event).
func analysesOf(cands []Candidate, docs []doc, sc *scratch) {
	keys := sc.keys[:0]
	at := sc.at[:0]                                      // the candidates whose analysis is looked up, in keys' order
	defer func() { sc.keys, sc.at = keys[:0], at[:0] }() // (grown by append: kept for the next)
	for i := range cands {
		c := &cands[i]
		if d, ok := decodeAnalysis(c.Analysis); ok {
			docs[i] = d
		} else if len(c.Hash) == 0 {
			docs[i] = newDoc(c.Text)
		} else {
			keys = append(keys, [2]uint64{maphash.Bytes(analysisSeeds[0], c.Hash), maphash.Bytes(analysisSeeds[1], c.Hash)})
			at = append(at, i)
		}
	}
	analyses.GetMany(keys, func(k int, d doc) { docs[at[k]] = d }, func(k int) doc { return newDoc(cands[at[k]].Text) })
}

// lengthOf is an event's length for BM25: its terms but the marks of the
// answer types that are no words of it (lengthless). The older marks
// (money, time, reason …) count, as the weights were tuned with them in
// (counting them out: +19 −30 on the development sets); the verdict's,
// counted, moved other questions' rankings through the lengths alone (+9
// −7 against +7 −1): ADR 0009, stop 84.
func lengthOf(terms []string) int {
	n := len(terms)
	for _, t := range terms {
		if lengthless[t] {
			n--
		}
	}
	return n
}

// lengthless are the marks of the answer types that count in no event's
// length (lengthOf).
var lengthless = map[string]bool{VerdictTerm: true, VehicleTerm: true, LevelTerm: true, FlightTerm: true, TitleTerm: true, ConsentTerm: true}
