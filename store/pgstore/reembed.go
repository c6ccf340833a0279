package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"
)

// Re-embedding rewrites every stored vector with another embedding model
// (`ingest reembed`). While it runs, and until it has finished, no service may
// use the store: its rows hold vectors of two models. Two mechanisms say so:
//
//   - The services hold a shared advisory lock on the schema for their lifetime
//     (Claim), and re-embedding takes it exclusively: it refuses to start while
//     a service runs, and a service refuses to start while it runs.
//   - An unfinished re-embedding is recorded in freshctx_settings ("reembed"),
//     with where it stopped; CheckEmbedding refuses to start with either model
//     until it is finished.

// ErrReembedding is returned by Claim when a re-embedding holds the store, and
// by CheckEmbedding when one is unfinished.
var ErrReembedding = errors.New("the store is being re-embedded")

// claimKey is the advisory lock's first key ("fres"); the second is the hash of
// the schema, so stores in other schemas of the database do not meet.
const claimKey = 0x66726573

// Claim holds the store for a service (shared) or for a re-embedding
// (exclusive) until release is called, on a connection of its own: advisory
// locks belong to a session. Behind a transaction-pooling proxy the lock
// cannot be held, and the check protects nothing.
func (s *Store) Claim(ctx context.Context, exclusive bool) (release func(), err error) {
	conn, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, fmt.Errorf("claiming the store: %w", err)
	}
	fn := "pg_try_advisory_lock_shared"
	if exclusive {
		fn = "pg_try_advisory_lock"
	}
	var got bool
	if err := conn.QueryRow(ctx, `SELECT `+fn+`($1, hashtext(current_schema()) & 2147483647)`, claimKey).Scan(&got); err != nil {
		conn.Close(ctx)
		return nil, fmt.Errorf("claiming the store: %w", err)
	}
	if !got {
		defer conn.Close(ctx)
		if !exclusive {
			return nil, fmt.Errorf("%w (ingest reembed is running): start again when it has finished", ErrReembedding)
		}
		return nil, fmt.Errorf("ingest or the context API is using this store (%s): stop them first, then run ingest reembed again", holders(ctx, conn))
	}
	return func() { conn.Close(context.Background()) }, nil
}

// holders names the sessions holding the claim: their process ids, client
// addresses and application names, as far as this user may see them.
func holders(ctx context.Context, conn *pgx.Conn) string {
	rows, err := conn.Query(ctx, `
		SELECT l.pid, coalesce(host(a.client_addr), 'local'), coalesce(nullif(a.application_name, ''), '?')
		FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
		WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1::oid
		  AND l.objid = (hashtext(current_schema()) & 2147483647)::oid AND l.objsubid = 2
		ORDER BY l.pid`, claimKey)
	if err != nil {
		return "sessions unknown: " + err.Error()
	}
	var list []string
	for rows.Next() {
		var pid int
		var addr, app string
		if rows.Scan(&pid, &addr, &app) == nil {
			list = append(list, fmt.Sprintf("pid %d from %s, application %s", pid, addr, app))
		}
	}
	rows.Close()
	if len(list) == 0 {
		return "their sessions just ended"
	}
	return strings.Join(list, "; ")
}

// Embedding returns the embedding model and size the store records
// ("model/dims"), or "" when none is recorded yet.
func (s *Store) Embedding(ctx context.Context) (string, error) {
	return s.setting(ctx, "embedding")
}

func (s *Store) setting(ctx context.Context, name string) (string, error) {
	var v string
	err := s.pool.QueryRow(ctx, `SELECT value FROM freshctx_settings WHERE name = $1`, name).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading setting %s: %w", name, err)
	}
	return v, nil
}

// Reembed is an unfinished re-embedding: its target and where it stopped.
type Reembed struct {
	To string `json:"to"` // "model/dims"
	// Copy is where the vectors are copied from, when they are not made again
	// in place (Milvus: the collections' prefix before).
	Copy string `json:"copy,omitempty"`
	// Table is the table (or collection) being done; After the cursor after
	// its last row done ("": none yet).
	Table string         `json:"table"`
	After string         `json:"after"`
	Done  map[string]int `json:"done"` // rows done so far, by table
}

// Rows is how many rows the re-embedding has done.
func (r Reembed) Rows() int {
	n := 0
	for _, d := range r.Done {
		n += d
	}
	return n
}

// LoadReembed returns the unfinished re-embedding, if any.
func (s *Store) LoadReembed(ctx context.Context) (Reembed, bool, error) {
	v, err := s.setting(ctx, "reembed")
	if err != nil || v == "" {
		return Reembed{}, false, err
	}
	var r Reembed
	if err := json.Unmarshal([]byte(v), &r); err != nil {
		return Reembed{}, false, fmt.Errorf("freshctx_settings reembed: %w", err)
	}
	return r, true, nil
}

