// Package rediscache keeps each entity's recent events in Redis, so the context
// API can answer the common "last minutes" query without touching the store.
//
// Layout, per tenant and entity (one hash tag, so Redis Cluster keeps an entity on
// one slot):
//
//	<prefix>:{<len(tenant)>:<tenant>:<entity>}:tl          sorted set: member = source/key, score = event time (ms)
//	<prefix>:{<len(tenant)>:<tenant>:<entity>}:ev:<member> hash: v = version (20 digits, sign bit flipped), d = event JSON
//	                                                        without the vector, e = the vector (little-endian float32s),
//	                                                        a = the text's lexical analysis (relevance.EncodeAnalysis), x = 1 if deleted
//
// Both expire after the cache window. Writes run a Lua script that compares
// versions as fixed-width strings (Lua numbers lose int64 precision), so a replayed
// older change never overwrites a newer one and a delete leaves a marker.
//
// Completeness: the cache can only answer a window alone if it has been fed
// without gaps since before the window began. Ingest sets a "since" marker when
// it starts feeding (if absent) and resets it to "now" after any failed cache
// write; a Redis restart loses it. [Cache.Recent] reports whether the cache
// covers the window; when it does not, the caller reads the store. With one
// Redis (or Sentinel) the marker is one key, <prefix>:since. In Redis Cluster
// there is one per hash slot, <prefix>:since:{<tag of the slot>}, so the read
// script touches only the entity's slot and no key is written by everyone
// (slots.go).
package rediscache

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/redis/go-redis/v9"

	"github.com/freshctx/freshctx/internal/lewords"
	"github.com/freshctx/freshctx/relevance"
	"github.com/freshctx/freshctx/store"
)

// Config configures the cache.
type Config struct {
	// Mode is single (one Redis at Addr), cluster (Redis Cluster; Addrs are seed
	// nodes) or sentinel (Addrs are Sentinels watching MasterName). Default:
	// sentinel when MasterName is set, cluster when Addrs is, else single.
	Mode string `yaml:"mode"`
	// Addr is host:port of a single Redis.
	Addr string `yaml:"addr"`
	// Addrs are the cluster's seed nodes or the Sentinels (host:port each).
	Addrs []string `yaml:"addrs"`
	// MasterName is the Sentinel master set's name (mode sentinel).
	MasterName string `yaml:"master_name"`
	// Username (Redis 6 ACL) and Password for AUTH; the password usually comes
	// from FRESHCTX_REDIS_PASSWORD. Sentinels use the same credentials.
	Username string `yaml:"username"`
	Password string `yaml:"password"`
	// TLS to Redis (and Sentinels).
	TLS TLS `yaml:"tls"`
	// ReadFromReplicas sends the API's cache reads to replicas (modes cluster
	// and sentinel). A replica may lag its master by milliseconds, so such a
	// read can miss the newest writes; a read-your-writes request (after=,
	// fresh_through=) always reads the master. Off by default.
	ReadFromReplicas bool `yaml:"read_from_replicas"`
	// DB is the Redis database number (single and sentinel only). Default 0.
	DB int `yaml:"db"`
	// KeyPrefix starts every key. Default KeyPrefixDefault.
	KeyPrefix string `yaml:"key_prefix"`
	// Window is how far back the cache keeps events. Default WindowDefault.
	Window time.Duration `yaml:"window"`
	// MaxPerEntity caps the events kept per entity (newest win). Default MaxPerEntityDefault.
	MaxPerEntity int `yaml:"max_per_entity"`
	// ChangesPerEntity is how many of an entity's newest changes (stored,
	// updated, deleted) a Redis stream keeps for live subscribers
	// (GET /v1/entities/{entity}/stream), who resume from it after a
	// reconnect; 0 keeps none. Default ChangesPerEntityDefault. The stream
	// expires with the cache window.
	ChangesPerEntity *int `yaml:"changes_per_entity"`
	// TermStats makes ingest keep BM25 term statistics per tenant and source from
	// a sample of what it writes (see stats.go). Off by default: only
	// api.corpus_idf > 0 reads them, and recording costs ingest an analysis per
	// sampled event.
	TermStats bool `yaml:"term_stats"`
}

