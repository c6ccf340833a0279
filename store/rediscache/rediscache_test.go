package rediscache

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/store"
)

// redisModes runs test against one Redis and against the Redis Cluster: the
// cache's behaviour must be the same on both. cfg has the deployment and a key
// prefix of the test's own.
func redisModes(t *testing.T, test func(t *testing.T, cfg Config)) {
	t.Run("single", func(t *testing.T) {
		addr, prefix := testenv.RedisAddr(t)
		test(t, Config{Addr: addr, KeyPrefix: prefix})
	})
	t.Run("cluster", func(t *testing.T) {
		addrs, prefix := testenv.RedisCluster(t)
		test(t, Config{Mode: ModeCluster, Addrs: addrs, KeyPrefix: prefix})
	})
}

func newCache(t *testing.T, cfg Config) *Cache {
	t.Helper()
	cfg.Window, cfg.MaxPerEntity = time.Hour, 5
	c := MustNew(cfg)
	t.Cleanup(func() { c.Close() })
	return c
}

func ev(key, tenant, entity, text string, version int64, at time.Time) store.Event {
	return store.Event{Source: "tickets", Key: key, ID: "T-" + key, Tenant: tenant, Entity: entity, Time: at,
		Text: text, Embedding: []float32{0.6, 0.8}, Version: version, Attrs: map[string]any{"status": "open"}}
}

func texts(t *testing.T, c *Cache, tenant, entity string, since time.Time) ([]string, bool) {
	t.Helper()
	evs, complete, err := c.Recent(context.Background(), tenant, entity, since, 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		out = append(out, e.Text)
	}
	return out, complete
}

func TestCacheVersionGuardAndDeletes(t *testing.T) {
	redisModes(t, func(t *testing.T, cfg Config) {
		c := newCache(t, cfg)
		ctx := context.Background()
		now := time.Now()
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(c.Apply(ctx, []store.Event{ev("1", "acme", "customer:1", "v10", 10, now.Add(-time.Minute))}, nil))
		must(c.Apply(ctx, []store.Event{ev("1", "acme", "customer:1", "v9 replayed", 9, now)}, nil))
		got, _ := texts(t, c, "acme", "customer:1", now.Add(-10*time.Minute))
		if len(got) != 1 || got[0] != "v10" {
			t.Fatalf("after an older replay: %v, want [v10]", got)
		}
		// Versions beyond 2^53 compare exactly (Lua numbers would round them).
		big := int64(1) << 60
		must(c.Apply(ctx, []store.Event{ev("2", "acme", "customer:1", "big", big+1, now)}, nil))
		must(c.Apply(ctx, []store.Event{ev("2", "acme", "customer:1", "big-older", big, now)}, nil))
		got, _ = texts(t, c, "acme", "customer:1", now.Add(-10*time.Minute))
		if len(got) != 2 || got[0] != "big" {
			t.Fatalf("big versions: %v", got)
		}

		must(c.Apply(ctx, nil, []store.Removed{{Ref: store.Ref{Source: "tickets", Key: "1"}, Tenant: "acme", Entity: "customer:1", Version: 20}}))
		must(c.Apply(ctx, []store.Event{ev("1", "acme", "customer:1", "resurrected", 15, now)}, nil))
		must(c.Apply(ctx, []store.Event{ev("1", "acme", "customer:1", "same version as delete", 20, now)}, nil))
		got, _ = texts(t, c, "acme", "customer:1", now.Add(-10*time.Minute))
		if len(got) != 1 || got[0] != "big" {
			t.Fatalf("after delete and older creates: %v, want [big]", got)
		}
		must(c.Apply(ctx, []store.Event{ev("1", "acme", "customer:1", "re-created", 21, now.Add(time.Second))}, nil))
		got, _ = texts(t, c, "acme", "customer:1", now.Add(-10*time.Minute))
		if len(got) != 2 || got[0] != "re-created" {
			t.Fatalf("newer create after delete: %v", got)
		}
	})
}

