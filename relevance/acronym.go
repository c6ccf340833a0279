package relevance

import (
	"slices"
	"unicode/utf8"
)

// Acronyms. Support questions and events name the same thing by its initials
// on one side and in full on the other: "is 2FA on?" and "Two-factor
// authentication enabled", "what's the ETA?" and "estimated time of arrival",
// "SSO" and "single sign-on". No analysed term matches across them, so an
// acronym (three to six characters, two capitals or more, a number first as
// in 2FA; written so by the question or by the event) is matched against the
// initials of consecutive words of the other side, with their stop words or
// without ("know your customer" and "estimated time (of) arrival" both
// count), and a match counts in BM25 as one more word of the question.

// AcronymTerm is the term that a question's acronym matches with, as BM25
// counts it (see Score); no analysed text has it.
const AcronymTerm = "\x00acronym"

// acronyms returns the acronyms written in text, as the initials they stand
// for (a number first becomes its name's initial: 2FA is "tfa").
func acronyms(text string) []string {
	var out []string
	var b [6]byte
	scanAcronyms(text, func(tok string) {
		if n, ok := acronymInitials(tok, &b); ok {
			out = append(out, string(b[:n]))
		}
	})
	return out
}

// scanAcronyms calls f with each token of text that stands alone (ASCII
// letters and digits, not part of a longer word or of an identifier such as
// INV-1040). It scans the bytes and does not allocate: it runs on every text
// ingest analyses (newDoc) and on every question.
func scanAcronyms(text string, f func(tok string)) {
	for i := 0; i < len(text); {
		if !isAlnum(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isAlnum(text[j]) {
			j++
		}
		glued := i > 0 && text[i-1] >= utf8.RuneSelf || j < len(text) && text[j] >= utf8.RuneSelf ||
			j+1 < len(text) && isJoiner(rune(text[j])) && text[j+1] >= '0' && text[j+1] <= '9' ||
			i >= 2 && isJoiner(rune(text[i-1])) && isAlnum(text[i-2])
		if j-i >= 3 && j-i <= 6 && isUpper(text[i+1]) && !glued {
			f(text[i:j]) // (a capital second: most words are out at once)
		}
		i = j
	}
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// numberInitials are the initials of the numbers' English names, by digit.
const numberInitials = "zottffssen"

// acronymInitials puts tok's initials in b when tok is an acronym: three to
// six characters, two capitals or more, a digit first allowed (2FA: "tfa"),
// no lower case, no currency code (EUR).
func acronymInitials(tok string, b *[6]byte) (int, bool) {
	if len(tok) < 3 || len(tok) > len(b) {
		return 0, false
	}
	caps := 0
	for i := 0; i < len(tok); i++ {
		switch c := tok[i]; {
		case c >= 'A' && c <= 'Z':
			caps++
			b[i] = c - 'A' + 'a'
		case c >= '1' && c <= '9' && i == 0:
			b[i] = numberInitials[c-'0']
		default:
			return 0, false // lower case, a number inside: no acronym
		}
	}
	if caps < 2 || caps == 3 && currencyCodes[string(b[:3])] {
		return 0, false
	}
	return len(tok), true
}

// spelled is a text's words as acronym matching needs them: their initials,
// lower-cased, and whether each is a stop word (a word split at hyphens:
// "sign-on" is two; a number or CJK text breaks a run with initial 0). It is
// made without allocating, for every candidate of a question that writes an
// acronym; words past the 64th are left out.
type spelled struct {
	first [64]byte
	stop  [64]bool
	n     int
	run   [6]byte // eachRun's initials (a buffer of its own would escape to f)
}

// of spells text into s (reused: no allocation).
func (s *spelled) of(text string) {
	s.n = 0
	for i := 0; i < len(text) && s.n < len(s.first); {
		c := text[i]
		switch {
		case c >= utf8.RuneSelf: // CJK, accented words: break a run
			j := i
			for j < len(text) && text[j] >= utf8.RuneSelf {
				j++
			}
			s.first[s.n], s.stop[s.n] = 0, false
			s.n++
			i = j
		case isAlnum(c):
			j := i
			var low [8]byte // stop words are shorter
			for j < len(text) && isAlnum(text[j]) {
				if k := j - i; k < len(low) {
					low[k] = text[j] | 0x20 // ASCII lower case (digits unchanged)
				}
				j++
			}
			if c >= '0' && c <= '9' {
				s.first[s.n], s.stop[s.n] = 0, false
			} else {
				s.first[s.n] = c | 0x20
				s.stop[s.n] = j-i <= len(low) && stopWords[string(low[:j-i])]
			}
			s.n++
			i = j
		default:
			i++
		}
	}
}

// eachRun calls f with the initials of each run of consecutive words that
// could spell an acronym, three to six letters long, until f returns true
// (and then returns true): every word's initials, or only the content words'.
// Only runs whose first initial is in leads (a bit per letter a-z) are
// walked.
// A run starts with a content word and holds one stop word at most: "the
// login screen" spells no TLS, "single sign-on" spells SSO, "know your
// customer" KYC.
func (s *spelled) eachRun(leads uint32, f func(initials []byte) bool) bool {
	b := &s.run
	for start := range s.n {
		if c := s.first[start]; s.stop[start] || c < 'a' || c > 'z' || leads&(1<<(c-'a')) == 0 {
			continue
		}
		for _, skipStops := range []bool{false, true} {
			n, stops := 0, 0
			for i := start; i < s.n && n < len(b) && s.first[i] != 0; i++ {
				if s.stop[i] {
					if skipStops {
						continue
					}
					if stops++; stops > 1 {
						break
					}
				}
				b[n] = s.first[i]
				n++
				if n >= 3 && f(b[:n]) {
					return true
				}
			}
		}
	}
	return false
}

// acronymHash is the hash of the analysis term of an acronym a text writes,
// by its initials: the term is the initials behind a byte no word has (\x01),
// so no word analyses to it, and a question's runs of initials find it among a
// candidate's terms without scanning the text again. It is termHash of that
// term, made without building it.
func acronymHash[T string | []byte](initials T) uint64 {
	h := uint64(14695981039346656037)
	h ^= 1
	h *= 1099511628211
	for i := 0; i < len(initials); i++ {
		h ^= uint64(initials[i])
		h *= 1099511628211
	}
	return h
}

// acronymMatches returns, when the question and a candidate name something
// one by its initials and the other in full, 1 for each such candidate (the
// term frequencies of AcronymTerm); nil when none does. An event's acronyms
// are in its analysis (acronymHash): a question without an acronym costs a
// look-up of each candidate's terms in the question's runs of initials.
func acronymMatches(question string, cands []Candidate, docs []doc) []int32 {
	qAcr := acronyms(question)
	var c spelled
	c.of(question)
	var runs []uint64 // what an event's acronym is looked up in
	c.eachRun(^uint32(0), func(r []byte) bool { runs = append(runs, acronymHash(r)); return false })
	tab := newTermTable(runs)
	var leads uint32 // the question's acronyms' first letters
	for _, a := range qAcr {
		leads |= 1 << (a[0] - 'a')
	}
	isQuestions := func(r []byte) bool { // one of the question's acronyms
		for _, a := range qAcr {
			if string(r) == a {
				return true
			}
		}
		return false
	}
	var tf []int32
	for i := range cands {
		hit := false
		if len(qAcr) > 0 {
			c.of(cands[i].Text)
			hit = c.eachRun(leads, isQuestions)
		}
		if !hit && len(runs) > 0 {
			hit = slices.ContainsFunc(docs[i].terms(), func(h uint64) bool { return tab.find(h) >= 0 })
		}
		if hit {
			if tf == nil {
				tf = make([]int32, len(cands))
			}
			tf[i] = 1
		}
	}
	return tf
}