// TLS configures TLS to Redis.
type TLS struct {
	Enabled bool `yaml:"enabled"`
	// CAFile verifies the server's certificate (default: the system's roots).
	CAFile string `yaml:"ca_file"`
	// ServerName overrides the name checked in the certificate.
	ServerName string `yaml:"server_name"`
	// CertFile and KeyFile: a client certificate (mutual TLS), optional.
	CertFile string `yaml:"cert_file"`
	KeyFile  string `yaml:"key_file"`
}

// Modes of Config.Mode.
const (
	ModeSingle   = "single"
	ModeCluster  = "cluster"
	ModeSentinel = "sentinel"
)

const (
	KeyPrefixDefault    = "fc"
	WindowDefault       = time.Hour
	MaxPerEntityDefault = 500
	// ChangesPerEntityDefault is the default of Config.ChangesPerEntity.
	ChangesPerEntityDefault = 100
)

// WithDefaults fills unset fields.
func (c Config) WithDefaults() Config {
	if c.Mode == "" {
		switch {
		case c.MasterName != "":
			c.Mode = ModeSentinel
		case len(c.Addrs) > 0:
			c.Mode = ModeCluster
		default:
			c.Mode = ModeSingle
		}
	}
	if c.KeyPrefix == "" {
		c.KeyPrefix = KeyPrefixDefault
	}
	if c.Window == 0 {
		c.Window = WindowDefault
	}
	if c.MaxPerEntity == 0 {
		c.MaxPerEntity = MaxPerEntityDefault
	}
	if c.ChangesPerEntity == nil {
		n := ChangesPerEntityDefault
		c.ChangesPerEntity = &n
	}
	return c
}

// Where names the Redis deployment for logs: its mode and addresses.
func (c Config) Where() string {
	if c.Mode == ModeSingle || c.Mode == "" {
		return c.Addr
	}
	return c.Mode + " " + strings.Join(c.Addrs, ",")
}

// Validate reports the first invalid field.
func (c Config) Validate() error {
	switch c.Mode {
	case ModeSingle:
		if c.Addr == "" {
			return errors.New("addr: required (host:port) with mode single; for Redis Cluster or Sentinel set addrs")
		}
	case ModeCluster, ModeSentinel:
		if len(c.Addrs) == 0 {
			return fmt.Errorf("addrs: required with mode %s (the %s)", c.Mode, map[string]string{ModeCluster: "cluster's seed nodes", ModeSentinel: "Sentinels"}[c.Mode])
		}
		if c.Addr != "" {
			return fmt.Errorf("addr: not used with mode %s; list the nodes in addrs", c.Mode)
		}
		if c.Mode == ModeSentinel && c.MasterName == "" {
			return errors.New("master_name: required with mode sentinel")
		}
		if c.Mode == ModeCluster && (c.DB != 0 || c.MasterName != "") {
			return errors.New("db and master_name: not used with mode cluster")
		}
		if c.ReadFromReplicas && c.Mode == ModeSingle {
			return errors.New("read_from_replicas: needs mode cluster or sentinel")
		}
	default:
		return fmt.Errorf("mode: %q is not single, cluster or sentinel", c.Mode)
	}
	switch {
	case !c.TLS.Enabled && (c.TLS.CAFile != "" || c.TLS.ServerName != "" || c.TLS.CertFile != "" || c.TLS.KeyFile != ""):
		return errors.New("tls: set enabled: true to use ca_file, server_name, cert_file or key_file")
	case (c.TLS.CertFile == "") != (c.TLS.KeyFile == ""):
		return errors.New("tls: cert_file and key_file go together")
	case c.Window < time.Minute:
		return errors.New("window: must be at least 1m")
	case c.MaxPerEntity < 1:
		return errors.New("max_per_entity: must be positive")
	case c.ChangesPerEntity != nil && *c.ChangesPerEntity < 0:
		return errors.New("changes_per_entity: must not be negative (0: no change streams)")
	}
	return nil
}

// Cache is the Redis recent-events cache. It is safe for concurrent use.
type Cache struct {
	rdb  redis.UniversalClient
	opts redis.UniversalOptions // for the blocking pool (changes.go)
	// The pool of blocking stream reads, created on first use.
	blockOnce     sync.Once
	block         redis.UniversalClient
	subscriptions int
	cfg           Config
	dirty         atomic.Bool // a write failed: reset the since marker before the next write
	now           func() time.Time
}

