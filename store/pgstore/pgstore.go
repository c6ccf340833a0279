// Package pgstore keeps events in PostgreSQL with pgvector.
//
// Writes are version-guarded in SQL: an upsert applies only when its version is
// newer than the stored one (or equal and the row is not a delete marker); a delete
// applies when its version is at least the stored one and leaves a marker row. A
// batch is written in one transaction. The entity-window read returns every live
// event of an entity in the window, newest first, so ranking over it is exact.
package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"
	pgxvec "github.com/pgvector/pgvector-go/pgx"

	"github.com/freshctx/freshctx/migrations"
	"github.com/freshctx/freshctx/store"
)

// Store is a PostgreSQL + pgvector event store. It is safe for concurrent use.
type Store struct {
	pool     *pgxpool.Pool
	read     *pgxpool.Pool // the read replica (postgres.read_dsn); nil without
	efSearch int
	common   struct { // the chunks' common lexemes (commonLexemes)
		mu   sync.Mutex
		list []string
		at   time.Time
		busy bool
	}
}

// Config configures the connection.
type Config struct {
	// DSN is a libpq connection string or URL. Required.
	DSN string `yaml:"dsn"`
	// ReadDSN, when set, is a read replica (or a pooler in front of several)
	// for the API's reads of events, timelines and knowledge. A read that names
	// writes it must see (after=, fresh_through=) goes to the primary, and so
	// does any read the replica cannot answer. Ingest never uses it.
	ReadDSN string `yaml:"read_dsn"`
	// MaxConns caps the pool. Default: MaxConnsDefault.
	MaxConns int32 `yaml:"max_conns"`
	// EfSearch is pgvector's hnsw.ef_search for knowledge searches: the candidate
	// list size. Higher finds more of the true nearest chunks, more slowly.
	// Default EfSearchDefault (recall@10 0.987-0.9925 on 100k chunks, see BENCHMARKS.md).
	EfSearch int `yaml:"ef_search"`
}

// MaxConnsDefault is the default pool size.
const MaxConnsDefault = 16

// Connect opens a pool (and one to the read replica, with ReadDSN) and checks
// that the database answers.
func Connect(ctx context.Context, cfg Config) (*Store, error) {
	ef := cfg.EfSearch
	if ef == 0 {
		ef = EfSearchDefault
	}
	if ef < 10 || ef > 1000 {
		return nil, fmt.Errorf("postgres.ef_search: %d out of range [10, 1000]", ef)
	}
	pool, err := newPool(ctx, "dsn", cfg.DSN, cfg.MaxConns, ef)
	if err != nil {
		return nil, err
	}
	s := &Store{pool: pool, efSearch: ef}
	if cfg.ReadDSN != "" {
		// The replica may be down at start: reads fall back to the primary.
		if s.read, err = newPool(ctx, "read_dsn", cfg.ReadDSN, cfg.MaxConns, ef); err != nil && s.read == nil {
			pool.Close()
			return nil, err
		}
	}
	return s, nil
}

// newPool opens a pool to dsn (the field is named in errors). A pool whose
// server does not answer yet is returned with the error only for read_dsn.
func newPool(ctx context.Context, field, dsn string, maxConns int32, ef int) (*pgxpool.Pool, error) {
	pc, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("parsing postgres.%s: %w", field, err)
	}
	pc.MaxConns = MaxConnsDefault
	pc.MinConns = 2 // warm connections: the first answers are not slower than the rest
	if maxConns > 0 {
		pc.MaxConns = maxConns
	}
	// Who is connected, in pg_stat_activity (and in ingest reembed's refusal),
	// unless the DSN names it.
	if pc.ConnConfig.RuntimeParams["application_name"] == "" {
		pc.ConnConfig.RuntimeParams["application_name"] = "freshctx " + strings.TrimSuffix(filepath.Base(os.Args[0]), ".test")
	}
	// Knowledge searches: iterative index scans so filters do not cut HNSW
	// candidates short, and a wider candidate list; set once per connection, in
	// the startup packet, instead of in every query.
	pc.ConnConfig.RuntimeParams["hnsw.iterative_scan"] = "relaxed_order"
	pc.ConnConfig.RuntimeParams["hnsw.ef_search"] = strconv.Itoa(ef)
	pc.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
		if err := pgxvec.RegisterTypes(ctx, c); err != nil {
			return fmt.Errorf("registering pgvector types (is the vector extension installed? run scripts/setup.sh): %w", err)
		}
		// Load pgvector's library in this backend now, not in the first query
		// that needs it (a few milliseconds, paid once per connection).
		_, err := c.Exec(ctx, `SELECT '[1]'::vector`)
		return err
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("connecting to postgres.%s: %w", field, err)
	}
	if err := pool.Ping(ctx); err != nil {
		err = fmt.Errorf("connecting to postgres.%s %s: %w", field, redactDSN(dsn), err)
		if field == "read_dsn" {
			return pool, err
		}
		pool.Close()
		return nil, err
	}
	return pool, nil
}

