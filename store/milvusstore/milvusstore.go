// Package milvusstore keeps events and knowledge chunks in Milvus, with the same
// guarantees as pgstore (the storetest suite proves both).
//
// Three collections, each with the tenant as partition key:
//
//	<prefix>_events     one row per (source, key): the event, or its delete marker
//	<prefix>_documents  one row per document: version, delete marker, text hash
//	<prefix>_chunks     one row per chunk, with its vector (HNSW, cosine) and,
//	                    unless full_text is off, a BM25 sparse vector that
//	                    Milvus fills from the text with its own analyzer
//
// Writes are upserts by primary key, never inserts: Milvus does not deduplicate
// primary keys on insert. Milvus has no conditional writes, so the version guard
// reads the stored versions first and writes only what is newer. That is safe
// because one key has one writer at a time: a key's changes are in one Kafka
// partition, which one ingest process owns, and a process keeps a key in one lane.
//
// Every filter is an expression template whose values travel as typed template
// parameters ({tenant}, {keys}, ...), never inside the expression text, so no
// tenant, entity or filter value can change an expression's meaning. Attribute
// names in knowledge filters, which templates cannot carry, are checked against
// a strict pattern instead.
package milvusstore

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/milvus-io/milvus-proto/go-api/v2/commonpb"
	"github.com/milvus-io/milvus-proto/go-api/v2/milvuspb"
	"github.com/milvus-io/milvus-proto/go-api/v2/schemapb"
	"github.com/milvus-io/milvus/client/v2/column"
	"github.com/milvus-io/milvus/client/v2/entity"
	"github.com/milvus-io/milvus/client/v2/index"
	"github.com/milvus-io/milvus/client/v2/milvusclient"

	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/milvusstore/milvusconf"
)

// Config selects and tunes the Milvus store; it is defined apart (milvusconf)
// so that builds without the Milvus client still read and check it.
type Config = milvusconf.Config

// consistency maps a valid Config.Consistency to the client's level.
func consistency(s string) (entity.ConsistencyLevel, error) {
	switch s {
	case "session":
		return entity.ClSession, nil
	case "strong":
		return entity.ClStrong, nil
	case "bounded":
		return entity.ClBounded, nil
	case "eventually":
		return entity.ClEventually, nil
	}
	return 0, fmt.Errorf("consistency: %q is not one of session, strong, bounded, eventually", s)
}

// Store is the Milvus store.
type Store struct {
	c                    *milvusclient.Client
	events, docs, chunks string
	cl                   entity.ConsistencyLevel
	dims                 int
	analyzer             string // the BM25 analyzer of new chunk collections; "off": none

	// fullText is whether the chunks collection has the BM25 field: 0 not
	// known yet (no collection seen), 1 no, 2 yes.
	fullText atomic.Int32
}

// Connect opens a client.
func Connect(ctx context.Context, cfg Config, dims int) (*Store, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("milvus.%w", err)
	}
	cl, _ := consistency(cfg.Consistency)
	mc := &milvusclient.ClientConfig{Address: cfg.Addr, Username: cfg.Username, Password: cfg.Password, DBName: cfg.Database}
	c, err := milvusclient.New(ctx, mc)
	if err != nil {
		return nil, fmt.Errorf("milvus at %s: %w", cfg.Addr, err)
	}
	return &Store{c: c, events: cfg.Prefix + "_events", docs: cfg.Prefix + "_documents", chunks: cfg.Prefix + "_chunks", cl: cl, dims: dims,
		analyzer: cfg.FullText}, nil
}

// Close closes the client.
func (s *Store) Close() { s.c.Close(context.Background()) }

// Check verifies that `ingest migrate` created the collections.
func (s *Store) Check(ctx context.Context) error {
	for _, name := range []string{s.events, s.docs, s.chunks} {
		has, err := s.c.HasCollection(ctx, milvusclient.NewHasCollectionOption(name))
		if err != nil {
			return fmt.Errorf("milvus: %w", err)
		}
		if !has {
			return fmt.Errorf("milvus: collection %s does not exist: run `ingest migrate -config FILE` first", name)
		}
	}
	return nil
}

// Ping checks that Milvus answers.
func (s *Store) Ping(ctx context.Context) error {
	_, err := s.c.HasCollection(ctx, milvusclient.NewHasCollectionOption(s.events))
	return err
}

func varchar(name string, max int64) *entity.Field {
	return entity.NewField().WithName(name).WithDataType(entity.FieldTypeVarChar).WithMaxLength(max)
}

func int64f(name string) *entity.Field {
	return entity.NewField().WithName(name).WithDataType(entity.FieldTypeInt64)
}

