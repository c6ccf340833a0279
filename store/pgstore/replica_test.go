package pgstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/pgstore"
)

// With postgres.read_dsn, reads go to the replica, except those marked
// read-your-writes (store.WithPrimary), and any the replica cannot answer. The
// "replica" here is a second schema that never receives the write: a replica
// lagging forever.
func TestReadReplicaRouting(t *testing.T) {
	ctx := context.Background()
	primaryDSN, _ := testenv.PostgresDSN(t)
	replicaDSN, _ := testenv.PostgresDSN(t)
	for _, dsn := range []string{primaryDSN, replicaDSN} {
		st, err := pgstore.Connect(ctx, pgstore.Config{DSN: dsn})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		st.Close()
	}
	now := time.Now()
	recent := func(st *pgstore.Store, ctx context.Context) int {
		t.Helper()
		evs, err := st.Recent(ctx, "acme", "customer:1", now.Add(-time.Hour), 10)
		if err != nil {
			t.Fatal(err)
		}
		return len(evs)
	}
	st, err := pgstore.Connect(ctx, pgstore.Config{DSN: primaryDSN, ReadDSN: replicaDSN})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Apply(ctx, []store.Event{{Source: "s", Key: "1", ID: "1", Tenant: "acme", Entity: "customer:1", Time: now,
		Text: "refund approved", Version: 1}}, nil); err != nil {
		t.Fatal(err)
	}
	if n := recent(st, ctx); n != 0 {
		t.Errorf("a plain read saw %d events: it did not go to the (lagging) replica", n)
	}
	if n := recent(st, store.WithPrimary(ctx)); n != 1 {
		t.Errorf("a read-your-writes read saw %d events; want the primary's 1", n)
	}
	if tl, err := st.Timeline(store.WithPrimary(ctx), "acme", "customer:1", nil, 10); err != nil || len(tl) != 1 {
		t.Errorf("read-your-writes timeline: %d events, %v", len(tl), err)
	}

	// A replica that cannot be reached: Connect still succeeds, reads fall back.
	down, err := pgstore.Connect(ctx, pgstore.Config{DSN: primaryDSN, ReadDSN: "postgres://freshctx:freshctx@127.0.0.1:1/freshctx?connect_timeout=1"})
	if err != nil {
		t.Fatalf("a replica that is down must not stop the API: %v", err)
	}
	defer down.Close()
	if n := recent(down, ctx); n != 1 {
		t.Errorf("with the replica down, a read saw %d events; want the primary's 1", n)
	}
}