// New connects to Redis: one server, a Redis Cluster or a Sentinel-watched
// master (cfg.Mode). It does not fail when Redis is down: the cache is an
// accelerator, and callers fall back to the store. It fails only on a TLS file
// that cannot be read.
func New(cfg Config) (*Cache, error) {
	cfg = cfg.WithDefaults()
	tlsConfig, err := cfg.TLS.config()
	if err != nil {
		return nil, fmt.Errorf("redis.tls: %w", err)
	}
	opts := &redis.UniversalOptions{
		Addrs: cfg.Addrs, Username: cfg.Username, Password: cfg.Password, DB: cfg.DB, TLSConfig: tlsConfig,
		DialTimeout: 500 * time.Millisecond, ReadTimeout: 500 * time.Millisecond, WriteTimeout: 500 * time.Millisecond,
		MaxRetries: 1, DialerRetries: 1, // fail fast: the store answers meanwhile
	}
	switch cfg.Mode {
	case ModeSingle:
		opts.Addrs = []string{cfg.Addr}
	case ModeCluster:
		opts.IsClusterMode = true
		opts.MaxRetries = 3 // a MOVED or TRYAGAIN while slots move is followed, not failed
		opts.ReadOnly, opts.RouteRandomly = cfg.ReadFromReplicas, cfg.ReadFromReplicas
	case ModeSentinel:
		opts.MasterName, opts.SentinelUsername, opts.SentinelPassword = cfg.MasterName, cfg.Username, cfg.Password
		opts.RouteRandomly = cfg.ReadFromReplicas // a failover cluster client: reads spread over master and replicas
	}
	return &Cache{rdb: redis.NewUniversalClient(opts), opts: *opts, cfg: cfg, now: time.Now, subscriptions: 16}, nil
}

// MustNew is New for configurations without TLS files (tests, tools).
func MustNew(cfg Config) *Cache {
	c, err := New(cfg)
	if err != nil {
		panic(err)
	}
	return c
}

func (t TLS) config() (*tls.Config, error) {
	if !t.Enabled {
		return nil, nil
	}
	c := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: t.ServerName}
	if t.CAFile != "" {
		pem, err := os.ReadFile(t.CAFile)
		if err != nil {
			return nil, fmt.Errorf("ca_file: %w", err)
		}
		c.RootCAs = x509.NewCertPool()
		if !c.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("ca_file: %s holds no PEM certificate", t.CAFile)
		}
	}
	if t.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("cert_file, key_file: %w", err)
		}
		c.Certificates = []tls.Certificate{cert}
	}
	return c, nil
}

// failed follows a failed command: in a cluster, the slot map is read again, so
// a failover's new master is found without waiting for a redirect from the old
// one (which may be dead).
func (c *Cache) failed() {
	if cc, ok := c.rdb.(*redis.ClusterClient); ok {
		cc.ReloadState(context.Background())
	}
}

// Close closes the connection pools.
func (c *Cache) Close() error {
	if c.block != nil {
		c.block.Close()
	}
	return c.rdb.Close()
}

// Ping checks Redis answers.
func (c *Cache) Ping(ctx context.Context) error { return c.rdb.Ping(ctx).Err() }

// Window returns how far back the cache keeps events.
func (c *Cache) Window() time.Duration { return c.cfg.Window }

func (c *Cache) entityTag(tenant, entity string) string {
	return c.cfg.KeyPrefix + ":{" + strconv.Itoa(len(tenant)) + ":" + tenant + ":" + entity + "}"
}

func member(r store.Ref) string { return r.Source + "/" + r.Key }

// padVersion renders v so that string order is numeric order over all of int64
// (backfilled versions are negative, ADR 0007): the sign bit flipped, as 20 digits.
func padVersion(v int64) string {
	return fmt.Sprintf("%020d", uint64(v)^(1<<63))
}