func jsonf(name string) *entity.Field {
	return entity.NewField().WithName(name).WithDataType(entity.FieldTypeJSON)
}

func vector(name string, dims int) *entity.Field {
	return entity.NewField().WithName(name).WithDataType(entity.FieldTypeFloatVector).WithDim(int64(dims))
}

// Setup creates the collections and their indexes if missing and loads them
// (`ingest migrate`). It returns the names it created.
func (s *Store) Setup(ctx context.Context) ([]string, error) {
	pk := func() *entity.Field { return varchar("pk", 4096).WithIsPrimaryKey(true) }
	chunkText := varchar("text", 65535)
	tenant := func() *entity.Field { return varchar("tenant", 1024).WithIsPartitionKey(true) }
	schemas := map[string]*entity.Schema{
		s.events: entity.NewSchema().WithName(s.events).WithField(pk()).WithField(tenant()).WithField(varchar("entity", 2048)).
			WithField(varchar("source", 256)).WithField(varchar("key", 2048)).WithField(varchar("id", 2048)).WithField(int64f("event_time")).
			WithField(varchar("text", 65535)).WithField(jsonf("attrs")).WithField(jsonf("fields")).WithField(varchar("text_hash", 64)).
			WithField(int64f("version")).WithField(entity.NewField().WithName("deleted").WithDataType(entity.FieldTypeBool)).
			WithField(jsonf("prov")).WithField(vector("embedding", s.dims)),
		s.docs: entity.NewSchema().WithName(s.docs).WithField(pk()).WithField(tenant()).WithField(varchar("source", 256)).
			WithField(varchar("key", 2048)).WithField(int64f("version")).WithField(entity.NewField().WithName("deleted").WithDataType(entity.FieldTypeBool)).
			WithField(varchar("text_hash", 64)).WithField(vector("marker", 2)),
		s.chunks: entity.NewSchema().WithName(s.chunks).WithField(pk()).WithField(varchar("doc_pk", 4096)).WithField(tenant()).WithField(varchar("source", 256)).
			WithField(varchar("key", 2048)).WithField(varchar("doc_id", 2048)).WithField(int64f("chunk")).WithField(varchar("title", 2048)).
			WithField(chunkText).WithField(varchar("text_hash", 64)).WithField(jsonf("attrs")).WithField(int64f("version")).
			WithField(jsonf("prov")).WithField(vector("embedding", s.dims)),
	}
	indexes := map[string][]milvusclient.CreateIndexOption{}
	for name, field := range map[string]string{s.events: "embedding", s.docs: "marker", s.chunks: "embedding"} {
		indexes[name] = append(indexes[name], milvusclient.NewCreateIndexOption(name, field, index.NewHNSWIndex(entity.COSINE, 16, 128)))
	}
	if s.analyzer != "off" {
		// Full text for knowledge search: Milvus analyzes the text into a BM25
		// sparse vector itself, on insert and on search.
		chunkText.WithEnableAnalyzer(true).WithAnalyzerParams(map[string]any{"type": s.analyzer})
		schemas[s.chunks].WithField(entity.NewField().WithName(sparseField).WithDataType(entity.FieldTypeSparseVector)).
			WithFunction(entity.NewFunction().WithName("text_bm25").WithType(entity.FunctionTypeBM25).
				WithInputFields("text").WithOutputFields(sparseField))
		indexes[s.chunks] = append(indexes[s.chunks], milvusclient.NewCreateIndexOption(s.chunks, sparseField, index.NewSparseInvertedIndex(entity.BM25, 0)))
	}
	var created []string
	for _, name := range []string{s.events, s.docs, s.chunks} {
		has, err := s.c.HasCollection(ctx, milvusclient.NewHasCollectionOption(name))
		if err != nil {
			return created, fmt.Errorf("milvus: %w", err)
		}
		if !has {
			opt := milvusclient.NewCreateCollectionOption(name, schemas[name]).WithConsistencyLevel(s.cl).
				WithIndexOptions(indexes[name]...)
			if err := s.c.CreateCollection(ctx, opt); err != nil {
				return created, fmt.Errorf("milvus: creating %s: %w", name, err)
			}
			created = append(created, name)
		}
		task, err := s.c.LoadCollection(ctx, milvusclient.NewLoadCollectionOption(name))
		if err != nil {
			return created, fmt.Errorf("milvus: loading %s: %w", name, err)
		}
		if err := task.Await(ctx); err != nil {
			return created, fmt.Errorf("milvus: loading %s: %w", name, err)
		}
	}
	if _, err := s.FullText(ctx); err != nil {
		return created, err
	}
	return created, nil
}

// sparseField is the chunks' BM25 sparse vector, filled by Milvus from "text".
const sparseField = "text_sparse"

