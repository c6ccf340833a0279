package relevance

import (
	"slices"
	"strings"
	"unicode"
)

// A trip's legs tell which of its flights (trains, coaches) a question means
// when it names none: "when do I fly home now?" asks about the leg that ends
// where the trip began, "what happened to my return flight?" too, "去程几点？"
// about the leg that starts there. A leg is a route a travel event states
// ("Boston to Lisbon, TP 218", "flight AF 1146 Rome-Paris", "G105 次
// 上海虹桥→北京南"); the trip begins where the window's earliest leg does. The
// question then names the routes of the legs it means, and the flights and
// identifiers they name that the other legs do not (a booking reference both
// carry names neither), as if it had written them: an event naming one or
// stating the route matches the question's identifier (Components.Identifier)
// and outranks the other way's, "TP 218 on 17 July cancelled; rebooked on TP
// 220" over "Check-in for TP 217 opens in 24 hours". A flight that replaces
// one of the way's is the way's too (rebooked). Without legs both ways in the
// window nothing changes.

// direction is what a question says of a trip's legs: 0 none, homeward (the
// way back) or outward.
type direction int8

const (
	homeward direction = 1 + iota
	outward
)

// homewardCues and outwardCues ask for one way of a trip; a question needs a
// travel cue too ("how will I get home?" after a breakdown asks no leg).
var (
	homewardCues = newCueSet([]string{"home", "way back", "flight back", "fly back", "flying back", "train back", "coach back",
		"bus back", "going back", "get back", "travel back", "return flight", "return trip", "return journey", "return leg",
		"inbound", "回程", "返程", "回来", "回去"})
	outwardCues = newCueSet([]string{"outbound", "outward", "way there", "way out", "flight there", "flight out", "fly out", "flying out", "去程", "出发的"})
	travelCues  = newCueSet([]string{"fly", "flight", "flights", "train", "coach", "bus", "trip", "journey", "leg", "way back",
		"way there", "depart", "departure", "leave", "board", "boarding", "gate", "seat", "sitting", "check in", "land", "arrive",
		"航班", "飞机", "车次", "火车", "高铁", "动车", "大巴", "发车", "起飞", "座位", "回程", "返程", "去程"})
)

// askedDirection is the way of a trip a question asks about.
func askedDirection(q text) direction {
	home, out := homewardCues.in(q), outwardCues.in(q)
	switch {
	case home == out || !travelCues.in(q):
		return 0
	case home:
		return homeward
	}
	return outward
}

// leg is one route an event states: where from, where to, and what names it.
type leg struct {
	from, to string
	codes    []string // flight and train numbers, normalised ("tp218")
	ids      []ident  // and the identifiers of the event stating it (BT-20944, QT7RBX)
	at       int      // the candidate stating it
}

// travelWords and cjkTravelWords make a clause one about travel, where "A to
// B" is a route ("Plan changed from Basic to Standard" is none).
var travelWords = map[string]bool{"flight": true, "flights": true, "train": true, "coach": true, "bus": true,
	"ferry": true, "trip": true, "ticket": true, "tickets": true, "booking": true, "booked": true, "rebooked": true,
	"return": true, "outbound": true, "departure": true, "departs": true, "seat": true}

// travelHashes are the terms of travelWords and cjkTravelWords: an event
// with none of them states no route.
var travelHashes = func() (hs []uint64) {
	for w := range travelWords {
		hs = append(hs, termHash(stem(w)))
	}
	for _, w := range strings.Fields(cjkTravelWords) {
		hs = append(hs, termHash(w))
	}
	return hs
}()

const cjkTravelWords = "航班 机票 车票 高铁 火车 动车 列车 车次 班次 次 改签 出票 登机 检票 座 去程 回程 返程"

var cjkTravel = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(cjkTravelWords) {
		m[w] = true
	}
	return m
}()

// clausesOf are a text's clauses as legs are written in them: one each
// ("Berlin to Madrid IB 3111, 12 July; Madrid to Berlin IB 3112, 19 July").
func clausesOf(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return r == ';' || r == '；' || r == '\n' })
}

// legWords are a clause's words as routes and flight numbers are read from
// them: split at spaces and at the marks around a place or a number.
func legWords(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",:;()/，：；", r)
	})
}

// legsOf are the routes the candidates state, in the order of their times
// (then of their text).
func legsOf(cands []Candidate, docs []doc) []leg {
	var legs []leg
	for i := range cands {
		if !mayRoute(cands[i].Text) || !hasAny(&docs[i], travelHashes) {
			continue // (no route, or no event about travel: most)
		}
		var ids []ident // (the event's, shared by the legs it states)
		for k := range int(docs[i].nOwn) {
			if x := docs[i].own(k); !x.bare && !x.amount {
				ids = append(ids, x)
			}
		}
		for _, clause := range clausesOf(cands[i].Text) {
			if from, to := routeIn(clause); from != "" {
				legs = append(legs, leg{from: from, to: to, codes: codesIn(clause), ids: ids, at: i})
			}
		}
	}
	slices.SortStableFunc(legs, func(a, b leg) int { return cands[a.at].Time.Compare(cands[b.at].Time) })
	return legs
}

