package pgstore

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/freshctx/freshctx/internal/testenv"
)

// A read whose caller stops waiting returns the caller's error at once, but its
// query runs to the end and its connection goes back to the pool: no connection
// is closed and opened again for an answer that missed its budget.
func TestAbandonedReadKeepsItsConnection(t *testing.T) {
	dsn, _ := testenv.PostgresDSN(t)
	s, err := Connect(context.Background(), Config{DSN: dsn, MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	one := func(r pgx.CollectableRow) (int, error) {
		var n int
		return n, r.Scan(&n)
	}
	if got, err := readAll(context.Background(), s, one, `SELECT 1`); err != nil || len(got) != 1 || got[0] != 1 {
		t.Fatalf("a read: %v, %v", got, err)
	}
	opened := s.pool.Stat().NewConnsCount()
	for range 5 {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		_, err := readAll(ctx, s, one, `SELECT 1 FROM pg_sleep(0.3)`)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("a read past its caller's deadline: %v, want the deadline's error", err)
		}
	}
	testenv.Eventually(t, "the abandoned reads to finish", testenv.Patience(10*time.Second), func() bool {
		return s.pool.Stat().AcquiredConns() == 0
	})
	if got, err := readAll(context.Background(), s, one, `SELECT 2`); err != nil || len(got) != 1 || got[0] != 2 {
		t.Fatalf("a read after them: %v, %v", got, err)
	}
	if n := s.pool.Stat().NewConnsCount() - opened; n != 0 {
		t.Errorf("%d connections opened again after 5 abandoned reads, want 0", n)
	}
}
