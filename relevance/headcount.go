package relevance

import (
	"strings"
	"unicode"
)

// A booking's headcount: "how many people is sc8812 for?", "CT-2081 几 位？".
// The count is stated as digits before a word for people ("2 people", "4 位",
// "10 人"), and changed by an event saying it became another ("changed to 1
// person", "人数 改 为 9 位", "Headcount for CT-209 raised to 45"). A number
// written in words ("一 位 客人 对 花生 过敏": one of the guests) is no
// headcount.

// headcountCues ask how many people something is for.
var headcountCues = newCueSet([]string{"how many people", "how many persons", "how many guests", "how many adults",
	"how many of us", "headcount", "party size", "几个人", "多少人", "几人", "几位", "人数"})

// crewWords are the people a booking's count may name by their role ("how many
// movers are coming for mv6610?", "crew increased to 4", "5 players"): as
// peopleWords and headcountNouns do, in the plural or (after a number or as
// the count's noun) the singular.
var crewWords = map[string]bool{"movers": true, "mover": true, "helpers": true, "helper": true, "porters": true, "porter": true,
	"workers": true, "cleaners": true, "technicians": true, "players": true, "player": true, "crew": true, "team": true,
	"staff": true, "riders": true, "children": true, "kids": true}

// asksHeadcount reports a question asking how many people something is
// for: headcountCues, or "how many" and a role's plural ("how many movers").
func asksHeadcount(q text) bool {
	if headcountCues.in(q) {
		return true
	}
	for k := 0; k+2 < len(q.words); k++ {
		if q.words[k] == "how" && q.words[k+1] == "many" && crewWords[q.words[k+2]] && strings.HasSuffix(q.words[k+2], "s") {
			return true
		}
	}
	return false
}

// peopleWords count people after a number.
var peopleWords = map[string]bool{"people": true, "person": true, "persons": true, "guests": true, "guest": true,
	"adults": true, "adult": true, "pax": true, "diners": true, "participants": true, "attendees": true,
	"travellers": true, "travelers": true, "passengers": true, "人": true, "位": true, "名": true}

// headcountNouns name the count itself ("guests raised to 48", "人数 为 6 位").
var headcountNouns = map[string]bool{"headcount": true, "guests": true, "people": true, "persons": true,
	"participants": true, "attendees": true, "人数": true}

// newValueWords are the words before a new value ("to 48", "为 6 位", "改成 10 人").
var newValueWords = map[string]bool{"to": true, "为": true, "成": true}

// headcountTokens splits a normalised text into runs of digits, runs of
// Latin letters and single Chinese characters (人数 is one token: the count
// of people); anything else separates them.
func headcountTokens(s string) []string {
	var out []string
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case r >= '0' && r <= '9':
			j := i
			for j < len(rs) && (rs[j] >= '0' && rs[j] <= '9' || (rs[j] == ',' || rs[j] == ':') && j+1 < len(rs) && rs[j+1] >= '0' && rs[j+1] <= '9') {
				j++ // (a time, "07:30", is one token, its colon in it)
			}
			out = append(out, string(rs[i:j]))
			i = j
		case r == '人' && i+1 < len(rs) && rs[i+1] == '数':
			out = append(out, "人数")
			i += 2
		case isCJK(r):
			out = append(out, string(r))
			i++
		case unicode.IsLetter(r):
			j := i
			for j < len(rs) && unicode.IsLetter(rs[j]) && !isCJK(rs[j]) {
				j++
			}
			out = append(out, string(rs[i:j]))
			i = j
		default:
			i++
		}
	}
	return out
}

// isNumberToken reports a token of digits (a count, an amount), not a time.
func isNumberToken(t string) bool {
	return t != "" && t[0] >= '0' && t[0] <= '9' && !strings.Contains(t, ":")
}

// countsPeople reports that the tokens at k are a number of people: digits,
// then a word for people (not 人民币, a currency, nor 第 1 名, a rank).
func countsPeople(ts []string, k int) bool {
	if k+1 >= len(ts) || !isNumberToken(ts[k]) || !peopleWords[ts[k+1]] && !crewWords[ts[k+1]] || k > 0 && ts[k-1] == "第" {
		return false
	}
	return !(ts[k+1] == "人" && k+2 < len(ts) && ts[k+2] == "民")
}

