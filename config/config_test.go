package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const valid = `
postgres: {dsn: "postgres://u:p@127.0.0.1/db"}
redis: {addr: "127.0.0.1:6379"}
api: {auth: {mode: none}}
sources:
  - name: tickets
    topic: shop.public.tickets
    format: debezium
    tenant: "{{.tenant_id}}"
    entity: "customer:{{.customer_id}}"
    text: "{{.subject}}"
`

func noEnv(string) string { return "" }

func TestParseDefaultsAndEnv(t *testing.T) {
	c, err := Parse([]byte(valid), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Kafka.Group != "freshctx-ingest" || c.Pipeline.Lanes != 8 || c.API.DefaultWindow != 15*time.Minute || c.Embedder.Dims != 384 {
		t.Errorf("defaults not applied: %+v", c)
	}
	env := map[string]string{"FRESHCTX_KAFKA_BROKERS": "k:9092", "FRESHCTX_POSTGRES_DSN": "postgres://other", "FRESHCTX_REDIS_PASSWORD": "s3cret"}
	c, err = Parse([]byte(valid), func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if c.Kafka.Brokers != "k:9092" || c.Postgres.DSN != "postgres://other" || c.Redis.Password != "s3cret" {
		t.Errorf("environment overrides not applied: %+v", c)
	}
}

func TestErrorsNameTheField(t *testing.T) {
	badThesaurus := filepath.Join(t.TempDir(), "words.txt")
	if err := os.WriteFile(badThesaurus, []byte("# ours\nrefund, money back\nparcel, , package\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ old, new, want string }{
		{`dsn: "postgres://u:p@127.0.0.1/db"`, `dsn: ""`, "postgres.dsn: required"},
		{`entity: "customer:{{.customer_id}}"`, `entity: ""`, "sources[0].entity: required"},
		{"format: debezium", "format: avro", `sources[0].format: "avro" is not one of debezium, debezium-flat, debezium-avro, json`},
		{"name: tickets", "name: Tickets!", "sources[0].name"},
		{`text: "{{.subject}}"`, `text: "{{ .subject | upper }}"`, "sources[0].text: {{.subject | upper}}: only field references"},
		{"redis: {addr", "redis: {adr", `unknown field "adr"`},
		{"format: debezium", "format: debezium-avro", "schema_registry.url: required by sources[0]"},
		{"api: {auth: {mode: none}}", "api: {default_k: 500, auth: {mode: none}}", "api.default_k"},
		{"api: {auth: {mode: none}}", "api: {auth: {mode: keys}}", "api.auth.keys: at least one key"},
		{"api: {auth: {mode: none}}", "api: {auth: {mode: keys, keys: [{name: bot, tenant: acme, env: BOT_KEY}]}}", "api.auth.keys[0].env: $BOT_KEY must hold a key"},
		{"", "pipeline: {batch_size: -1}", "pipeline.batch_size"},
		{"", "api: {budget: 5x}", "config: "},
		{"", "sessions: {source: nope}", `sessions.source: "nope" is not the name of a source`},
		{"", "sessions: {source: tickets}", `sessions.source: the entity of source tickets must be "session:{{.session_id}}"`},
		{"", "sessions: {source: tickets, summary: {summariser: openai}}", "sessions.summary.base_url"},
		{"", "backfill: [{name: h, source: nope, files: [x.jsonl]}]", `backfill[0].source: "nope" is not the name of a source`},
		{"", "backfill: [{name: h, source: tickets, files: [x], topic: {}}]", "backfill[0].postgres, files, topic: exactly one input"},
		{"", "backfill: [{name: h, source: tickets, postgres: {table: t}}]", "backfill[0].key_columns: required with postgres"},
		{"", "backfill: [{name: h, source: tickets, postgres: {table: \"t; drop\"}, key_columns: [id]}]", "backfill[0].postgres.table"},
		{"", "backfill: [{name: h, source: tickets, topic: {from: yesterday}}]", "backfill[0].topic.from"},
		{"", "backfill: [{name: h, source: tickets, files: [x], records_per_second: -1}]", "backfill[0].records_per_second"},
		{"api: {auth: {mode: none}}", "api: {thesaurus: [builtin, /nonexistent/words.txt], auth: {mode: none}}", "api.thesaurus: open /nonexistent/words.txt"},
		{"api: {auth: {mode: none}}", "api: {thesaurus: [" + badThesaurus + "], auth: {mode: none}}", "api.thesaurus: " + badThesaurus + ":3: an empty entry"},
	} {
		text := valid + tc.new + "\n"
		if tc.old != "" {
			text = strings.Replace(valid, tc.old, tc.new, 1)
		}
		_, err := Parse([]byte(text), noEnv)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s → %s: err = %v, want it to contain %q", tc.old, tc.new, err, tc.want)
		}
	}
}

func TestShippedConfigsAreValid(t *testing.T) {
	for _, path := range []string{"../examples/demo.yaml", "../examples/bench.yaml", "../compose/freshctx.yaml"} {
		if _, err := Load(path, noEnv); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
}

// Every setting the reference documents as able to say "off" stays off when the
// file says so: defaults fill only what the file leaves out.
func TestOffValuesStayOff(t *testing.T) {
	off := strings.Replace(valid, "api: {auth: {mode: none}}",
		"api: {auth: {mode: none}, knowledge_k: 0, similarity_weight: 0, read_latest_topics: [], thesaurus: []}\n"+
			"embedder: {cache_entries: -1}\npipeline: {linger: 0s}\n", 1)
	off = strings.Replace(off, `    text: "{{.subject}}"`, `    text: "{{.subject}}"
    retention: 0s
backfill:
  - {name: old, source: tickets, files: [x.jsonl], records_per_second: 0, embed_calls_per_second: 0}`, 1)
	c, err := Parse([]byte(off), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case c.API.KnowledgeK == nil || *c.API.KnowledgeK != 0:
		t.Errorf("api.knowledge_k: 0 became %v", c.API.KnowledgeK)
	case c.API.SimilarityWeight == nil || *c.API.SimilarityWeight != 0:
		t.Errorf("api.similarity_weight: 0 became %v", c.API.SimilarityWeight)
	case len(c.API.ReadLatestTopics) != 0:
		t.Errorf("read_latest_topics: [] became %v", c.API.ReadLatestTopics)
	case c.API.Thesaurus == nil || len(c.API.Thesaurus) != 0 || c.API.Lexicon != nil:
		t.Errorf("thesaurus: [] became %v (%v): want it off", c.API.Thesaurus, c.API.Lexicon)
	case c.Embedder.CacheEntries != -1:
		t.Errorf("embedder.cache_entries: -1 became %d", c.Embedder.CacheEntries)
	case c.Pipeline.Linger != 0 || c.Sources[0].Retention != 0:
		t.Errorf("linger %v, retention %v; want 0 (flush at once, kept for ever)", c.Pipeline.Linger, c.Sources[0].Retention)
	case c.Backfill[0].RecordsPerSecond != 0 || c.Backfill[0].EmbedCallsPerSecond != 0:
		t.Errorf("backfill rates %+v; want 0 (unlimited)", c.Backfill[0])
	case c.Sessions != nil:
		t.Errorf("sessions absent, yet configured: %+v", c.Sessions)
	}
	// Left out, they take their defaults; and defaults are applied at load, once.
	d, err := Parse([]byte(valid), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if *d.API.KnowledgeK != 3 || *d.API.SimilarityWeight != 0.7 || d.Embedder.CacheEntries != 10000 || d.Sources[0].Chunk.Size == 0 {
		t.Errorf("defaults: knowledge_k %d, similarity_weight %v, cache_entries %d, chunk %+v",
			*d.API.KnowledgeK, *d.API.SimilarityWeight, d.Embedder.CacheEntries, d.Sources[0].Chunk)
	}
}