// FullText reports whether the chunks collection has the BM25 field, i.e.
// whether knowledge search fuses full text with the vectors, asking Milvus the
// first time (a collection created without it, by an older freshctx or with
// full_text off, keeps knowledge search vector-only; `ingest migrate` says so).
func (s *Store) FullText(ctx context.Context) (bool, error) {
	switch s.fullText.Load() {
	case 1:
		return false, nil
	case 2:
		return true, nil
	}
	coll, err := s.c.DescribeCollection(ctx, milvusclient.NewDescribeCollectionOption(s.chunks))
	if err != nil {
		return false, fmt.Errorf("milvus: describing %s: %w", s.chunks, err)
	}
	has := false
	for _, f := range coll.Schema.Functions {
		if f.Type == entity.FunctionTypeBM25 && len(f.OutputFieldNames) == 1 && f.OutputFieldNames[0] == sparseField {
			has = true
		}
	}
	if has {
		s.fullText.Store(2)
	} else {
		s.fullText.Store(1)
	}
	return has, nil
}

func pkOf(r store.Ref) string { return r.Source + "\x00" + r.Key }

func chunkPK(r store.Ref, i int) string { return pkOf(r) + "\x00" + strconv.Itoa(i) }

// query runs a filter with template parameters and returns the rows as maps.
func (s *Store) query(ctx context.Context, coll, filter string, params map[string]any, limit int, fields ...string) ([]map[string]any, error) {
	opt := milvusclient.NewQueryOption(coll).WithFilter(filter).WithOutputFields(fields...).WithConsistencyLevel(s.cl)
	if limit > 0 {
		opt = opt.WithLimit(limit)
	}
	for k, v := range params {
		opt = opt.WithTemplateParam(k, v)
	}
	rs, err := s.c.Query(ctx, opt)
	if err != nil {
		return nil, fmt.Errorf("milvus: query %s: %w", coll, err)
	}
	return rows(rs.ResultCount, rs.Fields)
}

func rows(n int, cols []column.Column) ([]map[string]any, error) {
	out := make([]map[string]any, n)
	for i := range out {
		out[i] = make(map[string]any, len(cols))
	}
	for _, c := range cols {
		if c.Len() < n {
			return nil, fmt.Errorf("milvus: column %s has %d values for %d rows", c.Name(), c.Len(), n)
		}
		for i := 0; i < n; i++ {
			v, err := c.Get(i)
			if err != nil {
				return nil, err
			}
			out[i][c.Name()] = v
		}
	}
	return out, nil
}

func str(r map[string]any, k string) string { s, _ := r[k].(string); return s }
func num(r map[string]any, k string) int64  { n, _ := r[k].(int64); return n }
func flag(r map[string]any, k string) bool  { b, _ := r[k].(bool); return b }

func vec(r map[string]any, k string) []float32 {
	switch v := r[k].(type) {
	case entity.FloatVector:
		return []float32(v)
	case []float32:
		return v
	}
	return nil
}

func obj(r map[string]any, k string) map[string]any {
	b, _ := r[k].([]byte)
	var m map[string]any
	if len(b) > 0 {
		json.Unmarshal(b, &m)
	}
	return m
}

// eventProv is the prov field: the provenance and, for events, the data
// contract (context, and when the TTL passes in Unix microseconds, 0 for never).
type eventProv struct {
	store.Provenance
	Context   string `json:"context,omitempty"`
	ExpiresUS int64  `json:"expires_at,omitempty"`
}

func eventProvOf(r map[string]any) eventProv {
	var p eventProv
	if b, _ := r["prov"].([]byte); len(b) > 0 {
		json.Unmarshal(b, &p)
	}
	return p
}

func expiresUS(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMicro()
}

// PurgeExpired deletes up to limit events whose TTL has passed, as delete
// markers at their version, and returns them for the cache.
func (s *Store) PurgeExpired(ctx context.Context, now time.Time, limit int) ([]store.Removed, error) {
	rs, err := s.query(ctx, s.events, `prov["expires_at"] > 0 && prov["expires_at"] <= {now} && deleted == false`,
		map[string]any{"now": now.UnixMicro()}, limit, "source", "key", "version")
	if err != nil {
		return nil, err
	}
	dels := make([]store.Delete, 0, len(rs))
	for _, r := range rs {
		dels = append(dels, store.Delete{Ref: store.Ref{Source: str(r, "source"), Key: str(r, "key")}, Version: num(r, "version")})
	}
	res, err := s.Apply(ctx, nil, dels)
	return res.Removed, err
}

func hexHash(b []byte) string { return hex.EncodeToString(b) }

func unhex(s string) []byte { b, _ := hex.DecodeString(s); return b }

