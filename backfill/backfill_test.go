package backfill

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/jackc/pgx/v5"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/pipetest"
	"github.com/freshctx/freshctx/kafkaio"
	"github.com/freshctx/freshctx/pipeline"
	"github.com/freshctx/freshctx/source"
	"github.com/freshctx/freshctx/store"
)

var ticketsSource = source.Source{Name: "tickets", Topic: pipetest.Topic, Format: cdc.FormatDebezium, Tenant: "acme",
	Entity: "customer:{{.customer_id}}", Time: "updated_at", Text: "{{.body}}"}

// makeTickets creates the source table tickets(id, customer_id, body, updated_at)
// with n rows in the test's schema, plus bad rows (no customer) with ids above n.
func makeTickets(t testing.TB, dsn string, n, bad int) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{
		`CREATE TABLE tickets (id bigint PRIMARY KEY, customer_id int, body text NOT NULL, updated_at timestamptz NOT NULL)`,
		`INSERT INTO tickets SELECT i, i % 97, 'ticket ' || i || ' asks about refund ' || (i % 13), now() - (i || ' seconds')::interval
		 FROM generate_series(1, ` + fmt.Sprint(n) + `) i`,
		`INSERT INTO tickets SELECT i, NULL, 'orphan ' || i, now() FROM generate_series(` + fmt.Sprint(n+1) + `, ` + fmt.Sprint(n+bad) + `) i`,
		`ANALYZE tickets`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
}

// backfillDeps uses the real store for the checkpoints too.
func backfillDeps(r *pipetest.Rig, emb pipeline.Embedder) Deps {
	return Deps{Deps: pipeline.Deps{Embedder: emb, Store: r.Store, Cache: r.CacheDep(), Metrics: pipeline.NewMetrics(nil)},
		Checkpoints: r.Store, Kafka: kafkaio.Config{Brokers: r.Brokers}}
}

func countLines(t testing.TB, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		n++
	}
	return n
}

// A backfill beside the live pipeline: every row is indexed, bad rows are
// rejected to the file without stopping the job, and live changes made while it
// runs (to rows it has passed and to rows it has yet to read) survive it.
func TestBackfillPostgresBesideLiveUpdates(t *testing.T) {
	r := pipetest.NewRig(t, 2).WithCache()
	dsn := r.DSN
	const n, bad = 20000, 3
	makeTickets(t, dsn, n, bad)
	stop := r.Run(pipeline.Config{}, r.Store, nil)
	defer stop()

	rejects := filepath.Join(t.TempDir(), "rejects.jsonl")
	job := Job{Name: "tickets-history", Source: "tickets", Postgres: &PostgresInput{Table: "tickets"},
		KeyColumns: []string{"id"}, PageSize: 1000, Rejects: rejects}
	emb, _ := embed.NewLocal(64)
	deps := backfillDeps(r, emb)
	deps.PostgresDSN = dsn
	var once sync.Once
	live := func(st Status) {
		// After the first page: a live update to a row already backfilled (1)
		// and to one not read yet (n), as Debezium would deliver them.
		once.Do(func() {
			r.ProduceRows([][2]int{{1, 7}, {n, 7}}, func(key, version int) map[string]any {
				return map[string]any{"id": key, "customer_id": key % 97, "body": fmt.Sprintf("LIVE update of %d", key)}
			})
			r.Eventually("live updates stored", 20*time.Second, func() bool { return r.Stored() >= 2 })
		})
	}
	st, err := Run(context.Background(), pipeline.Config{}, job, []source.Source{ticketsSource}, deps, Options{Progress: live})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Finished || st.Counts["records"] != n+bad || st.Counts["rejected"] != bad {
		t.Fatalf("status %+v: want finished, %d records, %d rejected", st, n+bad, bad)
	}
	// Row 1 was backfilled before the live update; row n would have been after it.
	if got := st.Counts["stored"] + st.Counts["unchanged"]; got != n {
		t.Fatalf("stored %d + unchanged %d = %d, want %d", st.Counts["stored"], st.Counts["unchanged"], got, n)
	}
	if st.Counts["unchanged"] < 1 {
		t.Fatalf("unchanged = %d: the row updated live before the backfill read it must be left alone", st.Counts["unchanged"])
	}
	liveRows, backfilled := r.StoredCount("tickets")
	if liveRows != 2 || backfilled != n-2 {
		t.Fatalf("live %d, backfilled %d; want 2 and %d", liveRows, backfilled, n-2)
	}
	for _, k := range []string{"1", fmt.Sprint(n)} {
		if text, v := r.EventText("tickets", k); !strings.HasPrefix(text, "LIVE") || v != 7 {
			t.Fatalf("row %s: %q version %d; the live update must survive the backfill", k, text, v)
		}
	}
	if text, v := r.EventText("tickets", "2"); !strings.Contains(text, "ticket 2 asks") || v >= 0 {
		t.Fatalf("row 2: %q version %d; want the backfilled text with a backfill version", text, v)
	}
	if got := countLines(t, rejects); got != bad {
		t.Fatalf("rejects file has %d lines, want %d", got, bad)
	}
	b, _ := os.ReadFile(rejects)
	var line rejectLine
	if err := json.Unmarshal([]byte(strings.SplitN(string(b), "\n", 2)[0]), &line); err != nil || line.Stage != "map" ||
		!strings.Contains(line.Error, "entity") || line.Origin != "table:tickets" || len(line.Value) == 0 {
		t.Fatalf("reject line %+v (%v): want stage map, an entity error, the origin and the row", line, err)
	}
	// A later live change still replaces what the backfill wrote.
	r.ProduceRows([][2]int{{2, 9}}, func(key, version int) map[string]any {
		return map[string]any{"id": key, "customer_id": key % 97, "body": "LIVE after backfill"}
	})
	r.Eventually("the later live change", 20*time.Second, func() bool { text, _ := r.EventText("tickets", "2"); return text == "LIVE after backfill" })

	// Running the job again finds it finished; -restart runs it again and writes
	// nothing new: every row is stored at the same version or a live one.
	again, err := Run(context.Background(), pipeline.Config{}, job, []source.Source{ticketsSource}, deps, Options{})
	if err != nil || !again.Finished || again.RunRecords != 0 {
		t.Fatalf("second run: %+v, %v; want finished with nothing read", again, err)
	}
	restart, err := Run(context.Background(), pipeline.Config{}, job, []source.Source{ticketsSource}, deps, Options{Restart: true})
	if err != nil || restart.Counts["records"] != n+bad {
		t.Fatalf("restart: %+v, %v", restart, err)
	}
	if liveRows, backfilled := r.StoredCount("tickets"); liveRows != 3 || backfilled != n-3 {
		t.Fatalf("after restart: live %d, backfilled %d; want 3 and %d", liveRows, backfilled, n-3)
	}
}

