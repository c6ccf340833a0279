// Package store holds the types that flow between the pipeline, the vector stores
// and the recent-events cache, and the one declaration of each store contract.
// The stores themselves live in subpackages (pgstore, milvusstore, rediscache);
// storetest is the conformance suite every vector store passes.
package store

import (
	"context"
	"errors"
	"time"
)

// Writer is the version-guarded write path ingest and backfill write through.
type Writer interface {
	Lookup(ctx context.Context, refs []Ref) (map[Ref]Prior, error)
	Apply(ctx context.Context, upserts []Event, deletes []Delete) (WriteResult, error)
	Truncate(ctx context.Context, source string, version int64) ([]Removed, error)
	DocumentPriors(ctx context.Context, refs []Ref) (map[Ref]DocumentPrior, error)
	ApplyDocuments(ctx context.Context, docs []Document, deletes []Delete) ([]bool, error)
}

// Reader reads an entity's events in a window, newest first.
type Reader interface {
	Recent(ctx context.Context, tenant, entity string, since time.Time, limit int) ([]Event, error)
	Ping(ctx context.Context) error
}

// Searcher searches knowledge chunks.
type Searcher interface {
	Search(ctx context.Context, q SearchQuery) ([]Hit, SearchInfo, error)
}

// Timeline pages through an entity's events.
type Timeline interface {
	Timeline(ctx context.Context, tenant, entity string, after *Cursor, limit int) ([]Event, error)
}

// Purger deletes a source's events older than a time (source retention).
type Purger interface {
	Purge(ctx context.Context, source string, before time.Time) (int64, error)
}

// Expirer removes events whose TTL has passed (see Event.ExpiresAt), at most
// limit at a time, and returns them for the cache.
type Expirer interface {
	PurgeExpired(ctx context.Context, now time.Time, limit int) ([]Removed, error)
}

// VectorStore is a whole backend for events and knowledge (pgstore, milvusstore):
// what ingest writes and the context API reads.
type VectorStore interface {
	Writer
	Reader
	Searcher
}

// Ref identifies a stored event: the source it came from and its key there.
type Ref struct {
	Source string
	Key    string
}

// Event is a trimmed, embedded change of kind event, ready to store.
type Event struct {
	Source string    `json:"source"`
	Key    string    `json:"key"`
	ID     string    `json:"id"` // rendered display id
	Tenant string    `json:"tenant"`
	Entity string    `json:"entity"`
	Time   time.Time `json:"time"`
	Text   string    `json:"text"`
	// Attrs are the allow-listed fields returned with the event.
	Attrs map[string]any `json:"attrs,omitempty"`
	// Fields are the source columns the mapping reads, kept so that a change that
	// omits an unchanged (TOASTed) column can be rendered from the stored value.
	Fields    map[string]any `json:"-"`
	TextHash  []byte         `json:"-"`
	Embedding []float32      `json:"-"`
	// Analysis is Text's lexical analysis as the recent cache keeps it
	// (relevance.EncodeAnalysis), so a reader need not analyse the text again;
	// nil from the stores. Opaque here, and read in place: never written.
	Analysis   []byte     `json:"-"`
	Version    int64      `json:"version"`
	Provenance Provenance `json:"provenance"`
	// Context is the AI task the event is for (the ai-context header); "" for any.
	Context string `json:"context,omitempty"`
	// ExpiresAt is when the event's TTL (the ai-ttl header) passes: it is never
	// served after it, and purged. Zero: no TTL.
	ExpiresAt time.Time `json:"expires_at,omitzero"`
}

// Expired reports whether e's TTL has passed at now.
func (e *Event) Expired(now time.Time) bool { return !e.ExpiresAt.IsZero() && !now.Before(e.ExpiresAt) }

// Change is one change of an entity's events, as the cache's change stream
// keeps it for live subscribers.
type Change struct {
	// ID is the change's id, increasing within the entity: a subscriber resumes
	// after it (Last-Event-ID).
	ID string
	// Op is stored, updated or deleted.
	Op    string
	Event Event // Source, Key and Version always; the rest when stored or updated
}

// ErrChangesTrimmed says the changes after an id are no longer all kept (the
// stream was trimmed or expired): the subscriber reads the timeline again.
var ErrChangesTrimmed = errors.New("the changes after that id are no longer kept")

// primaryKey marks a context whose reads must see every acknowledged write.
type primaryKey struct{}

// WithPrimary marks ctx's reads as read-your-writes: a store with read replicas
// serves them from the primary (a replica may lag behind what the watermarks
// say is written).
func WithPrimary(ctx context.Context) context.Context {
	return context.WithValue(ctx, primaryKey{}, true)
}

// NeedsPrimary reports whether ctx was marked by WithPrimary.
func NeedsPrimary(ctx context.Context) bool { v, _ := ctx.Value(primaryKey{}).(bool); return v }

// Provenance says where a fact came from, so an answer can be audited back to the
// Kafka record that fed it.
type Provenance struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Offset    int64  `json:"offset"`
	TraceID   string `json:"trace_id,omitempty"` // from a traceparent or trace id header
	Producer  string `json:"producer,omitempty"` // the producing job (the ai-provenance header)
}

// Ref returns the event's identity.
func (e *Event) Ref() Ref { return Ref{Source: e.Source, Key: e.Key} }

// Delete removes a key as of a version; it leaves a marker so that an older
// replayed change cannot bring the key back.
type Delete struct {
	Ref
	Version int64
}

