package rediscache

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/freshctx/freshctx/store"
)

// LastChange returns the id of an entity's newest kept change ("0-0" when none):
// where a new subscription starts.
func (c *Cache) LastChange(ctx context.Context, tenant, entity string) (string, error) {
	msgs, err := c.rdb.XRevRangeN(ctx, c.entityTag(tenant, entity)+":ch", "+", "-", 1).Result()
	if err != nil {
		return "", err
	}
	if len(msgs) == 0 {
		return "0-0", nil
	}
	return msgs[0].ID, nil
}

// Changes returns up to count of the entity's changes after id, oldest first,
// waiting up to block for the first one (none when block passes). It returns
// store.ErrChangesTrimmed when changes after id may have been dropped. Blocking reads
// use a pool of their own (Subscriptions), so they never hold the connections
// answers need.
func (c *Cache) Changes(ctx context.Context, tenant, entity, id string, count int, block time.Duration) ([]store.Change, error) {
	key := c.entityTag(tenant, entity) + ":ch"
	if id != "0-0" {
		// The changes after id are all kept only if the oldest kept one is at
		// or before it (else some may have been trimmed, or the stream expired).
		first, err := c.rdb.XRangeN(ctx, key, "-", "+", 1).Result()
		if err != nil {
			return nil, err
		}
		if len(first) == 0 || streamIDLess(id, first[0].ID) {
			return nil, store.ErrChangesTrimmed
		}
	}
	res, err := c.blocking().XRead(ctx, &redis.XReadArgs{Streams: []string{key, id}, Count: int64(count), Block: block}).Result()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []store.Change
	for _, s := range res {
		for _, m := range s.Messages {
			ch, err := changeOf(m)
			if err != nil {
				return out, err
			}
			ch.Event.Tenant, ch.Event.Entity = tenant, entity
			out = append(out, ch)
		}
	}
	return out, nil
}

func changeOf(m redis.XMessage) (store.Change, error) {
	op, _ := m.Values["op"].(string)
	member, _ := m.Values["m"].(string)
	data, _ := m.Values["d"].(string)
	var ce cachedEvent
	if err := json.Unmarshal([]byte(data), &ce); err != nil {
		return store.Change{}, fmt.Errorf("decoding change %s: %w", m.ID, err)
	}
	return store.Change{ID: m.ID, Op: op, Event: ce.event(member)}, nil
}

// streamIDLess compares stream ids "ms-seq".
func streamIDLess(a, b string) bool {
	var am, as, bm, bs uint64
	fmt.Sscanf(a, "%d-%d", &am, &as)
	fmt.Sscanf(b, "%d-%d", &bm, &bs)
	return am < bm || am == bm && as < bs
}

// blocking returns the client for blocking stream reads: a second pool, sized
// for the subscriptions a process allows (SetSubscriptions), created on first use.
func (c *Cache) blocking() redis.UniversalClient {
	c.blockOnce.Do(func() {
		o := c.opts
		o.PoolSize = max(c.subscriptions, 1)
		o.ReadTimeout = -1 // blocking reads set their own
		c.block = redis.NewUniversalClient(&o)
	})
	return c.block
}

// SetSubscriptions sizes the pool of blocking reads: at most n at once.
func (c *Cache) SetSubscriptions(n int) { c.subscriptions = n }