// Interrupting (ctx cancelled, as SIGINT does) finishes the page in hand and
// saves the checkpoint; the next run resumes there, and the totals add up to the
// input exactly once.
func TestBackfillResumesAfterInterrupt(t *testing.T) {
	r := pipetest.NewRig(t, 1)
	dsn := r.DSN
	const n = 12000
	makeTickets(t, dsn, n, 0)
	job := Job{Name: "resume", Source: "tickets", Postgres: &PostgresInput{Table: "tickets"},
		KeyColumns: []string{"id"}, PageSize: 500, Rejects: filepath.Join(t.TempDir(), "r.jsonl")}
	emb, _ := embed.NewLocal(64)
	deps := backfillDeps(r, emb)
	deps.PostgresDSN = dsn
	ctx, cancel := context.WithCancel(context.Background())
	first, err := Run(ctx, pipeline.Config{}, job, []source.Source{ticketsSource}, deps, Options{Progress: func(s Status) {
		if s.Counts["records"] >= 3000 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || first.Finished {
		t.Fatalf("interrupted run: %+v, %v", first, err)
	}
	cp, ok, _ := r.Store.LoadCheckpoint(context.Background(), "resume")
	if !ok || cp.Counts["records"] != first.Counts["records"] || cp.Counts["records"]%500 != 0 {
		t.Fatalf("checkpoint %+v after %d records: want a whole number of pages, as reported", cp, first.Counts["records"])
	}
	second, err := Run(context.Background(), pipeline.Config{}, job, []source.Source{ticketsSource}, deps, Options{})
	if err != nil || !second.Finished || !second.Resumed {
		t.Fatalf("resumed run: %+v, %v", second, err)
	}
	if second.RunRecords != n-first.Counts["records"] || second.Counts["records"] != n || second.Counts["stored"] != n {
		t.Fatalf("resumed run read %d (first %d), totals %v; want each row once, %d in all", second.RunRecords, first.Counts["records"], second.Counts, n)
	}
	if _, backfilled := r.StoredCount("tickets"); backfilled != n {
		t.Fatalf("%d rows stored, want %d", backfilled, n)
	}
	// The job's input cannot change under a checkpoint.
	job.Postgres = &PostgresInput{Query: "SELECT * FROM tickets WHERE id > 10"}
	if _, err := Run(context.Background(), pipeline.Config{}, job, []source.Source{ticketsSource}, deps, Options{}); err == nil || !strings.Contains(err.Error(), "-restart") {
		t.Fatalf("changed input: %v; want an error pointing at -restart", err)
	}
}

// JSON Lines: Debezium envelopes without their Kafka key (keyed by key_columns),
// gzip detected, a page boundary at a file boundary, a line that is not JSON and a
// line over the record limit rejected; interrupted and resumed.
func TestBackfillJSONLines(t *testing.T) {
	r := pipetest.NewRig(t, 1)
	dir := t.TempDir()
	const perFile = 2500
	write := func(name string, gz bool, from int, extra ...string) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var w interface {
			Write([]byte) (int, error)
		} = f
		if gz {
			g := gzip.NewWriter(f)
			defer g.Close()
			w = g
		}
		for i := from; i < from+perFile; i++ {
			env := map[string]any{"op": "r", "after": map[string]any{"id": i, "customer_id": i % 5, "body": fmt.Sprintf("file row %d", i),
				"updated_at": time.Now().UnixMicro()}, "source": map[string]any{"connector": "postgresql", "lsn": 100 + i}}
			b, _ := json.Marshal(env)
			fmt.Fprintf(w, "%s\n", b)
		}
		for _, e := range extra {
			fmt.Fprintf(w, "%s\n", e)
		}
	}
	write("a.jsonl", false, 0, "this is not json", "")
	write("b.jsonl.gz", true, perFile, `{"op":"c","after":{"id":1,"customer_id":1,"body":"`+strings.Repeat("x", pipeline.MaxRecordBytesDefault)+`"}}`)
	rejects := filepath.Join(dir, "rejects.jsonl") // matched by the glob below: never read back
	job := Job{Name: "files", Source: "tickets", Files: []string{filepath.Join(dir, "*.jsonl*")}, KeyColumns: []string{"id"},
		PageSize: 700, Rejects: rejects}
	emb, _ := embed.NewLocal(64)
	deps := backfillDeps(r, emb)
	ctx, cancel := context.WithCancel(context.Background())
	first, err := Run(ctx, pipeline.Config{}, job, []source.Source{ticketsSource}, deps, Options{Progress: func(s Status) {
		if s.Counts["records"] >= 2100 {
			cancel() // inside the first file
		}
	}})
	if !errors.Is(err, context.Canceled) || first.Unit != "bytes" || first.Total <= 0 {
		t.Fatalf("interrupted run: %+v, %v", first, err)
	}
	st, err := Run(context.Background(), pipeline.Config{}, job, []source.Source{ticketsSource}, deps, Options{})
	if err != nil || !st.Finished {
		t.Fatalf("resumed: %+v, %v", st, err)
	}
	if st.Counts["records"] != 2*perFile+2 || st.Counts["stored"] != 2*perFile || st.Counts["rejected"] != 2 {
		b, _ := os.ReadFile(rejects)
		t.Logf("%.3000s", b)
		t.Fatalf("counts %v: want %d records, %d stored, 2 rejected", st.Counts, 2*perFile+2, 2*perFile)
	}
	if _, backfilled := r.StoredCount("tickets"); backfilled != 2*perFile {
		t.Fatalf("%d stored, want %d", backfilled, 2*perFile)
	}
	// Keys are Debezium's for {"id": N}, so the live stream and the file agree.
	if text, v := r.EventText("tickets", "4999"); text != "file row 4999" || v != pipeline.BackfillVersion(100+4999) {
		t.Fatalf("row 4999: %q version %d", text, v)
	}
	if got := countLines(t, rejects); got != 2 {
		b, _ := os.ReadFile(rejects)
		t.Logf("%.3000s", b)
		t.Fatalf("rejects: %d lines, want 2", got)
	}
}

// Replaying a pipetest.Topic reads every partition to the end it had when the job started,
// joins no group and commits nothing, and resumes from its own checkpoint.
func TestBackfillTopicReplay(t *testing.T) {
	r := pipetest.NewRig(t, 3)
	const n = 3000
	changes := make([][2]int, n)
	for i := range changes {
		changes[i] = [2]int{i, 10 + i}
	}
	r.Produce(changes)
	job := Job{Name: "replay", Source: "tickets", Topic: &TopicInput{}, PageSize: 400,
		Rejects: filepath.Join(t.TempDir(), "r.jsonl")}
	emb, _ := embed.NewLocal(64)
	deps := backfillDeps(r, emb)
	ctx, cancel := context.WithCancel(context.Background())
	first, err := Run(ctx, pipeline.Config{}, job, []source.Source{ticketsSource}, deps, Options{Progress: func(s Status) {
		if s.Counts["records"] >= 1000 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || first.Total != n {
		t.Fatalf("interrupted run: %+v, %v", first, err)
	}
	// Records produced after the job started are the live pipeline's, not the replay's.
	st, err := Run(context.Background(), pipeline.Config{}, job, []source.Source{ticketsSource}, deps, Options{})
	if err != nil || !st.Finished || st.Counts["records"] != n || st.Counts["stored"] != n {
		t.Fatalf("resumed: %+v, %v; want %d records stored once", st, err, n)
	}
	if _, backfilled := r.StoredCount("tickets"); backfilled != n {
		t.Fatalf("%d stored, want %d", backfilled, n)
	}
	if text, v := r.EventText("tickets", "42"); text != "key 42 version 52" || v != pipeline.BackfillVersion(52) {
		t.Fatalf("key 42: %q version %d", text, v)
	}
	// Explicit start offsets: partition 0 from offset 100, the others from the start.
	job2 := Job{Name: "replay-offsets", Source: "tickets", Topic: &TopicInput{Offsets: map[int32]int64{0: 100}}, PageSize: 400,
		Rejects: filepath.Join(t.TempDir(), "r2.jsonl")}
	st2, err := Run(context.Background(), pipeline.Config{}, job2, []source.Source{ticketsSource}, deps, Options{DryRun: true})
	if err != nil || st2.Counts["records"] != n-100 {
		t.Fatalf("offsets {0: 100}: %+v, %v; want %d records", st2, err, n-100)
	}
	c, err := kafka.NewConsumer(&kafka.ConfigMap{"bootstrap.servers": r.Brokers, "group.id": "freshctx-backfill-replay", "enable.metrics.push": false})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tp := pipetest.Topic
	got, err := c.Committed([]kafka.TopicPartition{{Topic: &tp, Partition: 0}, {Topic: &tp, Partition: 1}, {Topic: &tp, Partition: 2}}, 5000)
	var ke kafka.Error
	if errors.As(err, &ke) && ke.Code() == kafka.ErrGroupIDNotFound {
		got, err = nil, nil // the group was never even created
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range got {
		if p.Offset >= 0 {
			t.Fatalf("partition %d has committed offset %v: a replay must commit nothing", p.Partition, p.Offset)
		}
	}
}

// A dry run reads and maps everything, says what would be written, and writes
// nothing: no events, no checkpoint, no rejects file.
func TestBackfillDryRun(t *testing.T) {
	r := pipetest.NewRig(t, 1)
	const n = 3000
	makeTickets(t, r.DSN, n, 2)
	rejects := filepath.Join(t.TempDir(), "r.jsonl")
	job := Job{Name: "dry", Source: "tickets", Postgres: &PostgresInput{Table: "tickets"}, KeyColumns: []string{"id"}, Rejects: rejects}
	emb := &countingEmbedder{Embedder: mustLocal(t)}
	deps := backfillDeps(r, emb)
	deps.PostgresDSN = r.DSN
	st, err := Run(context.Background(), pipeline.Config{}, job, []source.Source{ticketsSource}, deps, Options{DryRun: true})
	if err != nil || !st.Finished || st.Counts["stored"] != n || st.Counts["rejected"] != 2 {
		t.Fatalf("dry run: %+v, %v", st, err)
	}
	if _, backfilled := r.StoredCount("tickets"); backfilled != 0 || emb.calls.Load() != 0 {
		t.Fatalf("dry run wrote %d events and made %d embedding calls", backfilled, emb.calls.Load())
	}
	if _, ok, _ := r.Store.LoadCheckpoint(context.Background(), "dry"); ok {
		t.Fatal("dry run saved a checkpoint")
	}
	if _, err := os.Stat(rejects); !os.IsNotExist(err) {
		t.Fatalf("dry run created the rejects file: %v", err)
	}
}

func mustLocal(t testing.TB) *embed.Local {
	e, err := embed.NewLocal(64)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

type countingEmbedder struct {
	pipeline.Embedder
	calls atomic.Int64
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.calls.Add(1)
	return c.Embedder.Embed(ctx, texts)
}

// Articles are backfilled like tickets: a document source's table becomes
// chunked, embedded, searchable knowledge, and a live edit during the backfill
// wins.
func TestBackfillDocuments(t *testing.T) {
	r := pipetest.NewRig(t, 1)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, r.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{
		`CREATE TABLE articles (id int PRIMARY KEY, tenant_id text NOT NULL, title text NOT NULL, body text NOT NULL, category text NOT NULL)`,
		`INSERT INTO articles SELECT i, 'acme', 'Article ' || i, 'Refunds reach the card in ' || i || ' days. Store credit never expires. ' ||
		 'Returns are free within 30 days.', CASE WHEN i % 2 = 0 THEN 'refunds' ELSE 'shipping' END FROM generate_series(1, 300) i`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Store.EnsureChunkIndex(ctx, 64); err != nil {
		t.Fatal(err)
	}
	kb := source.Source{Name: "kb", Topic: "kb.public.articles", Format: cdc.FormatDebezium, Kind: source.KindDocument, ID: "KB-{{.id}}",
		Tenant: "{{.tenant_id}}", Title: "{{.title}}", Text: "{{.body}}", Attrs: []string{"category"}, Chunk: source.Chunking{Size: 60, Overlap: 10}}
	job := Job{Name: "articles", Source: "kb", Postgres: &PostgresInput{Table: "articles"}, KeyColumns: []string{"id"}, PageSize: 100,
		Rejects: filepath.Join(t.TempDir(), "r.jsonl")}
	emb := mustLocal(t)
	deps := backfillDeps(r, emb)
	deps.PostgresDSN = r.DSN
	var once sync.Once
	live := func(Status) {
		once.Do(func() { // a live edit of an article not read yet, as the live pipeline writes it
			vecs, _ := emb.Embed(ctx, []string{"Article 250\n\nEdited live: refunds now take one day."})
			_, err := r.Store.ApplyDocuments(ctx, []store.Document{{Source: "kb", Key: "250", DocID: "KB-250", Tenant: "acme", Title: "Article 250",
				Attrs: map[string]any{"category": "refunds"}, TextHash: []byte("live"), Version: 99,
				Chunks: []store.Chunk{{Text: "Edited live: refunds now take one day.", TextHash: []byte("live-chunk"), Embedding: vecs[0]}}}}, nil)
			if err != nil {
				t.Error(err)
			}
		})
	}
	st, err := Run(ctx, pipeline.Config{}, job, []source.Source{kb}, deps, Options{Progress: live})
	if err != nil || st.Counts["records"] != 300 || st.Counts["stored"] != 299 || st.Counts["unchanged"] != 1 {
		t.Fatalf("%+v, %v: want 300 records, 299 stored, 1 left to the live edit", st, err)
	}
	q, _ := emb.Embed(ctx, []string{"how long do refunds take"})
	hits, _, err := r.Store.Search(ctx, store.SearchQuery{Tenant: "acme", Vector: q[0], K: 5, Filter: map[string]any{"category": "refunds"}})
	if err != nil || len(hits) != 5 {
		t.Fatalf("search: %d hits, %v", len(hits), err)
	}
	var chunks, live250 int
	if err := conn.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE key = '250' AND text LIKE 'Edited live%') FROM document_chunks WHERE source = 'kb'`).Scan(&chunks, &live250); err != nil {
		t.Fatal(err)
	}
	if chunks < 300 || live250 != 1 {
		t.Fatalf("%d chunks, live edit kept: %d", chunks, live250)
	}
}

// BenchmarkBackfillPostgres: a 100k-row table through `ingest backfill`'s path with
// the local embedder (384 dims) and default concurrency and page size.
func BenchmarkBackfillPostgres(b *testing.B) {
	const n = 100_000
	r := pipetest.NewRig(b, 1)
	makeTickets(b, r.DSN, n, 0)
	emb, _ := embed.NewLocal(384)
	deps := backfillDeps(r, emb)
	deps.PostgresDSN = r.DSN
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		job := Job{Name: fmt.Sprintf("bench-%d", i), Source: "tickets", Postgres: &PostgresInput{Table: "tickets"},
			KeyColumns: []string{"id"}, Rejects: filepath.Join(b.TempDir(), "r.jsonl")}
		start := time.Now()
		st, err := Run(context.Background(), pipeline.Config{}, job, []source.Source{ticketsSource}, deps, Options{Restart: true})
		if err != nil || st.Counts["records"] != n {
			b.Fatalf("%+v %v", st, err)
		}
		b.ReportMetric(float64(n)/time.Since(start).Seconds(), "rows/s")
		b.ReportMetric(float64(st.Counts["stored"]), "stored")
	}
}
