package embed

import (
	"context"
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// LocalDimsDefault is the default vector size of the local embedder; 384 matches
// common small sentence models so a later switch keeps the same schema.
const LocalDimsDefault = 384

// Local is the deterministic lexical embedder: hashed words, their trigrams
// and CJK characters and pairs, and, with word vectors (NewLocalFromConfig), each
// English word's distributional vector, weighted by how rare the word is and
// summed. A bag of words either way: no model reads the text as a sentence.
// It is safe for concurrent use.
type Local struct {
	dims int
	wv   *WordVectors // nil: the hashed features alone
}

// NewLocal returns a local embedder producing vectors of dims dimensions.
func NewLocal(dims int) (*Local, error) {
	if dims < 8 || dims > 16000 {
		return nil, fmt.Errorf("local embedder: dimensions %d out of range [8, 16000]", dims)
	}
	return &Local{dims: dims}, nil
}

// newLocalWith returns a local embedder whose vectors end with the sum of their
// English words' word vectors (in wv.Dims() of the dims dimensions; the hashed
// features have the rest). A word of frequency rank r (its line in the file)
// weighs (r+100)/(r+1100): "the" 0.09, the 1,000th word 0.52, the 10,000th
// 0.91 (smooth inverse frequency, with Zipf's law for the frequency); then
// the direction all texts share is taken out of the sum (WordVectors.common).
// The word vectors' part has wordVectorShare of the cosine between two texts that
// both have one; a text without (Chinese, or only unknown words) is its hashed
// features alone.
func newLocalWith(dims int, wv *WordVectors) (*Local, error) {
	if dims-wv.Dims() < 64 {
		return nil, fmt.Errorf("dims: %d leaves fewer than 64 dimensions beside the %d of word_vectors: %d at least, or word_vectors: none", dims, wv.Dims(), wv.Dims()+64)
	}
	l, err := NewLocal(dims)
	if err != nil {
		return nil, err
	}
	l.wv = wv
	return l, nil
}

// wordVectorShare is the word vectors' share of the cosine (newLocalWith),
// chosen on the development sets (ADR 0018: 0.3 to 0.8 read alike).
const wordVectorShare = 0.6

// NewLocalFromConfig is the local embedder cfg describes: with the word vectors
// at cfg.WordVectors (default DefaultWordVectors) unless that is "none".
func NewLocalFromConfig(cfg Config) (*Local, error) {
	if cfg.WordVectors == WordVectorsNone {
		return NewLocal(cfg.Dims)
	}
	wv, err := LoadWordVectors(cfg.wordVectorsPath())
	if err != nil {
		return nil, fmt.Errorf("word_vectors: %w (make setup installs %s; word_vectors: none embeds the hashed words alone)", err, DefaultWordVectors)
	}
	return newLocalWith(cfg.Dims, wv)
}

// Dims returns the vector size.
func (l *Local) Dims() int { return l.dims }

// Model names the embedding model; stored vectors are only comparable within
// one. With word vectors it names them by their content.
func (l *Local) Model() string {
	if l.wv != nil {
		return fmt.Sprintf("local-hash-v2-%d-wordvec-v2-%s", l.dims, l.wv.ID())
	}
	return fmt.Sprintf("local-hash-v2-%d", l.dims)
}

// Embed returns one vector per text.
func (l *Local) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	flat := make([]float32, len(texts)*l.dims) // one allocation for the batch
	for i, t := range texts {
		v := flat[i*l.dims : (i+1)*l.dims : (i+1)*l.dims]
		l.embedInto(v, t)
		out[i] = v
	}
	return out, nil
}

// Feature weights: whole words carry most of the meaning; n-grams add tolerance for
// inflection and typos; CJK bigrams stand in for words (no spaces to split on).
const (
	wordWeight    = 1.0
	trigramWeight = 0.35
	cjkUniWeight  = 0.5
	cjkBiWeight   = 1.0
)

