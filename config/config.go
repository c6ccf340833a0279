// Package config loads freshctx's YAML configuration file, applies environment
// overrides for addresses and secrets, fills defaults and validates. Errors name
// the offending field, e.g. `sources[1].entity: required`.
//
// Environment overrides (they win over the file):
//
//	FRESHCTX_KAFKA_BROKERS   kafka.brokers
//	FRESHCTX_KAFKA_GROUP     kafka.group
//	FRESHCTX_POSTGRES_DSN    postgres.dsn
//	FRESHCTX_POSTGRES_READ_DSN postgres.read_dsn
//	FRESHCTX_REDIS_ADDR      redis.addr
//	FRESHCTX_REDIS_PASSWORD  redis.password
//	FRESHCTX_API_LISTEN      api.listen
//	FRESHCTX_MILVUS_ADDR     milvus.addr
//
// Secrets are never in the file, and only this package reads the environment:
// the embedding provider's API key from the variable embedder.api_key_env names
// (OPENAI_API_KEY by default for provider openai), the summariser's from
// sessions.summary.api_key_env, Milvus's password from milvus.password_env, and
// each API key with `env` from the variable it names.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/freshctx/freshctx/api"
	"github.com/freshctx/freshctx/backfill"
	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/kafkaio"
	"github.com/freshctx/freshctx/pipeline"
	"github.com/freshctx/freshctx/session"
	"github.com/freshctx/freshctx/source"
	"github.com/freshctx/freshctx/store/milvusstore/milvusconf"
	"github.com/freshctx/freshctx/store/pgstore"
	"github.com/freshctx/freshctx/store/rediscache"
)

var unknownFieldRE = regexp.MustCompile(`field (\S+) not found in type \S+`)

// Config is the whole file.
type Config struct {
	Kafka    kafkaio.Config `yaml:"kafka"`
	Postgres pgstore.Config `yaml:"postgres"`
	// Store is where events and knowledge chunks live: postgres (the default,
	// pgvector) or milvus (PostgreSQL then keeps only freshctx's small tables:
	// settings, backfill checkpoints, session summaries).
	Store    string            `yaml:"store"`
	Milvus   milvusconf.Config `yaml:"milvus"`
	Redis    rediscache.Config `yaml:"redis"`
	Embedder embed.Config      `yaml:"embedder"`
	Pipeline pipeline.Config   `yaml:"pipeline"`
	API      api.Config        `yaml:"api"`
	Sources  []source.Source   `yaml:"sources"`
	// Sessions configures conversation memory and the summary builder.
	Sessions *session.Config `yaml:"sessions"`
	// Backfill jobs, run with `ingest backfill`.
	Backfill []backfill.Job `yaml:"backfill"`
	// SchemaRegistry is needed by sources of format debezium-avro.
	SchemaRegistry cdc.SchemaRegistry `yaml:"schema_registry"`
}

// Load reads, overrides, defaults and validates the file at path. getenv is
// os.Getenv in production.
func Load(path string, getenv func(string) string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	return Parse(b, getenv)
}

// Parse is Load for bytes. Defaults are applied here, once, for every section:
// what the binaries hand to the packages is complete. A setting whose zero means
// off (api.knowledge_k, api.similarity_weight) is a pointer, so "0" in the file
// stays 0.
func Parse(b []byte, getenv func(string) string) (*Config, error) {
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true) // a misspelt field is an error, not silently ignored
	if err := dec.Decode(&c); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		msg = unknownFieldRE.ReplaceAllString(msg, `unknown field "$1"`)
		return nil, fmt.Errorf("config: %s", msg)
	}
	for env, dst := range map[string]*string{
		"FRESHCTX_KAFKA_BROKERS":     &c.Kafka.Brokers,
		"FRESHCTX_KAFKA_GROUP":       &c.Kafka.Group,
		"FRESHCTX_POSTGRES_DSN":      &c.Postgres.DSN,
		"FRESHCTX_POSTGRES_READ_DSN": &c.Postgres.ReadDSN,
		"FRESHCTX_REDIS_ADDR":        &c.Redis.Addr,
		"FRESHCTX_REDIS_PASSWORD":    &c.Redis.Password,
		"FRESHCTX_API_LISTEN":        &c.API.Listen,
		"FRESHCTX_MILVUS_ADDR":       &c.Milvus.Addr,
	} {
		if v := getenv(env); v != "" {
			*dst = v
		}
	}
	c.Kafka = c.Kafka.WithDefaults()
	c.Pipeline = c.Pipeline.WithDefaults()
	c.Redis = c.Redis.WithDefaults()
	c.API = c.API.WithDefaults()
	for i := range c.API.Auth.Keys {
		if k := &c.API.Auth.Keys[i]; k.Env != "" {
			k.Secret = getenv(k.Env)
		}
	}
	if c.SchemaRegistry.PasswordEnv != "" {
		c.SchemaRegistry.Password = getenv(c.SchemaRegistry.PasswordEnv)
	}
	c.Embedder = c.Embedder.WithDefaults()
	if c.Store == StoreMilvus {
		c.Milvus = c.Milvus.WithDefaults()
	}
	if c.Sessions != nil {
		sc := c.Sessions.WithDefaults()
		c.Sessions = &sc
	}
	for i := range c.Backfill {
		c.Backfill[i] = c.Backfill[i].WithDefaults()
	}
	for i := range c.Sources {
		c.Sources[i].Chunk = c.Sources[i].Chunk.WithDefaults()
	}
	if c.Milvus.PasswordEnv != "" {
		c.Milvus.Password = getenv(c.Milvus.PasswordEnv)
	}
	if c.Sessions != nil && c.Sessions.Summary != nil && c.Sessions.Summary.APIKeyEnv != "" {
		c.Sessions.Summary.APIKey = getenv(c.Sessions.Summary.APIKeyEnv)
	}
	if c.Embedder.APIKeyEnv != "" {
		c.Embedder.APIKey = getenv(c.Embedder.APIKeyEnv)
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	if err := c.API.LoadThesaurus(); err != nil {
		return nil, fmt.Errorf("config: api.%w", err)
	}
	return &c, nil
}