// readAll runs a read and collects its rows: on the replica when one is
// configured and ctx allows it (see store.WithPrimary), and on the primary
// otherwise or when the replica cannot answer.
//
// ctx bounds the wait, not the query. A connection is taken from the pool within
// ctx, but once sent, the query runs to its end (at most detachedReadTimeout) on
// its own context, and the connection goes back to the pool; a caller whose ctx
// ends first gets ctx's error at once. Interrupting a query in flight closes its
// connection (pgx cannot know what the server still sends), and the next read
// opens a new one: a PostgreSQL backend started and torn down for every answer
// that missed its budget. Under load that made degradation feed itself: at 16
// clients reading 90-minute windows, connection churn took ~80% of the machine's
// CPU (BENCHMARKS.md, "The store path under load").
func readAll[T any](ctx context.Context, s *Store, scan pgx.RowToFunc[T], sql string, args ...any) ([]T, error) {
	if s.read != nil && !store.NeedsPrimary(ctx) {
		out, err := readOn(ctx, s.read, scan, sql, args)
		if err == nil || ctx.Err() != nil {
			return out, err
		}
	}
	return readOn(ctx, s.pool, scan, sql, args)
}

// detachedReadTimeout bounds a read that its caller stopped waiting for.
const detachedReadTimeout = 30 * time.Second

func readOn[T any](ctx context.Context, pool *pgxpool.Pool, scan pgx.RowToFunc[T], sql string, args []any) ([]T, error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	type result struct {
		rows []T
		err  error
	}
	done := make(chan result, 1)
	go func() {
		defer conn.Release()
		qctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), detachedReadTimeout)
		defer cancel()
		rows, err := conn.Query(qctx, sql, args...)
		if err != nil {
			done <- result{err: err}
			return
		}
		out, err := pgx.CollectRows(rows, scan)
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		return r.rows, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Close releases the pools.
func (s *Store) Close() {
	s.pool.Close()
	if s.read != nil {
		s.read.Close()
	}
}

// Ping checks the database answers (for readiness).
func (s *Store) Ping(ctx context.Context) error { return s.pool.Ping(ctx) }