func (l *Local) embedInto(v []float32, text string) {
	var g []float64 // the word vectors' sum
	var gbuf [300]float64
	hashed := v
	if l.wv != nil {
		hashed = v[:l.dims-l.wv.Dims()]
		if d := l.wv.Dims(); d <= len(gbuf) {
			g = gbuf[:d]
		} else {
			g = make([]float64, d)
		}
	}
	var word [64]rune // words longer than this are hashed by their first 64 runes
	n := 0
	var prevCJK rune
	// a code's letters, when the word before is one ("DS" of "DS-220"), and
	// whether a joiner ("-", "_") alone came after them
	var code [8]rune
	nCode, joined := 0, false
	flush := func() {
		if n == 0 {
			nCode, joined = 0, false
			return
		}
		w := word[:min(n, len(word))]
		if n <= maxStopWordLen && stopWords[string(w)] {
			n, nCode, joined = 0, 0, false
			return
		}
		l.add(hashed, hashRunes(fnvOffset, w), wordWeight)
		// an identifier however it is typed: "DS-220" also as "ds220", and
		// "DS220" also as "ds" and "220" (codeWeight each)
		if k := letterDigitSplit(w); k > 0 {
			l.add(hashed, hashRunes(fnvOffset, w[:k]), codeWeight)
			l.add(hashed, hashRunes(fnvOffset, w[k:]), codeWeight)
		} else if joined && nCode > 0 && unicode.IsDigit(w[0]) && n+nCode <= len(word) {
			var both [64]rune
			m := copy(both[:], code[:nCode])
			m += copy(both[m:], w)
			l.add(hashed, hashRunes(fnvOffset, both[:m]), codeWeight)
		}
		nCode, joined = 0, false
		if n <= len(code) && allLetters(w) {
			nCode = copy(code[:], w)
		}
		if g != nil && n <= len(word) {
			if r := l.wv.rank(string(w)); r >= 0 {
				l.wv.addTo(g, r, float64(r+100)/float64(r+1100))
			}
		}
		if len(w) >= 4 {
			// Trigrams of "^word$" so prefixes and suffixes count.
			padded := make([]rune, 0, len(w)+2)
			padded = append(padded, '^')
			padded = append(padded, w...)
			padded = append(padded, '$')
			for i := 0; i+3 <= len(padded); i++ {
				l.add(hashed, hashRunes(fnvTrigram, padded[i:i+3]), trigramWeight)
			}
		}
		n = 0
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch {
		case isCJK(r):
			flush()
			l.add(hashed, hashRunes(fnvCJK, []rune{r}), cjkUniWeight)
			if prevCJK != 0 {
				l.add(hashed, hashRunes(fnvCJK, []rune{prevCJK, r}), cjkBiWeight)
			}
			prevCJK = r
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			if n < len(word) {
				word[n] = unicode.ToLower(r)
			}
			n++
		case (r == '-' || r == '_') && n > 0:
			flush()
			joined = nCode > 0
		default:
			flush()
			nCode = 0
		}
		prevCJK = 0
	}
	flush()
	normalize(hashed)
	if g != nil { // without the direction all texts share (WordVectors.common)
		var d float64
		for i, u := range l.wv.common {
			d += g[i] * u
		}
		for i, u := range l.wv.common {
			g[i] -= d * u
		}
	}
	var gn float64
	for _, x := range g {
		gn += x * x
	}
	if gn == 0 {
		return
	}
	hs, gs := float32(math.Sqrt(1-wordVectorShare)), math.Sqrt(wordVectorShare/gn)
	for i := range hashed {
		hashed[i] *= hs
	}
	for i, x := range g {
		v[len(hashed)+i] = float32(x * gs)
	}
}

// add puts weight w on the dimension picked by h, with a sign from another bit of
// h so that collisions cancel out on average instead of piling up.
func (l *Local) add(v []float32, h uint64, w float32) {
	idx := (h >> 1) % uint64(len(v))
	if h&1 == 1 {
		w = -w
	}
	v[idx] += w
}

// codeWeight is the weight of an identifier's other spellings.
const codeWeight = 0.5

// letterDigitSplit is where a word of letters then digits ("ds220") turns to
// digits; 0 for any other word.
func letterDigitSplit(w []rune) int {
	k := 0
	for k < len(w) && unicode.IsLetter(w[k]) {
		k++
	}
	if k == 0 || k == len(w) {
		return 0
	}
	for _, r := range w[k:] {
		if !unicode.IsDigit(r) {
			return 0
		}
	}
	return k
}

func allLetters(w []rune) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

func normalize(v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= inv
	}
}

const (
	fnvOffset  uint64 = 14695981039346656037
	fnvPrime   uint64 = 1099511628211
	fnvTrigram        = fnvOffset ^ 0x5bd1e995 // separate hash spaces per feature kind
	fnvCJK            = fnvOffset ^ 0x27d4eb2f
)

// hashRunes is FNV-1a over the runes, then a final avalanche so that low bits mix.
func hashRunes(seed uint64, rs []rune) uint64 {
	h := seed
	for _, r := range rs {
		for x := uint32(r); ; x >>= 8 {
			h ^= uint64(x & 0xff)
			h *= fnvPrime
			if x < 0x100 {
				break
			}
		}
		h ^= 0xff // rune separator
		h *= fnvPrime
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

// stopWords are English function words. They carry no topic, so matching on
// them ("where is my ...") only adds noise to a lexical similarity.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about after all also am an and any are as at be been before being but by can
		could did do does doing for from had has have having he her here hers him his how i if in into is it its
		just me more most my no nor not of off on once only or other our ours out over own same she should so some
		such than that the their theirs them then there these they this those through to too under until up very
		was we were what when where which while who whom why will with would you your yours hi hello please thanks`) {
		m[w] = true
	}
	return m
}()

const maxStopWordLen = 7

func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}
