package rediscache

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/freshctx/freshctx/store"
)

// decodeBody gives what encoding/json gives for every body json.Marshal writes,
// and refuses what it does not read itself (encoding/json then decodes it).
func TestDecodeBodyMatchesEncodingJSON(t *testing.T) {
	bodies := []cachedEvent{
		{},
		{ID: "E-1", TimeUS: 1764590000123456, Text: "Refund R-7001 approved: 129.90 EUR", Version: 7,
			Prov: store.Provenance{Topic: "payments.refunds", Partition: 3, Offset: 42}},
		{ID: "T-2", TimeUS: -5, Text: `quotes " and \ backslash, <html> & tabs	and
newlines, 退款 15 元, emoji 🚀, U+2028 ` + "\u2028", Attrs: map[string]any{"status": "open", "n": 3.5, "nested": map[string]any{"a": []any{1.0, "x,}]", nil, true}}},
			Version: -9223372036854775808, Prov: store.Provenance{Topic: "t", Partition: -1, Offset: -1, TraceID: "4bf92f", Producer: "job \"x\""},
			Context: "support", Expires: 1764590000999999},
		{Text: "", Attrs: map[string]any{}, Context: "", Prov: store.Provenance{Producer: "p"}},
	}
	for _, ce := range bodies {
		b, err := json.Marshal(ce)
		if err != nil {
			t.Fatal(err)
		}
		var want cachedEvent
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		got, ok := decodeBody(string(b))
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n decoded %+v (%v)\n want    %+v", b, got, ok, want)
		}
	}
	for _, other := range []string{
		`{"id": "spaced"}`, `{"id":"x","unknown":1}`, `{"id":"x"`, `{"id":"x"}trailing`, `{"t":1.5}`,
		`{"p":{"partition":4294967296}}`, `["not an object"]`, `{"id":"unterminated}`, ``,
	} {
		if _, ok := decodeBody(other); ok {
			t.Errorf("%q: decoded, want refused", other)
		}
	}
}

// Any body decodeBody accepts, it decodes as encoding/json does.
func FuzzDecodeBody(f *testing.F) {
	f.Add(`{"id":"E-1","t":1,"text":"a \"b\"","attrs":{"k":[1,"}"]},"ver":2,"p":{"topic":"t","partition":0,"offset":3},"cx":"c","exp":9}`)
	f.Add(`{"id":"x","p":{"topic":"t","partition":1,"offset":2,"trace_id":"tr","producer":"pr"}}`)
	f.Fuzz(func(t *testing.T, data string) {
		got, ok := decodeBody(data)
		if !ok {
			return
		}
		var want cachedEvent
		if err := json.Unmarshal([]byte(data), &want); err != nil {
			t.Fatalf("%q: decodeBody accepted what encoding/json refuses (%v)", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n decoded %+v\n want    %+v", data, got, want)
		}
	})
}
