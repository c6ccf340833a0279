// Package store holds the types that flow between the pipeline, the vector stores
// and the recent-events cache. The stores themselves live in subpackages
// (pgstore, rediscache); the pipeline and the API declare the small interfaces they
// need from them.
package store

import (
	"time"
)

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
	Version   int64          `json:"version"`
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
