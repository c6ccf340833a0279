package cdc

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry"
	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry/rest"
	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry/serde"
	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry/serde/avrov2"
)

// FormatDebeziumAvro: Debezium change-event envelopes written by Confluent's
// AvroConverter: magic byte 0 and a 4-byte schema id (or magic byte 1 and a schema
// GUID, or the schema id in a header), resolved through a Schema Registry.
const FormatDebeziumAvro Format = "debezium-avro"

// SchemaRegistry configures the Schema Registry client.
type SchemaRegistry struct {
	// URL of the registry, e.g. http://schema-registry:8081. Required for Avro sources.
	URL string `yaml:"url"`
	// Username and Password for basic authentication; the password is read from
	// the variable PasswordEnv names.
	Username    string `yaml:"username"`
	PasswordEnv string `yaml:"password_env"`
	Password    string `yaml:"-"`
}

// Avro turns Confluent-framed Avro keys and values into JSON, so that Avro
// envelopes are decoded exactly like JSON ones. Schemas are cached by the client.
type Avro struct {
	key, value *avrov2.Deserializer
}

// NewAvro connects a Schema Registry client (lazily: nothing is fetched until a
// record needs its schema).
func NewAvro(cfg SchemaRegistry) (*Avro, error) {
	if cfg.URL == "" {
		return nil, errors.New("schema_registry.url: required for Avro sources")
	}
	conf := schemaregistry.NewConfig(cfg.URL)
	if cfg.Username != "" {
		conf.BasicAuthCredentialsSource = "USER_INFO"
		conf.BasicAuthUserInfo = cfg.Username + ":" + cfg.Password
	}
	client, err := schemaregistry.NewClient(conf)
	if err != nil {
		return nil, fmt.Errorf("schema registry client: %w", err)
	}
	mk := func(t serde.Type) (*avrov2.Deserializer, error) {
		d, err := avrov2.NewDeserializer(client, t, avrov2.NewDeserializerConfig())
		if err != nil {
			return nil, err
		}
		// Generic records: a map per record, whatever its schema version.
		d.MessageFactory = func(string, string) (interface{}, error) { m := map[string]any{}; return &m, nil }
		return d, nil
	}
	a := &Avro{}
	if a.key, err = mk(serde.KeySerde); err != nil {
		return nil, err
	}
	if a.value, err = mk(serde.ValueSerde); err != nil {
		return nil, err
	}
	return a, nil
}

// ToJSON converts r's Avro value, and its key when avroKey, to JSON (a null value
// stays null). A record that cannot be decoded, or whose schema the registry does
// not have, wraps ErrMalformed; other registry errors are transient.
func (a *Avro) ToJSON(r Record, avroKey bool) (Record, error) {
	var headers []kafka.Header
	for _, h := range r.Headers {
		headers = append(headers, kafka.Header{Key: h.Key, Value: h.Value})
	}
	conv := func(d *avrov2.Deserializer, b []byte, field string) ([]byte, error) {
		if len(b) == 0 {
			return nil, nil
		}
		v, err := d.DeserializeWithHeaders(r.Topic, headers, b)
		if err != nil {
			var re *rest.Error
			if errors.As(err, &re) && re.Code/100 != 404 {
				return nil, fmt.Errorf("schema registry: %w", err) // transient: retried
			}
			return nil, malformed(field, "Avro: %v", err)
		}
		if p, ok := v.(*map[string]any); ok {
			v = *p
		}
		out, err := json.Marshal(plain(v))
		if err != nil {
			return nil, malformed(field, "Avro value has no JSON form: %v", err)
		}
		return out, nil
	}
	var err error
	if avroKey {
		if r.Key, err = conv(a.key, r.Key, "key"); err != nil {
			return r, err
		}
	}
	if r.Value, err = conv(a.value, r.Value, "value"); err != nil {
		return r, err
	}
	return r, nil
}

var avroPrimitive = map[string]bool{"null": true, "boolean": true, "int": true, "long": true, "float": true,
	"double": true, "bytes": true, "string": true}

// avroFullName matches an Avro (namespaced) type name.
var avroFullName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// plain turns decoded Avro values into what encoding/json writes the way
// Debezium's JsonConverter would: union values without their branch name, times
// as RFC 3339, big decimals as text, bytes as base64, non-finite floats as null.
// (A column of Avro map type holding exactly one entry keyed by a type-like name
// would be taken for a union; Debezium does not produce map columns for
// PostgreSQL or MySQL tables.)
func plain(v any) any {
	switch x := v.(type) {
	case map[string]any:
		// Generic Avro decoding keeps a union's branch: {"string": "x"},
		// {"shop.Value": {...}}. Debezium's JsonConverter writes the value alone.
		if len(x) == 1 {
			for k, vv := range x {
				if avroPrimitive[k] {
					return plain(vv)
				}
				if _, isRecord := vv.(map[string]any); isRecord && avroFullName.MatchString(k) {
					return plain(vv)
				}
			}
		}
		out := make(map[string]any, len(x))
		for k, vv := range x {
			out[k] = plain(vv)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, vv := range x {
			out[i] = plain(vv)
		}
		return out
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case *big.Rat:
		return x.FloatString(10)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil
		}
	}
	return v
}
