package relevance

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// askedOrdinal is the place in an order a question names ("has the second
// transfer gone through?": 2; "第二笔转账到了吗？": 2), 0 when it names none,
// and the word after an English ordinal ("transfer"). Not "at
// first" nor "the first time", as the analysis reads them (namesAPlace).
func askedOrdinal(q text) (int, string) {
	for k, w := range q.words {
		n, ok := ordinalNumber(w)
		prev, next := "", ""
		if k > 0 {
			prev = q.words[k-1]
		}
		if k+1 < len(q.words) {
			next = q.words[k+1]
		}
		if !ok || !namesAPlace(prev, next) {
			continue
		}
		v, _ := strconv.Atoi(n)
		return v, next
	}
	if i := strings.IndexRune(q.norm, '第'); i >= 0 {
		r, _ := utf8.DecodeRuneInString(q.norm[i+len("第"):])
		return cjkNumeral(r), cjkOrdinalNoun(q.norm[i+len("第"):])
	}
	return 0, ""
}

// cjkOrdinalNoun is the first character of the thing a Chinese ordinal
// counts, after its numeral and measure word ("课" of "第一节课", "转" of
// "第二笔转账"), or "".
func cjkOrdinalNoun(after string) string {
	k := 0
	for _, r := range after {
		if unicode.IsSpace(r) {
			continue
		}
		if !isCJK(r) {
			return ""
		}
		if k == 2 {
			return string(r)
		}
		k++
	}
	return ""
}

// nthObject is the n-th object of a kind, in the order the window introduces
// them, and the event introducing it: the kind of the objects the most
// relevant event names of those with another of their kind in the window.
// "why did I get the first ticket?" over two penalty notices asks about
// PCN-55302 when it came before PCN-55303, whichever of them the words match
// best. The objects are those a prefixed identifier names (TR-88121): a
// thing named by a word and a small number ("Session 3") is numbered by it
// already, and the analysis reads "the third class" as 3. A word of the
// question's (own) that some of the kind's introductions use and others do
// not qualifies the kind: "the first Porto booking" is the first booking
// introduced with "Porto", when there are n such. -1 when no event names
// such an object, or its kind has fewer than n.
func nthObject(n int, noun string, own []string, rels []float64, docs []doc, cands []Candidate) (ident, int) {
	if numbered(n, noun, docs, cands) {
		return ident{}, -1
	}
	type object struct {
		id    ident
		intro int // the first event naming it
	}
	var objects []object
	at := map[uint64]int{}    // an object's place in objects
	kinds := map[uint64]int{} // a kind's number of objects
	for i := range docs {
		for k := range int(docs[i].nOwn) {
			id := docs[i].own(k)
			if id.num == 0 || id.amount {
				continue
			}
			if j, ok := at[id.full]; !ok {
				at[id.full] = len(objects)
				objects = append(objects, object{id, i})
				kinds[id.family]++
			} else if cands[i].Time.Before(cands[objects[j].intro].Time) {
				objects[j].intro = i
			}
		}
	}
	best, kind := -1, uint64(0)
	for i := range docs {
		if rels[i] <= 0 || best >= 0 && rels[i] <= rels[best] {
			continue
		}
		for k := range int(docs[i].nOwn) {
			if id := docs[i].own(k); id.num != 0 && kinds[id.family] >= max(2, n) {
				best, kind = i, id.family
				break
			}
		}
	}
	if best < 0 {
		return ident{}, -1
	}
	objects = slices.DeleteFunc(objects, func(o object) bool { return o.id.family != kind })
	if noun != "" {
		// the thing the ordinal counts, which the window's events name and
		// none introducing one of the objects does, is not the objects':
		// "第一节课什么时候？" asks for the first lesson ("周末 班 首 课 12 月
		// 12 日"), not the first of two students' enrolments. An
		// introduction naming it, or a word of its family (Expand), keeps
		// them.
		hs := stemHashes(append(Expand(noun, 3), noun)...) // (the noun's own last)
		if !slices.ContainsFunc(objects, func(o object) bool { return hasAny(&docs[o.intro], hs) }) && namedAnywhere(docs, hs[len(hs)-1]) {
			return ident{}, -1
		}
	}
	// the question's words that some of the objects' introductions use and
	// others do not qualify the kind: "the first Porto booking" is the first
	// of the bookings introduced with "Porto"
	var qualifying []uint64
	for _, t := range own {
		if hasDigit(t) {
			continue // (a number: the ordinal's own, "1 night", a price)
		}
		h := termHash(t)
		if c := countFunc(objects, func(o object) bool { return docs[o.intro].count(h) > 0 }); c > 0 && c < len(objects) {
			qualifying = append(qualifying, h)
		}
	}
	if len(qualifying) > 0 {
		if kept := slices.DeleteFunc(slices.Clone(objects), func(o object) bool {
			return !hasAll(&docs[o.intro], qualifying)
		}); len(kept) >= n {
			objects = kept
		}
	}
	if len(objects) < n {
		return ident{}, -1
	}
	slices.SortStableFunc(objects, func(a, b object) int { return cands[a.intro].Time.Compare(cands[b.intro].Time) })
	return objects[n-1].id, objects[n-1].intro
}