// routeIn finds a route in a travel clause: "Boston to Lisbon", "Rome-Paris",
// "Frankfurt→Madrid", "上海虹桥→北京南", "杭州东 — 南京南". Places are
// capitalised words (not days or months) or runs of Chinese characters.
func routeIn(clause string) (from, to string) {
	if !mayRoute(clause) {
		return "", "" // (most events: no mark a route is written with)
	}
	words := legWords(clause)
	travel := false
	for k, w := range words {
		if travelWords[strings.ToLower(strings.Trim(w, ".!?"))] || cjkTravel[w] || codeKey(words, k) != "" {
			travel = true
			break
		}
	}
	if !travel {
		return "", ""
	}
	for k, w := range words {
		// "A to B", "A → B", "A — B"
		if k > 0 && k+1 < len(words) && (w == "to" || w == "→" || w == "->" || w == "—" || w == "–" || w == "-" || w == "至" || w == "到") {
			if a, b := place(words[k-1]), place(words[k+1]); a != "" && b != "" && (k < 2 || strings.ToLower(words[k-2]) != "from" || w != "to") {
				return a, b
			}
		}
		// "Rome-Paris", "Frankfurt→Madrid", "上海虹桥→北京南"
		for _, sep := range []string{"→", "->", "—", "–", "-"} {
			if a, b, ok := strings.Cut(w, sep); ok {
				if a, b := place(a), place(b); a != "" && b != "" {
					return a, b
				}
			}
		}
	}
	return "", ""
}

