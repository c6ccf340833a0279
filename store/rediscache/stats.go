package rediscache

import (
	"context"
	"hash/fnv"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/freshctx/freshctx/relevance"
	"github.com/freshctx/freshctx/store"
)

// Term statistics for the ranking's BM25, per tenant and source, kept beside the
// cache (one hash per tenant and source, under the tenant's hash tag):
//
//	<prefix>:{<len(tenant)>:<tenant>}:df:<source>   hash: "#n" events, "#len" terms, <term> events with it
//
// Ingest counts a sample of the events it writes: those whose (source, key)
// hashes into 1 of StatsSample buckets. Sampling keeps the ratios BM25's IDF uses
// (df/n) while it costs Redis a fraction of a command per event. An update of a
// sampled event counts again and deletes are not subtracted: the statistics
// describe what a source writes, approximately, which is all IDF needs.
const StatsSample = 8

// statsKey is the statistics hash of a tenant's source.
func (c *Cache) statsKey(tenant, source string) string {
	return c.cfg.KeyPrefix + ":{" + strconv.Itoa(len(tenant)) + ":" + tenant + "}:df:" + source
}

func sampled(e *store.Event) bool {
	h := fnv.New32a()
	h.Write([]byte(e.Source))
	h.Write([]byte{0})
	h.Write([]byte(e.Key))
	return h.Sum32()%StatsSample == 0
}

// recordStats adds a sampled event's terms to its tenant's source statistics.
func (c *Cache) recordStats(ctx context.Context, pipe redis.Pipeliner, e *store.Event) {
	if !c.cfg.TermStats || !sampled(e) {
		return
	}
	a := relevance.Analyze(e.Text)
	key := c.statsKey(e.Tenant, e.Source)
	pipe.HIncrBy(ctx, key, "#n", 1)
	pipe.HIncrBy(ctx, key, "#len", int64(len(a.Terms)))
	seen := make(map[string]bool, len(a.Terms))
	for _, t := range a.Terms {
		if !seen[t] {
			seen[t] = true
			pipe.HIncrBy(ctx, key, t, 1)
		}
	}
}

// MinStatsEvents is how many sampled events a source needs before its
// statistics are used; below it the ranking takes its statistics from the
// candidates themselves.
const MinStatsEvents = 32

// TermStats reads the statistics of each source for terms, in one round trip.
// Sources with too few sampled events are left out.
func (c *Cache) TermStats(ctx context.Context, tenant string, sources, terms []string) (map[string]relevance.SourceStats, error) {
	pipe := c.rdb.Pipeline()
	fields := append([]string{"#n", "#len"}, terms...)
	cmds := make([]*redis.SliceCmd, len(sources))
	for i, s := range sources {
		cmds[i] = pipe.HMGet(ctx, c.statsKey(tenant, s), fields...)
	}
	if _, err := pipe.Exec(ctx); err != nil && err != redis.Nil {
		return nil, err
	}
	out := make(map[string]relevance.SourceStats, len(sources))
	for i, s := range sources {
		vals, err := cmds[i].Result()
		if err != nil || len(vals) != len(fields) {
			continue
		}
		num := func(v any) float64 {
			str, _ := v.(string)
			f, _ := strconv.ParseFloat(str, 64)
			return f
		}
		n := num(vals[0])
		if n < MinStatsEvents {
			continue
		}
		st := relevance.SourceStats{N: n, AvgLen: num(vals[1]) / n, DF: make(map[string]float64, len(terms))}
		for j, t := range terms {
			st.DF[t] = num(vals[2+j])
		}
		out[s] = st
	}
	return out, nil
}
