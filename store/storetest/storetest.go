// Package storetest is the behaviour every vector store must show, as one suite:
// upserts, the version guard, delete markers, the entity window, document chunks
// replaced and deleted, knowledge search with filters, and tenant isolation
// (with hostile tenant and entity strings). pgstore and milvusstore run it.
package storetest

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/freshctx/freshctx/store"
)

// Store is what the suite exercises: a whole vector store.
type Store = store.VectorStore

// Dims is the vector size the suite writes.
const Dims = 8

// Run runs the suite; open returns an empty store for Dims-dimensional vectors.
func Run(t *testing.T, open func(t *testing.T) Store) {
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, s Store)
	}{
		{"UpsertAndRecent", upsertAndRecent},
		{"VersionGuard", versionGuard},
		{"DeleteMarkers", deleteMarkers},
		{"EntityWindow", entityWindow},
		{"DocumentChunks", documentChunks},
		{"SearchFilters", searchFilters},
		{"TenantIsolation", tenantIsolation},
		{"TimelinePages", timelinePages},
		{"DataContract", dataContract},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

var ctx = context.Background()

// vec is a unit vector pointing mostly along axis i.
func vec(i int) []float32 {
	v := make([]float32, Dims)
	for j := range v {
		v[j] = 0.05
	}
	v[i%Dims] = 1
	return normalize(v)
}

// normalize scales v to length 1, in place.
func normalize(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x * x)
	}
	for j := range v {
		v[j] /= float32(math.Sqrt(n))
	}
	return v
}

func hash(s string) []byte { h := sha256.Sum256([]byte(s)); return h[:16] }

var base = time.Now().Add(-10 * time.Minute).Truncate(time.Millisecond).UTC()

func event(tenant, entity, key string, version int64, at time.Duration, text string) store.Event {
	return store.Event{Source: "tickets", Key: key, ID: "T-" + key, Tenant: tenant, Entity: entity, Time: base.Add(at), Text: text,
		Attrs: map[string]any{"status": "open"}, Fields: map[string]any{"body": text}, TextHash: hash(text), Embedding: vec(int(version)),
		Version: version, Provenance: store.Provenance{Topic: "shop.public.tickets", Partition: 1, Offset: version, TraceID: "t-" + key}}
}

