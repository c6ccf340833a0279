package relevance

import (
	"os"
	"slices"
	"testing"
)

// A gloss is a key when it is a short translation: one or two words once
// "to", brackets and "sb"/"sth" are gone, none of them a function word
// ("down payment" is no payment); not a surname, a variant or a note.
func TestGlossKeys(t *testing.T) {
	for _, c := range []struct{ gloss, key, brings string }{
		{"to cancel", "cancel", "cancel"},
		{"(cooked) rice", "rice", "rice"},
		{"meeting room", "meet room", "meeting room"},
		{"to refund", "refund", "refund"},
		{"to inform sb", "inform", "inform"},
		{"to call off", "", ""}, // (a question's "off" is a stop word: no key of it could match)
		{"Clothes", "cloth", "clothes"},
		{"down payment", "", ""},
		{"to check out of a hotel room", "", ""},
		{"surname Huan", "", ""},
		{"variant of 還|还[huan2]", "", ""},
		{"CL:個|个[ge4]", "", ""},
		{"the emergency number for law enforcement in Mainland China and Taiwan", "", ""},
		{"3D printing", "", ""},
	} {
		key, brings := glossKey(c.gloss)
		if key != c.key || brings != c.brings {
			t.Errorf("glossKey(%q) = %q, %q; want %q, %q", c.gloss, key, brings, c.key, c.brings)
		}
	}
}

// An English question's nouns, verbs and pairs of words bring the character pairs of
// their translations; a Chinese question's words their glosses. A word that
// names no thing nor act ("late", "through") brings nothing alone; one with
// more than maxTranslations only those that mean nothing else.
func TestTranslations(t *testing.T) {
	if _, err := os.Stat(CEDICTFile); err != nil {
		t.Skip("CC-CEDICT is not installed (make setup installs it)")
	}
	LoadLexicons()
	if _, words := Lexicons(); words < 100_000 {
		t.Errorf("CC-CEDICT gave %d words to translate, want some 117,000", words)
	}
	brought := func(q string) (terms []string, phrases [][]string) {
		translationsOf(newText(q), Analyze(q).Terms, func(e expansion) {
			if e.phrase != nil {
				phrases = append(phrases, e.phrase)
			} else {
				terms = append(terms, e.term)
			}
		})
		return terms, phrases
	}
	if terms, _ := brought("were the clothes sent back?"); !slices.Contains(terms, "衣服") {
		t.Errorf("clothes brought %v, want 衣服 among them", terms)
	}
	if terms, _ := brought("where is my order?"); !slices.Contains(terms, "订单") || slices.Contains(terms, "命令") {
		t.Errorf("order brought %v, want 订单 (a purchase order, nothing else) and not 命令 (order, command)", terms)
	}
	if terms, _ := brought("is the meeting room free?"); !slices.Contains(terms, "会议") || !slices.Contains(terms, "议室") {
		t.Errorf("meeting room brought %v, want 会议室's pairs", terms)
	}
	if terms, phrases := brought("已经退款了吗？"); !slices.Contains(terms, "refund") || slices.Contains(terms, "alreadi") {
		t.Errorf("已经退款 brought %v %v, want refund and not already (an adverb)", terms, phrases)
	}
	if terms, _ := brought("这期账单多少钱？"); slices.Contains(terms, "number") || slices.Contains(terms, "amount") {
		t.Errorf("多少 is a question word, brought %v", terms)
	}
	if _, phrases := brought("会议室订好了吗？"); !slices.ContainsFunc(phrases, func(p []string) bool { return slices.Equal(p, []string{"meet", "room"}) }) {
		t.Errorf("会议室 brought %v, want the phrase meeting room", phrases)
	}
	if got := Translations("how long does a refund take?"); !slices.Contains(got, "退款") {
		t.Errorf("Translations of an English question: %v, want 退款 among them", got)
	}
	if got := Translations("退款多久到账？"); !slices.Contains(got, "refund") || slices.Contains(got, "number") {
		t.Errorf("Translations of a Chinese question: %v, want refund among them (and nothing of 多少)", got)
	}
	for _, q := range []string{"am I late?", "is it through?", "how much?", "how long?"} {
		if terms, phrases := brought(q); len(terms)+len(phrases) > 0 {
			t.Errorf("%q brought %v %v, want nothing", q, terms, phrases)
		}
	}
}
