package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/pgstore"
)

// Backfill of a 100k-row PostgreSQL table through the real command: stopped with
// SIGINT (finishes its page, exits cleanly), resumed and killed with SIGKILL,
// resumed again to the end. Every row is indexed once with its own text, the bad
// rows are in the rejects file, and the job's totals count each row once.
func TestBackfillCommandSurvivesSIGINTAndSIGKILL(t *testing.T) {
	const n, bad = 100_000, 5
	dsn, _ := testenv.PostgresDSN(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{
		`CREATE TABLE tickets (id bigint PRIMARY KEY, customer_id int, subject text, body text, updated_at timestamptz NOT NULL)`,
		fmt.Sprintf(`INSERT INTO tickets SELECT i, i %% 1000, 'refund ' || i, 'customer asks where refund ' || i || ' is', now() - (i || ' s')::interval FROM generate_series(1, %d) i`, n),
		fmt.Sprintf(`INSERT INTO tickets SELECT i, NULL, 'orphan', 'no customer', now() FROM generate_series(%d, %d) i`, n+1, n+bad),
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	rejects := filepath.Join(dir, "rejects.jsonl")
	cfgPath := filepath.Join(dir, "backfill.yaml")
	redisAddr, prefix := testenv.RedisAddr(t)
	os.WriteFile(cfgPath, []byte(fmt.Sprintf(`
postgres: {dsn: %q}
redis: {addr: %q, key_prefix: %q}
embedder: {dims: 64, word_vectors: none}
api: {auth: {mode: none}}
sources:
  - {name: tickets, topic: shop.public.tickets, format: debezium, tenant: acme, entity: "customer:{{.customer_id}}",
     time: updated_at, text: "{{.subject}}: {{.body}}"}
backfill:
  - {name: history, source: tickets, postgres: {table: tickets}, key_columns: [id], rejects: %q}
`, dsn, redisAddr, prefix, rejects)), 0o600)
	var out bytes.Buffer
	if err := run(ctx, []string{"migrate", "-config", cfgPath}, os.Getenv, &out, &out); err != nil {
		t.Fatalf("migrate: %v %s", err, out.String())
	}
	st, err := pgstore.Connect(ctx, pgstore.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	progress := func() int64 {
		cp, ok, err := st.LoadCheckpoint(ctx, "history")
		if err != nil || !ok {
			return 0
		}
		return cp.Counts["records"]
	}
	stored := func() int {
		var c int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM events WHERE source = 'tickets'`).Scan(&c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	args := "backfill -config " + cfgPath + " -progress log -log-level info"

	// 1. SIGINT: the page in hand is finished and checkpointed; exit status 0.
	c := startChildArgs(t, args)
	waitFor(t, "20k rows backfilled", 3*time.Minute, func() bool { return progress() >= 20_000 })
	c.cmd.Process.Signal(syscall.SIGINT)
	if err := c.cmd.Wait(); err != nil {
		t.Fatalf("SIGINT: exit %v\n%s", err, c.out.String())
	}
	if !strings.Contains(c.out.String(), "interrupted: run the same command again to resume") {
		t.Fatalf("SIGINT output:\n%s", c.out.String())
	}
	afterInt := progress()
	if got := stored(); int64(got) != afterInt {
		t.Fatalf("after SIGINT: %d events stored, checkpoint says %d records: a clean stop leaves no partial page", got, afterInt)
	}

	// Live changes while the backfill is stopped, as the live pipeline writes them:
	// to a row already backfilled and to one not read yet. Both must survive.
	for _, key := range []string{"1", "99990"} {
		v := make([]float32, 64)
		v[0] = 1
		r, err := st.Apply(ctx, []store.Event{{Source: "tickets", Key: key, ID: key, Tenant: "acme", Entity: "customer:live", Time: time.Now(),
			Text: "LIVE " + key, TextHash: []byte("live"), Embedding: v, Version: 10}}, nil)
		if err != nil || !r.Applied[0] {
			t.Fatalf("live write of %s: %v %v", key, r, err)
		}
	}

	// 2. Resume, then SIGKILL: whatever was in flight is redone on the next run.
	c = startChildArgs(t, args)
	waitFor(t, "50k rows backfilled", 3*time.Minute, func() bool { return progress() >= 50_000 })
	c.cmd.Process.Kill()
	c.cmd.Wait()
	if strings.Contains(c.out.String(), "backfill started") && !strings.Contains(c.out.String(), "resumed=true") {
		t.Fatalf("second run did not resume:\n%s", c.out.String())
	}

	// 3. Resume to the end, in process, and read the summary.
	out.Reset()
	if err := run(ctx, strings.Fields(args), os.Getenv, &out, &out); err != nil {
		t.Fatalf("final run: %v\n%s", err, out.String())
	}
	t.Logf("final run:\n%s", out.String())
	for _, want := range []string{"backfill history: finished", "records 100,005,", "rejected 5,", "stored 99,999,", "unchanged 1", "rejected records (with the reason) are in " + rejects} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("summary lacks %q:\n%s", want, out.String())
		}
	}
	var all, matching, backfilled int
	if err := conn.QueryRow(ctx, `
		SELECT count(*), count(*) FILTER (WHERE e.text = t.subject || ': ' || t.body), count(*) FILTER (WHERE e.version < 0)
		FROM events e LEFT JOIN tickets t ON e.key = t.id::text WHERE e.source = 'tickets' AND NOT e.deleted`).Scan(&all, &matching, &backfilled); err != nil {
		t.Fatal(err)
	}
	if all != n || matching != n-2 || backfilled != n-2 {
		t.Fatalf("events: %d, with the row's text %d, backfill versions %d; want %d, and %d for the other two (the live ones)", all, matching, backfilled, n, n-2)
	}
	var live int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM events WHERE source = 'tickets' AND text LIKE 'LIVE %' AND version = 10`).Scan(&live); err != nil || live != 2 {
		t.Fatalf("%d live rows survived (%v), want 2", live, err)
	}
	if lines := strings.Count(readFile(t, rejects), "\n"); lines < bad {
		t.Fatalf("rejects file has %d lines, want at least %d (a page redone after SIGKILL may repeat some)", lines, bad)
	}
	// A fourth run has nothing to do.
	out.Reset()
	if err := run(ctx, strings.Fields(args), os.Getenv, &out, &out); err != nil || !strings.Contains(out.String(), "already finished") {
		t.Fatalf("fourth run: %v\n%s", err, out.String())
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
