package cdc

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Op is what a change does to its key.
type Op uint8

const (
	// OpSkip: nothing to write (Debezium messages, transaction markers, and the
	// tombstone that follows a Debezium delete, which was already applied).
	OpSkip Op = iota
	// OpUpsert: create, update or snapshot read; Row holds the new state.
	OpUpsert
	// OpDelete: Row holds what is known of the old state (often only the key columns).
	OpDelete
	// OpTruncate: every row of the source table was removed.
	OpTruncate
)

func (o Op) String() string {
	switch o {
	case OpUpsert:
		return "upsert"
	case OpDelete:
		return "delete"
	case OpTruncate:
		return "truncate"
	default:
		return "skip"
	}
}

// Placeholder is the value Debezium's PostgreSQL connector sends for an unchanged
// TOASTed column (the default of unavailable.value.placeholder).
const Placeholder = "__debezium_unavailable_value"

// placeholderB64 is the placeholder as a bytea column carries it with the default
// binary.handling.mode=bytes.
var placeholderB64 = base64.StdEncoding.EncodeToString([]byte(Placeholder))

// Header is one Kafka record header.
type Header struct {
	Key   string
	Value []byte
}

// Record is the part of a Kafka record that decoding needs.
type Record struct {
	Topic     string
	Partition int32
	Offset    int64
	Key       []byte
	Value     []byte // nil for a tombstone
	Headers   []Header
	Timestamp time.Time
}

// Change is a decoded record.
type Change struct {
	Op Op
	// Key identifies the changed row within its topic: the single key field's value
	// ("42"), canonical JSON for compound keys, or the raw key bytes.
	Key string
	// Row is the new row for upserts, the old row for deletes. Numbers are json.Number.
	Row map[string]any
	// Unavailable lists columns that carried the TOAST placeholder; they are not in Row.
	Unavailable []string
	// Version orders changes of one key (see the package comment).
	Version int64
	// SourceTime is when the change happened at the source (source.ts_ms), or zero.
	SourceTime time.Time
	// Tombstone is true for a record with a null value.
	Tombstone bool
	// TxID and TxOrder are Debezium's transaction metadata (provide.transaction.metadata):
	// the transaction id and the change's position in it; empty without it.
	TxID    string
	TxOrder int64
}

// Format names a record format.
type Format string

const (
	// FormatDebezium: Debezium change-event envelopes (JsonConverter).
	FormatDebezium Format = "debezium"
	// FormatDebeziumFlat: the output of Debezium's ExtractNewRecordState (unwrap)
	// transform: the row itself, with optional __op, __deleted, __source_ts_ms fields.
	FormatDebeziumFlat Format = "debezium-flat"
	// FormatJSON: plain JSON business events.
	FormatJSON Format = "json"
)

// Decode decodes r in the given format.
func Decode(f Format, r Record) (Change, error) {
	switch f {
	case FormatDebezium:
		return DecodeDebezium(r)
	case FormatDebeziumFlat:
		return DecodeDebeziumFlat(r)
	case FormatJSON:
		return DecodeJSON(r)
	case FormatDebeziumAvro:
		return Change{}, malformed("", "Avro records are decoded after Avro.ToJSON, as format debezium")
	default:
		return Change{}, malformed("", "unknown format %q", f)
	}
}

// DecodeDebezium decodes a Debezium change event written by Kafka Connect's
// JsonConverter, with or without schemas.
func DecodeDebezium(r Record) (Change, error) {
	key, err := decodeKey(r.Key)
	if err != nil {
		return Change{}, err
	}
	if isNull(r.Value) {
		// The tombstone after a delete (or a PK change) lets Kafka compact the key
		// away. The delete itself came first with its version, so nothing is left
		// to do, and applying it without a version could undo a later re-create.
		return Change{Op: OpSkip, Key: key, Tombstone: true, Version: r.Offset}, nil
	}
	var env envelope
	if err := unmarshalEnvelope(r.Value, &env); err != nil {
		return Change{}, err
	}
	if env.nullPayload {
		return Change{Op: OpSkip, Key: key, Tombstone: true, Version: r.Offset}, nil
	}
	c := Change{Key: key, Version: r.Offset}
	if env.Transaction != nil {
		c.TxID, _ = env.Transaction["id"].(string)
		c.TxOrder, _ = int64Field(env.Transaction, "total_order")
	}
	if env.Source != nil {
		if v, ok, err := sourceVersion(env.Source); err != nil {
			return Change{}, err
		} else if ok {
			c.Version = v
		}
		if ms, ok := int64Field(env.Source, "ts_ms"); ok && ms > 0 {
			c.SourceTime = time.UnixMilli(ms).UTC()
		}
	}
	switch env.Op {
	case "c", "r", "u":
		if env.After == nil {
			return Change{}, malformed("after", "op %q without an after image", env.Op)
		}
		c.Op = OpUpsert
		c.Row, c.Unavailable = stripPlaceholders(env.After)
	case "d":
		c.Op = OpDelete
		c.Row, _ = stripPlaceholders(env.Before)
	case "t":
		c.Op = OpTruncate
	case "m":
		c.Op = OpSkip // logical decoding message: not row data
	case "":
		if env.Status != "" { // transaction BEGIN/END marker
			c.Op = OpSkip
			return c, nil
		}
		return Change{}, malformed("op", "missing; not a Debezium change event (for the output of the ExtractNewRecordState transform, use format debezium-flat)")
	default:
		return Change{}, malformed("op", "unknown op %q", env.Op)
	}
	return c, nil
}

