package api

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/freshctx/freshctx/store"
)

func storeProvenance() store.Provenance {
	return store.Provenance{Topic: "app.orders", Partition: 3, Offset: 1234567}
}

func hitFor(text string) store.Hit {
	return store.Hit{Source: "kb", DocID: "refund-policy", Chunk: 2, Title: "Refund policy", Text: text, Score: 0.6612, Version: 3,
		Provenance: store.Provenance{Topic: "kb.articles", Partition: 0, Offset: 77}}
}

// The /v1/context answer's own JSON is byte for byte encoding/json's. Every
// field of the answer, nested ones too, is filled by reflection with awkward
// values (so a field added later is filled as well, and the test fails until
// appendJSON writes it), and each answer is compared with what encoding/json
// writes for it.
func TestContextResponseJSONMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	refused := 0
	for i := range 3000 {
		var r ContextResponse
		fill(rng, reflect.ValueOf(&r).Elem(), 0)
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		wantErr := enc.Encode(&r)
		got, err := r.appendJSON(nil)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("answer %d: error %v, encoding/json's %v", i, err, wantErr)
		}
		if err != nil {
			refused++
			continue
		}
		got = append(got, '\n')
		if !bytes.Equal(got, want.Bytes()) {
			at := 0
			for at < len(got) && at < want.Len() && got[at] == want.Bytes()[at] {
				at++
			}
			t.Fatalf("answer %d differs at byte %d:\n got: %s\nwant: %s", i, at, tail(got, at), tail(want.Bytes(), at))
		}
	}
	// Some answers hold a time encoding/json cannot write (year 10000): both
	// refuse those. Most must have been compared.
	if refused > 1000 {
		t.Errorf("%d of 3000 answers refused: the filler makes too few encodable answers", refused)
	}
	t.Logf("%d of 3000 answers compared, %d refused by both", 3000-refused, refused)
}

// A value encoding/json refuses (a number that is not finite) is refused too.
func TestContextResponseJSONRefusesWhatEncodingJSONRefuses(t *testing.T) {
	r := ContextResponse{Events: []EventOut{{Score: math.NaN()}}}
	if _, err := r.appendJSON(nil); err == nil {
		t.Error("a NaN score was encoded")
	}
	r = ContextResponse{Meta: Meta{StagesMS: map[string]float64{"rank": math.Inf(1)}}}
	if _, err := r.appendJSON(nil); err == nil {
		t.Error("an infinite stage time was encoded")
	}
}

func tail(b []byte, at int) string {
	from := max(0, at-40)
	return string(b[from:min(len(b), at+40)])
}

var (
	awkwardStrings = []string{"", "refund R-7001 approved", "quote \" and \\ backslash", "line\nbreak\ttab\rreturn",
		"\b\f\x00\x01\x1f\x7f", "<b>&amp;</b>", "退款 15 元已批准", "bad \xff\xfe utf-8", "\u2028 and \u2029", "emoji 🙂",
		"Ｄ－３００２１", "a\u00e9b", "\xed\xa0\x80 surrogate"}
	awkwardFloats = []float64{0, 1, -1, 0.5, 0.1234, 1e-7, 1.5e-9, 1e20, 1e21, 3.4e38, 123456789.125, -0.0001, 1e-6, 0.000001234}
	zones         = []*time.Location{time.UTC, time.FixedZone("CET", 3600), time.FixedZone("IST", 5*3600+1800), time.FixedZone("odd", -(3*3600 + 17))}
)