// mayRoute reports a mark a route is written with: " to ", "->", an arrow,
// a dash, 至 or 到, or a hyphen between two names ("Rome-Paris"). It is asked
// of every candidate: a few scans for bytes.
func mayRoute(text string) bool {
	if strings.Contains(text, " to ") || strings.Contains(text, "->") {
		return true
	}
	if strings.IndexByte(text, 0xe2) >= 0 || strings.IndexByte(text, 0xe8) >= 0 || strings.IndexByte(text, 0xe5) >= 0 {
		for _, mark := range []string{"→", "—", "–", "至", "到"} {
			if strings.Contains(text, mark) {
				return true
			}
		}
	}
	for i := strings.IndexByte(text, '-'); i > 0 && i+1 < len(text); {
		if text[i+1] >= 'A' && text[i+1] <= 'Z' && text[i-1] >= 'a' && text[i-1] <= 'z' {
			return true
		}
		j := strings.IndexByte(text[i+1:], '-')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// place is a word as a place's name (lower-cased), or "" when it is none.
func place(w string) string {
	w = strings.Trim(w, ".!?")
	rs := []rune(w)
	if len(rs) < 2 {
		return ""
	}
	if isCJK(rs[0]) {
		for _, r := range rs {
			if !isCJK(r) {
				return ""
			}
		}
		return w
	}
	if !unicode.IsUpper(rs[0]) || slices.ContainsFunc(rs[1:], func(r rune) bool { return !unicode.IsLetter(r) }) {
		return ""
	}
	lw := strings.ToLower(w)
	if months[lw] || weekdays[lw] {
		return ""
	}
	return lw
}

var weekdays = map[string]bool{"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true,
	"saturday": true, "sunday": true, "mon": true, "tue": true, "wed": true, "thu": true, "fri": true, "sat": true, "sun": true}

// codeKey is the flight or train number at words[k], normalised ("tp218"),
// or "": two letters or a letter and a digit, then digits, written together
// or apart ("TP 218", "LH1234", "U2 123"), or a train's letter and digits
// ("G105").
func codeKey(words []string, k int) string {
	if k < 0 {
		return ""
	}
	w := strings.Trim(words[k], ".!?")
	rs := []rune(w)
	letters := func(rs []rune) bool {
		return len(rs) == 2 && unicode.IsUpper(rs[0]) && (unicode.IsUpper(rs[1]) || unicode.IsDigit(rs[1])) ||
			len(rs) == 1 && unicode.IsUpper(rs[0])
	}
	digits := func(s string) bool {
		return len(s) >= 1 && len(s) <= 4 && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
	}
	switch {
	case len(rs) == 2 && letters(rs) && k+1 < len(words) && digits(strings.Trim(words[k+1], ".!?")):
		return strings.ToLower(w) + strings.Trim(words[k+1], ".!?") // "TP 218"
	case len(rs) >= 3 && len(rs) <= 6:
		for n := 2; n >= 1; n-- {
			if letters(rs[:n]) && digits(string(rs[n:])) && (n == 2 || strings.ContainsRune("GDCZTK", rs[0])) {
				return strings.ToLower(w) // "LH1234", "G105"
			}
		}
	}
	return ""
}

// codesIn are the flight and train numbers a text names (codeKey).
func codesIn(text string) []string {
	words := legWords(text)
	var codes []string
	for k := range words {
		if c := codeKey(words, k); c != "" && !slices.Contains(codes, c) {
			codes = append(codes, c)
		}
	}
	return codes
}

// namesLeg reports that candidate i states one of a way's routes or names
// one of its flights or identifiers (its doc, d).
func namesLeg(i int, text string, d *doc, w way) bool {
	if slices.Contains(w.stating, i) {
		return true
	}
	if slices.ContainsFunc(w.ids, d.names) {
		return true
	}
	return len(w.codes) > 0 && slices.ContainsFunc(codesIn(text), func(c string) bool { return slices.Contains(w.codes, c) })
}

// way is what names the legs one way of a trip: the candidates stating
// their routes (as legsOf found them), and the flights and identifiers that no
// leg the other way has.
type way struct {
	stating []int
	codes   []string
	ids     []ident
	names   []string // codes and ids as the analysis writes them (Fusion.Object)
}

// legsAsked returns the way a question asks about (d), or none when the
// window holds no legs both ways.
func legsAsked(d direction, cands []Candidate, docs []doc) (w way) {
	legs := legsOf(cands, docs)
	if len(legs) < 2 {
		return way{}
	}
	origin := legs[0].from
	var asked, other []leg
	for _, l := range legs {
		switch {
		case l.to == origin:
			asked = append(asked, l)
		case l.from == origin:
			other = append(other, l)
		}
	}
	if len(asked) == 0 || len(other) == 0 {
		return way{}
	}
	if d == outward {
		asked, other = other, asked
	}
	for _, l := range asked {
		if !slices.Contains(w.stating, l.at) {
			w.stating = append(w.stating, l.at)
		}
		for _, c := range l.codes {
			if !slices.Contains(w.codes, c) && !slices.ContainsFunc(other, func(o leg) bool { return slices.Contains(o.codes, c) }) {
				w.codes, w.names = append(w.codes, c), append(w.names, c)
			}
		}
		for _, x := range l.ids {
			if !slices.Contains(w.ids, x) && !slices.ContainsFunc(other, func(o leg) bool { return slices.Contains(o.ids, x) }) {
				w.ids = append(w.ids, x)
				if name := idText(cands[l.at].Text, x); !slices.Contains(w.names, name) { // (a flight written whole, "HU7281", is a code and an identifier)
					w.names = append(w.names, name)
				}
			}
		}
	}
	rebooked(&w, asked, other, cands, docs)
	return w
}

// rebookHashes are the terms of the words saying that a flight replaces
// another (not "changed": "gate change to G27" names a gate).
var rebookHashes = stemHashes("rebooked", "rebooking", "rebook", "instead", "replacement", "alternative", "改签", "改乘")

// rebooked adds to a way (w) the flights that replace one of its own: a later
// event saying a flight replaces another ("Rebooked: TP 1368, 16 April 21:15") that
// names a flight no leg names, after an event naming one of the way's flights
// ("TP 1366 cancelled due to a crew strike") and none of the other way's
// since, or that names one of the way's flights itself ("TP 218 on 17 July
// cancelled; rebooked on TP 220"); not one naming a flight of the other way,
// which is that leg's ("LH 2034: gate change to G27"). Only such events are
// read for their flights.
func rebooked(w *way, asked, other []leg, cands []Candidate, docs []doc) {
	legCode := func(ls []leg, c string) bool {
		return slices.ContainsFunc(ls, func(l leg) bool { return slices.Contains(l.codes, c) })
	}
	var codes [][]string // each candidate's flights, read once an event says a flight replaces another
	codesOf := func(i int) []string {
		if codes == nil {
			codes = make([][]string, len(cands))
			for k := range cands {
				codes[k] = codesIn(cands[k].Text)
			}
		}
		return codes[i]
	}
	order := make([]int, len(cands)) // (oldest first: a flight rebooked twice joins through the first)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cands[a].Time.Compare(cands[b].Time) })
	for _, j := range order {
		if slices.Contains(w.stating, j) || !hasAny(&docs[j], rebookHashes) {
			continue
		}
		var fresh []string
		own, others := false, false // it names a flight of this way, of the other
		for _, c := range codesOf(j) {
			switch {
			case slices.Contains(w.codes, c) || legCode(asked, c):
				own = true
			case legCode(other, c):
				others = true
			default:
				fresh = append(fresh, c)
			}
		}
		if len(fresh) == 0 || others {
			continue
		}
		if own { // "TP 218 on 17 July cancelled; rebooked on TP 220"
			w.codes, w.names = append(w.codes, fresh...), append(w.names, fresh...)
			continue
		}
		// the latest earlier event naming a leg's flight: of this way or the other
		latest, mine := -1, false
		for k := range cands {
			if k == j || !cands[k].Time.Before(cands[j].Time) || latest >= 0 && !cands[k].Time.After(cands[latest].Time) {
				continue
			}
			ks := codesOf(k)
			this, that := slices.ContainsFunc(ks, func(c string) bool { return slices.Contains(w.codes, c) }),
				slices.ContainsFunc(ks, func(c string) bool { return legCode(other, c) })
			if this != that {
				latest, mine = k, this
			}
		}
		if mine {
			w.codes, w.names = append(w.codes, fresh...), append(w.names, fresh...)
		}
	}
}