// upsertScript: KEYS = timeline, body, change stream. ARGV = version, score,
// member, data, body TTL ms, timeline TTL ms, cutoff score, max entries,
// vector, change stream length (0: none), the text's encoded analysis.
var upsertScript = redis.NewScript(`
local cur = redis.call('HMGET', KEYS[2], 'v', 'x')
if cur[1] and (cur[1] > ARGV[1] or (cur[1] == ARGV[1] and cur[2] == '1')) then return 0 end
if cur[1] ~= ARGV[1] and tonumber(ARGV[10]) > 0 then
  local op = 'stored'
  if cur[1] and cur[2] ~= '1' then op = 'updated' end
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[10], '*', 'op', op, 'm', ARGV[3], 'd', ARGV[4])
  redis.call('PEXPIRE', KEYS[3], ARGV[6])
end
redis.call('HSET', KEYS[2], 'v', ARGV[1], 'd', ARGV[4], 'e', ARGV[9], 'a', ARGV[11], 'x', '0')
redis.call('PEXPIRE', KEYS[2], ARGV[5])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[7])
local n = redis.call('ZCARD', KEYS[1])
if n > tonumber(ARGV[8]) then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, n - tonumber(ARGV[8]) - 1) end
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return 1`)

// deleteScript: KEYS = timeline, body, change stream. ARGV = version, member,
// marker TTL ms, change stream length (0: none), the change's JSON.
var deleteScript = redis.NewScript(`
local cur = redis.call('HMGET', KEYS[2], 'v', 'x')
if cur[1] and cur[1] > ARGV[1] then return 0 end
if cur[2] ~= '1' and tonumber(ARGV[4]) > 0 then
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[4], '*', 'op', 'deleted', 'm', ARGV[2], 'd', ARGV[5])
  redis.call('PEXPIRE', KEYS[3], ARGV[3])
end
redis.call('HSET', KEYS[2], 'v', ARGV[1], 'x', '1')
redis.call('HDEL', KEYS[2], 'd', 'e', 'a')
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('ZREM', KEYS[1], ARGV[2])
return 1`)

// cachedEvent is the body stored per event.
type cachedEvent struct {
	ID      string           `json:"id"`
	TimeUS  int64            `json:"t"`
	Text    string           `json:"text"`
	Attrs   map[string]any   `json:"attrs,omitempty"`
	Version int64            `json:"ver"`
	Prov    store.Provenance `json:"p"`
	Context string           `json:"cx,omitempty"`
	Expires int64            `json:"exp,omitempty"` // Unix µs when its TTL passes; 0: never
}

func cachedEventOf(e *store.Event) cachedEvent {
	ce := cachedEvent{ID: e.ID, TimeUS: e.Time.UnixMicro(), Text: e.Text, Attrs: e.Attrs, Version: e.Version, Prov: e.Provenance,
		Context: e.Context}
	if !e.ExpiresAt.IsZero() {
		ce.Expires = e.ExpiresAt.UnixMicro()
	}
	return ce
}

// event is the cached body as an event of member src/key (without tenant,
// entity and vector).
func (ce *cachedEvent) event(member string) store.Event {
	src, key, _ := strings.Cut(member, "/")
	e := store.Event{Source: src, Key: key, ID: ce.ID, Text: ce.Text, Attrs: ce.Attrs, Version: ce.Version, Provenance: ce.Prov,
		Context: ce.Context}
	if ce.TimeUS != 0 {
		e.Time = time.UnixMicro(ce.TimeUS).UTC()
	}
	if ce.Expires != 0 {
		e.ExpiresAt = time.UnixMicro(ce.Expires).UTC()
	}
	return e
}

// Apply writes applied upserts and removals in one pipeline. On failure it marks
// the cache incomplete (the next successful Apply resets the since marker), so
// readers fall back to the store instead of missing events.
func (c *Cache) Apply(ctx context.Context, upserts []store.Event, removed []store.Removed) error {
	if len(upserts)+len(removed) == 0 {
		return nil
	}
	for attempt := 0; ; attempt++ {
		pipe := c.rdb.Pipeline()
		n, err := c.queue(ctx, pipe, upserts, removed)
		if err != nil {
			return err
		}
		_, err = pipe.Exec(ctx)
		if isNoScript(err) && attempt == 0 {
			// A restarted node (or a new cluster master) has no scripts: load them
			// everywhere and send the whole write again (Exec empties the pipeline).
			if err = c.loadScripts(ctx); err == nil {
				continue
			}
		}
		if err != nil {
			c.dirty.Store(true)
			c.failed()
			return fmt.Errorf("writing %d cache entries: %w", n, err)
		}
		c.dirty.Store(false)
		return nil
	}
}