// fill sets v (and everything under it) to random awkward values.
func fill(rng *rand.Rand, v reflect.Value, depth int) {
	if v.Type() == reflect.TypeFor[time.Time]() {
		ts := []time.Time{time.Date(2026, 12, 2, 4, 30, 0, 0, time.UTC), time.Date(2026, 12, 2, 4, 30, 0, 123456789, time.UTC),
			time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Unix(rng.Int64N(4e9), rng.Int64N(1e9))}
		t := ts[rng.IntN(len(ts))]
		if rng.IntN(100) == 0 {
			t = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) // encoding/json refuses it
		}
		v.Set(reflect.ValueOf(t.In(zones[rng.IntN(len(zones))])))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(awkwardStrings[rng.IntN(len(awkwardStrings))])
	case reflect.Float32, reflect.Float64:
		f := awkwardFloats[rng.IntN(len(awkwardFloats))]
		if rng.IntN(3) == 0 {
			f = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(30)-15))
		}
		v.SetFloat(f)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(rng.Int64N(1<<31) - 1<<30)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(rng.Uint64N(1 << 16))
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.Pointer:
		if depth > 4 || rng.IntN(3) == 0 {
			return // nil
		}
		p := reflect.New(v.Type().Elem())
		fill(rng, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		switch n := rng.IntN(4); {
		case depth > 4 || n == 0:
			return // nil
		default:
			s := reflect.MakeSlice(v.Type(), n-1, n-1)
			for i := range n - 1 {
				fill(rng, s.Index(i), depth+1)
			}
			v.Set(s)
		}
	case reflect.Map:
		if depth > 4 || rng.IntN(4) == 0 {
			return // nil
		}
		m := reflect.MakeMap(v.Type())
		for range rng.IntN(4) {
			k := reflect.New(v.Type().Key()).Elem()
			fill(rng, k, depth+1)
			e := reflect.New(v.Type().Elem()).Elem()
			fill(rng, e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Interface:
		choices := []any{awkwardStrings[rng.IntN(len(awkwardStrings))], awkwardFloats[rng.IntN(len(awkwardFloats))], true, nil,
			map[string]any{"nested": awkwardStrings[rng.IntN(len(awkwardStrings))]}, []any{1.5, "x"}}
		if c := choices[rng.IntN(len(choices))]; c != nil {
			v.Set(reflect.ValueOf(c))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(rng, v.Field(i), depth+1)
			}
		}
	}
}

// BenchmarkContextResponseJSON encodes a typical answer (five events, three
// knowledge chunks, no attributes) both ways.
func BenchmarkContextResponseJSON(b *testing.B) {
	now := time.Date(2026, 12, 2, 4, 30, 0, 123456789, time.UTC)
	age := int64(4200)
	r := ContextResponse{Entity: "customer-42", Context: "Recent events for customer-42 (newest first):\n- 4 min ago [orders] Order O-7001 delivered to the parcel locker\n",
		Meta: Meta{TookMS: 1.234, StagesMS: map[string]float64{"cache": 0.31, "embed": 0.05, "knowledge": 0.4, "rank": 0.12, "render": 0.01},
			ServedFrom: "cache", Degraded: []Degraded{}, Candidates: 11, NewestEventAgeMS: &age, Window: "1h0m0s", Now: now, Cutoff: now.Add(-time.Hour),
			K: 5, Ranking: "hybrid", ContextTokens: 212, KnowledgeMode: "hybrid"}}
	for i := range 5 {
		sim := 0.8123
		r.Events = append(r.Events, EventOut{ID: "orders/O-7001", Source: "orders", Key: "O-7001", Time: now.Add(-time.Duration(i) * time.Minute),
			Text: "Order O-7001 delivered to the parcel locker at Hauptstraße 5", Score: 0.7412, Similarity: &sim, Version: 1733110000000 + int64(i),
			Provenance: storeProvenance()})
	}
	for range 3 {
		r.Documents = append(r.Documents, hitFor("Refunds are paid to the original payment method within 5 to 10 business days once the return arrives at our warehouse."))
	}
	b.Run("encoding-json", func(b *testing.B) {
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(&r)
		}
	})
	b.Run("appendJSON", func(b *testing.B) {
		var out []byte
		for b.Loop() {
			out, _ = r.appendJSON(out[:0])
		}
	})
}