func TestCacheCompletenessAndWindow(t *testing.T) {
	redisModes(t, func(t *testing.T, cfg Config) {
		c := newCache(t, cfg)
		ctx := context.Background()
		now := time.Now()
		if err := c.Apply(ctx, []store.Event{ev("1", "acme", "customer:1", "recent", 1, now.Add(-time.Minute))}, nil); err != nil {
			t.Fatal(err)
		}
		// Fed since just now: it cannot vouch for a 15-minute window...
		if got, complete := texts(t, c, "acme", "customer:1", now.Add(-15*time.Minute)); complete || len(got) != 1 {
			t.Fatalf("complete = %v, events %v; want a partial answer", complete, got)
		}
		// ...but can once it has been fed for longer than the window.
		if err := c.MarkFedSince(ctx, now.Add(-20*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if _, complete := texts(t, c, "acme", "customer:1", now.Add(-15*time.Minute)); !complete {
			t.Fatal("fed for 20m, window 15m: want complete")
		}
		// Never beyond the cache window.
		if _, complete := texts(t, c, "acme", "customer:1", now.Add(-2*time.Hour)); complete {
			t.Fatal("window older than the cache keeps: want incomplete")
		}
		// A failed write resets the marker on the next successful one.
		c.dirty.Store(true)
		if err := c.Apply(ctx, []store.Event{ev("2", "acme", "customer:1", "after outage", 1, now)}, nil); err != nil {
			t.Fatal(err)
		}
		if _, complete := texts(t, c, "acme", "customer:1", now.Add(-15*time.Minute)); complete {
			t.Fatal("after a failed write, the cache must not claim the window")
		}
		// Events outside the cache window are not cached at all.
		if err := c.Apply(ctx, []store.Event{ev("3", "acme", "customer:9", "ancient", 1, now.Add(-2*time.Hour))}, nil); err != nil {
			t.Fatal(err)
		}
		if got, _ := texts(t, c, "acme", "customer:9", now.Add(-3*time.Hour)); len(got) != 0 {
			t.Fatalf("ancient event cached: %v", got)
		}
	})
}

func TestCachePerEntityCap(t *testing.T) {
	redisModes(t, func(t *testing.T, cfg Config) {
		c := newCache(t, cfg) // MaxPerEntity 5
		ctx := context.Background()
		now := time.Now()
		if err := c.MarkFedSince(ctx, now.Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 8; i++ {
			e := ev(string(rune('a'+i)), "acme", "customer:1", "e"+string(rune('a'+i)), 1, now.Add(time.Duration(i-10)*time.Minute))
			if err := c.Apply(ctx, []store.Event{e}, nil); err != nil {
				t.Fatal(err)
			}
		}
		got, complete := texts(t, c, "acme", "customer:1", now.Add(-30*time.Minute))
		if len(got) != 5 || got[0] != "eh" || complete {
			t.Fatalf("got %v complete=%v; want the 5 newest and incomplete (3 were pushed out)", got, complete)
		}
		if _, complete := texts(t, c, "acme", "customer:1", now.Add(-6*time.Minute)); !complete {
			t.Fatal("a window inside what the cap kept is complete")
		}
	})
}

// Invariant 8 for the cache: tenant and entity are both part of every key, and
// separators in them cannot make two (tenant, entity) pairs collide.
func TestCacheTenantIsolationAndKeys(t *testing.T) {
	redisModes(t, func(t *testing.T, cfg Config) {
		c := newCache(t, cfg)
		ctx := context.Background()
		now := time.Now()
		if err := c.Apply(ctx, []store.Event{
			ev("1", "a:b", "c", "tenant a:b", 1, now),
			ev("2", "a", "b:c", "tenant a", 1, now),
		}, nil); err != nil {
			t.Fatal(err)
		}
		if got, _ := texts(t, c, "a:b", "c", now.Add(-time.Minute)); len(got) != 1 || got[0] != "tenant a:b" {
			t.Fatalf("tenant a:b sees %v", got)
		}
		if got, _ := texts(t, c, "a", "b:c", now.Add(-time.Minute)); len(got) != 1 || got[0] != "tenant a" {
			t.Fatalf("tenant a sees %v", got)
		}
		// Both keys of an entity carry the same hash tag (one Redis Cluster slot).
		tag := c.entityTag("acme", "customer:{42}")
		tl, body := tag+":tl", tag+":ev:tickets/1"
		if hashTag(tl) != hashTag(body) {
			t.Fatalf("hash tags differ: %q vs %q", hashTag(tl), hashTag(body))
		}
	})
}

// hashTag is the part of a key Redis Cluster hashes: between the first { and the
// next }, when non-empty.
func hashTag(key string) string {
	i := strings.IndexByte(key, '{')
	if i < 0 {
		return key
	}
	j := strings.IndexByte(key[i+1:], '}')
	if j <= 0 {
		return key
	}
	return key[i+1 : i+1+j]
}

func TestPadVersionOrdersAllOfInt64(t *testing.T) {
	vs := []int64{math.MinInt64, math.MinInt64 + 1, -1 << 40, -1, 0, 1, 1 << 40, math.MaxInt64}
	for i := 1; i < len(vs); i++ {
		a, b := padVersion(vs[i-1]), padVersion(vs[i])
		if len(a) != 20 || len(b) != 20 || a >= b {
			t.Fatalf("padVersion(%d)=%s, padVersion(%d)=%s: want fixed width and increasing", vs[i-1], a, vs[i], b)
		}
	}
}

// BM25's corpus statistics: ingest counts a sample of the events it writes, per
// tenant and source; sources with too few sampled events are left out.
func TestTermStats(t *testing.T) {
	redisModes(t, func(t *testing.T, cfg Config) {
		on := cfg
		on.TermStats = true
		c := newCache(t, on)
		ctx := context.Background()
		var ups []store.Event
		for i := range 800 {
			text := "Order shipped with the carrier"
			if i%4 == 0 {
				text = "Refund approved for the order"
			}
			ups = append(ups, store.Event{Source: "orders", Key: fmt.Sprint("k", i), Tenant: "acme", Entity: fmt.Sprint("customer:", i%50),
				Time: time.Now(), Text: text, Version: 1})
		}
		ups = append(ups, store.Event{Source: "rare", Key: "x", Tenant: "acme", Entity: "customer:1", Time: time.Now(), Text: "one event", Version: 1})
		if err := c.Apply(ctx, ups, nil); err != nil {
			t.Fatal(err)
		}
		st, err := c.TermStats(ctx, "acme", []string{"orders", "rare"}, []string{"refund", "order", "ship", "missing"})
		if err != nil {
			t.Fatal(err)
		}
		o, ok := st["orders"]
		if !ok || o.N < 800/StatsSample/2 || o.N > 800/StatsSample*2 {
			t.Fatalf("orders: %+v; want about %d sampled events", o, 800/StatsSample)
		}
		if o.DF["order"] != o.N || o.DF["missing"] != 0 || o.DF["refund"] < o.N/8 || o.DF["refund"] > o.N/2 || o.AvgLen < 2 {
			t.Fatalf("orders statistics: %+v (every event names an order, about a quarter a refund)", o)
		}
		if _, ok := st["rare"]; ok {
			t.Fatal("a source with too few sampled events must be left out")
		}
		if other, _ := c.TermStats(ctx, "globex", []string{"orders"}, []string{"order"}); len(other) != 0 {
			t.Fatalf("another tenant's statistics: %+v", other)
		}
		// Off (the default), ingest records nothing.
		cfg.KeyPrefix += "off"
		off := newCache(t, cfg)
		if err := off.Apply(ctx, ups, nil); err != nil {
			t.Fatal(err)
		}
		if st, _ := off.TermStats(ctx, "acme", []string{"orders"}, []string{"order"}); len(st) != 0 {
			t.Fatalf("statistics recorded without redis.term_stats: %+v", st)
		}
	})
}

// Redis Cluster's slot of a key, computed here, is the cluster's own; every
// per-slot marker tag lands on its slot; and an entity whose name holds braces
// is read with its marker from one slot.
func TestSlotsMatchTheCluster(t *testing.T) {
	addrs, prefix := testenv.RedisCluster(t)
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	t.Cleanup(func() { rdb.Close() })
	ctx := context.Background()
	for _, k := range []string{"a", "fc:{5:acme:customer:1}:tl", "x{}y", "{a}{b}", "fc:{4:acme:customer:{42}}:tl", "客户:1", strings.Repeat("z", 300)} {
		want, err := rdb.ClusterKeySlot(ctx, k).Result()
		if err != nil {
			t.Fatal(err)
		}
		if got := keySlot(k); int64(got) != want {
			t.Errorf("keySlot(%q) = %d, the cluster says %d", k, got, want)
		}
	}
	for s := 0; s < numSlots; s += 997 {
		if got, _ := rdb.ClusterKeySlot(ctx, "{"+slotTags()[s]+"}").Result(); got != int64(s) {
			t.Errorf("slot tag %q lands on %d, not %d", slotTags()[s], got, s)
		}
	}
	c := newCache(t, Config{Mode: ModeCluster, Addrs: addrs, KeyPrefix: prefix})
	now := time.Now()
	if err := c.MarkFedSince(ctx, now.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := c.Apply(ctx, []store.Event{ev("1", "acme", "customer:{42}", "braces", 1, now)}, nil); err != nil {
		t.Fatal(err)
	}
	if got, complete := texts(t, c, "acme", "customer:{42}", now.Add(-10*time.Minute)); len(got) != 1 || !complete {
		t.Fatalf("entity with braces: %v complete=%v", got, complete)
	}
}

// A Redis that lost its scripts (restarted, or a newly promoted master) gets
// them again, and the write that met NOSCRIPT is sent whole, not dropped.
func TestWriteAfterScriptsAreGone(t *testing.T) {
	redisModes(t, func(t *testing.T, cfg Config) {
		c := newCache(t, cfg)
		ctx := context.Background()
		flush := func(ctx context.Context, n *redis.Client) error { return n.ScriptFlush(ctx).Err() }
		if cc, ok := c.rdb.(*redis.ClusterClient); ok {
			if err := cc.ForEachMaster(ctx, flush); err != nil {
				t.Fatal(err)
			}
		} else if err := flush(ctx, c.rdb.(*redis.Client)); err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		if err := c.Apply(ctx, []store.Event{ev("1", "acme", "customer:7", "after a flush", 1, now)}, nil); err != nil {
			t.Fatal(err)
		}
		if got, _ := texts(t, c, "acme", "customer:7", now.Add(-time.Minute)); len(got) != 1 || got[0] != "after a flush" {
			t.Fatalf("after SCRIPT FLUSH the write was lost: %v", got)
		}
	})
}

// read_from_replicas: plain reads are served by replicas (EVALSHA_RO shows in
// their command statistics), and a read-your-writes read goes to the master and
// sees a write at once.
func TestReadFromReplicas(t *testing.T) {
	addrs, prefix := testenv.RedisCluster(t)
	c := MustNew(Config{Mode: ModeCluster, Addrs: addrs, KeyPrefix: prefix, ReadFromReplicas: true})
	t.Cleanup(func() { c.Close() })
	ctx := context.Background()
	now := time.Now()
	if err := c.MarkFedSince(ctx, now.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	roCalls := func() int64 {
		var n atomic.Int64 // (ForEachSlave calls fn on the replicas at once)
		_ = c.rdb.(*redis.ClusterClient).ForEachSlave(ctx, func(ctx context.Context, r *redis.Client) error {
			info, _ := r.Info(ctx, "commandstats").Result()
			for _, line := range strings.Split(info, "\n") {
				// EVAL_RO too: a replica without the script gets it that way.
				for _, cmd := range []string{"cmdstat_evalsha_ro:calls=", "cmdstat_eval_ro:calls="} {
					if v, ok := strings.CutPrefix(line, cmd); ok {
						k, _ := strconv.Atoi(v[:strings.IndexByte(v, ',')])
						n.Add(int64(k))
					}
				}
			}
			return nil
		})
		return n.Load()
	}
	before := roCalls()
	for i := range 20 {
		e := ev(fmt.Sprint(i), "acme", "customer:5", fmt.Sprint("v", i), int64(i+1), now)
		if err := c.Apply(ctx, []store.Event{e}, nil); err != nil {
			t.Fatal(err)
		}
		evs, complete, err := c.Recent(store.WithPrimary(ctx), "acme", "customer:5", now.Add(-time.Minute), 100)
		if err != nil || !complete || len(evs) != i+1 {
			t.Fatalf("read-your-writes read after write %d: %d events, complete %v, %v", i, len(evs), complete, err)
		}
	}
	testenv.Eventually(t, "a replica to serve the plain read with every write", 10*time.Second, func() bool {
		evs, _, err := c.Recent(ctx, "acme", "customer:5", now.Add(-time.Minute), 100)
		return err == nil && len(evs) == 20
	})
	// Reads are spread over master and replicas at random, skipping a node
	// the client saw failing (a replica still syncing after another test's
	// failover): read until one has gone to a replica.
	testenv.Eventually(t, "a read to go to a replica", 20*time.Second, func() bool {
		for range 10 {
			if _, _, err := c.Recent(ctx, "acme", "customer:5", now.Add(-time.Minute), 100); err != nil {
				t.Fatal(err)
			}
		}
		return roCalls() > before
	})
}

// The change stream of an entity, on one Redis and on the cluster (it lives on
// the entity's slot): stored, updated and deleted, in order, each once; a
// reader starting from LastChange sees only what comes after; another
// entity's changes never appear.
func TestChangeStream(t *testing.T) {
	redisModes(t, func(t *testing.T, cfg Config) {
		c := newCache(t, cfg)
		ctx := context.Background()
		now := time.Now()
		start, err := c.LastChange(ctx, "acme", "customer:1")
		if err != nil || start != "0-0" {
			t.Fatalf("LastChange of a new entity: %q %v, want 0-0", start, err)
		}
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(c.Apply(ctx, []store.Event{ev("1", "acme", "customer:1", "first", 1, now)}, nil))
		must(c.Apply(ctx, []store.Event{ev("1", "acme", "customer:1", "second", 2, now), ev("9", "acme", "customer:2", "other", 1, now)}, nil))
		must(c.Apply(ctx, nil, []store.Removed{{Ref: store.Ref{Source: "tickets", Key: "1"}, Tenant: "acme", Entity: "customer:1", Version: 3}}))
		changes, err := c.Changes(ctx, "acme", "customer:1", start, 100, 100*time.Millisecond)
		must(err)
		var got []string
		for _, ch := range changes {
			got = append(got, fmt.Sprintf("%s %s v%d %s", ch.Op, ch.Event.Key, ch.Event.Version, ch.Event.Text))
		}
		if want := []string{"stored 1 v1 first", "updated 1 v2 second", "deleted 1 v3 "}; strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("changes %q, want %q", got, want)
		}
		last, err := c.LastChange(ctx, "acme", "customer:1")
		must(err)
		if last != changes[len(changes)-1].ID {
			t.Fatalf("LastChange %s, want the last change's id %s", last, changes[len(changes)-1].ID)
		}
		if more, err := c.Changes(ctx, "acme", "customer:1", last, 100, 100*time.Millisecond); err != nil || len(more) != 0 {
			t.Fatalf("changes after the last: %v %v, want none", more, err)
		}
		must(c.Apply(ctx, []store.Event{ev("2", "acme", "customer:1", "third", 1, now)}, nil))
		more, err := c.Changes(ctx, "acme", "customer:1", last, 100, time.Second)
		if err != nil || len(more) != 1 || more[0].Op != "stored" || more[0].Event.Text != "third" {
			t.Fatalf("the change after the last: %+v %v", more, err)
		}
	})
}

// A watermark never moves back, except when the stored one lies beyond the
// log end offset a publish reports: the topic was created again and its
// offsets restarted, and the old mark would answer after= for new records as
// already written.
func TestWatermarkResetWhenTheLogRestarted(t *testing.T) {
	redisModes(t, func(t *testing.T, cfg Config) {
		c := newCache(t, cfg)
		ctx := context.Background()
		at := time.Now().UTC().Truncate(time.Millisecond)
		mark := func(off, high int64) {
			t.Helper()
			if err := c.PublishWatermarks(ctx, []store.Watermark{{Topic: "t", Partition: 0, Offset: off, Time: at, High: high}}); err != nil {
				t.Fatal(err)
			}
			at = at.Add(time.Millisecond)
		}
		offset := func() int64 {
			t.Helper()
			ws, err := c.Watermarks(ctx, []string{"t"})
			if err != nil || len(ws) != 1 {
				t.Fatalf("%v %v", ws, err)
			}
			return ws[0].Offset
		}
		mark(5000, 5000)
		mark(4000, 0) // an older commit, log end unknown: kept
		if got := offset(); got != 5000 {
			t.Fatalf("moved back to %d without a log end offset", got)
		}
		mark(4000, 6000) // an older commit of a longer log: kept
		if got := offset(); got != 5000 {
			t.Fatalf("moved back to %d although the log holds the stored mark", got)
		}
		mark(3, 10) // the log now ends at 10: 5000 cannot be of this log
		if got := offset(); got != 3 {
			t.Fatalf("watermark %d, want 3 after the log restarted", got)
		}
		mark(2, 10) // and from there on forward only, as always
		if got := offset(); got != 3 {
			t.Fatalf("moved back to %d", got)
		}
	})
}

// ForgetPartitionsFrom removes every field of the partitions a topic no longer
// has, and nothing of the others.
func TestForgetPartitionsFrom(t *testing.T) {
	redisModes(t, func(t *testing.T, cfg Config) {
		c := newCache(t, cfg)
		ctx := context.Background()
		at := time.Now().UTC()
		var marks []store.Watermark
		for p := range int32(12) {
			marks = append(marks, store.Watermark{Topic: "t", Partition: p, Offset: 10, Time: at, High: 12, DeadLettered: 1})
		}
		if err := c.PublishWatermarks(ctx, marks); err != nil {
			t.Fatal(err)
		}
		n, err := c.ForgetPartitionsFrom(ctx, "t", 4)
		if err != nil || n != 8 {
			t.Fatalf("forgot %d (%v), want 8", n, err)
		}
		ws, err := c.Watermarks(ctx, []string{"t"})
		if err != nil || len(ws) != 4 || ws[3].Partition != 3 || ws[3].High != 12 || ws[3].DeadLettered != 1 {
			t.Fatalf("left: %+v %v", ws, err)
		}
		fields, err := c.rdb.HKeys(ctx, c.watermarkKey("t")).Result()
		if err != nil || len(fields) != 4*4 {
			t.Fatalf("fields left: %v %v, want the 4 kept partitions' 16", fields, err)
		}
		if n, err := c.ForgetPartitionsFrom(ctx, "t", 4); err != nil || n != 0 {
			t.Fatalf("again: forgot %d (%v), want 0", n, err)
		}
	})
}

// ForgetStaleWatermark removes only a watermark beyond the log end offset.
func TestForgetStaleWatermark(t *testing.T) {
	redisModes(t, func(t *testing.T, cfg Config) {
		c := newCache(t, cfg)
		ctx := context.Background()
		at := time.Now().UTC()
		if err := c.PublishWatermarks(ctx, []store.Watermark{{Topic: "t", Partition: 0, Offset: 5000, Time: at},
			{Topic: "t", Partition: 1, Offset: 7, Time: at}}); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			part   int32
			end    int64
			forgot bool
		}{{1, 7, false}, {1, 100, false}, {2, 10, false}, {0, 5000, false}, {0, 10, true}, {0, 10, false}} {
			got, err := c.ForgetStaleWatermark(ctx, "t", tc.part, tc.end)
			if err != nil || got != tc.forgot {
				t.Fatalf("partition %d, log end %d: forgot %v (%v), want %v", tc.part, tc.end, got, err, tc.forgot)
			}
		}
		ws, err := c.Watermarks(ctx, []string{"t"})
		if err != nil || len(ws) != 1 || ws[0].Partition != 1 || ws[0].Offset != 7 {
			t.Fatalf("left: %+v %v", ws, err)
		}
	})
}

// DropEvents (ingest reembed) empties every entity's events, in every slot of
// a cluster, and the markers that vouch for them, so the cache answers nothing
// alone until it is fed again; term statistics, change streams and watermarks
// stay. Tenants and entities with colons and braces are parsed by their
// length prefix.
func TestDropEvents(t *testing.T) {
	redisModes(t, func(t *testing.T, cfg Config) {
		cfg.TermStats = true
		c := newCache(t, cfg)
		ctx := context.Background()
		since := time.Now().Add(-time.Minute)
		if err := c.MarkFedSince(ctx, since.Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
		var ups []store.Event
		for i := range 1500 { // enough for acme's term statistics (MinStatsEvents sampled)
			tenant := []string{"acme", "a:b", "x}y"}[i%3]
			ups = append(ups, ev(fmt.Sprint("k", i), tenant, fmt.Sprintf("customer:{%d}", i%500), "Order shipped with the carrier", 1, time.Now()))
		}
		if err := c.Apply(ctx, ups, nil); err != nil {
			t.Fatal(err)
		}
		if err := c.PublishWatermarks(ctx, []store.Watermark{{Topic: "t", Partition: 0, Offset: 10, Time: time.Now()}}); err != nil {
			t.Fatal(err)
		}
		if got, complete := texts(t, c, "a:b", "customer:{1}", since); len(got) == 0 || !complete {
			t.Fatalf("before: %d events, complete %v", len(got), complete)
		}
		stats, err := c.TermStats(ctx, "acme", []string{"tickets"}, []string{"order"})
		if err != nil || stats["tickets"].N == 0 {
			t.Fatalf("no term statistics before: %v %+v", err, stats)
		}
		stream, err := c.LastChange(ctx, "acme", "customer:{0}")
		if err != nil || stream == "" {
			t.Fatalf("no change stream before: %v", err)
		}
		if err := c.DropEvents(ctx); err != nil {
			t.Fatal(err)
		}
		for _, u := range ups[:500] { // every entity (3 events each: under newCache's cap)
			if got, complete := texts(t, c, u.Tenant, u.Entity, since); len(got) != 0 || complete {
				t.Fatalf("%s %s after: %d events, complete %v", u.Tenant, u.Entity, len(got), complete)
			}
		}
		if st, err := c.TermStats(ctx, "acme", []string{"tickets"}, []string{"order"}); err != nil || st["tickets"].N != stats["tickets"].N {
			t.Errorf("term statistics after: %v %+v, want %+v", err, st, stats)
		}
		if last, err := c.LastChange(ctx, "acme", "customer:{0}"); err != nil || last != stream {
			t.Errorf("change stream after: %q %v, want %q", last, err, stream)
		}
		if wm, err := c.Watermarks(ctx, []string{"t"}); err != nil || len(wm) != 1 || wm[0].Offset != 10 {
			t.Errorf("watermarks after: %v %+v", err, wm)
		}
	})
}
