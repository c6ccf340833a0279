package cdc

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "debezium", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeDebeziumFixtures(t *testing.T) {
	pgKey := fixture(t, "postgres/key.json")
	pgKeySchema := fixture(t, "postgres/key.schema.json")
	myKey := []byte(`{"id":1004}`)
	myKeySchema := fixture(t, "mysql/key.schema.json")
	tests := []struct {
		file, key       string
		keyBytes        []byte
		op              Op
		version         int64
		row             map[string]any
		unavailable     []string
		sourceTime      int64 // ms
		offset          int64
		wantRowContains string
	}{
		{file: "postgres/create.json", keyBytes: pgKey, key: "1", op: OpUpsert, version: 24023128, sourceTime: 1559033904863,
			row: map[string]any{"id": json.Number("1"), "first_name": "Anne", "last_name": "Kretchmar", "email": "annek@noanswer.org"}},
		{file: "postgres/create.schema.json", keyBytes: pgKeySchema, key: "1", op: OpUpsert, version: 24023128, sourceTime: 1559033904863,
			row: map[string]any{"id": json.Number("1"), "first_name": "Anne", "last_name": "Kretchmar", "email": "annek@noanswer.org"}},
		{file: "postgres/update.json", keyBytes: pgKey, key: "1", op: OpUpsert, version: 24023128, sourceTime: 1559033904863,
			row: map[string]any{"id": json.Number("1"), "first_name": "Anne Marie", "last_name": "Kretchmar", "email": "annek@noanswer.org"}},
		{file: "postgres/delete.json", keyBytes: pgKey, key: "1", op: OpDelete, version: 46523128, sourceTime: 1559033904863,
			row: map[string]any{"id": json.Number("1")}},
		{file: "postgres/read-snapshot.json", keyBytes: pgKey, key: "1", op: OpUpsert, version: 24023128, sourceTime: 1559033904863,
			row: map[string]any{"id": json.Number("1"), "first_name": "Anne", "last_name": "Kretchmar", "email": "annek@noanswer.org"}},
		{file: "postgres/toast-unavailable.json", keyBytes: []byte(`{"id":1004}`), key: "1004", op: OpUpsert, version: 34650016, sourceTime: 1570448151151,
			row:         map[string]any{"id": json.Number("1004"), "first_name": "Dana", "last_name": "Kretchmar", "email": "annek@noanswer.org"},
			unavailable: []string{"biography"}},
		{file: "postgres/truncate.json", op: OpTruncate, version: 46523128, sourceTime: 1559033904863},
		{file: "postgres/message.json", keyBytes: fixture(t, "postgres/message.key.json"), key: "foo", op: OpSkip, offset: 7, version: 46523128},
		{file: "postgres/transaction-begin.json", op: OpSkip, offset: 3, version: 3},
		{file: "postgres/transaction-end.json", op: OpSkip, offset: 4, version: 4},
		{file: "postgres/pk-change.1-delete.json", keyBytes: pgKey, key: "1", op: OpDelete, version: 24023128, sourceTime: 1559033904863},
		{file: "postgres/pk-change.3-create.json", keyBytes: fixture(t, "postgres/pk-change.3-create.key.json"), key: "2", op: OpUpsert, version: 24023128, sourceTime: 1559033904863},
		{file: "mysql/create.json", keyBytes: myKey, key: "1004", op: OpUpsert, version: 3<<40 | 154<<8, sourceTime: 0,
			row: map[string]any{"id": json.Number("1004"), "first_name": "Anne", "last_name": "Kretchmar", "email": "annek@noanswer.org"}},
		{file: "mysql/create.schema.json", keyBytes: myKeySchema, key: "1004", op: OpUpsert, version: 3<<40 | 154<<8},
		{file: "mysql/update.json", keyBytes: myKey, key: "1004", op: OpUpsert, version: 3<<40 | 484<<8, sourceTime: 1465581029100},
		{file: "mysql/delete.json", keyBytes: myKey, key: "1004", op: OpDelete, version: 3<<40 | 805<<8, sourceTime: 1465581902300},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			c, err := DecodeDebezium(Record{Key: tt.keyBytes, Value: fixture(t, tt.file), Offset: tt.offset})
			if err != nil {
				t.Fatal(err)
			}
			if c.Op != tt.op || c.Key != tt.key || c.Version != tt.version {
				t.Errorf("got op=%v key=%q version=%d, want op=%v key=%q version=%d", c.Op, c.Key, c.Version, tt.op, tt.key, tt.version)
			}
			if tt.row != nil && !reflect.DeepEqual(c.Row, tt.row) {
				t.Errorf("row = %v, want %v", c.Row, tt.row)
			}
			if !reflect.DeepEqual(c.Unavailable, tt.unavailable) {
				t.Errorf("unavailable = %v, want %v", c.Unavailable, tt.unavailable)
			}
			if tt.sourceTime != 0 && !c.SourceTime.Equal(time.UnixMilli(tt.sourceTime)) {
				t.Errorf("source time = %v, want %v", c.SourceTime, time.UnixMilli(tt.sourceTime))
			}
			for _, v := range c.Row {
				if v == Placeholder {
					t.Errorf("placeholder left in row: %v", c.Row)
				}
			}
		})
	}
}

