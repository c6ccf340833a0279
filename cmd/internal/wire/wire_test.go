package wire_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/freshctx/freshctx/cmd/internal/wire"
	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store/pgstore"
)

// Compose and Kubernetes start ingest and contextapi together: 20 of them
// opening a freshly migrated database at the same moment must all start
// (the embedding-model check once lost the race: "no rows in result set").
func TestSimultaneousStartsOnAFreshDatabase(t *testing.T) {
	dsn, _ := testenv.PostgresDSN(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st, err := pgstore.Connect(ctx, pgstore.Config{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	st.Close()
	cfg, err := config.Parse([]byte(fmt.Sprintf(`
postgres: {dsn: %q, max_conns: 1}
redis: {addr: "127.0.0.1:6379"}
api: {tenant: acme, auth: {mode: none}}
sources:
  - {name: tickets, topic: t, format: json, tenant: acme, entity: "customer:{{.customer_id}}", text: "{{.body}}"}
`, dsn)), func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	// 20 processes, ingest and contextapi alike (the same start-up path), each
	// with one connection so the test leaves room for the tests running beside it.
	const starts = 20
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
		errs  = make(chan error, starts)
	)
	for range starts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			s, err := wire.Open(ctx, cfg, nil, slog.New(slog.DiscardHandler))
			if err != nil {
				errs <- err
				return
			}
			s.Close()
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("a start failed: %v", err)
	}
}

// What the lean build leaves out is asked for by store: milvus (both services)
// and by an empty kafka.brokers (ingest's consuming commands only).
func TestNeedsFull(t *testing.T) {
	for _, c := range []struct {
		store, brokers string
		devBroker      bool
		want           string
	}{
		{config.StorePostgres, "k:9092", true, ""},
		{config.StorePostgres, "", false, ""},
		{config.StorePostgres, "", true, "kafka.brokers empty (the development broker)"},
		{config.StoreMilvus, "k:9092", false, "store: milvus"},
		{config.StoreMilvus, "", true, "store: milvus|kafka.brokers empty (the development broker)"},
	} {
		cfg := &config.Config{Store: c.store}
		cfg.Kafka.Brokers = c.brokers
		if got := strings.Join(wire.NeedsFull(cfg, c.devBroker), "|"); got != c.want {
			t.Errorf("store %s, brokers %q, dev broker %v: %q, want %q", c.store, c.brokers, c.devBroker, got, c.want)
		}
	}
	if wire.Lean {
		t.Error("the tests run the full build")
	}
	if err := wire.HandOver([]string{"store: milvus"}, slog.Default()); err != nil {
		t.Errorf("the full build hands over nothing: %v", err)
	}
}