// queue queues a write's commands on pipe and returns how many entries it writes.
func (c *Cache) queue(ctx context.Context, pipe redis.Pipeliner, upserts []store.Event, removed []store.Removed) (int, error) {
	now := c.now()
	cutoff := now.Add(-c.cfg.Window)
	if c.dirty.Load() {
		// Events may be missing from before now, in any slot: the cache covers
		// windows from here on.
		markSince(ctx, pipe, c.allSinceKeys(), now.UnixMilli(), true)
	} else {
		// A marker lost with a restarted node is set again from now.
		markSince(ctx, pipe, c.touchedSinceKeys(upserts, removed), now.UnixMilli(), false)
	}
	windowMS := c.cfg.Window.Milliseconds()
	n := 0
	for i := range upserts {
		e := &upserts[i]
		c.recordStats(ctx, pipe, e)
		if e.Time.Before(cutoff) {
			continue // already out of the window
		}
		data, err := json.Marshal(cachedEventOf(e))
		if err != nil {
			return 0, fmt.Errorf("encoding event %s: %w", member(e.Ref()), err)
		}
		tag := c.entityTag(e.Tenant, e.Entity)
		m := member(e.Ref())
		ttl := e.Time.Add(c.cfg.Window).Sub(now).Milliseconds() + 1
		upsertScript.EvalSha(ctx, pipe, []string{tag + ":tl", tag + ":ev:" + m, tag + ":ch"},
			padVersion(e.Version), e.Time.UnixMilli(), m, data, ttl, windowMS, cutoff.UnixMilli(), c.cfg.MaxPerEntity, encodeVector(e.Embedding),
			*c.cfg.ChangesPerEntity, relevance.EncodeAnalysis(e.Text))
		n++
	}
	for _, r := range removed {
		tag := c.entityTag(r.Tenant, r.Entity)
		m := member(r.Ref)
		gone, _ := json.Marshal(cachedEvent{Version: r.Version})
		deleteScript.EvalSha(ctx, pipe, []string{tag + ":tl", tag + ":ev:" + m, tag + ":ch"}, padVersion(r.Version), m, windowMS,
			*c.cfg.ChangesPerEntity, gone)
		n++
	}
	return n, nil
}

func (c *Cache) loadScripts(ctx context.Context) error {
	for _, s := range []*redis.Script{upsertScript, deleteScript, readScript, sinceScript} {
		if err := s.Load(ctx, c.rdb).Err(); err != nil {
			return err
		}
	}
	return nil
}

func isNoScript(err error) bool { return err != nil && strings.HasPrefix(err.Error(), "NOSCRIPT") }

// readScript reads a window in one round trip. KEYS = timeline, since marker.
// ARGV = min score, limit, body key prefix. It returns the since marker's time
// ("" when absent or void, see sinceScript), the
// timeline's size, the oldest score, then member, d, e, a for each event, newest first.
// Body keys share the timeline's hash tag, so in Redis Cluster they are on its slot.
var readScript = redis.NewScript(`
local m = redis.call('GET', KEYS[2]) or ''
local sep = string.find(m, '|', 1, true)
local since = ''
if sep and string.sub(m, sep + 1) == string.match(redis.call('INFO', 'replication'), 'master_replid:(%w+)') then
  since = string.sub(m, 1, sep - 1)
end
local out = {since, redis.call('ZCARD', KEYS[1])}
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
out[3] = oldest[2] or ''
local ids = redis.call('ZREVRANGEBYSCORE', KEYS[1], '+inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, m in ipairs(ids) do
  local b = redis.call('HMGET', ARGV[3] .. m, 'd', 'e', 'a')
  out[#out + 1] = m
  out[#out + 1] = b[1] or ''
  out[#out + 1] = b[2] or ''
  out[#out + 1] = b[3] or ''
end
return out`)

// sinceScript maintains a "since" marker: "<unix ms>|<replication id of the
// master that holds it>". KEYS = marker. ARGV = unix ms, "1" to reset. It sets
// the marker when asked to reset, when it is absent (a restarted node lost it),
// or when it was written under another replication history: a replica promoted
// by a failover has a new replication id, and may have lost writes its old
// master acknowledged, so it vouches only from now on. readScript trusts a
// marker only under the current replication id.
var sinceScript = redis.NewScript(`
local id = string.match(redis.call('INFO', 'replication'), 'master_replid:(%w+)')
local cur = redis.call('GET', KEYS[1])
if ARGV[2] ~= '1' and cur then
  local sep = string.find(cur, '|', 1, true)
  if sep and string.sub(cur, sep + 1) == id then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. id)
return 1`)