func apply(t *testing.T, s Store, ups []store.Event, dels []store.Delete) store.WriteResult {
	t.Helper()
	r, err := s.Apply(ctx, ups, dels)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func recent(t *testing.T, s Store, tenant, entity string) []store.Event {
	t.Helper()
	evs, err := s.Recent(ctx, tenant, entity, base.Add(-time.Hour), 100)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func keys(evs []store.Event) string {
	s := ""
	for _, e := range evs {
		s += e.Key + ","
	}
	return s
}

func upsertAndRecent(t *testing.T, s Store) {
	r := apply(t, s, []store.Event{event("acme", "customer:1", "1", 1, 0, "first"), event("acme", "customer:1", "2", 2, time.Minute, "second"),
		event("acme", "customer:2", "3", 3, 2*time.Minute, "other customer")}, nil)
	if len(r.Applied) != 3 || !r.Applied[0] || !r.Applied[1] || !r.Applied[2] {
		t.Fatalf("applied %v", r.Applied)
	}
	evs := recent(t, s, "acme", "customer:1")
	if keys(evs) != "2,1," {
		t.Fatalf("recent: %s, want 2,1 (newest first, this entity only)", keys(evs))
	}
	e := evs[0]
	if e.Text != "second" || e.ID != "T-2" || e.Attrs["status"] != "open" || !e.Time.Equal(base.Add(time.Minute)) || e.Version != 2 ||
		len(e.Embedding) != Dims || e.Provenance.Topic != "shop.public.tickets" || e.Provenance.Offset != 2 || e.Provenance.TraceID != "t-2" {
		t.Fatalf("event read back: %+v", e)
	}
}

func versionGuard(t *testing.T, s Store) {
	apply(t, s, []store.Event{event("acme", "customer:1", "k", 5, 0, "v5")}, nil)
	r := apply(t, s, []store.Event{event("acme", "customer:1", "k", 4, 0, "v4 (older)")}, nil)
	if r.Applied[0] {
		t.Fatal("an older version replaced a newer one")
	}
	r = apply(t, s, []store.Event{event("acme", "customer:1", "k", 5, 0, "v5")}, nil)
	if !r.Applied[0] {
		t.Fatal("the same version again must apply (idempotent replay)")
	}
	r = apply(t, s, []store.Event{event("acme", "customer:1", "k", 7, 0, "v7")}, nil)
	if !r.Applied[0] || recent(t, s, "acme", "customer:1")[0].Text != "v7" {
		t.Fatal("a newer version did not replace")
	}
	ref := store.Ref{Source: "tickets", Key: "k"}
	pr, err := s.Lookup(ctx, []store.Ref{ref, {Source: "tickets", Key: "absent"}})
	if err != nil {
		t.Fatal(err)
	}
	p, ok := pr[ref]
	if !ok || p.Version != 7 || p.Deleted || string(p.TextHash) != string(hash("v7")) || p.Tenant != "acme" || p.Entity != "customer:1" ||
		len(p.Embedding) != Dims || p.Fields["body"] != "v7" {
		t.Fatalf("lookup: %+v", p)
	}
	if _, ok := pr[store.Ref{Source: "tickets", Key: "absent"}]; ok {
		t.Fatal("lookup invented a prior")
	}
}

func deleteMarkers(t *testing.T, s Store) {
	apply(t, s, []store.Event{event("acme", "customer:1", "d", 3, 0, "to delete"), event("acme", "customer:1", "e", 3, time.Second, "stays")}, nil)
	r := apply(t, s, nil, []store.Delete{{Ref: store.Ref{Source: "tickets", Key: "d"}, Version: 5}})
	if len(r.Removed) != 1 || r.Removed[0].Tenant != "acme" || r.Removed[0].Entity != "customer:1" || r.Removed[0].Key != "d" {
		t.Fatalf("removed %+v: want the live event, with its entity", r.Removed)
	}
	if keys(recent(t, s, "acme", "customer:1")) != "e," {
		t.Fatal("a deleted event is still read")
	}
	if r := apply(t, s, []store.Event{event("acme", "customer:1", "d", 4, 0, "replayed create")}, nil); r.Applied[0] {
		t.Fatal("an older replayed change resurrected a deleted key")
	}
	if r := apply(t, s, []store.Event{event("acme", "customer:1", "d", 5, 0, "same version")}, nil); r.Applied[0] {
		t.Fatal("an upsert at the delete's version resurrected it")
	}
	pr, _ := s.Lookup(ctx, []store.Ref{{Source: "tickets", Key: "d"}})
	if p := pr[store.Ref{Source: "tickets", Key: "d"}]; !p.Deleted || p.Version != 5 {
		t.Fatalf("lookup of a deleted key: %+v", p)
	}
	// Deleting what was never seen leaves a marker too.
	apply(t, s, nil, []store.Delete{{Ref: store.Ref{Source: "tickets", Key: "never"}, Version: 9}})
	if r := apply(t, s, []store.Event{event("acme", "customer:1", "never", 8, 0, "late create")}, nil); r.Applied[0] {
		t.Fatal("a create older than a delete of an unseen key applied")
	}
	if r := apply(t, s, []store.Event{event("acme", "customer:1", "d", 6, 0, "re-created")}, nil); !r.Applied[0] {
		t.Fatal("a newer create after a delete must apply")
	}
}

func entityWindow(t *testing.T, s Store) {
	var ups []store.Event
	for i := 0; i < 10; i++ {
		ups = append(ups, event("acme", "customer:w", fmt.Sprint("w", i), int64(i+1), time.Duration(i)*time.Minute, fmt.Sprint("event ", i)))
	}
	apply(t, s, ups, nil)
	evs, err := s.Recent(ctx, "acme", "customer:w", base.Add(5*time.Minute), 100)
	if err != nil {
		t.Fatal(err)
	}
	if keys(evs) != "w9,w8,w7,w6,w5," {
		t.Fatalf("window from minute 5: %s", keys(evs))
	}
	evs, _ = s.Recent(ctx, "acme", "customer:w", base.Add(-time.Hour), 3)
	if keys(evs) != "w9,w8,w7," {
		t.Fatalf("limit 3: %s, want the 3 newest", keys(evs))
	}
}

func doc(tenant, key string, version int64, attrs map[string]any, chunks ...string) store.Document {
	d := store.Document{Source: "kb", Key: key, DocID: "KB-" + key, Tenant: tenant, Title: "Title " + key, Attrs: attrs,
		TextHash: hash(fmt.Sprint(chunks)), Version: version, Provenance: store.Provenance{Topic: "kb.public.articles", Offset: version}}
	for i, c := range chunks {
		d.Chunks = append(d.Chunks, store.Chunk{Text: c, TextHash: hash(c), Embedding: vec(i)})
	}
	return d
}

func search(t *testing.T, s Store, q store.SearchQuery) []store.Hit {
	t.Helper()
	hits, _, err := s.Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

func documentChunks(t *testing.T, s Store) {
	applied, err := s.ApplyDocuments(ctx, []store.Document{doc("acme", "1", 2, map[string]any{"category": "refunds"}, "chunk zero", "chunk one", "chunk two")}, nil)
	if err != nil || len(applied) != 1 || !applied[0] {
		t.Fatalf("apply: %v %v", applied, err)
	}
	hits := search(t, s, store.SearchQuery{Tenant: "acme", Vector: vec(2), K: 10})
	if len(hits) != 3 || hits[0].Chunk != 2 || hits[0].Text != "chunk two" || hits[0].DocID != "KB-1" || hits[0].Title != "Title 1" ||
		hits[0].Attrs["category"] != "refunds" || hits[0].Version != 2 || hits[0].Score < 0.99 || hits[0].Provenance.Topic != "kb.public.articles" {
		t.Fatalf("search after the first version: %+v", hits)
	}
	ref := store.Ref{Source: "kb", Key: "1"}
	pr, err := s.DocumentPriors(ctx, []store.Ref{ref})
	if err != nil || pr[ref].Version != 2 || len(pr[ref].Vectors) != 3 || len(pr[ref].Vectors[string(hash("chunk one"))]) != Dims {
		t.Fatalf("document priors: %+v %v", pr[ref], err)
	}
	// An older version changes nothing; a newer one replaces every chunk.
	if a, _ := s.ApplyDocuments(ctx, []store.Document{doc("acme", "1", 1, nil, "stale")}, nil); a[0] {
		t.Fatal("an older document version applied")
	}
	if a, _ := s.ApplyDocuments(ctx, []store.Document{doc("acme", "1", 3, map[string]any{"category": "refunds"}, "new zero", "new one")}, nil); !a[0] {
		t.Fatal("a newer document version did not apply")
	}
	hits = search(t, s, store.SearchQuery{Tenant: "acme", Vector: vec(2), K: 10})
	if len(hits) != 2 {
		t.Fatalf("after the update: %d chunks, want 2 (the third is gone)", len(hits))
	}
	for _, h := range hits {
		if h.Version != 3 || (h.Text != "new zero" && h.Text != "new one") {
			t.Fatalf("an old chunk survived the update: %+v", h)
		}
	}
	// A delete removes the chunks and refuses older versions after it.
	if _, err := s.ApplyDocuments(ctx, nil, []store.Delete{{Ref: ref, Version: 4}}); err != nil {
		t.Fatal(err)
	}
	if hits := search(t, s, store.SearchQuery{Tenant: "acme", Vector: vec(0), K: 10}); len(hits) != 0 {
		t.Fatalf("after the delete: %+v", hits)
	}
	if a, _ := s.ApplyDocuments(ctx, []store.Document{doc("acme", "1", 3, nil, "replayed")}, nil); a[0] {
		t.Fatal("a replayed older version resurrected a deleted document")
	}
	if pr, _ := s.DocumentPriors(ctx, []store.Ref{ref}); !pr[ref].Deleted || pr[ref].Version != 4 {
		t.Fatalf("priors of a deleted document: %+v", pr[ref])
	}
}

func searchFilters(t *testing.T, s Store) {
	var docs []store.Document
	for i := 0; i < 6; i++ {
		cat := "shipping"
		if i%2 == 0 {
			cat = "refunds"
		}
		docs = append(docs, doc("acme", fmt.Sprint("f", i), 1, map[string]any{"category": cat, "lang": "en", "rank": float64(i % 3)}, fmt.Sprint("text ", i)))
	}
	if _, err := s.ApplyDocuments(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	hits := search(t, s, store.SearchQuery{Tenant: "acme", Vector: vec(0), K: 10, Filter: map[string]any{"category": "refunds"}})
	if len(hits) != 3 {
		t.Fatalf("filter category=refunds: %d hits, want 3", len(hits))
	}
	for _, h := range hits {
		if h.Attrs["category"] != "refunds" {
			t.Fatalf("filter let through %+v", h)
		}
	}
	hits = search(t, s, store.SearchQuery{Tenant: "acme", Vector: vec(0), K: 10, Filter: map[string]any{"category": "refunds", "rank": float64(2)}})
	if len(hits) != 1 || hits[0].DocID != "KB-f2" {
		t.Fatalf("two filters: %+v", hits)
	}
	if hits := search(t, s, store.SearchQuery{Tenant: "acme", Vector: vec(0), K: 2}); len(hits) != 2 || hits[0].Score < hits[1].Score {
		t.Fatalf("k=2: %+v, want 2 hits, best first", hits)
	}
}

// Hostile strings: quotes, backslashes, operators and expression syntax in the
// tenant and entity, which a store that builds queries from text must not let
// escape.
var hostile = []string{`ac"me`, `acme" || tenant != "x`, `a\"b`, `a\\`, `x' OR '1'='1`, `{t}`, `acme"] || true || ["`}

func tenantIsolation(t *testing.T, s Store) {
	var ups []store.Event
	for i, tenant := range append([]string{"acme", "globex"}, hostile...) {
		ups = append(ups, event(tenant, "customer:1", fmt.Sprint("iso", i), int64(i+1), time.Duration(i)*time.Second, "of "+tenant))
		ups = append(ups, event("acme", `customer:"1" || entity != "`+tenant, fmt.Sprint("ent", i), int64(i+1), 0, "hostile entity "+tenant))
	}
	apply(t, s, ups, nil)
	for i, tenant := range append([]string{"acme", "globex"}, hostile...) {
		evs := recent(t, s, tenant, "customer:1")
		if len(evs) != 1 || evs[0].Key != fmt.Sprint("iso", i) || evs[0].Tenant != tenant {
			t.Fatalf("tenant %q reads %s, want only its own event", tenant, keys(evs))
		}
		evs = recent(t, s, "acme", `customer:"1" || entity != "`+tenant)
		if len(evs) != 1 || evs[0].Key != fmt.Sprint("ent", i) {
			t.Fatalf("hostile entity for %q reads %s", tenant, keys(evs))
		}
	}
	var docs []store.Document
	for i, tenant := range append([]string{"acme", "globex"}, hostile...) {
		docs = append(docs, doc(tenant, fmt.Sprint("t", i), 1, map[string]any{"category": `refunds" || true`}, "policy of "+tenant))
	}
	if _, err := s.ApplyDocuments(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	for _, tenant := range append([]string{"acme", "globex"}, hostile...) {
		hits := search(t, s, store.SearchQuery{Tenant: tenant, Vector: vec(0), K: 50})
		if len(hits) != 1 || hits[0].Text != "policy of "+tenant {
			t.Fatalf("tenant %q searches %d hits: %+v", tenant, len(hits), hits)
		}
		hits = search(t, s, store.SearchQuery{Tenant: tenant, Vector: vec(0), K: 50, Filter: map[string]any{"category": `refunds" || true`}})
		if len(hits) != 1 {
			t.Fatalf("tenant %q with a hostile filter value: %d hits", tenant, len(hits))
		}
	}
}

// timelinePages: keyset pages over an entity's events, newest first, with ties on
// time broken by source and key, no gaps and no repeats.
func timelinePages(t *testing.T, s Store) {
	tl, ok := s.(interface {
		Timeline(ctx context.Context, tenant, entity string, after *store.Cursor, limit int) ([]store.Event, error)
	})
	if !ok {
		t.Skip("the store has no timeline")
	}
	var ups []store.Event
	for i := 0; i < 7; i++ {
		ups = append(ups, event("acme", "customer:tl", fmt.Sprint("p", i), int64(i+1), time.Duration(i/2)*time.Minute, fmt.Sprint("e", i)))
	}
	apply(t, s, ups, nil)
	var got string
	var after *store.Cursor
	for page := 0; page < 10; page++ {
		evs, err := tl.Timeline(ctx, "acme", "customer:tl", after, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) == 0 {
			break
		}
		got += keys(evs)
		last := evs[len(evs)-1]
		after = &store.Cursor{Time: last.Time, Source: last.Source, Key: last.Key}
	}
	if got != "p6,p4,p5,p2,p3,p0,p1," {
		t.Fatalf("pages: %s", got)
	}
}

// dataContract: an event's context, producer and TTL are stored and read back;
// one whose TTL has passed is never read, is purged once into a delete marker at
// its version, and a replay of it does not bring it back.
func dataContract(t *testing.T, s Store) {
	now := time.Now().Truncate(time.Millisecond).UTC()
	live := event("acme", "customer:dc", "live", 1, 0, "kept until its TTL")
	live.Context, live.Provenance.Producer, live.ExpiresAt = "support", "crm-sync", now.Add(time.Hour)
	gone := event("acme", "customer:dc", "gone", 2, time.Minute, "its TTL has passed")
	gone.Context, gone.ExpiresAt = "support", now.Add(-time.Second)
	plain := event("acme", "customer:dc", "plain", 3, 2*time.Minute, "no contract")
	apply(t, s, []store.Event{live, gone, plain}, nil)
	evs := recent(t, s, "acme", "customer:dc")
	if keys(evs) != "plain,live," {
		t.Fatalf("recent: %s, want plain,live (the expired event never read)", keys(evs))
	}
	if e := evs[1]; e.Context != "support" || e.Provenance.Producer != "crm-sync" || !e.ExpiresAt.Equal(live.ExpiresAt) {
		t.Fatalf("contract read back: context %q producer %q expires %v, want support, crm-sync, %v", e.Context, e.Provenance.Producer, e.ExpiresAt, live.ExpiresAt)
	}
	if e := evs[0]; e.Context != "" || !e.ExpiresAt.IsZero() || e.Provenance.Producer != "" {
		t.Fatalf("an event without a contract read back with one: %+v", e)
	}
	if tl, ok := s.(store.Timeline); ok {
		page, err := tl.Timeline(ctx, "acme", "customer:dc", nil, 10)
		if err != nil || keys(page) != "plain,live," {
			t.Fatalf("timeline: %s %v, want plain,live", keys(page), err)
		}
	}
	exp, ok := s.(store.Expirer)
	if !ok {
		t.Skip("the store does not purge expired events")
	}
	removed, err := exp.PurgeExpired(ctx, time.Now(), 100)
	if err != nil || len(removed) != 1 || removed[0].Key != "gone" || removed[0].Tenant != "acme" || removed[0].Entity != "customer:dc" || removed[0].Version != 2 {
		t.Fatalf("purge: %+v %v, want the expired event at version 2", removed, err)
	}
	if again, err := exp.PurgeExpired(ctx, time.Now(), 100); err != nil || len(again) != 0 {
		t.Fatalf("second purge: %+v %v, want nothing", again, err)
	}
	replay := gone
	replay.ExpiresAt = now.Add(time.Hour)
	if r := apply(t, s, []store.Event{replay}, nil); r.Applied[0] {
		t.Fatal("a replay of the purged event at its version was applied")
	}
	if evs := recent(t, s, "acme", "customer:dc"); keys(evs) != "plain,live," {
		t.Fatalf("after purge and replay: %s, want plain,live", keys(evs))
	}
}

// RunHybrid checks a store whose knowledge search fuses full text with vectors:
// a question naming an article's exact term (an error code) finds the chunk that
// names it first, though another chunk's vector is nearer; without text the
// vector order stands; other tenants stay invisible; the question's other
// words (SearchQuery.Also) find what they name.
func RunHybrid(t *testing.T, open func(t *testing.T) Store) {
	s := open(t)
	var docs []store.Document
	for i := range 6 {
		d := doc("acme", fmt.Sprint("h", i), 1, nil, fmt.Sprintf("General advice number %d about deliveries and returns.", i))
		if i > 0 {
			d.Chunks[0].Embedding = vec(10 + i) // far from the question's vector, vec(0)
		}
		docs = append(docs, d)
	}
	// The code's chunk is second nearest by vector (h0 is nearest), and the
	// only one naming the code: fused, it comes first whatever a store does with
	// ties.
	code := doc("acme", "code", 1, nil, "Error E-7731 means the payment terminal lost its connection; restart it.")
	code.Chunks[0].Embedding = blend(vec(0), vec(5))
	docs = append(docs, code, doc("other", "other-code", 1, nil, "Error E-7731 at another tenant."))
	if _, err := s.ApplyDocuments(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	hits, info, err := s.Search(ctx, store.SearchQuery{Tenant: "acme", Vector: vec(0), Text: "what does error E-7731 mean?", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].DocID != "KB-code" || info.Mode != "hybrid" {
		t.Fatalf("a question naming E-7731 (mode %s): %+v; want KB-code first", info.Mode, hits)
	}
	if c := hits[0].Score; c < 0.3 || c > 0.99 { // ~0.7; a fused rank would be ~0.03
		t.Fatalf("a hybrid hit's score is its cosine to the question, got %.4f", c)
	}
	for _, h := range hits {
		if strings.Contains(h.Text, "another tenant") {
			t.Fatalf("another tenant's chunk: %+v", h)
		}
	}
	hits = search(t, s, store.SearchQuery{Tenant: "acme", Vector: vec(0), K: 3})
	if len(hits) != 3 || hits[0].DocID != "KB-h0" || hits[1].DocID != "KB-code" {
		t.Fatalf("without text, vector order (h0, then the code): %+v", hits)
	}
	// The question's other words (a Chinese question's English glosses) find
	// the chunk that holds them, which none of its own words do.
	hits, _, err = s.Search(ctx, store.SearchQuery{Tenant: "acme", Vector: vec(0), Text: "终端断开连接怎么办？", Also: []string{"terminal", "connection"}, K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].DocID != "KB-code" {
		t.Fatalf("a Chinese question with the glosses terminal, connection: %+v; want KB-code first", hits)
	}
}

// blend is the normalised sum of two vectors.
func blend(a, b []float32) []float32 {
	v := make([]float32, len(a))
	for i := range v {
		v[i] = a[i] + b[i]
	}
	return normalize(v)
}