// Migrate applies the pending migrations from the migrations package, each in its
// own transaction, under an advisory lock so concurrent runs are safe. It returns
// the names of the files it applied.
func (s *Store) Migrate(ctx context.Context) ([]string, error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	var hasVector bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector')`).Scan(&hasVector); err != nil {
		return nil, err
	}
	if !hasVector {
		if _, err := conn.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS vector`); err != nil {
			return nil, fmt.Errorf("the pgvector extension is not installed in this database and could not be created (run scripts/setup.sh, or CREATE EXTENSION vector as a superuser): %w", err)
		}
	}
	const lockID = 0x66726573686374 // "freshct"
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, lockID); err != nil {
		return nil, err
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, lockID) //nolint:errcheck
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS freshctx_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return nil, fmt.Errorf("creating freshctx_migrations: %w", err)
	}
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var applied []string
	for _, name := range names {
		var done bool
		if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM freshctx_migrations WHERE name = $1)`, name).Scan(&done); err != nil {
			return applied, err
		}
		if done {
			continue
		}
		sqlText, err := fs.ReadFile(migrations.FS, name)
		if err != nil {
			return applied, err
		}
		err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, string(sqlText)); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO freshctx_migrations (name) VALUES ($1)`, name)
			return err
		})
		if err != nil {
			return applied, fmt.Errorf("applying migration %s: %w", name, err)
		}
		applied = append(applied, name)
	}
	return applied, nil
}

// Pending returns the migrations not yet applied; a service refuses to start while
// any are pending, with a hint to run `ingest migrate`.
func (s *Store) Pending(ctx context.Context) ([]string, error) {
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		return nil, err
	}
	var exists bool
	// Look in the schema migrations create tables in, not anywhere on the search_path.
	if err := s.pool.QueryRow(ctx, `SELECT to_regclass(quote_ident(current_schema()) || '.freshctx_migrations') IS NOT NULL`).Scan(&exists); err != nil {
		return nil, err
	}
	if !exists {
		return names, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT name FROM freshctx_migrations`)
	if err != nil {
		return nil, err
	}
	done, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	var pending []string
	for _, n := range names {
		if !contains(done, n) {
			pending = append(pending, n)
		}
	}
	return pending, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// CheckEmbedding records the embedding model and size on first use and refuses a
// different one later: vectors of two models cannot be compared.
func (s *Store) CheckEmbedding(ctx context.Context, model string, dims int) error {
	want := model + "/" + strconv.Itoa(dims)
	if r, ok, err := s.LoadReembed(ctx); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("embedder: %w to %s and it has not finished: run `ingest reembed -config FILE` with that embedder to finish it", ErrReembedding, r.To)
	}
	var got string
	// One statement that always returns the committed row: ON CONFLICT DO UPDATE
	// waits for a concurrent inserter and then locks and returns its row, where a
	// DO NOTHING plus a read in the same statement would miss a row committed after
	// the statement's snapshot (two processes starting at once on a fresh database).
	// The update writes the value it found, so the first model recorded stays.
	err := s.pool.QueryRow(ctx, `
		INSERT INTO freshctx_settings AS s (name, value) VALUES ('embedding', $1)
		ON CONFLICT (name) DO UPDATE SET value = s.value
		RETURNING value`, want).Scan(&got)
	if err != nil {
		return fmt.Errorf("checking the embedding model: %w", err)
	}
	if got != want {
		return fmt.Errorf("embedder: the store holds vectors of %s but the configured embedder makes %s; use the same model and dims, or re-embed the store with `ingest reembed -config FILE` (docs/operations.md)", got, want)
	}
	return nil
}

// Lookup returns what is stored for the given refs (absent refs are missing from
// the map).
func (s *Store) Lookup(ctx context.Context, refs []store.Ref) (map[store.Ref]store.Prior, error) {
	out := make(map[store.Ref]store.Prior, len(refs))
	if len(refs) == 0 {
		return out, nil
	}
	sources, keys := refArrays(refs)
	// One primary-key probe per ref (LATERAL … OFFSET 0 keeps the planner from
	// turning it into a join): as a plain join, PostgreSQL hashed the refs and
	// scanned the whole table for tables up to a few hundred thousand rows, ~6-14
	// ms a batch at 20,000 rows, growing with the table (BENCHMARKS.md, Ingest).
	rows, err := s.pool.Query(ctx, `
		SELECT e.* FROM unnest($1::text[], $2::text[]) AS r(source, key)
		CROSS JOIN LATERAL (SELECT e.source, e.key, e.tenant, e.entity, e.text_hash, e.embedding, e.fields, e.version, e.deleted
		                    FROM events e WHERE e.source = r.source AND e.key = r.key OFFSET 0) e`, sources, keys)
	if err != nil {
		return nil, classify(fmt.Errorf("looking up %d keys: %w", len(refs), err))
	}
	defer rows.Close()
	for rows.Next() {
		var (
			ref store.Ref
			p   store.Prior
			vec *pgvector.Vector
		)
		if err := rows.Scan(&ref.Source, &ref.Key, &p.Tenant, &p.Entity, &p.TextHash, &vec, &p.Fields, &p.Version, &p.Deleted); err != nil {
			return nil, err
		}
		if vec != nil {
			p.Embedding = vec.Slice()
		}
		out[ref] = p
	}
	return out, classify(rows.Err())
}