// SaveReembed records the re-embedding's progress.
func (s *Store) SaveReembed(ctx context.Context, r Reembed) error {
	v, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = s.pool.Exec(ctx, `
		INSERT INTO freshctx_settings (name, value) VALUES ('reembed', $1)
		ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`, string(v))
	if err != nil {
		return fmt.Errorf("saving the re-embedding's progress: %w", classify(err))
	}
	return nil
}

// FinishReembed records to ("model/dims") as the store's embedding and forgets
// the re-embedding, in one transaction.
func (s *Store) FinishReembed(ctx context.Context, to string) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM freshctx_settings WHERE name = 'reembed'`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `
			INSERT INTO freshctx_settings (name, value) VALUES ('embedding', $1)
			ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`, to)
		return err
	})
}

// VectorRowKey identifies a row holding a vector: an event (Chunk 0) or a
// document chunk.
type VectorRowKey struct {
	Source string `json:"source"`
	Key    string `json:"key"`
	Chunk  int    `json:"chunk"`
}

// VectorRow is a stored row's text as it was embedded.
type VectorRow struct {
	VectorRowKey
	Title, Text string // Title: a chunk's document title
	TextHash    []byte
}

// vectorTables are the tables holding vectors, and whether a row is a chunk
// (keyed by source, key and chunk, with its document's title) or an event
// (source and key).
var vectorTables = map[string]bool{"events": false, "document_chunks": true}

// CountVectors returns how many rows of table hold a vector.
func (s *Store) CountVectors(ctx context.Context, table string) (int, error) {
	if _, ok := vectorTables[table]; !ok {
		return 0, fmt.Errorf("no vectors in table %q", table)
	}
	var n int
	err := s.pool.QueryRow(ctx, `SELECT count(*) FROM `+table+` WHERE embedding IS NOT NULL`).Scan(&n)
	return n, err
}

// VectorRows returns up to limit rows of table that hold a vector, after the
// given row in key order (the zero key: from the start).
func (s *Store) VectorRows(ctx context.Context, table string, after VectorRowKey, limit int) ([]VectorRow, error) {
	chunked, ok := vectorTables[table]
	if !ok {
		return nil, fmt.Errorf("no vectors in table %q", table)
	}
	key, past, cols, args := "source, key", "$1, $2", "0, ''", []any{after.Source, after.Key}
	if chunked {
		key, past, cols, args = "source, key, chunk", "$1, $2, $3", "chunk, title", append(args, after.Chunk)
	}
	rows, err := s.pool.Query(ctx, `
		SELECT source, key, `+cols+`, text, text_hash FROM `+table+`
		WHERE embedding IS NOT NULL AND (`+key+`) > (`+past+`)
		ORDER BY `+key+` LIMIT `+strconv.Itoa(limit), args...)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", table, classify(err))
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (VectorRow, error) {
		var v VectorRow
		err := r.Scan(&v.Source, &v.Key, &v.Chunk, &v.Title, &v.Text, &v.TextHash)
		return v, err
	})
}

// SetVectors writes vecs to rows (of table) whose text is still the one
// embedded (the same text hash; rows written without one match theirs), and
// returns how many it wrote. Versions stay: the events are the
// same, only their vectors change.
func (s *Store) SetVectors(ctx context.Context, table string, rows []VectorRow, vecs [][]float32) (int, error) {
	chunked, ok := vectorTables[table]
	if !ok {
		return 0, fmt.Errorf("no vectors in table %q", table)
	}
	if len(rows) != len(vecs) {
		return 0, fmt.Errorf("%d vectors for %d rows", len(vecs), len(rows))
	}
	sources, keys, chunks := make([]string, len(rows)), make([]string, len(rows)), make([]int32, len(rows))
	hashes, vs := make([][]byte, len(rows)), make([]pgvector.Vector, len(rows))
	for i, r := range rows {
		sources[i], keys[i], chunks[i], hashes[i], vs[i] = r.Source, r.Key, int32(r.Chunk), r.TextHash, pgvector.NewVector(vecs[i])
	}
	match := "t.source = r.source AND t.key = r.key"
	if chunked {
		match += " AND t.chunk = r.chunk"
	}
	tag, err := s.pool.Exec(ctx, `
		UPDATE `+table+` t SET embedding = r.embedding
		FROM unnest($1::text[], $2::text[], $3::int[], $4::bytea[], $5::vector[]) AS r(source, key, chunk, text_hash, embedding)
		WHERE `+match+` AND t.text_hash IS NOT DISTINCT FROM r.text_hash`, sources, keys, chunks, hashes, vs)
	if err != nil {
		return 0, fmt.Errorf("writing %d vectors to %s: %w", len(rows), table, classify(err))
	}
	return int(tag.RowsAffected()), nil
}

// DropChunkIndex drops the knowledge index built for vectors of dims
// dimensions (before every chunk's vector is rewritten: a vector of another
// size cannot be written while it exists, and building it again afterwards is
// faster than inserting each new vector into it).
func (s *Store) DropChunkIndex(ctx context.Context, dims int) error {
	_, err := s.pool.Exec(ctx, `DROP INDEX IF EXISTS document_chunks_hnsw_`+strconv.Itoa(dims))
	return err
}