// Validate reports the first invalid field by its path in the file.
func (c *Config) Validate() error {
	if c.Postgres.DSN == "" {
		return errors.New("postgres.dsn: required (or set FRESHCTX_POSTGRES_DSN)")
	}
	switch c.Store {
	case "", StorePostgres:
	case StoreMilvus:
		if err := c.Milvus.Validate(); err != nil {
			return fmt.Errorf("milvus.%w", err)
		}
	default:
		return fmt.Errorf("store: %q is not one of postgres, milvus", c.Store)
	}
	if err := c.Redis.Validate(); err != nil {
		return fmt.Errorf("redis.%w", err)
	}
	if err := c.Embedder.Validate(); err != nil {
		return fmt.Errorf("embedder.%w", err)
	}
	if err := c.Pipeline.Validate(); err != nil {
		return fmt.Errorf("pipeline.%w", err)
	}
	if err := c.API.Validate(); err != nil {
		return fmt.Errorf("api.%w", err)
	}
	if c.API.CorpusIDF > 0 && !c.Redis.TermStats {
		return errors.New("api.corpus_idf: needs redis.term_stats: true (ingest keeps the statistics it reads)")
	}
	if len(c.Sources) == 0 {
		return errors.New("sources: at least one source is required")
	}
	names, topics := map[string]bool{}, map[string]bool{}
	for i := range c.Sources {
		s := &c.Sources[i]
		if err := s.Validate(); err != nil {
			return fmt.Errorf("sources[%d].%w", i, err)
		}
		if names[s.Name] {
			return fmt.Errorf("sources[%d].name: %q is used twice", i, s.Name)
		}
		if topics[s.Topic] {
			return fmt.Errorf("sources[%d].topic: %q is used twice", i, s.Topic)
		}
		names[s.Name], topics[s.Topic] = true, true
	}
	for i, s := range c.Sources {
		if s.Format == cdc.FormatDebeziumAvro && c.SchemaRegistry.URL == "" {
			return fmt.Errorf("schema_registry.url: required by sources[%d] (format debezium-avro)", i)
		}
	}
	if c.Sessions != nil {
		sc := *c.Sessions
		if err := sc.Validate(); err != nil {
			return fmt.Errorf("sessions.%w", err)
		}
		var src *source.Source
		for i := range c.Sources {
			if c.Sources[i].Name == sc.Source {
				src = &c.Sources[i]
			}
		}
		switch {
		case src == nil:
			return fmt.Errorf("sessions.source: %q is not the name of a source", sc.Source)
		case src.Kind == source.KindDocument:
			return fmt.Errorf("sessions.source: %s is a document source; turns are events", sc.Source)
		}
		if err := sc.CheckSource(src.Entity, src.Attrs); err != nil {
			return fmt.Errorf("sessions.%w", err)
		}
		if sc.Summary != nil && topics[sc.Summary.Topic] {
			return fmt.Errorf("sessions.summary.topic: %q is a source's topic; summaries must never be read back as input", sc.Summary.Topic)
		}
	}
	jobs := map[string]bool{}
	for i, b := range c.Backfill {
		if err := b.Validate(); err != nil {
			return fmt.Errorf("backfill[%d].%w", i, err)
		}
		if !names[b.Source] {
			return fmt.Errorf("backfill[%d].source: %q is not the name of a source", i, b.Source)
		}
		if jobs[b.Name] {
			return fmt.Errorf("backfill[%d].name: %q is used twice", i, b.Name)
		}
		jobs[b.Name] = true
	}
	for i, t := range c.API.ReadLatestTopics {
		if !topics[t] && t != c.Kafka.DLQTopic {
			return fmt.Errorf("api.read_latest_topics[%d]: %q is neither the topic of a source nor kafka.dlq_topic", i, t)
		}
	}
	return nil
}

// Vector stores.
const (
	StorePostgres = "postgres"
	StoreMilvus   = "milvus"
)

// NeedsAvro reports whether any source reads Avro (and so needs the Schema Registry).
func (c *Config) NeedsAvro() bool {
	for _, s := range c.Sources {
		if s.Format == cdc.FormatDebeziumAvro {
			return true
		}
	}
	return false
}
