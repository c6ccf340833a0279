package relevance

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/freshctx/freshctx/internal/textutil"
)

// traditionalPairs derives the fold from CC-CEDICT: each Traditional
// character of a single-character entry whose Simplified form differs, to the
// Simplified form most of its entries give (麼: 么 in three readings, 麽 in
// one), leaving out a character that is some entry's Simplified form as well
// (乾, 著: a Simplified text has it) and one whose readings split evenly.
func traditionalPairs(path string) ([][2]rune, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	votes := map[rune]map[rune]int{}
	simplifiedToo := map[rune]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		t, rest, _ := strings.Cut(sc.Text(), " ")
		s, _, _ := strings.Cut(rest, " ")
		if strings.HasPrefix(t, "#") || utf8.RuneCountInString(t) != 1 || utf8.RuneCountInString(s) != 1 {
			continue
		}
		tr, _ := utf8.DecodeRuneInString(t)
		sr, _ := utf8.DecodeRuneInString(s)
		simplifiedToo[sr] = true
		if tr != sr {
			if votes[tr] == nil {
				votes[tr] = map[rune]int{}
			}
			votes[tr][sr]++
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var pairs [][2]rune
	for t, v := range votes {
		if simplifiedToo[t] {
			continue
		}
		best, n, tie := rune(0), 0, false
		for s, c := range v {
			switch {
			case c > n:
				best, n, tie = s, c, false
			case c == n:
				tie = true
			}
		}
		if !tie {
			pairs = append(pairs, [2]rune{t, best})
		}
	}
	slices.SortFunc(pairs, func(a, b [2]rune) int { return int(a[0]) - int(b[0]) })
	return pairs, nil
}

const traditionalHeader = `# Traditional Chinese characters and the Simplified forms the analysis and the
# knowledge full text fold them to (internal/textutil/simplified.go), one pair
# a line. Derived from CC-CEDICT (the dictionary make setup installs; MDBG,
# CC BY-SA 4.0: this table is under the same licence), not written by hand:
# to derive it again, run
#   FRESHCTX_WRITE_TRADITIONAL=1 go test -run TestTraditionalTableIsCEDICTs ./relevance
# Each Traditional character of a single-character entry whose Simplified form
# differs, to the form most of its entries give; not a character that is some
# entry's Simplified form too, nor one whose entries split evenly.
`

// The fold's table is CC-CEDICT's, derived again (when the dictionary is
// installed) and compared; FRESHCTX_WRITE_TRADITIONAL=1 writes it.
func TestTraditionalTableIsCEDICTs(t *testing.T) {
	if _, err := os.Stat(CEDICTFile); err != nil {
		t.Skipf("CC-CEDICT not installed (%v): make setup installs it", err)
	}
	pairs, err := traditionalPairs(CEDICTFile)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(traditionalHeader)
	for _, p := range pairs {
		fmt.Fprintf(&b, "%c %c\n", p[0], p[1])
	}
	derivedTable(t, "../internal/textutil/traditional.txt", "FRESHCTX_WRITE_TRADITIONAL", b.String(), textutil.TraditionalTable)
}

// derivedTable compares a table derived again from its source (derived) with
// the one the package embeds from file, or writes file when env is set: a
// table derived from a dictionary is in the repository, and must stay what
// its source and rules give.
func derivedTable(t *testing.T, file, env, derived, embedded string) {
	t.Helper()
	if os.Getenv(env) != "" {
		if err := os.WriteFile(file, []byte(derived), 0o644); err != nil {
			t.Fatal(err)
		}
		return // (the table embedded in this test binary is the one before)
	}
	if derived != embedded {
		t.Errorf("%s is not what its source gives (%d lines derived, %d embedded): %s=1 writes it",
			file, strings.Count(derived, "\n"), strings.Count(embedded, "\n"), env)
	}
}