// Recent returns an entity's cached events at or after since, newest first, at most
// limit, and whether they cover the whole window. When complete is false the
// events may be a subset (the cache was not fed for the whole window, or the
// per-entity cap pushed some out) and the caller should read the store.
func (c *Cache) Recent(ctx context.Context, tenant, entity string, since time.Time, limit int) (events []store.Event, complete bool, err error) {
	tag := c.entityTag(tenant, entity)
	run := readScript.Run
	if c.cfg.ReadFromReplicas && !store.NeedsPrimary(ctx) {
		run = readScript.RunRO // EVALSHA_RO: routed to a replica
	}
	res, err := run(ctx, c.rdb, []string{tag + ":tl", c.sinceKey(tag)},
		strconv.FormatInt(since.UnixMilli(), 10), limit, tag+":ev:").Slice()
	if err != nil {
		c.failed()
		return nil, false, fmt.Errorf("reading cache: %w", err)
	}
	if len(res) < 3 {
		return nil, false, fmt.Errorf("reading cache: short reply")
	}
	str := func(v any) string { s, _ := v.(string); return s }
	fedSince, err := strconv.ParseInt(str(res[0]), 10, 64)
	complete = err == nil && fedSince <= since.UnixMilli() && c.now().Sub(since) <= c.cfg.Window
	card, _ := res[1].(int64)
	if card >= int64(c.cfg.MaxPerEntity) {
		// The per-entity cap evicts the oldest: window events may be gone unless
		// the oldest kept one is at or before the window start.
		if oldest, err := strconv.ParseFloat(str(res[2]), 64); err != nil || int64(oldest) > since.UnixMilli() {
			complete = false
		}
	}
	events = make([]store.Event, 0, (len(res)-3)/4)
	now := c.now()
	for i := 3; i+3 < len(res); i += 4 {
		m, data, vec, analysis := str(res[i]), str(res[i+1]), str(res[i+2]), str(res[i+3])
		if data == "" {
			complete = false // expired or deleted between index and body
			continue
		}
		ce, ok := decodeBody(data)
		// Another layout: encoding/json, which neither keeps nor changes its
		// input, so the reply's string is read in place.
		if !ok {
			if err := json.Unmarshal(unsafe.Slice(unsafe.StringData(data), len(data)), &ce); err != nil {
				return nil, false, fmt.Errorf("decoding cached event %s: %w", m, err)
			}
		}
		e := ce.event(m)
		if e.Expired(now) {
			continue // its TTL passed; ingest's purge removes it
		}
		e.Tenant, e.Entity, e.Embedding = tenant, entity, decodeVector(vec)
		if analysis != "" {
			e.Analysis = unsafe.Slice(unsafe.StringData(analysis), len(analysis)) // read in place, never written
		}
		events = append(events, e)
	}
	return events, complete, nil
}

// Start marks the cache as fed from now on where no feeder has marked it yet
// (or where a failover has made the marker void).
func (c *Cache) Start(ctx context.Context) error {
	return c.markAll(ctx, c.now(), false)
}

// touchedSinceKeys are the markers of the entities a write touches.
func (c *Cache) touchedSinceKeys(upserts []store.Event, removed []store.Removed) []string {
	if c.cfg.Mode != ModeCluster {
		return c.allSinceKeys()
	}
	seen := map[string]bool{}
	var keys []string
	add := func(tenant, entity string) {
		if k := c.sinceKey(c.entityTag(tenant, entity)); !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	for i := range upserts {
		add(upserts[i].Tenant, upserts[i].Entity)
	}
	for i := range removed {
		add(removed[i].Tenant, removed[i].Entity)
	}
	return keys
}

func encodeVector(v []float32) []byte {
	if v == nil {
		return nil
	}
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// decodeVector reads the little-endian float32s of the string go-redis returns,
// in place where the machine allows (lewords.View): a vector is ~1.5 kB and an
// answer reads one per candidate. Such a vector shares the reply's memory and
// must never be written; nothing that reads events writes their vectors.
func decodeVector(b string) []float32 { return lewords.ViewString[float32](b) }