// forPeople reports that the tokens at k are "for" and a number that counts
// nothing else ("breakfast for 25, Wednesday 8:30"; not "for 3 nights", "for
// 120 EUR", "for 10:00").
func forPeople(ts []string, k int) bool {
	if ts[k] != "for" || k+1 >= len(ts) || !isNumberToken(ts[k+1]) {
		return false
	}
	if k+2 == len(ts) {
		return true
	}
	next := ts[k+2]
	return !isNumberToken(next) && !unitWord(next)
}

// headcountOf reads a text's headcount: stated (a number of people) and
// changed (a number of people after a word of a new value, "to 1 person",
// "为 6 位", or a number after one, up to six tokens after a noun naming the count:
// "Headcount for CT-209 raised to 45").
func headcountOf(text string) (stated, changed bool) {
	ts := headcountTokens(normalise(text))
	for k := range ts {
		if countsPeople(ts, k) || forPeople(ts, k) || (headcountNouns[ts[k]] || crewWords[ts[k]]) && k+2 < len(ts) && ts[k+1] == "of" && isNumberToken(ts[k+2]) {
			stated = true // (… "crew of 3")
		}
		if !newValueWords[ts[k]] || k+1 >= len(ts) || !isNumberToken(ts[k+1]) {
			continue
		}
		if countsPeople(ts, k+1) {
			stated, changed = true, true
			continue
		}
		if k+2 < len(ts) && unitWord(ts[k+2]) {
			continue // (a measure: "team budget raised to 500 EUR")
		}
		for j := max(0, k-6); j < k; j++ { // (a code between: "Headcount for CT-209 raised to 45")
			if headcountNouns[ts[j]] || crewWords[ts[j]] {
				stated, changed = true, true
			}
		}
	}
	return stated, changed
}

// headcountNow, for a question asking how many people something is for, is
// the newest event changing the headcount (of the question's object, when it
// names one: onObject), which gets the relevance of the most relevant event
// stating a headcount: it is the count now, what else the first booking says
// no more of an answer. An earlier event stating a headcount gets
// Weights.Unstated of that relevance at least (the count it had), and the
// events stating none keep Weights.Unstated of their own, as for a fault or a
// clock time asked (lessOfAnAnswer): a driver named or "gluten-free boxes: 3"
// state a person or a count, no headcount. -1 when no event changes it.
func (rk *ranking) headcountNow() int {
	if !asksHeadcount(rk.q.normalised()) {
		return -1
	}
	best, newest, states := rk.newestOfKind(headcountOf, true)
	if newest < 0 {
		return -1
	}
	rk.answersAs(newest, best)
	for i := range states {
		if states[i] {
			rk.rels[i] = max(rk.rels[i], rk.rels[best]*rk.w.Unstated) // (an earlier count: "breakfast for 25")
		} else {
			rk.rels[i] *= rk.w.Unstated // (stating no headcount: less of an answer)
		}
	}
	return newest
}

// newestOfKind reads each event on the question's object (onObject) with
// read, which says whether it states the kind asked about (kind: a
// headcount; a result still to come) and whether it is an answer now (now:
// a headcount changed; an outcome). It returns the most relevant event (of
// those stating the kind when ofKind), the newest answer (-1: none) and
// which events state the kind. Of the answers, the newest the question's
// words match is the newest when one is ("GH-30217 心电图 结果？": "心电图
// 正常", not the newer "血脂 偏高"; "体检 结果 怎么样？" matches no outcome:
// "报告 已 出：血脂 偏高", the newest).
func (rk *ranking) newestOfKind(read func(text string) (kind, now bool), ofKind bool) (best, newest int, kinds []bool) {
	best, newest, matched := -1, -1, -1
	kinds = make([]bool, len(rk.cands))
	for i := range rk.cands {
		if !rk.onObject(i) {
			continue
		}
		kind, now := read(rk.cands[i].Text)
		kinds[i] = kind
		if (kind || !ofKind) && (best < 0 || rk.rels[i] > rk.rels[best]) {
			best = i
		}
		if now {
			newest = rk.newer(i, newest)
			if rk.comps[i].Lexical > 0 {
				matched = rk.newer(i, matched)
			}
		}
	}
	if matched >= 0 {
		newest = matched
	}
	return best, newest, kinds
}

// onObject reports event i on the question's object (naming it, or in its
// story), or any event when the question names none.
func (rk *ranking) onObject(i int) bool {
	return len(rk.qids) == 0 || rk.comps[i].Identifier > 0 || rk.comps[i].Thread > 0
}

// newer is the newer of events i and j (j -1: none yet).
func (rk *ranking) newer(i, j int) int {
	if j < 0 || rk.cands[i].Time.After(rk.cands[j].Time) {
		return i
	}
	return j
}
