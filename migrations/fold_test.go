package migrations

import (
	"regexp"
	"strings"
	"testing"

	"github.com/freshctx/freshctx/internal/textutil"
)

// Migration 008 folds the chunks stored before it by the table the writer
// folds new ones with: its translate() strings and the class of characters
// it looks for are the table's, character by character. A change of the
// table needs a migration of its own (008 has run where it was applied).
func TestTheMigrationFoldsAsTheTable(t *testing.T) {
	b, err := FS.ReadFile("008_chunk_traditional_fold.sql")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`translate\(title \|\| ' ' \|\| text,\s*'([^']*)',\s*'([^']*)'\)`).FindSubmatch(b)
	class := regexp.MustCompile(`~ '\[([^\]]*)\]'`).FindSubmatch(b)
	if m == nil || class == nil {
		t.Fatal("008 has no translate(title || ' ' || text, '…', '…') or no ~ '[…]'")
	}
	var tr, si strings.Builder
	for line := range strings.Lines(textutil.TraditionalTable) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		a, b, _ := strings.Cut(strings.TrimSpace(line), " ")
		tr.WriteString(a)
		si.WriteString(b)
	}
	if string(m[1]) != tr.String() || string(m[2]) != si.String() || string(class[1]) != tr.String() {
		t.Errorf("008's fold is not internal/textutil/traditional.txt's (%d, %d and %d characters against %d): a changed table needs a new migration",
			len([]rune(string(m[1]))), len([]rune(string(m[2]))), len([]rune(string(class[1]))), len([]rune(tr.String())))
	}
	if got := textutil.Simplified("退款會在三到五個工作天內退回"); got != "退款会在三到五个工作天内退回" {
		t.Errorf("the table folds to %q", got)
	}
}
