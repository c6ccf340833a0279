package source

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestChunkTextRespectsSizeAndSentences(t *testing.T) {
	var b strings.Builder
	for p := 0; p < 6; p++ {
		for s := 0; s < 8; s++ {
			b.WriteString("Refunds for returned items are issued within five business days. ")
		}
		b.WriteString("\n\n")
	}
	chunks := chunkText(b.String(), 300, 80)
	if len(chunks) < 5 {
		t.Fatalf("%d chunks", len(chunks))
	}
	for i, c := range chunks {
		if n := utf8.RuneCountInString(c); n > 300 {
			t.Errorf("chunk %d has %d runes, over 300", i, n)
		}
		if !strings.HasSuffix(c, ".") {
			t.Errorf("chunk %d does not end at a sentence end: %q", i, c[len(c)-20:])
		}
		if i > 0 && !strings.HasPrefix(c, "Refunds for returned items") {
			t.Errorf("chunk %d does not start at a sentence: %q", i, c[:20])
		}
	}
	// Overlap: each chunk after the first starts with the previous chunk's last sentence.
	for i := 1; i < len(chunks); i++ {
		prev := chunks[i-1]
		last := prev[strings.LastIndex(prev[:len(prev)-1], ".")+2:]
		if !strings.HasPrefix(chunks[i], strings.TrimSpace(last)) {
			t.Errorf("chunk %d does not overlap chunk %d", i, i-1)
		}
	}
}

func TestChunkTextPrefersParagraphEnds(t *testing.T) {
	para := strings.Repeat("One sentence here. ", 12) // 228 runes
	chunks := chunkText(para+"\n\n"+para+"\n\n"+para, 300, 0)
	for i, c := range chunks {
		if strings.Contains(c, "\n\n") {
			t.Errorf("chunk %d spans a paragraph break though the chunk was ¾ full: %q", i, c)
		}
	}
}

func TestChunkTextCJKAndLongRuns(t *testing.T) {
	zh := strings.Repeat("退款将在五个工作日内退回到您的银行卡。", 30) // 19 runes per sentence
	chunks := chunkText(zh, 100, 20)
	for i, c := range chunks {
		if !utf8.ValidString(c) {
			t.Fatalf("chunk %d is not valid UTF-8", i)
		}
		if n := utf8.RuneCountInString(c); n > 100 {
			t.Errorf("chunk %d has %d runes", i, n)
		}
		if !strings.HasSuffix(c, "。") {
			t.Errorf("chunk %d does not end at a CJK full stop", i)
		}
	}
	// A run with no boundary at all is still cut, at rune boundaries.
	long := strings.Repeat("x", 1000)
	got := chunkText(long, 300, 0)
	if len(got) != 4 || utf8.RuneCountInString(got[0]) != 300 {
		t.Errorf("unbroken run: %d chunks, first %d runes", len(got), utf8.RuneCountInString(got[0]))
	}
	if chunkText("   \n\n  ", 100, 10) != nil {
		t.Error("blank text must give no chunks")
	}
}
