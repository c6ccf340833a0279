package source

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/freshctx/freshctx/internal/textutil"
)

// Chunking configures how a document source splits text.
type Chunking struct {
	// Size is the target chunk length in characters (runes, so CJK text is not
	// cut mid-character). Default ChunkSizeDefault.
	Size int `yaml:"size"`
	// Overlap is how many characters of the previous chunk's end start the next
	// one, in whole sentences. Default ChunkOverlapDefault.
	Overlap int `yaml:"overlap"`
}

const (
	ChunkSizeDefault    = 800
	ChunkOverlapDefault = 100
)

// WithDefaults fills unset fields.
func (c Chunking) WithDefaults() Chunking {
	if c.Size == 0 {
		c.Size = ChunkSizeDefault
	}
	if c.Overlap == 0 {
		c.Overlap = ChunkOverlapDefault
	}
	return c
}

// Validate reports the first invalid field.
func (c Chunking) Validate() error {
	switch {
	case c.Size < 50 || c.Size > 20000:
		return errors.New("chunk.size: must be in [50, 20000] characters")
	case c.Overlap < 0 || c.Overlap*2 > c.Size:
		return errors.New("chunk.overlap: must be in [0, chunk.size/2]")
	}
	return nil
}

// unit is a sentence (or a piece of one longer than a chunk).
type unit struct {
	text      string
	runes     int
	paraStart bool // first unit of a paragraph
}

// chunkText splits text into chunks of at most size runes. It packs whole
// sentences, prefers to end a chunk at a paragraph end once the chunk is three
// quarters full, and starts each chunk after the first with the previous chunk's
// trailing whole sentences that fit in overlap runes (none, when the last sentence
// alone is longer: a chunk never starts mid-sentence because of the overlap).
func chunkText(text string, size, overlap int) []string {
	units := splitUnits(text, size)
	var chunks []string
	var cur []unit
	curRunes := 0
	flush := func() {
		if len(cur) == 0 {
			return
		}
		chunks = append(chunks, joinUnits(cur))
		// Seed the next chunk with the overlap.
		var seed []unit
		n := 0
		for i := len(cur) - 1; i >= 0 && n+cur[i].runes <= overlap; i-- {
			seed = append([]unit{cur[i]}, seed...)
			n += cur[i].runes + 1
		}
		if len(seed) > 0 {
			seed[0].paraStart = false
		}
		cur, curRunes = seed, 0
		for _, u := range cur {
			curRunes += u.runes + 1
		}
	}
	fresh := 0 // units in cur that are not overlap
	for _, u := range units {
		full := curRunes+u.runes > size
		paraBreak := u.paraStart && fresh > 0 && curRunes >= size*3/4
		if (full || paraBreak) && fresh > 0 {
			flush()
			fresh = 0
			if curRunes+u.runes > size { // the overlap would not leave room
				cur, curRunes = nil, 0
			}
		}
		cur = append(cur, u)
		curRunes += u.runes + 1
		fresh++
	}
	if fresh > 0 {
		chunks = append(chunks, joinUnits(cur))
	}
	return chunks
}

func joinUnits(us []unit) string {
	var b strings.Builder
	for i, u := range us {
		if i > 0 {
			if u.paraStart {
				b.WriteString("\n\n")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(u.text)
	}
	return b.String()
}

// splitUnits splits text into paragraphs (blank lines) and sentences, and cuts any
// sentence longer than size at word boundaries (or anywhere, for text without
// spaces).
func splitUnits(text string, size int) []unit {
	var out []unit
	for _, para := range splitParagraphs(text) {
		first := true
		for _, s := range textutil.Sentences(para) {
			for _, piece := range cutLong(s, size) {
				out = append(out, unit{text: piece, runes: utf8.RuneCountInString(piece), paraStart: first})
				first = false
			}
		}
	}
	return out
}

func splitParagraphs(text string) []string {
	var paras []string
	for _, p := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			paras = append(paras, p)
		}
	}
	return paras
}

func cutLong(s string, size int) []string {
	rs := []rune(s)
	var out []string
	for len(rs) > size {
		cut := size
		for i := size; i > size/2; i-- {
			if unicode.IsSpace(rs[i]) {
				cut = i
				break
			}
		}
		out = append(out, strings.TrimSpace(string(rs[:cut])))
		rs = rs[cut:]
	}
	if t := strings.TrimSpace(string(rs)); t != "" {
		out = append(out, t)
	}
	return out
}