// DecodeJSON decodes a plain JSON business event: an object. A null value is a
// delete of the record's key. Version is left at the Kafka offset; sources that
// carry their own ordering override it.
func DecodeJSON(r Record) (Change, error) {
	key := string(r.Key)
	if isNull(r.Value) {
		if key == "" {
			return Change{}, malformed("key", "tombstone without a key")
		}
		return Change{Op: OpDelete, Key: key, Tombstone: true, Version: r.Offset}, nil
	}
	row, err := decodeObject(r.Value, "value")
	if err != nil {
		return Change{}, err
	}
	return Change{Op: OpUpsert, Key: key, Row: row, Version: r.Offset}, nil
}

// DecodeDebeziumFlat decodes a record of Debezium's ExtractNewRecordState (unwrap)
// transform, with or without schemas. A null value (delete.tombstone.handling.mode
// tombstone, the default) deletes the key; so does a row with __deleted = true
// (mode rewrite) or __op = d. Other rows are upserts; their __ metadata fields stay
// available to the source's templates.
//
// The version is the Kafka offset: in the default mode a delete carries no source
// position, and one key's records are in one partition in source order (ADR 0006).
func DecodeDebeziumFlat(r Record) (Change, error) {
	key, err := decodeKey(r.Key)
	if err != nil {
		return Change{}, err
	}
	c := Change{Key: key, Version: r.Offset}
	obj, isNullValue, err := flatRow(r.Value)
	if err != nil {
		return Change{}, err
	}
	if isNullValue {
		if key == "" {
			return Change{}, malformed("key", "delete (null value) without a key")
		}
		c.Op, c.Tombstone = OpDelete, true
		return c, nil
	}
	if _, hasOp := obj["op"]; hasOp {
		if _, hasSource := obj["source"]; hasSource {
			return Change{}, malformed("value", "is a Debezium change-event envelope; use format debezium")
		}
	}
	if ms, ok := int64Field(obj, "__source_ts_ms"); ok && ms > 0 {
		c.SourceTime = time.UnixMilli(ms).UTC()
	}
	deleted := obj["__deleted"] == "true" || obj["__deleted"] == true || obj["__op"] == "d"
	if deleted {
		c.Op = OpDelete
		c.Row, _ = stripPlaceholders(obj)
		return c, nil
	}
	c.Op = OpUpsert
	c.Row, c.Unavailable = stripPlaceholders(obj)
	return c, nil
}

// flatRow decodes a flat value: an object, possibly in a {"schema","payload"}
// wrapper; reports a null value (Kafka null, JSON null, or a null payload).
func flatRow(b []byte) (map[string]any, bool, error) {
	if isNull(b) {
		return nil, true, nil
	}
	obj, err := decodeObject(b, "value")
	if err != nil {
		return nil, false, err
	}
	if p, ok := obj["payload"]; ok {
		if _, hasSchema := obj["schema"]; hasSchema {
			if p == nil {
				return nil, true, nil
			}
			inner, ok := p.(map[string]any)
			if !ok {
				return nil, false, malformed("payload", "is %s, want an object", kind(p))
			}
			return inner, false, nil
		}
	}
	return obj, false, nil
}

type envelope struct {
	Op          string         `json:"op"`
	Before      map[string]any `json:"before"`
	After       map[string]any `json:"after"`
	Source      map[string]any `json:"source"`
	Transaction map[string]any `json:"transaction"`
	Status      string         `json:"status"`
	nullPayload bool
}

