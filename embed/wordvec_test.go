package embed

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeVectors writes word vectors in GloVe's text format (with a fastText
// header line when header is set) and returns the file's path.
func writeVectors(t *testing.T, header bool, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "vectors.txt")
	text := strings.Join(lines, "\n") + "\n"
	if header {
		text = "4 4\n" + text
	}
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

var toyVectors = []string{
	"the 0.9 0.1 0.1 0.1",
	"refund 1 0 0 0.05",
	"reimbursement 0.95 0.05 0 0",
	"parcel 0 1 0 0",
	"courier 0.05 0.9 0.1 0",
}

func TestReadWordVectors(t *testing.T) {
	for _, header := range []bool{false, true} {
		wv, err := readWordVectors(writeVectors(t, header, toyVectors...))
		if err != nil {
			t.Fatal(err)
		}
		if wv.Len() != 5 || wv.Dims() != 4 || wv.rank("refund") != 1 || wv.rank("nothing") != -1 {
			t.Fatalf("header %v: %d words of %d dims, refund at %d", header, wv.Len(), wv.Dims(), wv.rank("refund"))
		}
		// unit length, within the bytes' rounding
		v := make([]float64, 4)
		wv.addTo(v, wv.rank("courier"), 1)
		if n := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2] + v[3]*v[3]); math.Abs(n-1) > 0.01 {
			t.Errorf("courier's vector has length %.3f, want 1", n)
		}
	}
	a, _ := readWordVectors(writeVectors(t, false, toyVectors...))
	b, _ := readWordVectors(writeVectors(t, false, append([]string{"a 0 0 1 0"}, toyVectors...)...))
	if a.ID() == b.ID() {
		t.Errorf("other vectors, same id %s", a.ID())
	}
	for _, c := range []struct {
		lines []string
		want  string
	}{
		{[]string{"refund 1 0 0 0", "parcel 0 1 0"}, "vectors.txt:2: 3 numbers, the first line has 4"},
		{[]string{"refund 1 0 zero 0"}, `vectors.txt:1: strconv.ParseFloat: parsing "zero"`},
		{[]string{""}, "no word vectors"},
	} {
		if _, err := readWordVectors(writeVectors(t, false, c.lines...)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.lines, err, c.want)
		}
	}
}

func TestParseFloats(t *testing.T) {
	x := make([]float64, 5)
	n, err := parseFloats(x, []byte(" -0.1234 7 1e-2 .5  -3.25"))
	if err != nil || n != 5 {
		t.Fatalf("n %d, err %v", n, err)
	}
	for i, want := range []float64{-0.1234, 7, 0.01, 0.5, -3.25} {
		if math.Abs(x[i]-want) > 1e-12 {
			t.Errorf("x[%d] = %v, want %v", i, x[i], want)
		}
	}
}

func TestWordVectorsBringMeaning(t *testing.T) {
	wv, err := readWordVectors(writeVectors(t, false, toyVectors...))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := newLocalWith(67, wv); err == nil {
		t.Error("67 dimensions leave 63 beside 4 of word vectors: want an error")
	}
	l, err := newLocalWith(68, wv)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := NewLocal(64)
	if !strings.HasSuffix(l.Model(), "-wordvec-v2-"+wv.ID()) || l.Model() == plain.Model() {
		t.Errorf("model %q", l.Model())
	}
	q := embedOne(t, l, "the refund")
	near, far := embedOne(t, l, "Reimbursement"), embedOne(t, l, "Courier")
	if cn, cf := cosine(q, near), cosine(q, far); cn < 0.4 || cf > 0.2 {
		t.Errorf("no word shared: cosine %.2f to a near word, %.2f to a far one", cn, cf)
	}
	if c := cosine(q, q); math.Abs(c-1) > 1e-5 {
		t.Errorf("norm² = %v, want 1", c)
	}
	// the direction all texts share is not in any text's word vectors
	var d float64
	for i, u := range wv.common {
		d += float64(q[64+i]) * u
	}
	if math.Abs(d) > 1e-6 {
		t.Errorf("the word vectors' part has %.3g along the common direction, want 0", d)
	}
	// a text without known words is its hashed features alone, of length 1
	zh, zhPlain := embedOne(t, l, "退款已到账"), embedOne(t, plain, "退款已到账")
	if c := cosine(zh, zh); math.Abs(c-1) > 1e-5 {
		t.Errorf("norm² = %v, want 1", c)
	}
	for i := 64; i < 68; i++ {
		if zh[i] != 0 {
			t.Fatalf("word vectors' part %d = %v for a text without known words", i, zh[i])
		}
	}
	if cosine(zh[:64], zhPlain) < 0.999 {
		t.Errorf("a Chinese text embeds as without word vectors")
	}
}

func TestNewLocalFromConfig(t *testing.T) {
	l, err := NewLocalFromConfig(Config{Provider: ProviderLocal, Dims: 64, WordVectors: WordVectorsNone})
	if err != nil || l.Model() != "local-hash-v2-64" {
		t.Fatalf("none: %v, %v", l, err)
	}
	_, err = NewLocalFromConfig(Config{Provider: ProviderLocal, Dims: 384, WordVectors: filepath.Join(t.TempDir(), "missing.txt")})
	if err == nil || !strings.Contains(err.Error(), "word_vectors: open ") || !strings.Contains(err.Error(), "word_vectors: none") {
		t.Errorf("missing file: %v", err)
	}
	small := writeVectors(t, false, toyVectors...)
	if _, err := NewLocalFromConfig(Config{Provider: ProviderLocal, Dims: 67, WordVectors: small}); err == nil || err.Error() != "dims: 67 leaves fewer than 64 dimensions beside the 4 of word_vectors: 68 at least, or word_vectors: none" {
		t.Errorf("too few dims: %v", err)
	}
	if err := (Config{Provider: ProviderOllama, BaseURL: "http://x", Model: "m", Dims: 8, WordVectors: "v.txt"}).WithDefaults().Validate(); err == nil || !strings.HasPrefix(err.Error(), "word_vectors: only for provider local") {
		t.Errorf("word vectors with a provider: %v", err)
	}
}

// BenchmarkLocalEmbedWordVectors is BenchmarkLocalEmbed's text with the word
// vectors make setup installs (skipped without them).
func BenchmarkLocalEmbedWordVectors(b *testing.B) {
	l, err := NewLocalFromConfig(Config{Provider: ProviderLocal, Dims: LocalDimsDefault})
	if err != nil {
		b.Skip(err)
	}
	benchmarkLocalEmbed(b, l)
}
