package rediscache

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis Cluster places a key on hash slot CRC16(tag) mod 16384, where tag is the
// part between the key's first "{" and the next "}" when that part is not
// empty, else the whole key. The cache keeps one "since" marker per slot, named
// with a hash tag chosen to land on that slot, so an entity's read script finds
// its marker on its own slot.
const numSlots = 16384

// keySlot is the cluster hash slot of key.
func keySlot(key string) int {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			key = key[i+1 : i+1+j]
		}
	}
	return int(crc16(key) % numSlots)
}

// crc16 is CRC-16/XMODEM (polynomial 0x1021), the checksum Redis Cluster uses.
func crc16(s string) uint16 {
	var crc uint16
	for i := 0; i < len(s); i++ {
		crc ^= uint16(s[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// slotTags[s] is a short string whose slot is s: the first of "0", "1", "2", …
// (base 36) to land there. Computed once, on first use in cluster mode (about
// 170,000 checksums).
var slotTags = sync.OnceValue(func() []string {
	tags := make([]string, numSlots)
	left := numSlots
	for i := 0; left > 0; i++ {
		t := strconv.FormatInt(int64(i), 36)
		if s := crc16(t) % numSlots; tags[s] == "" {
			tags[s] = t
			left--
		}
	}
	return tags
})

// sinceKey is the "since" marker that vouches for the entity keys tagged tag:
// the one marker of a single Redis, or the marker of tag's slot in a cluster.
func (c *Cache) sinceKey(tag string) string {
	if c.cfg.Mode != ModeCluster {
		return c.cfg.KeyPrefix + ":since"
	}
	return c.cfg.KeyPrefix + ":since:{" + slotTags()[keySlot(tag+":tl")] + "}"
}

// allSinceKeys are every marker: one, or one per slot.
func (c *Cache) allSinceKeys() []string {
	if c.cfg.Mode != ModeCluster {
		return []string{c.cfg.KeyPrefix + ":since"}
	}
	keys := make([]string, numSlots)
	for s, t := range slotTags() {
		keys[s] = c.cfg.KeyPrefix + ":since:{" + t + "}"
	}
	return keys
}

// markSince queues sinceScript on pipe for each marker: set to ms (unix
// milliseconds) everywhere (reset), or only where absent or void.
func markSince(ctx context.Context, pipe redis.Pipeliner, keys []string, ms int64, reset bool) {
	v, r := strconv.FormatInt(ms, 10), "0"
	if reset {
		r = "1"
	}
	for _, k := range keys {
		sinceScript.EvalSha(ctx, pipe, []string{k}, v, r)
	}
}

// markAll sets every marker (see markSince) in one pipeline, loading the
// scripts first.
func (c *Cache) markAll(ctx context.Context, t time.Time, reset bool) error {
	if err := c.loadScripts(ctx); err != nil {
		return err
	}
	pipe := c.rdb.Pipeline()
	markSince(ctx, pipe, c.allSinceKeys(), t.UnixMilli(), reset)
	_, err := pipe.Exec(ctx)
	return err
}

// MarkFedSince declares the cache complete since t in every slot (a tool that
// loaded it whole, like loadtest seed, says so).
func (c *Cache) MarkFedSince(ctx context.Context, t time.Time) error {
	return c.markAll(ctx, t, true)
}

// DropAll deletes every key under the cache's prefix, on every master of a
// cluster (a tool that reloads the cache from scratch, like loadtest seed).
func (c *Cache) DropAll(ctx context.Context) error {
	return c.drop(ctx, func(string) bool { return true })
}

// DropEvents deletes the cached events of every entity and the "since" markers
// that vouch for them, and keeps the rest (the entities' change streams, term
// statistics, watermarks): the cache is then as after a cold start (ADR 0004),
// and the API reads the store until ingest has fed it a window again.
// `ingest reembed` uses it: the cached events carry vectors of the model before.
func (c *Cache) DropEvents(ctx context.Context) error {
	entities, since := c.cfg.KeyPrefix+":{", c.cfg.KeyPrefix+":since"
	return c.drop(ctx, func(k string) bool {
		if strings.HasPrefix(k, since) {
			return true
		}
		// An entity's keys are <prefix>:{<len>:<tenant>:<entity>}…, a tenant's
		// <prefix>:{<len>:<tenant>}… (entityTag, statsKey); an entity's change
		// stream (…}:ch) holds no vectors.
		rest, ok := strings.CutPrefix(k, entities)
		if !ok || strings.HasSuffix(k, "}:ch") {
			return false
		}
		n, after, ok := strings.Cut(rest, ":")
		l, err := strconv.Atoi(n)
		return ok && err == nil && l < len(after) && after[l] == ':'
	})
}

// drop deletes the keys under the cache's prefix that match, on every master
// of a cluster.
func (c *Cache) drop(ctx context.Context, match func(key string) bool) error {
	drop := func(ctx context.Context, rdb redis.Cmdable) error {
		var cursor uint64
		for {
			keys, next, err := rdb.Scan(ctx, cursor, c.cfg.KeyPrefix+":*", 10000).Result()
			if err != nil {
				return err
			}
			pipe := rdb.Pipeline() // one key per command: keys of many slots
			for _, k := range keys {
				if match(k) {
					pipe.Unlink(ctx, k)
				}
			}
			if pipe.Len() > 0 {
				if _, err := pipe.Exec(ctx); err != nil {
					return err
				}
			}
			if cursor = next; cursor == 0 {
				return nil
			}
		}
	}
	if cc, ok := c.rdb.(*redis.ClusterClient); ok {
		return cc.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error { return drop(ctx, n) })
	}
	return drop(ctx, c.rdb)
}