// Prior is what the store holds for a key, read before writing a batch.
type Prior struct {
	Tenant, Entity string
	TextHash       []byte
	Embedding      []float32
	Fields         map[string]any
	Version        int64
	Deleted        bool
}

// Removed names an event that a write took out of an entity's timeline, so the
// cache can drop it too.
type Removed struct {
	Ref
	Tenant, Entity string
	Version        int64
}

// WriteResult says which writes of a batch took effect.
type WriteResult struct {
	// Applied[i] is true when upserts[i] was written (false: a newer version is stored).
	Applied []bool
	// Removed lists deleted events that were live, for the cache.
	Removed []Removed
}

// Document is a trimmed change of kind document, split into embedded chunks.
type Document struct {
	Source, Key string
	DocID       string
	Tenant      string
	Title       string
	Attrs       map[string]any
	TextHash    []byte
	Chunks      []Chunk
	Version     int64
	Provenance  Provenance
}

// Ref returns the document's identity.
func (d *Document) Ref() Ref { return Ref{Source: d.Source, Key: d.Key} }

// Chunk is one embedded piece of a document.
type Chunk struct {
	Text      string
	TextHash  []byte
	Embedding []float32
}

// DocumentPrior is what the store holds for a document, read before writing.
type DocumentPrior struct {
	Version  int64
	Deleted  bool
	TextHash []byte
	// Vectors of the stored chunks by chunk text hash: an edit re-embeds only the
	// chunks whose text changed.
	Vectors map[string][]float32
}

// SearchQuery is a knowledge search.
type SearchQuery struct {
	Tenant string
	Vector []float32
	// Text is the question as words: stores with full-text search fuse it with
	// the vector search (hybrid); empty: vector search alone.
	Text string
	// Also are other words for the question's (its Chinese words' English
	// glosses): a chunk holding one may be found and ranks higher, but they
	// never stand in for the question's own words.
	Also []string
	K    int
	// Filter keeps chunks whose attributes contain every given key and value.
	Filter map[string]any
}

// Hit is one chunk found by a knowledge search.
type Hit struct {
	Source     string         `json:"source"`
	DocID      string         `json:"doc_id"`
	Chunk      int            `json:"chunk"`
	Title      string         `json:"title,omitempty"`
	Text       string         `json:"text"`
	Attrs      map[string]any `json:"attrs,omitempty"`
	Score      float64        `json:"score"` // cosine similarity to the query
	Version    int64          `json:"version"`
	Provenance Provenance     `json:"provenance"`
}

// SearchInfo says how a search was answered.
type SearchInfo struct {
	// Mode is "hybrid" (the vector index and full-text search, fused by
	// reciprocal rank), "ann" (the vector index alone: no text, or a store
	// without full-text search) or "exact" (the filter left the index fewer than
	// k hits, so the filtered rows were compared exactly by vector).
	Mode string
}

// Cursor is a position in an entity's timeline: the next page holds the events
// after it in the order event time descending, then source and key ascending.
type Cursor struct {
	Time   time.Time `json:"t"`
	Source string    `json:"s"`
	Key    string    `json:"k"`
}

// Checkpoint is a backfill job's saved progress.
type Checkpoint struct {
	// Input describes the job's input settings; resuming with other settings is refused.
	Input string
	// Position is where the job resumes (input-specific JSON); nil: from the start.
	Position []byte
	// Counts are the job's running totals by result (records, stored, unchanged, ...).
	Counts    map[string]int64
	StartedAt time.Time
	UpdatedAt time.Time
	// Finished is set when the job read its input to the end.
	Finished bool
}

// Summary is a conversation's rolling summary.
type Summary struct {
	Tenant    string    `json:"tenant"`
	SessionID string    `json:"session_id"`
	Text      string    `json:"text"`
	Turns     int       `json:"turns"`   // turns summarised so far
	Through   int64     `json:"through"` // version of the newest turn covered
	ThroughAt time.Time `json:"through_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Watermark says how far ingest has durably written a source partition: every
// record below Offset is stored or dead-lettered, and so is every record with a
// Kafka timestamp at or before Time (the newest timestamp among them; a caught-up
// idle partition is fresh up to the moment it was seen caught up).
type Watermark struct {
	Topic     string    `json:"topic"`
	Partition int32     `json:"partition"`
	Offset    int64     `json:"offset"`
	Time      time.Time `json:"time"`
	// High is the partition's log end offset when ingest last looked (0: not
	// known); High − Offset is the lag.
	High int64 `json:"high,omitempty"`
	// WrittenAt is when the watermark last advanced (read side only).
	WrittenAt time.Time `json:"written_at,omitzero"`
	// DeadLettered counts the partition's records sent to the DLQ: added by a
	// publish, the total on read.
	DeadLettered int64 `json:"dead_lettered"`
}

// Watermarks are published by ingest and read by every context API replica.
type Watermarks interface {
	PublishWatermarks(ctx context.Context, marks []Watermark) error
}

// StaleWatermarks is what Watermarks may also do: forget a partition's
// watermark that lies beyond its log end offset (a deleted and re-created
// topic), reporting whether it did, and forget the watermarks of partitions a
// topic no longer has (re-created with fewer), reporting how many.
type StaleWatermarks interface {
	ForgetStaleWatermark(ctx context.Context, topic string, partition int32, logEnd int64) (bool, error)
	ForgetPartitionsFrom(ctx context.Context, topic string, count int32) (int, error)
}
