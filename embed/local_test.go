package embed

import (
	"context"
	"math"
	"testing"
)

func cosine(a, b []float32) float64 {
	var dot float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
	}
	return dot
}

func embedOne(t testing.TB, l *Local, s string) []float32 {
	t.Helper()
	v, err := l.Embed(context.Background(), []string{s})
	if err != nil {
		t.Fatal(err)
	}
	return v[0]
}

func TestLocalDeterministicAndNormalised(t *testing.T) {
	l, _ := NewLocal(LocalDimsDefault)
	a := embedOne(t, l, "Refund approved for order 1234")
	b := embedOne(t, l, "Refund approved for order 1234")
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("not deterministic at %d", i)
		}
	}
	if n := cosine(a, a); math.Abs(n-1) > 1e-5 {
		t.Errorf("norm² = %v, want 1", n)
	}
	if z := embedOne(t, l, "  ...  "); cosine(z, z) != 0 {
		t.Errorf("text without features should embed to the zero vector")
	}
}

func TestLocalLexicalSimilarity(t *testing.T) {
	l, _ := NewLocal(LocalDimsDefault)
	q := embedOne(t, l, "where is my refund?")
	related := embedOne(t, l, "Refund R-77 approved: 49.90 EUR back to the card")
	inflected := embedOne(t, l, "the refunds were issued")
	unrelated := embedOne(t, l, "Order shipped with DHL, tracking 00340434")
	if !(cosine(q, related) > cosine(q, unrelated)) {
		t.Errorf("related %.3f should beat unrelated %.3f", cosine(q, related), cosine(q, unrelated))
	}
	if cosine(q, inflected) <= cosine(q, unrelated) {
		t.Errorf("inflection: %.3f should beat %.3f", cosine(q, inflected), cosine(q, unrelated))
	}
}

func TestLocalChinese(t *testing.T) {
	l, _ := NewLocal(LocalDimsDefault)
	q := embedOne(t, l, "我的退款在哪里")       // where is my refund
	hit := embedOne(t, l, "退款已批准，三天内到账") // refund approved, arrives within three days
	miss := embedOne(t, l, "订单已发货")      // order shipped
	if cosine(q, hit) <= cosine(q, miss) || cosine(q, hit) <= 0 {
		t.Errorf("chinese: hit %.3f, miss %.3f", cosine(q, hit), cosine(q, miss))
	}
}

// An identifier typed with or without its dash is one word: "DS220" and
// "PX3302总共多少钱" find the events naming DS-220 and PX-3302 before the
// others, and "DS-220" finds one naming DS220.
func TestLocalIdentifiersHoweverTyped(t *testing.T) {
	l, _ := NewLocal(LocalDimsDefault)
	for _, c := range []struct{ q, hit, miss string }{
		{"what's the status of DS220?", "DS-220: merchant refunded 89.99 EUR", "New card sent by post, arrives in 3-5 working days"},
		{"PX3302总共多少钱？", "报名 课程 PX-3302：Python 入门，1980 元", "分期 第 二 期 990 元 已 扣款"},
		{"status of DS-220?", "Dispute DS220 opened for the payment", "New card sent by post, arrives in 3-5 working days"},
	} {
		q, hit, miss := embedOne(t, l, c.q), embedOne(t, l, c.hit), embedOne(t, l, c.miss)
		if cosine(q, hit) <= cosine(q, miss) || cosine(q, hit) < 0.1 {
			t.Errorf("%q: %q %.3f, %q %.3f", c.q, c.hit, cosine(q, hit), c.miss, cosine(q, miss))
		}
	}
}

func TestNewLocalValidates(t *testing.T) {
	if _, err := NewLocal(0); err == nil {
		t.Error("want an error for 0 dimensions")
	}
}

func BenchmarkLocalEmbed(b *testing.B) {
	l, _ := NewLocal(LocalDimsDefault)
	benchmarkLocalEmbed(b, l)
}

func benchmarkLocalEmbed(b *testing.B, l *Local) {
	texts := make([]string, 64)
	for i := range texts {
		texts[i] = "Ticket 4711 [open] Refund not received: I returned the shoes two weeks ago and still have no refund."
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := l.Embed(context.Background(), texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(texts)), "ns/text")
}
