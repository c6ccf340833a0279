package cdc

import (
	"errors"
	"testing"

	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry"
	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry/serde"
	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry/serde/avrov2"

	"github.com/freshctx/freshctx/internal/testenv"
)

// The Debezium envelope as Go types, serialised by confluent-kafka-go's own Avro
// serializer (before and after need distinct record names).
type (
	avroKey struct {
		ID int32 `avro:"id"`
	}
	avroBefore struct {
		ID         int32  `avro:"id"`
		TenantID   string `avro:"tenant_id"`
		CustomerID int32  `avro:"customer_id"`
		Body       string `avro:"body"`
	}
	avroAfter  avroBefore
	avroSource struct {
		Connector string `avro:"connector"`
		LSN       int64  `avro:"lsn"`
		TsMs      int64  `avro:"ts_ms"`
	}
	avroEnvelope struct {
		Before *avroBefore `avro:"before"`
		After  *avroAfter  `avro:"after"`
		Op     string      `avro:"op"`
		Source avroSource  `avro:"source"`
	}
	// Version 2 of the table: a column added.
	avroAfterV2 struct {
		ID         int32   `avro:"id"`
		TenantID   string  `avro:"tenant_id"`
		CustomerID int32   `avro:"customer_id"`
		Body       string  `avro:"body"`
		Status     *string `avro:"status"`
	}
	avroEnvelopeV2 struct {
		Before *avroBefore  `avro:"before"`
		After  *avroAfterV2 `avro:"after"`
		Op     string       `avro:"op"`
		Source avroSource   `avro:"source"`
	}
)

func avroSerializers(t testing.TB, url string) (key, value *avrov2.Serializer) {
	t.Helper()
	client, err := schemaregistry.NewClient(schemaregistry.NewConfig(url))
	if err != nil {
		t.Fatal(err)
	}
	conf := avrov2.NewSerializerConfig()
	conf.AutoRegisterSchemas = true
	if key, err = avrov2.NewSerializer(client, serde.KeySerde, conf); err != nil {
		t.Fatal(err)
	}
	if value, err = avrov2.NewSerializer(client, serde.ValueSerde, conf); err != nil {
		t.Fatal(err)
	}
	return key, value
}

func TestAvroEnvelopes(t *testing.T) {
	sr := testenv.NewSchemaRegistry(t)
	ks, vs := avroSerializers(t, sr.URL)
	const topic = "shop.public.tickets"
	key, err := ks.Serialize(topic, &avroKey{ID: 7})
	if err != nil {
		t.Fatal(err)
	}
	v1, err := vs.Serialize(topic, &avroEnvelope{Op: "c", After: &avroAfter{ID: 7, TenantID: "acme", CustomerID: 42, Body: "refund missing"},
		Source: avroSource{Connector: "postgresql", LSN: 1000, TsMs: 1700000000000}})
	if err != nil {
		t.Fatal(err)
	}
	status := "pending"
	v2, err := vs.Serialize(topic, &avroEnvelopeV2{Op: "u", After: &avroAfterV2{ID: 7, TenantID: "acme", CustomerID: 42, Body: "refund missing", Status: &status},
		Source: avroSource{Connector: "postgresql", LSN: 2000, TsMs: 1700000001000}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewAvro(SchemaRegistry{URL: sr.URL})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		value   []byte
		op      Op
		version int64
		status  any
	}{{v1, OpUpsert, 1000, nil}, {v2, OpUpsert, 2000, "pending"}} {
		rec, err := a.ToJSON(Record{Topic: topic, Key: key, Value: tc.value}, true)
		if err != nil {
			t.Fatalf("%v (registry saw unknown calls %v)", err, sr.Unknown)
		}
		c, err := DecodeDebezium(rec)
		if err != nil {
			t.Fatalf("%v: %s", err, rec.Value)
		}
		if c.Op != tc.op || c.Key != "7" || c.Version != tc.version || c.Row["body"] != "refund missing" || c.Row["status"] != tc.status {
			t.Errorf("decoded %+v from %s", c, rec.Value)
		}
	}
	// The schema GUID in a header (magic byte 1 there), and the same GUID as the
	// payload's prefix: both resolve through the registry's GUID route.
	vs.SchemaIDSerializer = serde.HeaderSchemaIDSerializer
	hdrs, payload, err := vs.SerializeWithHeaders(topic, &avroEnvelope{Op: "u", After: &avroAfter{ID: 7, TenantID: "acme", CustomerID: 42, Body: "via header"},
		Source: avroSource{Connector: "postgresql", LSN: 3000}})
	if err != nil || len(hdrs) != 1 {
		t.Fatalf("header serializer: %v %v", hdrs, err)
	}
	prefixed := append(append([]byte{}, hdrs[0].Value...), payload...)
	for name, rec := range map[string]Record{
		"id in a header":       {Topic: topic, Key: key, Value: payload, Headers: []Header{{Key: hdrs[0].Key, Value: hdrs[0].Value}}},
		"GUID prefix (byte 1)": {Topic: topic, Key: key, Value: prefixed},
	} {
		if prefixed[0] != 1 {
			t.Fatalf("header value does not start with magic byte 1: %x", hdrs[0].Value[:1])
		}
		out, err := a.ToJSON(rec, true)
		if err != nil {
			t.Fatalf("%s: %v (unknown calls %v)", name, err, sr.Unknown)
		}
		c, err := DecodeDebezium(out)
		if err != nil || c.Row["body"] != "via header" || c.Version != 3000 {
			t.Errorf("%s: %+v %v", name, c, err)
		}
	}

	// A tombstone stays a tombstone.
	if rec, err := a.ToJSON(Record{Topic: topic, Key: key}, true); err != nil || rec.Value != nil {
		t.Errorf("tombstone: %v %v", rec.Value, err)
	}
	// An unknown schema id and a payload that is not Confluent-framed Avro are
	// permanent: the record goes to the DLQ.
	for _, bad := range [][]byte{{0, 0, 0, 0, 99, 1, 2}, []byte(`{"op":"c"}`)} {
		if _, err := a.ToJSON(Record{Topic: topic, Key: key, Value: bad}, true); !errors.Is(err, ErrMalformed) {
			t.Errorf("%q: err = %v, want ErrMalformed", bad, err)
		}
	}
	if len(sr.Unknown) > 0 {
		t.Errorf("the client made calls the fake registry does not implement: %v", sr.Unknown)
	}
}

// FuzzAvro: whatever follows a valid schema id, decoding never panics and every
// error is either malformed (DLQ) or from the registry.
func FuzzAvro(f *testing.F) {
	sr := testenv.NewSchemaRegistry(f)
	_, vs := avroSerializers(f, sr.URL)
	good, err := vs.Serialize("t", &avroEnvelope{Op: "c", After: &avroAfter{ID: 1, TenantID: "a", CustomerID: 2, Body: "x"},
		Source: avroSource{Connector: "postgresql", LSN: 1}})
	if err != nil {
		f.Fatal(err)
	}
	a, err := NewAvro(SchemaRegistry{URL: sr.URL})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good[5:])
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, body []byte) {
		payload := append(append([]byte{}, good[:5]...), body...)
		_, err := a.ToJSON(Record{Topic: "t", Value: payload}, false)
		if err != nil && !errors.Is(err, ErrMalformed) {
			t.Fatalf("unexpected error kind: %v", err)
		}
	})
}
