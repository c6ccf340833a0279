package rediscache

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/freshctx/freshctx/store"
)

// Watermarks, shared by ingest (writer) and every context API replica (readers):
//
//	<prefix>:wm:{<topic>}   hash: <partition> = "<offset>:<unix ms>"
//	<prefix>:wm             channel: "<topic>:<partition>:<offset>:<unix ms>" on every advance
//
// A watermark only moves forward (a script compares offsets, then times), so a
// process that takes a partition over from an older commit never moves it back.
// The one exception: a stored watermark beyond the log end offset that comes
// with a publish cannot belong to this log (the topic was deleted and created
// again, its offsets starting at 0), and is replaced; kept, it would tell every
// after= naming a new record that it is already written. A log end offset read
// a moment earlier than another process's advance can only move a watermark
// back, which makes a reader wait, never answer early.
//
// Beside each partition's watermark the hash keeps h<partition> (the log end
// offset when ingest last looked), w<partition> (when the watermark last
// advanced, unix ms) and d<partition> (records dead-lettered).
var watermarkScript = redis.NewScript(`
if ARGV[6] ~= '0' then redis.call('HSET', KEYS[1], 'h' .. ARGV[1], ARGV[6]) end
if ARGV[7] ~= '0' then redis.call('HINCRBY', KEYS[1], 'd' .. ARGV[1], ARGV[7]) end
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if cur then
  local i = string.find(cur, ':')
  local off, ts = tonumber(string.sub(cur, 1, i - 1)), tonumber(string.sub(cur, i + 1))
  local noff, nts, high = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[6])
  local stale = high > 0 and off > high
  if not stale and (noff < off or (noff == off and nts <= ts)) then return 0 end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ':' .. ARGV[3], 'w' .. ARGV[1], ARGV[8])
redis.call('PUBLISH', ARGV[5], ARGV[4])
return 1`)

func (c *Cache) watermarkKey(topic string) string { return c.cfg.KeyPrefix + ":wm:{" + topic + "}" }
func (c *Cache) watermarkChannel() string         { return c.cfg.KeyPrefix + ":wm" }

// PublishWatermarks records how far each partition is durable and wakes waiters.
func (c *Cache) PublishWatermarks(ctx context.Context, marks []store.Watermark) error {
	pipe := c.rdb.Pipeline()
	for _, w := range marks {
		p, off, ts := strconv.Itoa(int(w.Partition)), strconv.FormatInt(w.Offset, 10), strconv.FormatInt(w.Time.UnixMilli(), 10)
		// The channel is an argument, not a key: the script touches one slot.
		watermarkScript.Eval(ctx, pipe, []string{c.watermarkKey(w.Topic)}, p, off, ts, w.Topic+":"+p+":"+off+":"+ts, c.watermarkChannel(),
			strconv.FormatInt(w.High, 10), strconv.FormatInt(w.DeadLettered, 10), strconv.FormatInt(c.now().UnixMilli(), 10))
	}
	_, err := pipe.Exec(ctx)
	return err
}

// forgetStaleScript removes a partition's watermark that lies beyond the log
// end offset ARGV[2]: it cannot be of this log.
var forgetStaleScript = redis.NewScript(`
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur then return 0 end
local i = string.find(cur, ':')
if tonumber(string.sub(cur, 1, i - 1)) <= tonumber(ARGV[2]) then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1], 'w' .. ARGV[1])
redis.call('HSET', KEYS[1], 'h' .. ARGV[1], ARGV[2])
return 1`)

// ForgetStaleWatermark removes topic/partition's watermark when it lies beyond
// the partition's log end offset: the topic was deleted and created again, and
// the old mark would answer after= for the new log's records as already
// written. Without a watermark a reader waits for the next publish. It reports
// whether it removed one.
func (c *Cache) ForgetStaleWatermark(ctx context.Context, topic string, partition int32, logEnd int64) (bool, error) {
	n, err := forgetStaleScript.Run(ctx, c.rdb, []string{c.watermarkKey(topic)}, strconv.Itoa(int(partition)), strconv.FormatInt(logEnd, 10)).Int()
	return n == 1, err
}

