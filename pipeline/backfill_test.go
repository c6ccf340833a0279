package pipeline

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/store"
)

var ticketsSource = Source{Name: "tickets", Topic: topic, Format: cdc.FormatDebezium, Tenant: "acme",
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
func backfillDeps(r *rig, emb Embedder) BackfillDeps {
	return BackfillDeps{Deps: Deps{Embedder: emb, Store: r.store, Cache: r.cacheDep(), Metrics: NewMetrics(nil)},
		Checkpoints: r.store, Kafka: Kafka{Brokers: r.brokers}}
}

func storedCount(t testing.TB, dsn, source string) (live, backfilled int) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, `SELECT count(*) FILTER (WHERE version >= 0), count(*) FILTER (WHERE version < 0)
		FROM events WHERE source = $1 AND NOT deleted`, source).Scan(&live, &backfilled); err != nil {
		t.Fatal(err)
	}
	return live, backfilled
}

func eventText(t testing.TB, dsn, source, key string) (string, int64) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var text string
	var v int64
	if err := conn.QueryRow(ctx, `SELECT text, version FROM events WHERE source = $1 AND key = $2`, source, key).Scan(&text, &v); err != nil {
		t.Fatalf("event %s/%s: %v", source, key, err)
	}
	return text, v
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
	r := newRig(t, 2).withCache(t)
	dsn := r.dsn
	const n, bad = 20000, 3
	makeTickets(t, dsn, n, bad)
	stop := r.run(Config{}, r.store, nil)
	defer stop()

	rejects := filepath.Join(t.TempDir(), "rejects.jsonl")
	job := Backfill{Name: "tickets-history", Source: "tickets", Postgres: &PostgresInput{Table: "tickets"},
		KeyColumns: []string{"id"}, PageSize: 1000, Rejects: rejects}
	emb, _ := embed.NewLocal(64)
	deps := backfillDeps(r, emb)
	deps.PostgresDSN = dsn
	var once sync.Once
	live := func(st BackfillStatus) {
		// After the first page: a live update to a row already backfilled (1)
		// and to one not read yet (n), as Debezium would deliver them.
		once.Do(func() {
			r.produceRows([][2]int{{1, 7}, {n, 7}}, func(key, version int) map[string]any {
				return map[string]any{"id": key, "customer_id": key % 97, "body": fmt.Sprintf("LIVE update of %d", key)}
			})
			r.eventually("live updates stored", 20*time.Second, func() bool { return r.stored() >= 2 })
		})
	}
	st, err := RunBackfill(context.Background(), Config{}, job, []Source{ticketsSource}, deps, BackfillOptions{Progress: live})
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
	liveRows, backfilled := storedCount(t, dsn, "tickets")
	if liveRows != 2 || backfilled != n-2 {
		t.Fatalf("live %d, backfilled %d; want 2 and %d", liveRows, backfilled, n-2)
	}
	for _, k := range []string{"1", fmt.Sprint(n)} {
		if text, v := eventText(t, dsn, "tickets", k); !strings.HasPrefix(text, "LIVE") || v != 7 {
			t.Fatalf("row %s: %q version %d; the live update must survive the backfill", k, text, v)
		}
	}
	if text, v := eventText(t, dsn, "tickets", "2"); !strings.Contains(text, "ticket 2 asks") || v >= 0 {
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
	r.produceRows([][2]int{{2, 9}}, func(key, version int) map[string]any {
		return map[string]any{"id": key, "customer_id": key % 97, "body": "LIVE after backfill"}
	})
	r.eventually("the later live change", 20*time.Second, func() bool { text, _ := eventText(t, dsn, "tickets", "2"); return text == "LIVE after backfill" })

	// Running the job again finds it finished; -restart runs it again and writes
	// nothing new: every row is stored at the same version or a live one.
	again, err := RunBackfill(context.Background(), Config{}, job, []Source{ticketsSource}, deps, BackfillOptions{})
	if err != nil || !again.Finished || again.RunRecords != 0 {
		t.Fatalf("second run: %+v, %v; want finished with nothing read", again, err)
	}
	restart, err := RunBackfill(context.Background(), Config{}, job, []Source{ticketsSource}, deps, BackfillOptions{Restart: true})
	if err != nil || restart.Counts["records"] != n+bad {
		t.Fatalf("restart: %+v, %v", restart, err)
	}
	if liveRows, backfilled := storedCount(t, dsn, "tickets"); liveRows != 3 || backfilled != n-3 {
		t.Fatalf("after restart: live %d, backfilled %d; want 3 and %d", liveRows, backfilled, n-3)
	}
}