func jsonBytes(v any) []byte {
	if v == nil {
		return []byte("{}")
	}
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("{}")
	}
	return b
}

const eventFields = "pk,tenant,entity,source,key,id,event_time,text,attrs,fields,text_hash,version,deleted,prov,embedding"

// Lookup returns the stored state of each known key.
func (s *Store) Lookup(ctx context.Context, refs []store.Ref) (map[store.Ref]store.Prior, error) {
	out := map[store.Ref]store.Prior{}
	if len(refs) == 0 {
		return out, nil
	}
	rs, err := s.byPK(ctx, s.events, refs, strings.Split(eventFields, ",")...)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		ref := store.Ref{Source: str(r, "source"), Key: str(r, "key")}
		out[ref] = store.Prior{Tenant: str(r, "tenant"), Entity: str(r, "entity"), TextHash: unhex(str(r, "text_hash")),
			Embedding: vec(r, "embedding"), Fields: obj(r, "fields"), Version: num(r, "version"), Deleted: flag(r, "deleted")}
	}
	return out, nil
}

// guard is what the version guard reads of a stored row.
type guard struct {
	tenant, entity string
	version        int64
	deleted        bool
}

// guards reads the version and delete marker (and extra fields: tenant, entity)
// of each known key, and nothing else: no vectors, no text.
func (s *Store) guards(ctx context.Context, coll string, refs []store.Ref, extra ...string) (map[store.Ref]guard, error) {
	out := map[store.Ref]guard{}
	if len(refs) == 0 {
		return out, nil
	}
	rs, err := s.byPK(ctx, coll, refs, append([]string{"source", "key", "version", "deleted"}, extra...)...)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		out[store.Ref{Source: str(r, "source"), Key: str(r, "key")}] = guard{tenant: str(r, "tenant"), entity: str(r, "entity"),
			version: num(r, "version"), deleted: flag(r, "deleted")}
	}
	return out, nil
}

func (s *Store) byPK(ctx context.Context, coll string, refs []store.Ref, fields ...string) ([]map[string]any, error) {
	pks := make([]string, len(refs))
	for i, r := range refs {
		pks[i] = pkOf(r)
	}
	return s.query(ctx, coll, "pk in {pks}", map[string]any{"pks": pks}, 0, fields...)
}

// Apply writes upserts and deletes, version-guarded: an upsert applies when it is
// newer than what is stored (or equal and not deleted), a delete when it is at
// least as new, leaving a marker row.
func (s *Store) Apply(ctx context.Context, upserts []store.Event, deletes []store.Delete) (store.WriteResult, error) {
	res := store.WriteResult{Applied: make([]bool, len(upserts))}
	refs := make([]store.Ref, 0, len(upserts)+len(deletes))
	for _, e := range upserts {
		refs = append(refs, e.Ref())
	}
	for _, d := range deletes {
		refs = append(refs, d.Ref)
	}
	prior, err := s.guards(ctx, s.events, refs, "tenant", "entity")
	if err != nil {
		return res, err
	}
	var rows []store.Event
	var markers []store.Event
	for i, e := range upserts {
		if len(e.Embedding) != s.dims {
			return res, fmt.Errorf("%w: event %s/%s has %d dimensions, want %d", store.ErrInvalidData, e.Source, e.Key, len(e.Embedding), s.dims)
		}
		p, ok := prior[e.Ref()]
		if ok && (p.version > e.Version || (p.version == e.Version && p.deleted)) {
			continue
		}
		res.Applied[i] = true
		prior[e.Ref()] = guard{tenant: e.Tenant, entity: e.Entity, version: e.Version}
		rows = append(rows, e)
	}
	for _, d := range deletes {
		p, ok := prior[d.Ref]
		if ok && p.version > d.Version {
			continue
		}
		if ok && !p.deleted {
			res.Removed = append(res.Removed, store.Removed{Ref: d.Ref, Tenant: p.tenant, Entity: p.entity, Version: d.Version})
		}
		m := store.Event{Source: d.Source, Key: d.Key, Tenant: p.tenant, Entity: p.entity, Version: d.Version}
		prior[d.Ref] = guard{tenant: p.tenant, entity: p.entity, version: d.Version, deleted: true}
		markers = append(markers, m)
	}
	if err := s.upsertEvents(ctx, rows, false); err != nil {
		return res, err
	}
	return res, s.upsertEvents(ctx, markers, true)
}

