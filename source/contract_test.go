package source

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/freshctx/freshctx/cdc"
)

// The data contract: headers on live records, fields on backfill rows (a
// header wins), the TTL counted from the Kafka timestamp (the event time for
// rows not from Kafka), errors naming where a bad value came from.
func TestContract(t *testing.T) {
	src := ticketSource()
	src.Contract = Contract{TTLField: "ttl_ms", ContextField: "task", ProvenanceField: "job", Contexts: []string{"support", ""}}
	m, err := NewMapper(src)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	row := func(extra map[string]any) map[string]any {
		r := map[string]any{"id": json.Number("7"), "tenant_id": "acme", "status": "open", "body": "b",
			"customer": map[string]any{"id": json.Number("42")}, "updated_at": now.Format(time.RFC3339Nano)}
		for k, v := range extra {
			r[k] = v
		}
		return r
	}
	header := func(kv ...string) []cdc.Header {
		var hs []cdc.Header
		for i := 0; i+1 < len(kv); i += 2 {
			hs = append(hs, cdc.Header{Key: kv[i], Value: []byte(kv[i+1])})
		}
		return hs
	}
	kafkaAt := now.Add(-10 * time.Second)
	for _, tc := range []struct {
		name    string
		row     map[string]any
		rec     cdc.Record
		expires time.Time // zero: none
		context string
		prod    string
		err     string // substring, or a sentinel's text
	}{
		{name: "headers, TTL from the Kafka timestamp", row: row(nil),
			rec:     cdc.Record{Partition: 0, Timestamp: kafkaAt, Headers: header("AI-TTL", "60000", "ai-context", "support", "ai-provenance", "crm")},
			expires: kafkaAt.Add(time.Minute), context: "support", prod: "crm"},
		{name: "fields on a backfill row, TTL from the event time", row: row(map[string]any{"ttl_ms": json.Number("5000"), "task": "support", "job": "nightly"}),
			rec: cdc.Record{Partition: -1}, expires: now.Add(5 * time.Second), context: "support", prod: "nightly"},
		{name: "a header wins over a field", row: row(map[string]any{"task": "billing"}),
			rec: cdc.Record{Partition: 0, Timestamp: now, Headers: header("ai-context", "support")}, context: "support"},
		{name: "no contract", row: row(nil), rec: cdc.Record{Partition: 0, Timestamp: now}},
		{name: "TTL already past", row: row(nil), rec: cdc.Record{Partition: 0, Timestamp: now.Add(-time.Hour), Headers: header("ai-ttl", "1000")},
			err: ErrExpired.Error()},
		{name: "TTL zero", row: row(nil), rec: cdc.Record{Partition: 0, Timestamp: now, Headers: header("ai-ttl", "0")}, err: ErrExpired.Error()},
		{name: "context not accepted", row: row(nil), rec: cdc.Record{Partition: 0, Timestamp: now, Headers: header("ai-context", "marketing")},
			err: ErrContextNotAccepted.Error()},
		{name: "TTL not a number", row: row(nil), rec: cdc.Record{Partition: 0, Timestamp: now, Headers: header("ai-ttl", "1h")},
			err: `mapping: ai-ttl header: "1h" is not a whole, non-negative number of milliseconds`},
		{name: "TTL field negative", row: row(map[string]any{"ttl_ms": json.Number("-5")}), rec: cdc.Record{Partition: -1},
			err: "mapping: contract field ttl_ms:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := m.Event(&cdc.Change{Op: cdc.OpUpsert, Key: "7", Row: tc.row, Version: 1}, "7", &tc.rec, nil)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				var me *MapError
				if sentinel := errors.Is(err, ErrExpired) || errors.Is(err, ErrContextNotAccepted); sentinel == errors.As(err, &me) {
					t.Fatalf("err %v: skipped records are sentinels, bad values MapErrors", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !e.ExpiresAt.Equal(tc.expires) || e.Context != tc.context || e.Provenance.Producer != tc.prod {
				t.Fatalf("expires %v context %q producer %q, want %v %q %q", e.ExpiresAt, e.Context, e.Provenance.Producer, tc.expires, tc.context, tc.prod)
			}
		})
	}
	if err := (Contract{TTLHeader: " ai-ttl"}).Validate(); err == nil || !strings.Contains(err.Error(), "contract.ttl_header") {
		t.Fatalf("a header name with spaces: %v", err)
	}
}