func TestDecodeDebeziumTombstones(t *testing.T) {
	for _, value := range [][]byte{nil, fixture(t, "postgres/delete.tombstone.value"), []byte("null"), []byte(`{"schema":{"type":"struct"},"payload":null}`)} {
		c, err := DecodeDebezium(Record{Key: []byte(`{"id":1}`), Value: value, Offset: 9})
		if err != nil {
			t.Fatalf("%q: %v", value, err)
		}
		if !c.Tombstone || c.Op != OpSkip || c.Key != "1" {
			t.Errorf("%q: got %+v, want a skipped tombstone of key 1", value, c)
		}
	}
}

func TestDecodeCompoundKey(t *testing.T) {
	c, err := DecodeDebezium(Record{Key: []byte(`{"b":"x","a":2}`), Value: fixture(t, "postgres/create.json")})
	if err != nil {
		t.Fatal(err)
	}
	if c.Key != `{"a":2,"b":"x"}` {
		t.Errorf("key = %s", c.Key)
	}
}

func TestDecodeDebeziumErrors(t *testing.T) {
	tests := []struct{ value, field string }{
		{`{"op":"c"`, "value"},
		{`[1,2]`, "value"},
		{`{"op":"x","after":{}}`, "op"},
		{`{"op":"c"}`, "after"},
		{`{"op":"c","after":"nope"}`, "after"},
		{`{"op":7,"after":{}}`, "op"},
		{`{"after":{"id":1}}`, "op"},
		{`{"schema":{},"payload":"s"}`, "payload"},
		{`{"op":"c","after":{},"source":{"connector":"mysql","file":"bin.x","pos":4}}`, "source.file"},
		{`{"op":"c","after":{}} {}`, "value"},
	}
	for _, tt := range tests {
		_, err := DecodeDebezium(Record{Value: []byte(tt.value)})
		var de *DecodeError
		if !errors.As(err, &de) || !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err = %v, want a DecodeError", tt.value, err)
			continue
		}
		if de.Field != tt.field {
			t.Errorf("%s: field = %q, want %q (%v)", tt.value, de.Field, tt.field, err)
		}
	}
}

func TestDecodeJSON(t *testing.T) {
	c, err := DecodeJSON(Record{Key: []byte("o-1"), Value: []byte(`{"order_id":"o-1","amount":1234567890123456789}`), Offset: 5})
	if err != nil {
		t.Fatal(err)
	}
	if c.Op != OpUpsert || c.Key != "o-1" || c.Version != 5 || c.Row["amount"] != json.Number("1234567890123456789") {
		t.Errorf("got %+v", c)
	}
	c, err = DecodeJSON(Record{Key: []byte("o-1"), Offset: 6})
	if err != nil || c.Op != OpDelete || !c.Tombstone || c.Key != "o-1" {
		t.Errorf("tombstone: %+v %v", c, err)
	}
	if _, err := DecodeJSON(Record{Value: nil}); !errors.Is(err, ErrMalformed) {
		t.Errorf("keyless tombstone: err = %v", err)
	}
	if _, err := DecodeJSON(Record{Value: []byte(`"text"`)}); !errors.Is(err, ErrMalformed) {
		t.Errorf("string value: err = %v", err)
	}
}