// upsertEvents writes rows; with deleted, as delete markers (no text, a unit
// placeholder vector: Milvus needs one in every row).
func (s *Store) upsertEvents(ctx context.Context, evs []store.Event, deleted bool) error {
	if len(evs) == 0 {
		return nil
	}
	// One row per key: the last change of a key in the batch wins.
	last := map[string]int{}
	for i, e := range evs {
		last[pkOf(e.Ref())] = i
	}
	n := len(last)
	var (
		pk, tenant, ent, src, key, id, text, th = make([]string, 0, n), make([]string, 0, n), make([]string, 0, n), make([]string, 0, n), make([]string, 0, n), make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
		at, ver                                 = make([]int64, 0, n), make([]int64, 0, n)
		del                                     = make([]bool, 0, n)
		attrs, fields, pv                       = make([][]byte, 0, n), make([][]byte, 0, n), make([][]byte, 0, n)
		emb                                     = make([][]float32, 0, n)
	)
	for i, e := range evs {
		if last[pkOf(e.Ref())] != i {
			continue
		}
		pk, tenant, ent, src, key = append(pk, pkOf(e.Ref())), append(tenant, e.Tenant), append(ent, e.Entity), append(src, e.Source), append(key, e.Key)
		id, text, th = append(id, e.ID), append(text, e.Text), append(th, hexHash(e.TextHash))
		at, ver, del = append(at, e.Time.UnixMicro()), append(ver, e.Version), append(del, deleted)
		attrs, fields, pv = append(attrs, jsonBytes(e.Attrs)), append(fields, jsonBytes(e.Fields)), append(pv, jsonBytes(eventProv{e.Provenance, e.Context, expiresUS(e.ExpiresAt)}))
		v := e.Embedding
		if deleted {
			v = placeholder(s.dims)
		}
		emb = append(emb, v)
	}
	_, err := s.c.Upsert(ctx, milvusclient.NewColumnBasedInsertOption(s.events,
		column.NewColumnVarChar("pk", pk), column.NewColumnVarChar("tenant", tenant), column.NewColumnVarChar("entity", ent),
		column.NewColumnVarChar("source", src), column.NewColumnVarChar("key", key), column.NewColumnVarChar("id", id),
		column.NewColumnInt64("event_time", at), column.NewColumnVarChar("text", text), column.NewColumnJSONBytes("attrs", attrs),
		column.NewColumnJSONBytes("fields", fields), column.NewColumnVarChar("text_hash", th), column.NewColumnInt64("version", ver),
		column.NewColumnBool("deleted", del), column.NewColumnJSONBytes("prov", pv), column.NewColumnFloatVector("embedding", s.dims, emb)))
	if err != nil {
		return fmt.Errorf("milvus: upserting events: %w", err)
	}
	return nil
}

func placeholder(dims int) []float32 {
	v := make([]float32, dims)
	v[0] = 1
	return v
}

// Purge deletes a source's events (and markers) whose event time is before the
// given time (the source's retention). It reports no count: Milvus deletes by
// expression without one that is exact.
func (s *Store) Purge(ctx context.Context, source string, before time.Time) (int64, error) {
	_, err := s.c.Delete(ctx, &deleteOption{coll: s.events, expr: "source == {source} && event_time < {before}", cl: s.cl,
		params: map[string]*schemapb.TemplateValue{
			"source": {Val: &schemapb.TemplateValue_StringVal{StringVal: source}},
			"before": {Val: &schemapb.TemplateValue_Int64Val{Int64Val: before.UnixMicro()}},
		}})
	if err != nil {
		return 0, fmt.Errorf("milvus: purging %s: %w", source, err)
	}
	return 0, nil
}

// Truncate marks every live event of a source older than version deleted.
func (s *Store) Truncate(ctx context.Context, source string, version int64) ([]store.Removed, error) {
	rs, err := s.query(ctx, s.events, "source == {source} && version < {version} && deleted == false",
		map[string]any{"source": source, "version": version}, 16384, "source", "key", "tenant", "entity")
	if err != nil {
		return nil, err
	}
	var dels []store.Delete
	for _, r := range rs {
		dels = append(dels, store.Delete{Ref: store.Ref{Source: source, Key: str(r, "key")}, Version: version})
	}
	res, err := s.Apply(ctx, nil, dels)
	return res.Removed, err
}

// maxWindow caps how many rows an entity-window query reads before ordering them
// (Milvus queries have no ORDER BY).
const maxWindow = 16384

// Recent returns an entity's live events at or after since, newest first.
func (s *Store) Recent(ctx context.Context, tenant, entity string, since time.Time, limit int) ([]store.Event, error) {
	evs, err := s.entityEvents(ctx, tenant, entity, "event_time >= {since}", since.UnixMicro())
	if err != nil {
		return nil, err
	}
	if len(evs) > limit {
		evs = evs[:limit]
	}
	return evs, nil
}