const upsertSQL = `
INSERT INTO events (source, key, id, tenant, entity, event_time, text, attrs, fields, text_hash, embedding, version, deleted,
                    kafka_topic, kafka_partition, kafka_offset, trace_id, producer, context, expires_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, false, $13, $14, $15, $16, $17, $18, $19)
ON CONFLICT (source, key) DO UPDATE SET
    id = EXCLUDED.id, tenant = EXCLUDED.tenant, entity = EXCLUDED.entity,
    event_time = EXCLUDED.event_time, text = EXCLUDED.text, attrs = EXCLUDED.attrs,
    fields = EXCLUDED.fields, text_hash = EXCLUDED.text_hash, embedding = EXCLUDED.embedding,
    version = EXCLUDED.version, deleted = false, written_at = now(),
    kafka_topic = EXCLUDED.kafka_topic, kafka_partition = EXCLUDED.kafka_partition,
    kafka_offset = EXCLUDED.kafka_offset, trace_id = EXCLUDED.trace_id,
    producer = EXCLUDED.producer, context = EXCLUDED.context, expires_at = EXCLUDED.expires_at
WHERE events.version < EXCLUDED.version
   OR (events.version = EXCLUDED.version AND NOT events.deleted)
RETURNING true`

const deleteSQL = `
INSERT INTO events (source, key, id, tenant, entity, event_time, text, version, deleted)
VALUES ($1, $2, '', '', '', now(), '', $3, true)
ON CONFLICT (source, key) DO UPDATE SET
    deleted = true, version = EXCLUDED.version, text = '', attrs = '{}', fields = '{}',
    text_hash = NULL, embedding = NULL, written_at = now()
WHERE events.version <= EXCLUDED.version
RETURNING tenant, entity`

// Apply writes a batch of upserts and deletes in one transaction, version-guarded.
// Errors that no retry can fix wrap store.ErrInvalidData.
func (s *Store) Apply(ctx context.Context, upserts []store.Event, deletes []store.Delete) (store.WriteResult, error) {
	res := store.WriteResult{Applied: make([]bool, len(upserts))}
	if len(upserts)+len(deletes) == 0 {
		return res, nil
	}
	// One round trip, one transaction: a batch sent in one go runs in an
	// implicit transaction (its statements commit together or not at all), so
	// no BEGIN and COMMIT round trips are needed.
	err := func() error {
		b := &pgx.Batch{}
		for i := range upserts {
			e := &upserts[i]
			var vec any
			if e.Embedding != nil {
				vec = pgvector.NewVector(e.Embedding)
			}
			b.Queue(upsertSQL, e.Source, e.Key, e.ID, e.Tenant, e.Entity, e.Time, e.Text,
				jsonOrEmpty(e.Attrs), jsonOrEmpty(e.Fields), e.TextHash, vec, e.Version,
				e.Provenance.Topic, e.Provenance.Partition, e.Provenance.Offset, e.Provenance.TraceID,
				e.Provenance.Producer, e.Context, expiresAt(e.ExpiresAt))
		}
		for _, d := range deletes {
			b.Queue(deleteSQL, d.Source, d.Key, d.Version)
		}
		br := s.pool.SendBatch(ctx, b)
		for i := range upserts {
			var ok bool
			err := br.QueryRow().Scan(&ok)
			switch {
			case errors.Is(err, pgx.ErrNoRows):
			case err != nil:
				br.Close()
				return fmt.Errorf("upserting %s/%s: %w", upserts[i].Source, upserts[i].Key, err)
			default:
				res.Applied[i] = true
			}
		}
		for _, d := range deletes {
			var r store.Removed
			err := br.QueryRow().Scan(&r.Tenant, &r.Entity)
			switch {
			case errors.Is(err, pgx.ErrNoRows):
			case err != nil:
				br.Close()
				return fmt.Errorf("deleting %s/%s: %w", d.Source, d.Key, err)
			case r.Tenant != "" || r.Entity != "":
				r.Ref, r.Version = d.Ref, d.Version
				res.Removed = append(res.Removed, r)
			}
		}
		return br.Close()
	}()
	if err != nil {
		return store.WriteResult{}, classify(fmt.Errorf("writing batch of %d upserts, %d deletes: %w", len(upserts), len(deletes), err))
	}
	return res, nil
}