func TestDecodeDebeziumFlat(t *testing.T) {
	key := []byte(`{"id":1}`)
	tests := []struct {
		file string
		op   Op
		row  map[string]any
	}{
		{"unwrap/update.json", OpUpsert, map[string]any{"field1": "newvalue1", "field2": "newvalue2"}},
		{"unwrap/create.add-fields.json", OpUpsert, nil},
		{"unwrap/delete.rewrite.json", OpDelete, map[string]any{"pk": json.Number("2"), "cola": nil, "__deleted": "true"}},
		{"unwrap/delete.rewrite.add-fields.json", OpDelete, nil},
		{"unwrap/delete.default.json", OpDelete, nil},
	}
	for _, tt := range tests {
		c, err := DecodeDebeziumFlat(Record{Key: key, Value: fixture(t, tt.file), Offset: 42})
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if c.Op != tt.op || c.Key != "1" || c.Version != 42 {
			t.Errorf("%s: op=%v key=%q version=%d", tt.file, c.Op, c.Key, c.Version)
		}
		if tt.row != nil && !reflect.DeepEqual(c.Row, tt.row) {
			t.Errorf("%s: row = %v", tt.file, c.Row)
		}
	}
	c, _ := DecodeDebeziumFlat(Record{Key: key, Value: fixture(t, "unwrap/create.add-fields.json")})
	if !c.SourceTime.Equal(time.UnixMilli(1559033904863)) || c.Row["first_name"] != "Anne" || c.Row["__table"] != "customers" {
		t.Errorf("metadata fields: %+v", c)
	}
	if c, err := DecodeDebeziumFlat(Record{Key: key, Value: nil}); err != nil || c.Op != OpDelete || !c.Tombstone {
		t.Errorf("Kafka null: %+v %v", c, err)
	}
	// A record in the other format is refused with a hint, not misread.
	if _, err := DecodeDebeziumFlat(Record{Key: key, Value: fixture(t, "postgres/create.json")}); err == nil || !strings.Contains(err.Error(), "use format debezium") {
		t.Errorf("envelope on a flat source: %v", err)
	}
	if _, err := DecodeDebezium(Record{Key: key, Value: fixture(t, "unwrap/update.json")}); err == nil || !strings.Contains(err.Error(), "use format debezium-flat") {
		t.Errorf("flat record on an envelope source: %v", err)
	}
}

func TestDecodeTransactionMetadata(t *testing.T) {
	c, err := DecodeDebezium(Record{Key: []byte(`{"pk":2}`), Value: fixture(t, "postgres/create.with-transaction.json")})
	if err != nil {
		t.Fatal(err)
	}
	if c.TxID != "571:53195832" || c.TxOrder != 1 || c.Op != OpUpsert || c.Version != 53195832 {
		t.Errorf("transaction metadata: %+v", c)
	}
}

// FuzzDecode: decoders never panic, and a successful decode never leaks the TOAST
// placeholder into a row.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"postgres/create.json", "postgres/create.schema.json", "postgres/update.json", "postgres/delete.json",
		"postgres/toast-unavailable.json", "postgres/truncate.json", "mysql/update.json", "postgres/transaction-begin.json"} {
		f.Add([]byte(`{"id":1}`), fixture(f, name))
	}
	f.Add([]byte(nil), []byte(`{"a":1}`))
	for _, name := range []string{"unwrap/create.add-fields.json", "unwrap/delete.rewrite.json", "unwrap/delete.default.json"} {
		f.Add([]byte(`{"id":1}`), fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, key, value []byte) {
		for _, format := range []Format{FormatDebezium, FormatDebeziumFlat, FormatJSON} {
			c, err := Decode(format, Record{Key: key, Value: value})
			if err != nil {
				if !errors.Is(err, ErrMalformed) {
					t.Fatalf("error does not wrap ErrMalformed: %v", err)
				}
				continue
			}
			for k, v := range c.Row {
				if s, ok := v.(string); ok && (s == Placeholder || s == placeholderB64) {
					t.Fatalf("placeholder left in column %s", k)
				}
			}
		}
	})
}