// Timeline returns an entity's live events newest first, after the cursor when
// one is given, at most limit (keyset order: time descending, then source, key).
func (s *Store) Timeline(ctx context.Context, tenant, entity string, after *store.Cursor, limit int) ([]store.Event, error) {
	cond, at := "event_time >= {since}", int64(math.MinInt64)
	if after != nil {
		cond, at = "event_time <= {since}", after.Time.UnixMicro()
	}
	evs, err := s.entityEvents(ctx, tenant, entity, cond, at)
	if err != nil {
		return nil, err
	}
	out := evs[:0]
	for _, e := range evs {
		if after != nil && e.Time.Equal(after.Time) && (e.Source < after.Source || (e.Source == after.Source && e.Key <= after.Key)) {
			continue // at the cursor's time, up to and including the cursor
		}
		out = append(out, e)
	}
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// entityEvents reads an entity's live events matching cond on event_time
// ({since}), newest first.
func (s *Store) entityEvents(ctx context.Context, tenant, entity, cond string, at int64) ([]store.Event, error) {
	rs, err := s.query(ctx, s.events, "tenant == {tenant} && entity == {entity} && "+cond+" && deleted == false",
		map[string]any{"tenant": tenant, "entity": entity, "since": at}, maxWindow, strings.Split(eventFields, ",")...)
	if err != nil {
		return nil, err
	}
	evs := make([]store.Event, 0, len(rs))
	now := time.Now()
	for _, r := range rs {
		ep := eventProvOf(r)
		e := store.Event{Source: str(r, "source"), Key: str(r, "key"), ID: str(r, "id"), Tenant: tenant, Entity: entity,
			Time: time.UnixMicro(num(r, "event_time")).UTC(), Text: str(r, "text"), Attrs: obj(r, "attrs"), Embedding: vec(r, "embedding"),
			Version: num(r, "version"), Provenance: ep.Provenance, Context: ep.Context}
		if ep.ExpiresUS > 0 {
			e.ExpiresAt = time.UnixMicro(ep.ExpiresUS).UTC()
		}
		if !e.Expired(now) {
			evs = append(evs, e)
		}
	}
	sort.Slice(evs, func(i, j int) bool {
		if !evs[i].Time.Equal(evs[j].Time) {
			return evs[i].Time.After(evs[j].Time)
		}
		if evs[i].Source != evs[j].Source {
			return evs[i].Source < evs[j].Source
		}
		return evs[i].Key < evs[j].Key
	})
	return evs, nil
}

// DocumentPriors returns the stored state of each known document, with the
// vectors of its chunks by chunk text hash.
func (s *Store) DocumentPriors(ctx context.Context, refs []store.Ref) (map[store.Ref]store.DocumentPrior, error) {
	out := map[store.Ref]store.DocumentPrior{}
	if len(refs) == 0 {
		return out, nil
	}
	rs, err := s.byPK(ctx, s.docs, refs, "source", "key", "version", "deleted", "text_hash")
	if err != nil {
		return nil, err
	}
	var live []string
	for _, r := range rs {
		ref := store.Ref{Source: str(r, "source"), Key: str(r, "key")}
		out[ref] = store.DocumentPrior{Version: num(r, "version"), Deleted: flag(r, "deleted"), TextHash: unhex(str(r, "text_hash")),
			Vectors: map[string][]float32{}}
		if !flag(r, "deleted") {
			live = append(live, pkOf(ref))
		}
	}
	if len(live) == 0 {
		return out, nil
	}
	cs, err := s.query(ctx, s.chunks, "doc_pk in {pks}", map[string]any{"pks": live}, 0, "source", "key", "text_hash", "embedding")
	if err != nil {
		return nil, err
	}
	for _, r := range cs {
		ref := store.Ref{Source: str(r, "source"), Key: str(r, "key")}
		if p, ok := out[ref]; ok {
			p.Vectors[string(unhex(str(r, "text_hash")))] = vec(r, "embedding")
		}
	}
	return out, nil
}

// ApplyDocuments writes documents (each replacing all its chunks) and deletes,
// version-guarded like events. Milvus has no transactions: the document row is
// written last, so a crash between the steps leaves the old version recorded and
// the redelivered change writes it all again.
func (s *Store) ApplyDocuments(ctx context.Context, docs []store.Document, deletes []store.Delete) ([]bool, error) {
	applied := make([]bool, len(docs))
	refs := make([]store.Ref, 0, len(docs)+len(deletes))
	for _, d := range docs {
		refs = append(refs, d.Ref())
	}
	for _, d := range deletes {
		refs = append(refs, d.Ref)
	}
	prior, err := s.guards(ctx, s.docs, refs)
	if err != nil {
		return applied, err
	}
	for i, d := range docs {
		p, ok := prior[d.Ref()]
		if ok && (p.version > d.Version || (p.version == d.Version && p.deleted)) {
			continue
		}
		for _, c := range d.Chunks {
			if len(c.Embedding) != s.dims {
				return applied, fmt.Errorf("%w: document %s/%s: a chunk has %d dimensions, want %d", store.ErrInvalidData, d.Source, d.Key, len(c.Embedding), s.dims)
			}
		}
		if err := s.deleteChunks(ctx, d.Ref(), len(d.Chunks)); err != nil {
			return applied, err
		}
		if err := s.upsertChunks(ctx, d); err != nil {
			return applied, err
		}
		if err := s.upsertDoc(ctx, d.Ref(), d.Tenant, d.Version, false, d.TextHash); err != nil {
			return applied, err
		}
		prior[d.Ref()] = guard{version: d.Version}
		applied[i] = true
	}
	for _, d := range deletes {
		p, ok := prior[d.Ref]
		if ok && p.version > d.Version {
			continue
		}
		if err := s.deleteChunks(ctx, d.Ref, 0); err != nil {
			return applied, err
		}
		if err := s.upsertDoc(ctx, d.Ref, "", d.Version, true, nil); err != nil {
			return applied, err
		}
		prior[d.Ref] = guard{version: d.Version, deleted: true}
	}
	return applied, nil
}

// deleteChunks removes a document's chunks numbered from on.
func (s *Store) deleteChunks(ctx context.Context, ref store.Ref, from int) error {
	_, err := s.c.Delete(ctx, &deleteOption{coll: s.chunks, expr: "doc_pk == {pk} && chunk >= {from}", cl: s.cl,
		params: map[string]*schemapb.TemplateValue{
			"pk":   {Val: &schemapb.TemplateValue_StringVal{StringVal: pkOf(ref)}},
			"from": {Val: &schemapb.TemplateValue_Int64Val{Int64Val: int64(from)}},
		}})
	if err != nil {
		return fmt.Errorf("milvus: deleting chunks of %s/%s: %w", ref.Source, ref.Key, err)
	}
	return nil
}

func (s *Store) upsertChunks(ctx context.Context, d store.Document) error {
	n := len(d.Chunks)
	if n == 0 {
		return nil
	}
	pk, dpk, tenant, src, key, docID, title, text, th := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	num, ver := make([]int64, n), make([]int64, n)
	attrs, pv := make([][]byte, n), make([][]byte, n)
	emb := make([][]float32, n)
	for i, c := range d.Chunks {
		pk[i], dpk[i], tenant[i], src[i], key[i], docID[i], title[i], text[i], th[i] =
			chunkPK(d.Ref(), i), pkOf(d.Ref()), d.Tenant, d.Source, d.Key, d.DocID, d.Title, c.Text, hexHash(c.TextHash)
		num[i], ver[i], attrs[i], pv[i], emb[i] = int64(i), d.Version, jsonBytes(d.Attrs), jsonBytes(d.Provenance), c.Embedding
	}
	_, err := s.c.Upsert(ctx, milvusclient.NewColumnBasedInsertOption(s.chunks,
		column.NewColumnVarChar("pk", pk), column.NewColumnVarChar("doc_pk", dpk), column.NewColumnVarChar("tenant", tenant),
		column.NewColumnVarChar("source", src), column.NewColumnVarChar("key", key), column.NewColumnVarChar("doc_id", docID),
		column.NewColumnInt64("chunk", num), column.NewColumnVarChar("title", title), column.NewColumnVarChar("text", text),
		column.NewColumnVarChar("text_hash", th), column.NewColumnJSONBytes("attrs", attrs), column.NewColumnInt64("version", ver),
		column.NewColumnJSONBytes("prov", pv), column.NewColumnFloatVector("embedding", s.dims, emb)))
	if err != nil {
		return fmt.Errorf("milvus: upserting chunks of %s/%s: %w", d.Source, d.Key, err)
	}
	return nil
}

func (s *Store) upsertDoc(ctx context.Context, ref store.Ref, tenant string, version int64, deleted bool, textHash []byte) error {
	_, err := s.c.Upsert(ctx, milvusclient.NewColumnBasedInsertOption(s.docs,
		column.NewColumnVarChar("pk", []string{pkOf(ref)}), column.NewColumnVarChar("tenant", []string{tenant}),
		column.NewColumnVarChar("source", []string{ref.Source}), column.NewColumnVarChar("key", []string{ref.Key}),
		column.NewColumnInt64("version", []int64{version}), column.NewColumnBool("deleted", []bool{deleted}),
		column.NewColumnVarChar("text_hash", []string{hexHash(textHash)}), column.NewColumnFloatVector("marker", 2, [][]float32{{1, 0}})))
	if err != nil {
		return fmt.Errorf("milvus: upserting document %s/%s: %w", ref.Source, ref.Key, err)
	}
	return nil
}

// attrKeyRE is what an attribute name in a knowledge filter may be: it is the one
// part of an expression that cannot be a template parameter.
var attrKeyRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$`)

// Search finds the k chunks nearest the query vector in the tenant, whose attrs
// hold every filter key and value.
func (s *Store) Search(ctx context.Context, q store.SearchQuery) ([]store.Hit, store.SearchInfo, error) {
	filter := "tenant == {tenant}"
	params := map[string]any{"tenant": q.Tenant}
	names := make([]string, 0, len(q.Filter))
	for k := range q.Filter {
		names = append(names, k)
	}
	sort.Strings(names)
	for i, k := range names {
		if !attrKeyRE.MatchString(k) {
			return nil, store.SearchInfo{}, fmt.Errorf("%w: filter key %q: letters, digits, _ . - only", store.ErrInvalidData, k)
		}
		p := "f" + strconv.Itoa(i)
		filter += ` && attrs["` + k + `"] == {` + p + `}`
		params[p] = q.Filter[k]
	}
	out := []string{"source", "doc_id", "chunk", "title", "text", "attrs", "version", "prov"}
	var res []milvusclient.ResultSet
	var err error
	info := store.SearchInfo{Mode: "ann"}
	fullText := false
	if strings.TrimSpace(q.Text) != "" {
		if fullText, err = s.FullText(ctx); err != nil {
			return nil, info, err
		}
	}
	if fullText {
		// Hybrid: the k nearest chunks by vector and the k best by BM25 over
		// the question's words, fused by reciprocal rank (k 60, as pgstore). The
		// vectors come back so each hit's score is its cosine, as in pgstore.
		info.Mode = "hybrid"
		dense := milvusclient.NewAnnRequest("embedding", q.K, entity.FloatVector(q.Vector)).WithFilter(filter)
		// (the question's other words count in BM25 as its own: a dot product
		// over the words a chunk holds, which nothing they lack can empty)
		sparse := milvusclient.NewAnnRequest(sparseField, q.K, entity.Text(strings.Join(append([]string{q.Text}, q.Also...), " "))).WithFilter(filter)
		for k, v := range params {
			dense, sparse = dense.WithTemplateParam(k, v), sparse.WithTemplateParam(k, v)
		}
		opt := milvusclient.NewHybridSearchOption(s.chunks, q.K, dense, sparse).WithReranker(milvusclient.NewRRFReranker().WithK(60)).
			WithConsistencyLevel(s.cl).WithOutputFields(append(out, "embedding")...)
		res, err = s.c.HybridSearch(ctx, opt)
	} else {
		opt := milvusclient.NewSearchOption(s.chunks, q.K, []entity.Vector{entity.FloatVector(q.Vector)}).WithANNSField("embedding").
			WithFilter(filter).WithConsistencyLevel(s.cl).WithOutputFields(out...)
		for k, v := range params {
			opt = opt.WithTemplateParam(k, v)
		}
		res, err = s.c.Search(ctx, opt)
	}
	if err != nil {
		return nil, info, fmt.Errorf("milvus: search: %w", err)
	}
	var hits []store.Hit
	for _, rs := range res {
		rr, err := rows(rs.ResultCount, rs.Fields)
		if err != nil {
			return nil, info, err
		}
		for i, r := range rr {
			h := store.Hit{Source: str(r, "source"), DocID: str(r, "doc_id"), Chunk: int(num(r, "chunk")), Title: str(r, "title"),
				Text: str(r, "text"), Attrs: obj(r, "attrs"), Version: num(r, "version"), Provenance: eventProvOf(r).Provenance}
			switch {
			case fullText:
				h.Score = cosine(q.Vector, vec(r, "embedding"))
			case i < len(rs.Scores):
				h.Score = float64(rs.Scores[i])
			}
			hits = append(hits, h)
		}
	}
	return hits, info, nil
}

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range min(len(a), len(b)) {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// deleteOption is a delete by an expression template: the client's own delete
// option carries no template parameters.
type deleteOption struct {
	coll, expr string
	cl         entity.ConsistencyLevel
	params     map[string]*schemapb.TemplateValue
}

func (o *deleteOption) Request() *milvuspb.DeleteRequest {
	return &milvuspb.DeleteRequest{CollectionName: o.coll, Expr: o.expr, ExprTemplateValues: o.params,
		ConsistencyLevel: commonpb.ConsistencyLevel(o.cl)}
}