func unmarshalEnvelope(b []byte, env *envelope) error {
	obj, err := decodeObject(b, "value")
	if err != nil {
		return err
	}
	// schemas.enable=true wraps the envelope: {"schema": ..., "payload": ...}.
	if p, ok := obj["payload"]; ok {
		if _, hasSchema := obj["schema"]; hasSchema {
			if p == nil {
				env.nullPayload = true
				return nil
			}
			inner, ok := p.(map[string]any)
			if !ok {
				return malformed("payload", "is %s, want an object", kind(p))
			}
			obj = inner
		}
	}
	var ok bool
	if v, present := obj["op"]; present && v != nil {
		if env.Op, ok = v.(string); !ok {
			return malformed("op", "is %s, want a string", kind(v))
		}
	}
	if v, present := obj["status"]; present && v != nil {
		env.Status, _ = v.(string)
	}
	for _, f := range []struct {
		name string
		dst  *map[string]any
	}{{"before", &env.Before}, {"after", &env.After}, {"source", &env.Source}, {"transaction", &env.Transaction}} {
		v, present := obj[f.name]
		if !present || v == nil {
			continue
		}
		if *f.dst, ok = v.(map[string]any); !ok {
			return malformed(f.name, "is %s, want an object", kind(v))
		}
	}
	return nil
}

// sourceVersion derives the change version from the Debezium source block.
func sourceVersion(src map[string]any) (int64, bool, error) {
	switch src["connector"] {
	case "postgresql":
		if lsn, ok := int64Field(src, "lsn"); ok {
			return lsn, true, nil
		}
	case "mysql", "mariadb":
		file, _ := src["file"].(string)
		pos, okPos := int64Field(src, "pos")
		if file == "" || !okPos {
			break
		}
		seq, err := binlogSeq(file)
		if err != nil {
			return 0, false, malformed("source.file", "%v", err)
		}
		row, _ := int64Field(src, "row")
		if pos < 0 || pos >= 1<<32 || row < 0 || row >= 1<<8 || seq >= 1<<23 {
			return 0, false, malformed("source.pos", "binlog position %s:%d row %d out of range", file, pos, row)
		}
		// Binlog files are numbered in order; pos is < 4 GiB; row is small.
		return seq<<40 | pos<<8 | row, true, nil
	}
	return 0, false, nil
}

// binlogSeq returns the numeric suffix of a binlog file name ("mysql-bin.000003" → 3).
func binlogSeq(file string) (int64, error) {
	i := strings.LastIndexByte(file, '.')
	n, err := strconv.ParseInt(file[i+1:], 10, 64)
	if err != nil || n < 0 {
		return 0, &DecodeError{Reason: "binlog file name " + strconv.Quote(file) + " has no sequence number"}
	}
	return n, nil
}

func int64Field(m map[string]any, name string) (int64, bool) {
	switch v := m[name].(type) {
	case json.Number:
		n, err := v.Int64()
		return n, err == nil
	case string: // some converters quote int64s
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	}
	return 0, false
}

// stripPlaceholders returns row without TOAST placeholder columns, and their names.
func stripPlaceholders(row map[string]any) (map[string]any, []string) {
	var gone []string
	for k, v := range row {
		if s, ok := v.(string); ok && (s == Placeholder || s == placeholderB64) {
			gone = append(gone, k)
		}
	}
	if len(gone) == 0 {
		return row, nil
	}
	for _, k := range gone {
		delete(row, k)
	}
	sort.Strings(gone)
	return row, gone
}

// decodeKey turns a record key into the canonical key string.
func decodeKey(b []byte) (string, error) {
	if isNull(b) {
		return "", nil
	}
	t := bytes.TrimSpace(b)
	if len(t) == 0 || t[0] != '{' {
		return string(b), nil // a plain string key
	}
	obj, err := decodeObject(t, "key")
	if err != nil {
		return "", err
	}
	if p, ok := obj["payload"]; ok {
		if _, hasSchema := obj["schema"]; hasSchema {
			inner, ok := p.(map[string]any)
			if !ok {
				return "", malformed("key.payload", "is %s, want an object", kind(p))
			}
			obj = inner
		}
	}
	return CanonicalKey(obj), nil
}

// CanonicalKey renders a key struct: the value of a single field as text, else
// JSON with sorted field names.
func CanonicalKey(obj map[string]any) string {
	if len(obj) == 1 {
		for _, v := range obj {
			switch v := v.(type) {
			case string:
				return v
			case json.Number:
				return v.String()
			}
		}
	}
	b, _ := json.Marshal(obj) // map keys are sorted by encoding/json
	return string(b)
}

func decodeObject(b []byte, field string) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // ts_ns and LSNs exceed 2^53
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, malformed(field, "invalid JSON: %v", err)
	}
	if dec.More() {
		return nil, malformed(field, "trailing data after the JSON value")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, malformed(field, "is %s, want a JSON object", kind(v))
	}
	return obj, nil
}

// isNull reports a Kafka null value or the JSON literal null (what JsonConverter
// writes for a null payload with schemas.enable=false).
func isNull(b []byte) bool {
	return b == nil || len(b) == 0 || string(bytes.TrimSpace(b)) == "null"
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "unknown"
}