// forgetPartitionsScript removes every field of the partitions numbered ARGV[1]
// and above (the watermark, h, w and d): the topic has fewer partitions now.
var forgetPartitionsScript = redis.NewScript(`
local from = tonumber(ARGV[1])
local gone = 0
local fields = redis.call('HKEYS', KEYS[1])
for _, f in ipairs(fields) do
  local p = tonumber(string.match(f, '^[hwd]?(%d+)$'))
  if p and p >= from then
    redis.call('HDEL', KEYS[1], f)
    if string.match(f, '^%d+$') then gone = gone + 1 end
  end
end
return gone`)

// ForgetPartitionsFrom removes the watermarks of topic's partitions numbered
// count and above: the topic was deleted and created again with fewer
// partitions (or another run wrote to the same names), and a partition that no
// longer exists never advances, so every answer's fresh_through (the oldest
// watermark) would stay where it stopped. It returns how many it removed.
func (c *Cache) ForgetPartitionsFrom(ctx context.Context, topic string, count int32) (int, error) {
	return forgetPartitionsScript.Run(ctx, c.rdb, []string{c.watermarkKey(topic)}, strconv.Itoa(int(count))).Int()
}

// Watermarks returns the watermarks of every partition of topics.
func (c *Cache) Watermarks(ctx context.Context, topics []string) ([]store.Watermark, error) {
	pipe := c.rdb.Pipeline()
	cmds := make([]*redis.MapStringStringCmd, len(topics))
	for i, t := range topics {
		cmds[i] = pipe.HGetAll(ctx, c.watermarkKey(t))
	}
	if _, err := pipe.Exec(ctx); err != nil && err != redis.Nil {
		return nil, err
	}
	var out []store.Watermark
	for i, t := range topics {
		fields := cmds[i].Val()
		num := func(name string) int64 { n, _ := strconv.ParseInt(fields[name], 10, 64); return n }
		for p, v := range fields {
			part, err1 := strconv.Atoi(p)
			off, ts, ok := strings.Cut(v, ":")
			o, err2 := strconv.ParseInt(off, 10, 64)
			ms, err3 := strconv.ParseInt(ts, 10, 64)
			if err1 != nil || !ok || err2 != nil || err3 != nil {
				continue // h, w and d fields
			}
			w := store.Watermark{Topic: t, Partition: int32(part), Offset: o, Time: time.UnixMilli(ms).UTC(),
				High: num("h" + p), DeadLettered: num("d" + p)}
			if at := num("w" + p); at > 0 {
				w.WrittenAt = time.UnixMilli(at).UTC()
			}
			out = append(out, w)
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Topic != out[b].Topic {
			return out[a].Topic < out[b].Topic
		}
		return out[a].Partition < out[b].Partition
	})
	return out, nil
}

// Notifier wakes everyone waiting for a watermark to move: one subscription per
// process, whatever the number of waiting requests.
type Notifier struct {
	mu sync.Mutex
	ch chan struct{}
}

// C returns a channel closed at the next watermark change. Take it before
// reading the watermarks, so a change in between is not missed.
func (n *Notifier) C() <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.ch
}

func (n *Notifier) wake() {
	n.mu.Lock()
	close(n.ch)
	n.ch = make(chan struct{})
	n.mu.Unlock()
}

// WatchWatermarks subscribes to watermark changes until ctx ends. While the
// subscription is down (Redis restarting), waiters are woken every 100 ms, so
// they poll instead of missing a change.
func (c *Cache) WatchWatermarks(ctx context.Context) *Notifier {
	n := &Notifier{ch: make(chan struct{})}
	go func() {
		for ctx.Err() == nil {
			ps := c.rdb.Subscribe(ctx, c.watermarkChannel())
			if _, err := ps.Receive(ctx); err == nil {
				n.wake() // changes made before the subscription: look again
				msgs := ps.Channel()
			recv:
				for {
					select {
					case <-ctx.Done():
						break recv
					case _, ok := <-msgs:
						if !ok {
							break recv
						}
						n.wake()
					}
				}
			}
			ps.Close()
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
				n.wake()
			}
		}
	}()
	return n
}
