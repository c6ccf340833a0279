// Package testenv gives tests real services, each isolated per test: a fresh
// PostgreSQL schema, a unique Redis key prefix, and an in-process Kafka-protocol
// broker (kfake) reached over TCP. A missing service fails the test with a hint;
// tests are skipped only under -short.
//
// FRESHCTX_TEST_POSTGRES_DSN and FRESHCTX_TEST_REDIS_ADDR override the defaults
// that scripts/setup.sh provides.
package testenv

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"
	"github.com/twmb/franz-go/pkg/kfake"
)

const (
	postgresDSNDefault  = "postgres://freshctx:freshctx@127.0.0.1:5432/freshctx?sslmode=disable"
	redisAddrDefault    = "127.0.0.1:6379"
	redisClusterDefault = "127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103"
	hint                = "start the services with `make setup` (scripts/setup.sh)"
)

// Name returns a short random identifier, safe in SQL identifiers and topic names.
func Name(prefix string) string {
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

func needServices(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("needs PostgreSQL, Redis and a broker; skipped with -short")
	}
}

// PostgresDSN returns a DSN whose search_path starts with a fresh schema that is
// dropped when the test ends.
func PostgresDSN(t testing.TB) (dsn, schema string) {
	t.Helper()
	needServices(t)
	base := os.Getenv("FRESHCTX_TEST_POSTGRES_DSN")
	if base == "" {
		base = postgresDSNDefault
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("PostgreSQL at %s: %v\n%s", base, err, hint)
	}
	defer conn.Close(ctx)
	schema = Name("t_")
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("creating schema: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, base)
		if err != nil {
			return
		}
		defer c.Close(ctx)
		_, _ = c.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE")
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema+",public")
	u.RawQuery = q.Encode()
	return u.String(), schema
}

// RedisAddr checks Redis answers and returns its address and a key prefix unique
// to the test; keys under it are deleted when the test ends.
func RedisAddr(t testing.TB) (addr, prefix string) {
	t.Helper()
	needServices(t)
	addr = os.Getenv("FRESHCTX_TEST_REDIS_ADDR")
	if addr == "" {
		addr = redisAddrDefault
	}
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := rdb.Ping(ctx).Err(); err != nil {
		rdb.Close()
		t.Fatalf("Redis at %s: %v\n%s", addr, err, hint)
	}
	prefix = Name("t")
	t.Cleanup(func() {
		defer rdb.Close()
		ctx := context.Background()
		iter := rdb.Scan(ctx, 0, prefix+":*", 1000).Iterator()
		var keys []string
		for iter.Next(ctx) {
			keys = append(keys, iter.Val())
		}
		if len(keys) > 0 {
			rdb.Del(ctx, keys...)
		}
	})
	return addr, prefix
}

// Kafka starts an in-process Kafka-protocol broker with the given topics
// (partitions each) and returns its address. It stops when the test ends.
func Kafka(t testing.TB, partitions int32, topics []string, opts ...kfake.Opt) (string, *kfake.Cluster) {
	t.Helper()
	needServices(t)
	opts = append([]kfake.Opt{kfake.NumBrokers(1), kfake.SeedTopics(partitions, topics...), kfake.AllowAutoTopicCreation()}, opts...)
	c, err := kfake.NewCluster(opts...)
	if err != nil {
		t.Fatalf("starting kfake: %v", err)
	}
	t.Cleanup(c.Close)
	return strings.Join(c.ListenAddrs(), ","), c
}

// LockedBuffer is a bytes.Buffer safe for concurrent writers (a test's logs).
type LockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *LockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// RedisCluster checks the test Redis Cluster (3 masters + 3 replicas, started
// by `make setup`; FRESHCTX_TEST_REDIS_CLUSTER lists other seed nodes) is up and
// returns its seed addresses and a key prefix unique to the test; keys under it
// are deleted from every master when the test ends.
func RedisCluster(t testing.TB) (addrs []string, prefix string) {
	t.Helper()
	needServices(t)
	seeds := os.Getenv("FRESHCTX_TEST_REDIS_CLUSTER")
	if seeds == "" {
		seeds = redisClusterDefault
	}
	addrs = strings.Split(seeds, ",")
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if info, err := rdb.ClusterInfo(ctx).Result(); err != nil || !strings.Contains(info, "cluster_state:ok") {
		rdb.Close()
		t.Fatalf("Redis Cluster at %s: %v %q\n%s", seeds, err, info, hint)
	}
	prefix = Name("t")
	t.Cleanup(func() {
		defer rdb.Close()
		_ = rdb.ForEachMaster(context.Background(), func(ctx context.Context, n *redis.Client) error {
			iter := n.Scan(ctx, 0, prefix+":*", 1000).Iterator()
			for iter.Next(ctx) {
				n.Unlink(ctx, iter.Val())
			}
			return nil
		})
	})
	return addrs, prefix
}