// Interrupting (ctx cancelled, as SIGINT does) finishes the page in hand and
// saves the checkpoint; the next run resumes there, and the totals add up to the
// input exactly once.
func TestBackfillResumesAfterInterrupt(t *testing.T) {
	r := newRig(t, 1)
	dsn := r.dsn
	const n = 12000
	makeTickets(t, dsn, n, 0)
	job := Backfill{Name: "resume", Source: "tickets", Postgres: &PostgresInput{Table: "tickets"},
		KeyColumns: []string{"id"}, PageSize: 500, Rejects: filepath.Join(t.TempDir(), "r.jsonl")}
	emb, _ := embed.NewLocal(64)
	deps := backfillDeps(r, emb)
	deps.PostgresDSN = dsn
	ctx, cancel := context.WithCancel(context.Background())
	first, err := RunBackfill(ctx, Config{}, job, []Source{ticketsSource}, deps, BackfillOptions{Progress: func(s BackfillStatus) {
		if s.Counts["records"] >= 3000 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || first.Finished {
		t.Fatalf("interrupted run: %+v, %v", first, err)
	}
	cp, ok, _ := r.store.LoadCheckpoint(context.Background(), "resume")
	if !ok || cp.Counts["records"] != first.Counts["records"] || cp.Counts["records"]%500 != 0 {
		t.Fatalf("checkpoint %+v after %d records: want a whole number of pages, as reported", cp, first.Counts["records"])
	}
	second, err := RunBackfill(context.Background(), Config{}, job, []Source{ticketsSource}, deps, BackfillOptions{})
	if err != nil || !second.Finished || !second.Resumed {
		t.Fatalf("resumed run: %+v, %v", second, err)
	}
	if second.RunRecords != n-first.Counts["records"] || second.Counts["records"] != n || second.Counts["stored"] != n {
		t.Fatalf("resumed run read %d (first %d), totals %v; want each row once, %d in all", second.RunRecords, first.Counts["records"], second.Counts, n)
	}
	if _, backfilled := storedCount(t, dsn, "tickets"); backfilled != n {
		t.Fatalf("%d rows stored, want %d", backfilled, n)
	}
	// The job's input cannot change under a checkpoint.
	job.Postgres = &PostgresInput{Query: "SELECT * FROM tickets WHERE id > 10"}
	if _, err := RunBackfill(context.Background(), Config{}, job, []Source{ticketsSource}, deps, BackfillOptions{}); err == nil || !strings.Contains(err.Error(), "-restart") {
		t.Fatalf("changed input: %v; want an error pointing at -restart", err)
	}
}

// JSON Lines: Debezium envelopes without their Kafka key (keyed by key_columns),
// gzip detected, a page boundary at a file boundary, a line that is not JSON and a
// line over the record limit rejected; interrupted and resumed.
func TestBackfillJSONLines(t *testing.T) {
	r := newRig(t, 1)
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
	write("b.jsonl.gz", true, perFile, `{"op":"c","after":{"id":1,"customer_id":1,"body":"`+strings.Repeat("x", MaxRecordBytesDefault)+`"}}`)
	rejects := filepath.Join(dir, "rejects.jsonl") // matched by the glob below: never read back
	job := Backfill{Name: "files", Source: "tickets", Files: []string{filepath.Join(dir, "*.jsonl*")}, KeyColumns: []string{"id"},
		PageSize: 700, Rejects: rejects}
	emb, _ := embed.NewLocal(64)
	deps := backfillDeps(r, emb)
	ctx, cancel := context.WithCancel(context.Background())
	first, err := RunBackfill(ctx, Config{}, job, []Source{ticketsSource}, deps, BackfillOptions{Progress: func(s BackfillStatus) {
		if s.Counts["records"] >= 2100 {
			cancel() // inside the first file
		}
	}})
	if !errors.Is(err, context.Canceled) || first.Unit != "bytes" || first.Total <= 0 {
		t.Fatalf("interrupted run: %+v, %v", first, err)
	}
	st, err := RunBackfill(context.Background(), Config{}, job, []Source{ticketsSource}, deps, BackfillOptions{})
	if err != nil || !st.Finished {
		t.Fatalf("resumed: %+v, %v", st, err)
	}
	if st.Counts["records"] != 2*perFile+2 || st.Counts["stored"] != 2*perFile || st.Counts["rejected"] != 2 {
		b, _ := os.ReadFile(rejects)
		t.Logf("%.3000s", b)
		t.Fatalf("counts %v: want %d records, %d stored, 2 rejected", st.Counts, 2*perFile+2, 2*perFile)
	}
	if _, backfilled := storedCount(t, r.dsn, "tickets"); backfilled != 2*perFile {
		t.Fatalf("%d stored, want %d", backfilled, 2*perFile)
	}
	// Keys are Debezium's for {"id": N}, so the live stream and the file agree.
	if text, v := eventText(t, r.dsn, "tickets", "4999"); text != "file row 4999" || v != backfillVersion(100+4999) {
		t.Fatalf("row 4999: %q version %d", text, v)
	}
	if got := countLines(t, rejects); got != 2 {
		b, _ := os.ReadFile(rejects)
		t.Logf("%.3000s", b)
		t.Fatalf("rejects: %d lines, want 2", got)
	}
}

// Replaying a topic reads every partition to the end it had when the job started,
// joins no group and commits nothing, and resumes from its own checkpoint.
func TestBackfillTopicReplay(t *testing.T) {
	r := newRig(t, 3)
	const n = 3000
	changes := make([][2]int, n)
	for i := range changes {
		changes[i] = [2]int{i, 10 + i}
	}
	r.produce(changes)
	job := Backfill{Name: "replay", Source: "tickets", Topic: &TopicInput{}, PageSize: 400,
		Rejects: filepath.Join(t.TempDir(), "r.jsonl")}
	emb, _ := embed.NewLocal(64)
	deps := backfillDeps(r, emb)
	ctx, cancel := context.WithCancel(context.Background())
	first, err := RunBackfill(ctx, Config{}, job, []Source{ticketsSource}, deps, BackfillOptions{Progress: func(s BackfillStatus) {
		if s.Counts["records"] >= 1000 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || first.Total != n {
		t.Fatalf("interrupted run: %+v, %v", first, err)
	}
	// Records produced after the job started are the live pipeline's, not the replay's.
	st, err := RunBackfill(context.Background(), Config{}, job, []Source{ticketsSource}, deps, BackfillOptions{})
	if err != nil || !st.Finished || st.Counts["records"] != n || st.Counts["stored"] != n {
		t.Fatalf("resumed: %+v, %v; want %d records stored once", st, err, n)
	}
	if _, backfilled := storedCount(t, r.dsn, "tickets"); backfilled != n {
		t.Fatalf("%d stored, want %d", backfilled, n)
	}
	if text, v := eventText(t, r.dsn, "tickets", "42"); text != "key 42 version 52" || v != backfillVersion(52) {
		t.Fatalf("key 42: %q version %d", text, v)
	}
	// Explicit start offsets: partition 0 from offset 100, the others from the start.
	job2 := Backfill{Name: "replay-offsets", Source: "tickets", Topic: &TopicInput{Offsets: map[int32]int64{0: 100}}, PageSize: 400,
		Rejects: filepath.Join(t.TempDir(), "r2.jsonl")}
	st2, err := RunBackfill(context.Background(), Config{}, job2, []Source{ticketsSource}, deps, BackfillOptions{DryRun: true})
	if err != nil || st2.Counts["records"] != n-100 {
		t.Fatalf("offsets {0: 100}: %+v, %v; want %d records", st2, err, n-100)
	}
	c, err := kafka.NewConsumer(&kafka.ConfigMap{"bootstrap.servers": r.brokers, "group.id": "freshctx-backfill-replay", "enable.metrics.push": false})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tp := topic
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
	r := newRig(t, 1)
	const n = 3000
	makeTickets(t, r.dsn, n, 2)
	rejects := filepath.Join(t.TempDir(), "r.jsonl")
	job := Backfill{Name: "dry", Source: "tickets", Postgres: &PostgresInput{Table: "tickets"}, KeyColumns: []string{"id"}, Rejects: rejects}
	emb := &countingEmbedder{Embedder: mustLocal(t)}
	deps := backfillDeps(r, emb)
	deps.PostgresDSN = r.dsn
	st, err := RunBackfill(context.Background(), Config{}, job, []Source{ticketsSource}, deps, BackfillOptions{DryRun: true})
	if err != nil || !st.Finished || st.Counts["stored"] != n || st.Counts["rejected"] != 2 {
		t.Fatalf("dry run: %+v, %v", st, err)
	}
	if _, backfilled := storedCount(t, r.dsn, "tickets"); backfilled != 0 || emb.calls.Load() != 0 {
		t.Fatalf("dry run wrote %d events and made %d embedding calls", backfilled, emb.calls.Load())
	}
	if _, ok, _ := r.store.LoadCheckpoint(context.Background(), "dry"); ok {
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

// Backfill versions sit below every live version and keep their own order.
func TestBackfillVersionOrder(t *testing.T) {
	vs := []int64{0, 1, 1 << 32, math.MaxInt64}
	for i, v := range vs {
		b := backfillVersion(v)
		if b >= 0 {
			t.Fatalf("backfillVersion(%d) = %d, want negative", v, b)
		}
		if i > 0 && b <= backfillVersion(vs[i-1]) {
			t.Fatalf("backfillVersion does not keep order at %d", v)
		}
	}
	if !stale(0, false, backfillVersion(math.MaxInt64)) || stale(backfillVersion(5), false, 0) {
		t.Fatal("a live version must make any backfill version stale, and not the other way round")
	}
}

type countingEmbedder struct {
	Embedder
	calls atomic.Int64
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.calls.Add(1)
	return c.Embedder.Embed(ctx, texts)
}

// Source.Retention deletes a source's events older than the retention, for good,
// while newer ones stay.
func TestRetentionPurgesExpiredEvents(t *testing.T) {
	r := newRig(t, 1)
	src := ticketsSource
	src.Retention = 3 * time.Second
	r.source = &src
	old := time.Now().Add(-time.Hour).UnixMicro()
	r.produceRows([][2]int{{1, 1}, {2, 1}, {3, 1}}, func(key, version int) map[string]any {
		row := map[string]any{"id": key, "customer_id": 1, "body": fmt.Sprint("ticket ", key)}
		if key < 3 {
			row["updated_at"] = old
		}
		return row
	})
	stop := r.run(Config{}, r.store, nil)
	defer stop()
	r.eventually("expired events purged", 20*time.Second, func() bool {
		return testutil.ToFloat64(r.metrics.Records.WithLabelValues("tickets", "expired")) >= 2
	})
	if live, _ := storedCount(t, r.dsn, "tickets"); live != 1 {
		t.Fatalf("%d events left, want 1 (the one inside the retention)", live)
	}
}

// Articles are backfilled like tickets: a document source's table becomes
// chunked, embedded, searchable knowledge, and a live edit during the backfill
// wins.
func TestBackfillDocuments(t *testing.T) {
	r := newRig(t, 1)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, r.dsn)
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
	if err := r.store.EnsureChunkIndex(ctx, 64); err != nil {
		t.Fatal(err)
	}
	kb := Source{Name: "kb", Topic: "kb.public.articles", Format: cdc.FormatDebezium, Kind: KindDocument, ID: "KB-{{.id}}",
		Tenant: "{{.tenant_id}}", Title: "{{.title}}", Text: "{{.body}}", Attrs: []string{"category"}, Chunk: Chunking{Size: 60, Overlap: 10}}
	job := Backfill{Name: "articles", Source: "kb", Postgres: &PostgresInput{Table: "articles"}, KeyColumns: []string{"id"}, PageSize: 100,
		Rejects: filepath.Join(t.TempDir(), "r.jsonl")}
	emb := mustLocal(t)
	deps := backfillDeps(r, emb)
	deps.PostgresDSN = r.dsn
	var once sync.Once
	live := func(BackfillStatus) {
		once.Do(func() { // a live edit of an article not read yet, as the live pipeline writes it
			vecs, _ := emb.Embed(ctx, []string{"Article 250\n\nEdited live: refunds now take one day."})
			_, err := r.store.ApplyDocuments(ctx, []store.Document{{Source: "kb", Key: "250", DocID: "KB-250", Tenant: "acme", Title: "Article 250",
				Attrs: map[string]any{"category": "refunds"}, TextHash: []byte("live"), Version: 99,
				Chunks: []store.Chunk{{Text: "Edited live: refunds now take one day.", TextHash: []byte("live-chunk"), Embedding: vecs[0]}}}}, nil)
			if err != nil {
				t.Error(err)
			}
		})
	}
	st, err := RunBackfill(ctx, Config{}, job, []Source{kb}, deps, BackfillOptions{Progress: live})
	if err != nil || st.Counts["records"] != 300 || st.Counts["stored"] != 299 || st.Counts["unchanged"] != 1 {
		t.Fatalf("%+v, %v: want 300 records, 299 stored, 1 left to the live edit", st, err)
	}
	q, _ := emb.Embed(ctx, []string{"how long do refunds take"})
	hits, _, err := r.store.Search(ctx, store.SearchQuery{Tenant: "acme", Vector: q[0], K: 5, Filter: map[string]any{"category": "refunds"}})
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