// Truncate marks every live event of a source older than version deleted
// (Debezium truncate), returning them for the cache.
func (s *Store) Truncate(ctx context.Context, source string, version int64) ([]store.Removed, error) {
	rows, err := s.pool.Query(ctx, `
		UPDATE events SET deleted = true, version = $2, text = '', attrs = '{}', fields = '{}',
		       text_hash = NULL, embedding = NULL, written_at = now()
		WHERE source = $1 AND version < $2 AND NOT deleted
		RETURNING key, tenant, entity`, source, version)
	if err != nil {
		return nil, classify(fmt.Errorf("truncating source %s: %w", source, err))
	}
	removed, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Removed, error) {
		x := store.Removed{Ref: store.Ref{Source: source}, Version: version}
		return x, r.Scan(&x.Key, &x.Tenant, &x.Entity)
	})
	return removed, classify(err)
}

// Recent returns the live events of one entity at or after since, newest first, at
// most limit. Results carry their embeddings for exact ranking by the caller.
func (s *Store) Recent(ctx context.Context, tenant, entity string, since time.Time, limit int) ([]store.Event, error) {
	events, err := readAll(ctx, s, scanEvent(tenant, entity), `
		SELECT `+eventColumns+`
		FROM events
		WHERE tenant = $1 AND entity = $2 AND event_time >= $3 AND NOT deleted `+notExpired+`
		ORDER BY event_time DESC, source, key
		LIMIT $4`, tenant, entity, since, limit)
	if err != nil {
		return nil, fmt.Errorf("reading recent events: %w", err)
	}
	return events, nil
}

// Timeline returns an entity's live events newest first, after the cursor when
// one is given, at most limit.
func (s *Store) Timeline(ctx context.Context, tenant, entity string, after *store.Cursor, limit int) ([]store.Event, error) {
	args := []any{tenant, entity, limit}
	where := ""
	if after != nil {
		// Keyset pagination: (event_time DESC, source ASC, key ASC).
		where = `AND (event_time < $4 OR (event_time = $4 AND (source, key) > ($5, $6)))`
		args = append(args, after.Time, after.Source, after.Key)
	}
	events, err := readAll(ctx, s, scanEvent(tenant, entity), `
		SELECT `+eventColumns+`
		FROM events
		WHERE tenant = $1 AND entity = $2 AND NOT deleted `+notExpired+where+`
		ORDER BY event_time DESC, source, key
		LIMIT $3`, args...)
	if err != nil {
		return nil, fmt.Errorf("reading the timeline: %w", err)
	}
	return events, nil
}

const eventColumns = `source, key, id, event_time, text, attrs, embedding, version, kafka_topic, kafka_partition, kafka_offset, trace_id,
	producer, context, expires_at`

// notExpired keeps events whose TTL has not passed (store.Event.ExpiresAt).
const notExpired = ` AND (expires_at IS NULL OR expires_at > now()) `

