package source

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/store"
)

func ticketSource() Source {
	return Source{Name: "tickets", Topic: "t", Format: cdc.FormatDebezium, ID: "T-{{.id}}", Tenant: "{{.tenant_id}}",
		Entity: "customer:{{.customer.id}}", Time: "updated_at", Text: "Ticket {{.id}} [{{.status}}] {{.body}}",
		Attrs: []string{"status", "customer.tier"}, MaxTextBytes: 64}
}

func TestMapperEvent(t *testing.T) {
	m, err := NewMapper(ticketSource())
	if err != nil {
		t.Fatal(err)
	}
	row := map[string]any{"id": json.Number("7"), "tenant_id": "acme", "status": "open", "body": "Refund\n\n  missing\x00!",
		"customer": map[string]any{"id": json.Number("42"), "tier": "gold"}, "updated_at": json.Number("1700000000123456"), "unused": "x"}
	c := &cdc.Change{Op: cdc.OpUpsert, Key: "7", Row: row, Version: 99}
	e, err := m.Event(c, "7", &cdc.Record{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e.ID != "T-7" || e.Tenant != "acme" || e.Entity != "customer:42" || e.Version != 99 {
		t.Errorf("identity: %+v", e)
	}
	if e.Text != "Ticket 7 [open] Refund missing!" {
		t.Errorf("text = %q (whitespace collapsed, control characters dropped)", e.Text)
	}
	if !e.Time.Equal(time.UnixMicro(1700000000123456)) {
		t.Errorf("time = %v", e.Time)
	}
	if e.Attrs["status"] != "open" || e.Attrs["customer.tier"] != "gold" || len(e.Attrs) != 2 {
		t.Errorf("attrs = %v", e.Attrs)
	}
	if _, kept := e.Fields["unused"]; kept || e.Fields["body"] == nil {
		t.Errorf("fields kept for TOAST merging = %v", e.Fields)
	}
	if len(e.TextHash) != 16 {
		t.Errorf("text hash = %x", e.TextHash)
	}
}

func TestMapperErrorsNameTheField(t *testing.T) {
	m, _ := NewMapper(ticketSource())
	for _, tc := range []struct {
		row   map[string]any
		field string
	}{
		{map[string]any{"customer": map[string]any{"id": 1}}, "tenant"},
		{map[string]any{"tenant_id": "acme"}, "entity"},
		{map[string]any{"id": 1, "tenant_id": "acme", "customer": map[string]any{"id": 1}, "updated_at": "yesterday"}, "time"},
	} {
		_, err := m.Event(&cdc.Change{Op: cdc.OpUpsert, Row: tc.row}, "k", &cdc.Record{}, nil)
		var me *MapError
		if !errors.As(err, &me) || me.Field != tc.field {
			t.Errorf("row %v: err = %v, want a MapError for %s", tc.row, err, tc.field)
		}
	}
}

func TestMapperTOASTKeepsStoredValue(t *testing.T) {
	m, _ := NewMapper(ticketSource())
	row := map[string]any{"id": json.Number("7"), "tenant_id": "acme", "status": "pending", "customer": map[string]any{"id": 42}}
	c := &cdc.Change{Op: cdc.OpUpsert, Row: row, Unavailable: []string{"body"}}
	prior := &store.Prior{Fields: map[string]any{"body": "the original long body"}}
	e, err := m.Event(c, "7", &cdc.Record{Timestamp: time.Now()}, prior)
	if err != nil {
		t.Fatal(err)
	}
	if e.Text != "Ticket 7 [pending] the original long body" || e.Fields["body"] != "the original long body" {
		t.Errorf("text = %q fields = %v", e.Text, e.Fields)
	}
	// Without a stored row the column renders empty, never as the placeholder.
	e, _ = m.Event(c, "7", &cdc.Record{Timestamp: time.Now()}, nil)
	if strings.Contains(e.Text, cdc.Placeholder) || e.Text != "Ticket 7 [pending]" {
		t.Errorf("text without prior = %q", e.Text)
	}
}

func TestMapperTextCapAndJSONVersion(t *testing.T) {
	src := Source{Name: "chat", Topic: "c", Format: cdc.FormatJSON, Key: "{{.mid}}", Tenant: "acme", Entity: "customer:1",
		Text: "{{.text}}", Time: "ts", MaxTextBytes: 10}
	m, err := NewMapper(src)
	if err != nil {
		t.Fatal(err)
	}
	c := &cdc.Change{Op: cdc.OpUpsert, Row: map[string]any{"mid": "m1", "text": "日本語のテキストです", "ts": "2026-01-02T03:04:05.5Z"}}
	key, err := m.KeyOf(c)
	if err != nil || key != "m1" {
		t.Fatalf("key = %q, %v", key, err)
	}
	e, err := m.Event(c, key, &cdc.Record{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e.Text != "日本語…" {
		t.Errorf("capped text = %q, want whole runes then …", e.Text)
	}
	if want := time.Date(2026, 1, 2, 3, 4, 5, 5e8, time.UTC); !e.Time.Equal(want) || e.Version != want.UnixMicro() {
		t.Errorf("time %v version %d", e.Time, e.Version)
	}
	if _, err := m.KeyOf(&cdc.Change{Row: map[string]any{}}); err == nil {
		t.Error("keyless record without a key field: want an error")
	}
}

func TestParseTimeUnits(t *testing.T) {
	want := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	for _, v := range []any{json.Number("1772600767"), json.Number("1772600767000"), json.Number("1772600767000000"),
		json.Number("1772600767000000000"), "2026-03-04T05:06:07Z", "1772600767000"} {
		got, err := parseTime(v)
		if err != nil || !got.Equal(want) {
			t.Errorf("parseTime(%v) = %v, %v", v, got, err)
		}
	}
	if _, err := parseTime(true); err == nil {
		t.Error("a boolean time: want an error")
	}
}

func TestSourceValidate(t *testing.T) {
	s := ticketSource()
	s.Title = "{{.subject}}"
	if err := s.Validate(); err == nil || !strings.HasPrefix(err.Error(), "title:") {
		t.Errorf("title on an event source: %v", err)
	}
	s = ticketSource()
	s.Kind, s.Entity, s.Chunk = KindDocument, "", Chunking{Size: 20}
	if err := s.Validate(); err == nil || !strings.HasPrefix(err.Error(), "chunk.size:") {
		t.Errorf("tiny chunks: %v", err)
	}
	s.Chunk = Chunking{}
	if err := s.Validate(); err != nil {
		t.Errorf("a document source without entity: %v", err)
	}
	s.Kind = "wiki"
	if err := s.Validate(); err == nil || !strings.HasPrefix(err.Error(), "kind:") {
		t.Errorf("unknown kind: %v", err)
	}
	s = ticketSource()
	s.Key = "{{.id}}"
	if err := s.Validate(); err == nil || !strings.HasPrefix(err.Error(), "key:") {
		t.Errorf("key template on debezium: %v", err)
	}
	s = ticketSource()
	s.Text = "{{.body"
	if err := s.Validate(); err == nil || !strings.HasPrefix(err.Error(), "text: unclosed") {
		t.Errorf("unclosed template: %v", err)
	}
}

func TestKeyFormat(t *testing.T) {
	s := ticketSource()
	s.KeyFormat = "avro"
	if err := s.Validate(); err == nil || !strings.HasPrefix(err.Error(), "key_format: avro only") {
		t.Errorf("avro keys on a JSON source: %v", err)
	}
	s.KeyFormat = "string"
	c := cdc.Change{Key: "parsed"}
	if err := s.ApplyKeyFormat(&c, []byte(`{"id":1}`)); err != nil || c.Key != `{"id":1}` {
		t.Errorf("string key: %q %v", c.Key, err)
	}
	s.KeyFormat = "json"
	if err := s.ApplyKeyFormat(&c, []byte("order-17")); err == nil || !strings.Contains(err.Error(), "key_format") {
		t.Errorf("a non-JSON key with key_format json: %v", err)
	}
}