// namedAnywhere reports that an event of docs has the term h.
func namedAnywhere(docs []doc, h uint64) bool {
	for i := range docs {
		if docs[i].count(h) > 0 {
			return true
		}
	}
	return false
}

// countFunc counts the elements of xs for which f holds.
func countFunc[T any](xs []T, f func(T) bool) int {
	n := 0
	for _, x := range xs {
		if f(x) {
			n++
		}
	}
	return n
}

// numbered reports that an event numbers things as the question does: by
// a word and the number ("Session 2": the analysis's numberedThing, a
// letter-led identifier beside the number's term), by a Chinese ordinal
// ("第二笔"), or counts the thing asked of, or a synonym of it ("2 tickets"
// for "my second ticket": the second is one of them; not "2 days, ticket
// DS-8841"; "Week 1 quiz submitted" for "how did I do on the first test?",
// beside two invoices the ordinal would otherwise count). The ordinal's
// number is a term of the question's, and the events writing it match it.
func numbered(n int, noun string, docs []doc, cands []Candidate) bool {
	num := strconv.Itoa(n)
	hash := termHash(num)
	var cjk uint64
	if n <= 10 {
		cjk = termHash("第" + string([]rune(cjkDigits)[n-1]))
	}
	var stems []string // the noun's and its synonyms', once: each event writing the number is read for them
	if noun != "" {
		stems = append([]string{stem(noun)}, Expand(noun, 3)...)
	}
	for i := range docs {
		d := &docs[i]
		if cjk != 0 && d.count(cjk) > 0 {
			return true
		}
		if d.count(hash) == 0 {
			continue
		}
		if len(stems) > 0 && countsOf(strings.ToLower(cands[i].Text), num, stems) {
			return true
		}
		for k := range int(d.nOwn) {
			if id := d.own(k); id.num == 0 && id.family != 0 && !id.amount {
				return true
			}
		}
	}
	return false
}

// countsOf reports the number num, a word of its own, right before a word
// beginning with one of stems (a noun's and its synonyms') in text (lower
// case): "2 tickets" for "ticket", "Week 1 quiz" for "test".
func countsOf(text, num string, stems []string) bool {
	return slices.ContainsFunc(stems, func(st string) bool { return countsOfStem(text, num, st) })
}

// countsOfStem is countsOf for one stem.
func countsOfStem(text, num, stem string) bool {
	for at := 0; ; {
		k := strings.Index(text[at:], num+" "+stem)
		if k < 0 {
			return false
		}
		if k += at; k == 0 || !unicode.IsDigit(rune(text[k-1])) && text[k-1] != '.' && text[k-1] != ',' {
			return true
		}
		at = k + 1
	}
}