func expiresAt(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// PurgeExpired turns up to limit events whose TTL has passed into delete
// markers at their version (so a replay of the record cannot bring them back)
// and returns them for the cache.
func (s *Store) PurgeExpired(ctx context.Context, now time.Time, limit int) ([]store.Removed, error) {
	rows, err := s.pool.Query(ctx, `
		UPDATE events SET deleted = true, text = '', attrs = '{}', fields = '{}', text_hash = NULL, embedding = NULL,
		       written_at = now()
		WHERE (source, key) IN (SELECT source, key FROM events WHERE expires_at <= $1 AND NOT deleted
		                        LIMIT $2 FOR UPDATE SKIP LOCKED)
		RETURNING source, key, tenant, entity, version`, now, limit)
	if err != nil {
		return nil, classify(fmt.Errorf("purging expired events: %w", err))
	}
	removed, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Removed, error) {
		var x store.Removed
		return x, r.Scan(&x.Source, &x.Key, &x.Tenant, &x.Entity, &x.Version)
	})
	return removed, classify(err)
}

func scanEvent(tenant, entity string) pgx.RowToFunc[store.Event] {
	return func(r pgx.CollectableRow) (store.Event, error) {
		e := store.Event{Tenant: tenant, Entity: entity}
		var vec *pgvector.Vector
		p := &e.Provenance
		var exp *time.Time
		if err := r.Scan(&e.Source, &e.Key, &e.ID, &e.Time, &e.Text, &e.Attrs, &vec, &e.Version, &p.Topic, &p.Partition, &p.Offset, &p.TraceID,
			&p.Producer, &e.Context, &exp); err != nil {
			return e, err
		}
		if exp != nil {
			e.ExpiresAt = exp.UTC()
		}
		if vec != nil {
			e.Embedding = vec.Slice()
		}
		return e, nil
	}
}

func jsonOrEmpty(m map[string]any) []byte {
	if len(m) == 0 {
		return []byte("{}")
	}
	b, err := json.Marshal(m)
	if err != nil {
		return []byte("{}")
	}
	return b
}

// classify marks errors caused by the data itself (SQLSTATE classes 22 data
// exception, 23 integrity violation, 54 program limit exceeded) as permanent.
func classify(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code[:2] {
		case "22", "23", "54":
			return fmt.Errorf("%w: %w", store.ErrInvalidData, err)
		}
	}
	return err
}

// redactDSN hides the password of a DSN for error messages.
func redactDSN(dsn string) string {
	if i := strings.Index(dsn, "://"); i >= 0 {
		if at := strings.LastIndex(dsn, "@"); at > i {
			cred := dsn[i+3 : at]
			if c := strings.IndexByte(cred, ':'); c >= 0 {
				return dsn[:i+3] + cred[:c] + ":xxx" + dsn[at:]
			}
		}
	}
	if strings.Contains(dsn, "password=") {
		return "(dsn with password)"
	}
	return dsn
}

// LoadEvents bulk-loads events with COPY, without version guards: for seeding an
// empty store (benchmarks, first loads). Existing keys make it fail.
func (s *Store) LoadEvents(ctx context.Context, events []store.Event) error {
	rows := make([][]any, len(events))
	for i := range events {
		e := &events[i]
		p := e.Provenance
		rows[i] = []any{e.Source, e.Key, e.ID, e.Tenant, e.Entity, e.Time, e.Text, jsonOrEmpty(e.Attrs), jsonOrEmpty(e.Fields),
			e.TextHash, pgvector.NewVector(e.Embedding), e.Version, p.Topic, p.Partition, p.Offset, p.TraceID, p.Producer, e.Context,
			expiresAt(e.ExpiresAt)}
	}
	_, err := s.pool.CopyFrom(ctx, pgx.Identifier{"events"},
		[]string{"source", "key", "id", "tenant", "entity", "event_time", "text", "attrs", "fields", "text_hash", "embedding", "version",
			"kafka_topic", "kafka_partition", "kafka_offset", "trace_id", "producer", "context", "expires_at"}, pgx.CopyFromRows(rows))
	if err != nil {
		return classify(fmt.Errorf("loading %d events: %w", len(events), err))
	}
	return nil
}

// refArrays splits refs into parallel arrays for unnest($1::text[], $2::text[]).
func refArrays(refs []store.Ref) (sources, keys []string) {
	sources, keys = make([]string, len(refs)), make([]string, len(refs))
	for i, r := range refs {
		sources[i], keys[i] = r.Source, r.Key
	}
	return sources, keys
}
