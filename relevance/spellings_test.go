package relevance

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// spellingRules turn a British spelling into an American one; a pair counts
// only when WordNet lists both spellings in one synset.
var spellingRules = func() (rules []struct {
	re  *regexp.Regexp
	rep string
}) {
	for _, r := range [][2]string{
		{`our$`, `or`}, {`our(s|ed|ing|ite|ites|able|er|ers|ful|less|ism)$`, `or$1`}, // colour, favourite
		{`re$`, `er`}, {`res$`, `ers`}, {`red$`, `ered`}, // centre, metres, fibred
		{`is(e|ed|es|ing|er|ers|ation|ations)$`, `iz$1`}, {`ys(e|ed|es|ing)$`, `yz$1`}, // organise, analyse
		{`ence$`, `ense`}, {`logue(s?)$`, `log$1`}, {`gramme(s?)$`, `gram$1`}, // licence, catalogue, programme
		{`ll(ed|ing|er|ers)$`, `l$1`}, {`lment(s?)$`, `llment$1`}, {`il$`, `ill`}, // cancelled, instalment, fulfil
		{`ae`, `e`}, {`oe`, `e`}, // anaemia, oesophagus
		{`yre(s?)$`, `ire$1`}, {`^grey`, `gray`}, {`ould$`, `old`}, {`osy$`, `ozy`}, {`ough$`, `ow`}, // tyre, mould, cosy, plough
		{`ellery$`, `elry`}, {`ium$`, `um`}, {`^py`, `pa`}, // jewellery, aluminium, pyjamas (not cheque: "check" is checking in too)
	} {
		rules = append(rules, struct {
			re  *regexp.Regexp
			rep string
		}{regexp.MustCompile(r[0]), r[1]})
	}
	return rules
}()

// eachSynset calls f with the words of each synset of WordNet's data files in
// dir, as the files write them ("Shanghai", "colour", "ready(a)").
func eachSynset(dir string, f func(words []string)) error {
	for _, pos := range []string{"noun", "verb", "adj", "adv"} {
		file, err := os.Open(filepath.Join(dir, "data."+pos))
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(file)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "  ") {
				continue // (the licence)
			}
			fs := strings.Fields(line)
			if len(fs) < 4 {
				continue
			}
			n, err := strconv.ParseInt(fs[3], 16, 32)
			if err != nil {
				continue
			}
			var words []string
			for i := 0; i < int(n) && 4+2*i < len(fs); i++ {
				words = append(words, fs[4+2*i])
			}
			f(words)
		}
		file.Close()
		if err := sc.Err(); err != nil {
			return err
		}
	}
	return nil
}

// spellingPairs derives the British and American spellings of one word from
// WordNet's data files in dir: two single-word lemmas of one synset that a
// spelling rule turns into each other.
func spellingPairs(dir string) ([][2]string, error) {
	seen := map[[2]string]bool{}
	err := eachSynset(dir, func(words []string) {
		var lemmas []string
		for _, w := range words {
			if l := lemmaOf(w); !strings.ContainsAny(l, "_-.'") {
				lemmas = append(lemmas, l)
			}
		}
		for _, w := range lemmas {
			for _, r := range spellingRules {
				if v := r.re.ReplaceAllString(w, r.rep); v != w && slices.Contains(lemmas, v) {
					seen[[2]string{w, v}] = true
				}
			}
		}
	})
	if err != nil {
		return nil, err
	}
	var pairs [][2]string
	for p := range seen {
		pairs = append(pairs, p)
	}
	slices.SortFunc(pairs, func(a, b [2]string) int { return strings.Compare(a[0]+" "+a[1], b[0]+" "+b[1]) })
	return pairs, nil
}

const spellingsHeader = `# British spellings and the American ones the analysis folds them to
# (relevance/spellings.go), one pair a line. Derived from WordNet 3.0 (the
# database make setup installs from wordnet-base; WordNet 3.0 Copyright 2006
# by Princeton University, used under its licence), not written by hand: to
# derive it again, run
#   FRESHCTX_WRITE_SPELLINGS=1 go test -run TestSpellingsAreWordNets ./relevance
# Two single-word lemmas of one synset that one of the spelling rules in
# spellings_test.go turns into each other ("colour" and "color").
`

// The spelling table is WordNet's, derived again (when WordNet is installed)
// and compared; FRESHCTX_WRITE_SPELLINGS=1 writes it.
func TestSpellingsAreWordNets(t *testing.T) {
	if _, err := os.Stat(filepath.Join(WordNetDir, "data.noun")); err != nil {
		t.Skipf("WordNet not installed (%v): make setup installs it", err)
	}
	pairs, err := spellingPairs(WordNetDir)
	if err != nil {
		t.Fatal(err)
	}
	derivedTable(t, "spellings.txt", "FRESHCTX_WRITE_SPELLINGS", pairLines(spellingsHeader, pairs), spellingsTable)
}

// pairLines is a derived table's text: its header, then a pair a line.
func pairLines(header string, pairs [][2]string) string {
	var b strings.Builder
	b.WriteString(header)
	for _, p := range pairs {
		fmt.Fprintf(&b, "%s %s\n", p[0], p[1])
	}
	return b.String()
}

// A question's words with another spelling are given in it, both ways and
// in the plural: what a knowledge search also looks for.
func TestOtherSpellings(t *testing.T) {
	got := OtherSpellings("Which colours does the centre have in my favorite size?")
	for _, want := range []string{"colors", "center", "favourite"} {
		if !slices.Contains(got, want) {
			t.Errorf("OtherSpellings: %q, want %q among them", got, want)
		}
	}
	if got := OtherSpellings("where is my refund?"); got != nil {
		t.Errorf("a question without such words: %q", got)
	}
}
