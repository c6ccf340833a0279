package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"
	pgxvec "github.com/pgvector/pgvector-go/pgx"
	"github.com/redis/go-redis/v9"

	"github.com/freshctx/freshctx/cmd/internal/wire"
	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/fakeembed"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/pipeline"
	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/milvusstore"
	"github.com/freshctx/freshctx/store/milvusstore/milvustest"
	"github.com/freshctx/freshctx/store/pgstore"
	"github.com/freshctx/freshctx/store/rediscache"
)

// A store made with one embedder (the local one, 64 dimensions) is re-embedded
// with another (a model provider, 96 dimensions) through the real command:
// refused while a service uses the store; interrupted mid-way (and then no
// service starts, with either embedder); resumed to the end. Every event and
// chunk then holds the new model's vector of its own text, the knowledge index
// is the new size's, the recent cache's events are gone (its term statistics
// stay), the services start with the new embedder only, and a second run has
// nothing to do.
func TestReembedCommand(t *testing.T) {
	const nEvents, nDocs, batch = 120, 9, 10
	ctx := context.Background()
	dsn, _ := testenv.PostgresDSN(t)
	redisAddr, prefix := testenv.RedisAddr(t)

	// The provider answers at once, except that the 4th batch waits for
	// release: the test interrupts the command while it is there. The
	// embedder's dimension check at start is not a batch.
	var batches, texts atomic.Int64
	reached, release := make(chan struct{}), make(chan struct{})
	fake := &fakeembed.Handler{Dims: 96}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct{ Input []string }
		json.Unmarshal(body, &req)
		if len(req.Input) > 0 && req.Input[0] != "freshctx dimension check" {
			texts.Add(int64(len(req.Input)))
			if batches.Add(1) == 4 {
				close(reached)
				<-release
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		fake.ServeHTTP(w, r)
	}))
	defer srv.Close()
	t.Setenv("FAKE_KEY", "k")

	dir := t.TempDir()
	write := func(name, embedder string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(fmt.Sprintf(`
postgres: {dsn: %q}
redis: {addr: %q, key_prefix: %q, term_stats: true}
embedder: %s
api: {auth: {mode: none}}
sources:
  - {name: orders, topic: orders, format: json, tenant: acme, entity: "customer:{{.customer}}", text: "{{.text}}"}
`, dsn, redisAddr, prefix, embedder)), 0o600)
		return p
	}
	before := write("before.yaml", "{dims: 64, word_vectors: none}")
	after := write("after.yaml", fmt.Sprintf("{provider: openai, base_url: %q, model: fake, dims: 96, api_key_env: FAKE_KEY}", srv.URL+"/v1"))
	load := func(p string) *config.Config { return loadConfig(t, p) }
	migrateWith(t, before)

	// The store as the embedder before made it, and the recent cache.
	st, err := pgstore.Connect(ctx, pgstore.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var fresh bytes.Buffer // a store without vectors: nothing to do
	if err := run(ctx, []string{"reembed", "-config", before, "-dry-run"}, os.Getenv, &fresh, io.Discard); err != nil ||
		!strings.Contains(fresh.String(), "dry run: the store holds no vectors yet: nothing to re-embed (they will be local-hash-v2-64/64's)") {
		t.Fatalf("a fresh store: %v\n%s", err, fresh.String())
	}
	old := hashedEmbedder(t, 64)
	if err := st.CheckEmbedding(ctx, old.Model(), old.Dims()); err != nil {
		t.Fatal(err)
	}
	hash := func(s string) []byte { h := sha256.Sum256([]byte(s)); return h[:] }
	now := time.Now()
	var events []store.Event
	for i := range nEvents {
		text := fmt.Sprintf("order %d for customer %d: refund of %d.00 EUR requested", i, i%7, i)
		v, _ := old.Embed(ctx, []string{text})
		events = append(events, store.Event{Source: "orders", Key: fmt.Sprint(i), ID: fmt.Sprint(i), Tenant: "acme",
			Entity: fmt.Sprintf("customer:%d", i%7), Time: now.Add(-time.Duration(i) * time.Second), Text: text,
			TextHash: hash(text), Embedding: v[0], Version: 1})
	}
	events[5].TextHash = nil // a row written without a text hash is re-embedded too
	if _, err := st.Apply(ctx, events, nil); err != nil {
		t.Fatal(err)
	}
	var docs []store.Document
	for d := range nDocs {
		doc := store.Document{Source: "kb", Key: fmt.Sprint(d), DocID: fmt.Sprint(d), Tenant: "acme",
			Title: fmt.Sprintf("Article %d", d), TextHash: hash(fmt.Sprint(d)), Version: 1}
		for c := range 3 {
			text := fmt.Sprintf("refunds take %d days; part %d", d, c)
			v, _ := old.Embed(ctx, []string{pipeline.ChunkInput(doc.Title, text)})
			doc.Chunks = append(doc.Chunks, store.Chunk{Text: text, TextHash: hash(text), Embedding: v[0]})
		}
		docs = append(docs, doc)
	}
	if _, err := st.ApplyDocuments(ctx, docs, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.EnsureChunkIndex(ctx, 64); err != nil {
		t.Fatal(err)
	}
	cfgBefore := load(before)
	cache, err := rediscache.New(cfgBefore.Redis)
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	if err := cache.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := cache.Apply(ctx, events, nil); err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: redisAddr})
	defer rdb.Close()
	keys := func(pattern string) int {
		n, err := rdb.Keys(ctx, prefix+pattern).Result()
		if err != nil {
			t.Fatal(err)
		}
		return len(n)
	}
	if keys(":{*}:tl") == 0 || keys(":since*") == 0 || keys(":{*}:df:*") == 0 {
		t.Fatalf("the cache was not fed: %d %d %d", keys(":{*}:tl"), keys(":since*"), keys(":{*}:df:*"))
	}

	reembed := func(ctx context.Context) (string, error) {
		var out, errOut bytes.Buffer
		err := run(ctx, []string{"reembed", "-config", after, "-batch", fmt.Sprint(batch), "-progress", "log"}, os.Getenv, &out, &errOut)
		return out.String(), err
	}
	// A running service (it claims the store): the command refuses, naming it.
	svc, err := wire.Open(ctx, cfgBefore, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reembed(ctx); err == nil || !strings.Contains(err.Error(), "stop them first") || !strings.Contains(err.Error(), "application freshctx ingest") {
		t.Fatalf("reembed beside a service: %v", err)
	}
	// A dry run beside it says what it would do, and writes nothing.
	var dry bytes.Buffer
	if err := run(ctx, []string{"reembed", "-config", after, "-dry-run"}, os.Getenv, &dry, io.Discard); err != nil ||
		!strings.Contains(dry.String(), fmt.Sprintf("dry run: re-embedding %d vectors of local-hash-v2-64/64 with openai:fake-96/96", nEvents+3*nDocs)) {
		t.Fatalf("dry run: %v\n%s", err, dry.String())
	}
	if _, unfinished, err := st.LoadReembed(ctx); err != nil || unfinished || keys(":{*}:tl") == 0 {
		t.Fatalf("the dry run wrote: %v %v", unfinished, err)
	}
	svc.Close()

	// Interrupted while the 4th batch is embedded: the batch in hand is
	// finished, and the command stops, saying how to resume.
	ictx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	var iout string
	var ierr error
	go func() { defer close(done); iout, ierr = reembed(ictx) }()
	select {
	case <-reached:
	case <-done:
		t.Fatalf("the command ended before its 4th batch: %v\n%s", ierr, iout)
	}
	// While it runs, a service refuses to start.
	if _, err := wire.Open(ctx, cfgBefore, nil, slog.New(slog.DiscardHandler)); !errors.Is(err, pgstore.ErrReembedding) {
		t.Errorf("a service starting during reembed: %v", err)
	}
	cancel()
	close(release)
	<-done
	if ierr != nil || !strings.Contains(iout, "interrupted after 40 vectors") {
		t.Fatalf("interrupted run: %v\n%s", ierr, iout)
	}
	// Unfinished: no service starts, with either embedder.
	for _, p := range []string{before, after} {
		if _, err := wire.Open(ctx, load(p), nil, slog.New(slog.DiscardHandler)); !errors.Is(err, pgstore.ErrReembedding) || !strings.Contains(err.Error(), "ingest reembed") {
			t.Errorf("a service with %s while the re-embedding is unfinished: %v", filepath.Base(p), err)
		}
	}

	// Resumed to the end.
	out2, err := reembed(ctx)
	if err != nil || !strings.Contains(out2, "resuming the re-embedding") ||
		!strings.Contains(out2, fmt.Sprintf("re-embedded %d events and %d document chunks with", nEvents, 3*nDocs)) {
		t.Fatalf("resumed run: %v\n%s", err, out2)
	}
	if got, want := texts.Load(), int64(nEvents+3*nDocs); got != want {
		t.Errorf("the provider embedded %d texts, want %d (each once)", got, want)
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := pgxvec.RegisterTypes(ctx, conn); err != nil {
		t.Fatal(err)
	}
	check := func(query string, input func(title, text string) string) {
		rows, err := conn.Query(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			var title, text string
			var v pgvector.Vector
			if err := rows.Scan(&title, &text, &v); err != nil {
				t.Fatal(err)
			}
			want := fakeembed.Vector(input(title, text), 96)
			if got := v.Slice(); len(got) != 96 || got[0] != want[0] || got[95] != want[95] {
				t.Fatalf("%q: not the new model's vector of its text", text)
			}
			n++
		}
		if n == 0 {
			t.Fatalf("%s: no rows", query)
		}
	}
	check(`SELECT '', text, embedding FROM events`, func(_, text string) string { return text })
	check(`SELECT title, text, embedding FROM document_chunks`, pipeline.ChunkInput)
	var idx []string
	rows, _ := conn.Query(ctx, `SELECT indexname FROM pg_indexes WHERE tablename = 'document_chunks' AND indexname LIKE 'document_chunks_hnsw_%' AND schemaname = current_schema()`)
	if idx, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil || len(idx) != 1 || idx[0] != "document_chunks_hnsw_96" {
		t.Errorf("knowledge indexes %v (%v), want document_chunks_hnsw_96 alone", idx, err)
	}
	if keys(":{*}:tl") != 0 || keys(":{*}:ev:*") != 0 || keys(":since*") != 0 {
		t.Error("the recent cache still holds events (or vouches for them)")
	}
	if keys(":{*}:df:*") == 0 {
		t.Error("the recent cache's term statistics were dropped")
	}

	// The services start with the new embedder, not with the one before, and
	// knowledge search answers from the new index.
	if _, err := wire.Open(ctx, cfgBefore, nil, slog.New(slog.DiscardHandler)); err == nil || !strings.Contains(err.Error(), "holds vectors of openai:fake") {
		t.Errorf("a service with the embedder before: %v", err)
	}
	svc, err = wire.Open(ctx, load(after), nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("a service with the new embedder: %v", err)
	}
	q, _ := svc.Embedder.Embed(ctx, []string{pipeline.ChunkInput("Article 3", "refunds take 3 days; part 1")})
	hits, _, err := svc.Vectors.Search(ctx, store.SearchQuery{Tenant: "acme", Vector: q[0], K: 3})
	if err != nil || len(hits) == 0 || hits[0].DocID != "3" || hits[0].Chunk != 1 {
		t.Errorf("knowledge search after: %v %+v", err, hits)
	}
	svc.Close()

	// Again: nothing to do.
	if out3, err := reembed(ctx); err != nil || !strings.Contains(out3, "nothing to re-embed") {
		t.Errorf("second run: %v\n%s", err, out3)
	}
}

// With store: milvus the vectors are copied into the collections of a new
// milvus.prefix (a Milvus vector field's size is fixed): every event, delete
// marker, document and chunk arrives, with the new embedder's vectors of its
// text, the collections copied from stay as they were, and the services start
// with the new embedder only.
func TestReembedCommandCopiesMilvusCollections(t *testing.T) {
	ctx := context.Background()
	_, milvusAddr := milvustest.Start(t)
	dsn, _ := testenv.PostgresDSN(t)
	redisAddr, prefix := testenv.RedisAddr(t)
	dir := t.TempDir()
	write := func(name, milvusPrefix string, dims int) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(fmt.Sprintf(`
postgres: {dsn: %q}
store: milvus
milvus: {addr: %q, prefix: %s}
redis: {addr: %q, key_prefix: %q}
embedder: {dims: %d, word_vectors: none}
api: {auth: {mode: none}}
sources:
  - {name: orders, topic: orders, format: json, tenant: acme, entity: "customer:{{.customer}}", text: "{{.text}}"}
`, dsn, milvusAddr, milvusPrefix, redisAddr, prefix, dims)), 0o600)
		return p
	}
	before, after := write("before.yaml", "old", 32), write("after.yaml", "new", 48)
	load := func(p string) *config.Config { return loadConfig(t, p) }
	migrateWith(t, before)
	oldEmb, newEmb := hashedEmbedder(t, 32), hashedEmbedder(t, 48)
	svc, err := wire.Open(ctx, load(before), nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	const nEvents = 25
	now := time.Now()
	var events []store.Event
	for i := range nEvents {
		text := fmt.Sprintf("parcel %d for customer %d left the depot", i, i%3)
		v, _ := oldEmb.Embed(ctx, []string{text})
		events = append(events, store.Event{Source: "orders", Key: fmt.Sprint(i), ID: fmt.Sprint(i), Tenant: "acme",
			Entity: fmt.Sprintf("customer:%d", i%3), Time: now.Add(-time.Duration(i) * time.Second), Text: text,
			TextHash: []byte{byte(i)}, Embedding: v[0], Version: 1})
	}
	if _, err := svc.Vectors.Apply(ctx, events, []store.Delete{{Ref: store.Ref{Source: "orders", Key: "gone"}, Version: 5}}); err != nil {
		t.Fatal(err)
	}
	doc := store.Document{Source: "kb", Key: "1", DocID: "KB-1", Tenant: "acme", Title: "Parcels", TextHash: []byte{1}, Version: 1}
	for c, text := range []string{"parcels leave the depot within a day", "a lost parcel is refunded after ten days"} {
		v, _ := oldEmb.Embed(ctx, []string{pipeline.ChunkInput(doc.Title, text)})
		doc.Chunks = append(doc.Chunks, store.Chunk{Text: text, TextHash: []byte{byte(c)}, Embedding: v[0]})
	}
	if _, err := svc.Vectors.ApplyDocuments(ctx, []store.Document{doc}, nil); err != nil {
		t.Fatal(err)
	}
	svc.Close()

	reembed := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := run(ctx, append([]string{"reembed", "-config", after, "-batch", "10", "-progress", "log"}, args...), os.Getenv, &out, io.Discard)
		return out.String(), err
	}
	if _, err := reembed(); err == nil || !strings.Contains(err.Error(), "-copy-from: required with store: milvus") {
		t.Errorf("without -copy-from: %v", err)
	}
	if _, err := reembed("-copy-from", "new"); err == nil || !strings.Contains(err.Error(), `-copy-from: "new" is milvus.prefix`) {
		t.Errorf("-copy-from the same prefix: %v", err)
	}
	got, err := reembed("-copy-from", "old")
	if err != nil || !strings.Contains(got, fmt.Sprintf("re-embedded %d events, 1 documents and 2 chunks with local-hash-v2-48/48", nEvents+1)) ||
		!strings.Contains(got, "the collections old_* are kept") {
		t.Fatalf("reembed: %v\n%s", err, got)
	}

	// The new collections, through a service of the new embedder.
	svc, err = wire.Open(ctx, load(after), nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("a service with the new embedder: %v", err)
	}
	seen := 0
	for c := range 3 {
		evs, err := svc.Vectors.Recent(ctx, "acme", fmt.Sprintf("customer:%d", c), now.Add(-time.Hour), 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			want, _ := newEmb.Embed(ctx, []string{e.Text})
			if len(e.Embedding) != 48 || e.Embedding[0] != want[0][0] || e.Embedding[47] != want[0][47] {
				t.Fatalf("%s: not the new embedder's vector of its text", e.Key)
			}
			seen++
		}
	}
	if seen != nEvents {
		t.Errorf("%d events in the new collections, want %d", seen, nEvents)
	}
	prior, err := svc.Vectors.Lookup(ctx, []store.Ref{{Source: "orders", Key: "gone"}})
	if err != nil || !prior[store.Ref{Source: "orders", Key: "gone"}].Deleted {
		t.Errorf("the delete marker was not copied: %v %+v", err, prior)
	}
	q, _ := newEmb.Embed(ctx, []string{"what if my parcel is lost?"})
	hits, _, err := svc.Vectors.Search(ctx, store.SearchQuery{Tenant: "acme", Vector: q[0], Text: "lost parcel", K: 2})
	if err != nil || len(hits) != 2 || hits[0].DocID != "KB-1" || hits[0].Chunk != 1 {
		t.Errorf("knowledge search in the new collections: %v %+v", err, hits)
	}
	svc.Close()
	if _, err := wire.Open(ctx, load(before), nil, slog.New(slog.DiscardHandler)); err == nil || !strings.Contains(err.Error(), "holds vectors of local-hash-v2-48/48") {
		t.Errorf("a service with the embedder before: %v", err)
	}
	// The collections copied from are as they were.
	old, err := milvusstore.Connect(ctx, load(before).Milvus, 32)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	evs, err := old.Recent(ctx, "acme", "customer:0", now.Add(-time.Hour), 100)
	if err != nil || len(evs) == 0 || len(evs[0].Embedding) != 32 {
		t.Errorf("the old collections: %v, %d events", err, len(evs))
	}
	if got, err := reembed("-copy-from", "old"); err != nil || !strings.Contains(got, "nothing to re-embed") {
		t.Errorf("second run: %v\n%s", err, got)
	}
}

func loadConfig(t *testing.T, path string) *config.Config {
	t.Helper()
	cfg, err := config.Load(path, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func migrateWith(t *testing.T, path string) {
	t.Helper()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"migrate", "-config", path}, os.Getenv, &out, &out); err != nil {
		t.Fatalf("migrate: %v\n%s", err, out.String())
	}
}

// hashedEmbedder is the local embedder of dims dimensions without word vectors.
func hashedEmbedder(t *testing.T, dims int) *embed.Local {
	t.Helper()
	e, err := embed.NewLocalFromConfig(embed.Config{Provider: embed.ProviderLocal, Dims: dims, WordVectors: embed.WordVectorsNone})
	if err != nil {
		t.Fatal(err)
	}
	return e
}
