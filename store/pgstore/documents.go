package pgstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/freshctx/freshctx/internal/textutil"
	"github.com/freshctx/freshctx/store"
)

// indexKey is the advisory lock's first key for chunk index builds ("frei"),
// the second the schema's hash (as claimKey's).
const indexKey = 0x66726569

// EnsureChunkIndex creates the HNSW index of document chunks for vectors of dims
// dimensions: an expression index on embedding::vector(dims), since the column
// itself has no fixed size. Searches use the same expression. Idempotent.
//
// It is built CONCURRENTLY: writers of chunks are not blocked while it builds,
// and the build reads the rows as a snapshot sees them. A plain CREATE INDEX
// also reads the row versions an open transaction might still see; after
// `ingest reembed` changed the vectors' size, those are of the size before, and
// the expression fails on them. An index left invalid by a failed build is
// dropped and built again.
func (s *Store) EnsureChunkIndex(ctx context.Context, dims int) error {
	if dims < 1 || dims > 2000 {
		return fmt.Errorf("embedder.dims: %d cannot be indexed with HNSW (1 to 2000)", dims)
	}
	name := "document_chunks_hnsw_" + strconv.Itoa(dims)
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	// One build at a time (ingest migrate may run in several processes): an
	// index being built is invalid until it is done, and must not be taken
	// for one left over. The lock is tried, not waited for in a statement: a
	// concurrent build waits for every statement that began before its end.
	for {
		var got bool
		if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1, hashtext(current_schema()) & 2147483647)`, indexKey).Scan(&got); err != nil {
			return err
		}
		if got {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1, hashtext(current_schema()) & 2147483647)`, indexKey) //nolint:errcheck
	var invalid bool
	err = conn.QueryRow(ctx, `SELECT NOT indisvalid FROM pg_index WHERE indexrelid = to_regclass(quote_ident(current_schema()) || '.' || $1)`, name).Scan(&invalid)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("looking for the chunk index: %w", err)
	}
	if invalid {
		if _, err := conn.Exec(ctx, `DROP INDEX CONCURRENTLY IF EXISTS `+name); err != nil {
			return fmt.Errorf("dropping the invalid chunk index: %w", err)
		}
	}
	// Building the graph in memory is many times faster than spilling to disk.
	if _, err := conn.Exec(ctx, `SET maintenance_work_mem = '512MB'`); err != nil {
		return err
	}
	defer conn.Exec(context.WithoutCancel(ctx), `RESET maintenance_work_mem`) //nolint:errcheck
	// ef_construction 128 (pgvector's default is 64) builds a better graph: recall
	// at ef_search 200 stays above 0.95 from build to build (BENCHMARKS.md).
	_, err = conn.Exec(ctx, `CREATE INDEX CONCURRENTLY IF NOT EXISTS `+name+` ON document_chunks
		USING hnsw ((embedding::vector(`+strconv.Itoa(dims)+`)) vector_cosine_ops) WITH (m = 16, ef_construction = 128)`)
	if err != nil {
		return fmt.Errorf("creating the chunk index: %w", err)
	}
	return nil
}

// DocumentPriors returns what is stored for the given documents.
func (s *Store) DocumentPriors(ctx context.Context, refs []store.Ref) (map[store.Ref]store.DocumentPrior, error) {
	out := make(map[store.Ref]store.DocumentPrior, len(refs))
	if len(refs) == 0 {
		return out, nil
	}
	sources, keys := refArrays(refs)
	rows, err := s.pool.Query(ctx, `
		SELECT d.source, d.key, d.version, d.deleted, d.text_hash, c.text_hash, c.embedding
		FROM unnest($1::text[], $2::text[]) AS r(source, key)
		CROSS JOIN LATERAL (SELECT d.source, d.key, d.version, d.deleted, d.text_hash
		                    FROM documents d WHERE d.source = r.source AND d.key = r.key OFFSET 0) d
		LEFT JOIN LATERAL (SELECT c.text_hash, c.embedding FROM document_chunks c
		                   WHERE c.source = d.source AND c.key = d.key OFFSET 0) c ON true`, sources, keys)
	if err != nil {
		return nil, classify(fmt.Errorf("looking up %d documents: %w", len(refs), err))
	}
	defer rows.Close()
	for rows.Next() {
		var (
			ref       store.Ref
			p         store.DocumentPrior
			chunkHash []byte
			vec       *pgvector.Vector
		)
		if err := rows.Scan(&ref.Source, &ref.Key, &p.Version, &p.Deleted, &p.TextHash, &chunkHash, &vec); err != nil {
			return nil, err
		}
		if prev, ok := out[ref]; ok {
			p.Vectors = prev.Vectors
		}
		if vec != nil {
			if p.Vectors == nil {
				p.Vectors = map[string][]float32{}
			}
			p.Vectors[string(chunkHash)] = vec.Slice()
		}
		out[ref] = p
	}
	return out, classify(rows.Err())
}

const docUpsertSQL = `
INSERT INTO documents (source, key, tenant, doc_id, title, attrs, text_hash, chunks, version, deleted,
                       kafka_topic, kafka_partition, kafka_offset, trace_id)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, false, $10, $11, $12, $13)
ON CONFLICT (source, key) DO UPDATE SET
    tenant = EXCLUDED.tenant, doc_id = EXCLUDED.doc_id, title = EXCLUDED.title, attrs = EXCLUDED.attrs,
    text_hash = EXCLUDED.text_hash, chunks = EXCLUDED.chunks, version = EXCLUDED.version, deleted = false,
    kafka_topic = EXCLUDED.kafka_topic, kafka_partition = EXCLUDED.kafka_partition,
    kafka_offset = EXCLUDED.kafka_offset, trace_id = EXCLUDED.trace_id, written_at = now()
WHERE documents.version < EXCLUDED.version
   OR (documents.version = EXCLUDED.version AND NOT documents.deleted)
RETURNING true`

const docDeleteSQL = `
INSERT INTO documents (source, key, tenant, doc_id, version, deleted)
VALUES ($1, $2, '', '', $3, true)
ON CONFLICT (source, key) DO UPDATE SET
    deleted = true, version = EXCLUDED.version, chunks = 0, text_hash = NULL, written_at = now()
WHERE documents.version <= EXCLUDED.version
RETURNING tenant`

// ApplyDocuments writes documents and deletes in one transaction. An applied
// document replaces all its chunks; an applied delete removes them. Both are
// version-guarded like events (a stale replay changes nothing). applied[i]
// reports docs[i].
func (s *Store) ApplyDocuments(ctx context.Context, docs []store.Document, deletes []store.Delete) (applied []bool, err error) {
	applied = make([]bool, len(docs))
	if len(docs)+len(deletes) == 0 {
		return applied, nil
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		changed := map[string]bool{} // tenants whose knowledge this transaction changes
		for i := range docs {
			d := &docs[i]
			p := d.Provenance
			var ok bool
			err := tx.QueryRow(ctx, docUpsertSQL, d.Source, d.Key, d.Tenant, d.DocID, d.Title, jsonOrEmpty(d.Attrs), d.TextHash,
				len(d.Chunks), d.Version, p.Topic, p.Partition, p.Offset, p.TraceID).Scan(&ok)
			if errors.Is(err, pgx.ErrNoRows) {
				continue // a newer version is stored
			} else if err != nil {
				return fmt.Errorf("upserting document %s/%s: %w", d.Source, d.Key, err)
			}
			applied[i] = true
			changed[d.Tenant] = true
			if _, err := tx.Exec(ctx, `DELETE FROM document_chunks WHERE source = $1 AND key = $2`, d.Source, d.Key); err != nil {
				return err
			}
			rows := make([][]any, len(d.Chunks))
			attrs := jsonOrEmpty(d.Attrs)
			for j, c := range d.Chunks {
				rows[j] = []any{d.Source, d.Key, j, d.Tenant, d.DocID, d.Title, c.Text, c.TextHash, attrs, pgvector.NewVector(c.Embedding), d.Version,
					folded(d.Title + " " + c.Text)}
			}
			if _, err := tx.CopyFrom(ctx, pgx.Identifier{"document_chunks"},
				[]string{"source", "key", "chunk", "tenant", "doc_id", "title", "text", "text_hash", "attrs", "embedding", "version", "folded"},
				pgx.CopyFromRows(rows)); err != nil {
				return fmt.Errorf("writing %d chunks of %s/%s: %w", len(rows), d.Source, d.Key, err)
			}
		}
		for _, del := range deletes {
			var tenant string
			err := tx.QueryRow(ctx, docDeleteSQL, del.Source, del.Key, del.Version).Scan(&tenant)
			if errors.Is(err, pgx.ErrNoRows) {
				continue
			} else if err != nil {
				return fmt.Errorf("deleting document %s/%s: %w", del.Source, del.Key, err)
			}
			if tenant != "" {
				changed[tenant] = true // else a marker for a document never stored: nothing to forget
			}
			if _, err := tx.Exec(ctx, `DELETE FROM document_chunks WHERE source = $1 AND key = $2`, del.Source, del.Key); err != nil {
				return err
			}
		}
		// Delivered on commit, to every listener (WatchKnowledge).
		for tenant := range changed {
			if _, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, knowledgeChannel, tenant); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, classify(fmt.Errorf("writing %d documents, %d deletes: %w", len(docs), len(deletes), err))
	}
	return applied, nil
}

// knowledgeChannel is the NOTIFY channel of committed document writes; the
// payload is the tenant.
const knowledgeChannel = "freshctx_knowledge"

// WatchKnowledge calls changed with the tenant of every committed document
// write, heard on a connection of its own that LISTENs, until ctx ends. It
// calls listening(true, nil) each time it starts listening and
// listening(false, err) when it stops (reconnecting with backoff): in between,
// writes may go unseen, so a cache must not keep searches then, and must
// forget what it kept before listening again. With a read replica, a notice
// can arrive before the replica has the write, so callers cache knowledge only
// without one (HasReadReplica).
func (s *Store) WatchKnowledge(ctx context.Context, changed func(tenant string), listening func(on bool, err error)) {
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := s.listenKnowledge(ctx, changed, listening)
		if ctx.Err() != nil {
			listening(false, nil)
			return
		}
		listening(false, err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

func (s *Store) listenKnowledge(ctx context.Context, changed func(string), listening func(bool, error)) error {
	conn, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+knowledgeChannel); err != nil {
		return err
	}
	listening(true, nil)
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		changed(n.Payload)
	}
}

// HasReadReplica reports whether reads go to a replica (postgres.read_dsn).
func (s *Store) HasReadReplica() bool { return s.read != nil }

// folded is a chunk's title and text with their Traditional Chinese
// characters in their Simplified forms, as its full text is made from them
// (migration 008): nil when they have none.
func folded(s string) any {
	if f := textutil.Simplified(s); f != s {
		return f
	}
	return nil
}

// EfSearchDefault is hnsw.ef_search for knowledge searches: the candidate list
// size; higher is slower and more exact.
const EfSearchDefault = 200

// ftsQuery are the full-text side's two tsqueries for the question {text}
// and its other words {also} (SearchQuery.Also): sel selects the chunks (any
// of the question's words that are not among the {common} lexemes; all of
// its words when every one is; and, either way, any of the other words that
// are not common), rank ranks them (any of its words and the other words).
// The other words never empty the selection: translations that a corpus of
// one language does not hold leave its question's common words in charge.
// CJK text counts by its character bigrams, as the chunks' tsv does, and
// Search passes both in Simplified characters (textutil.Simplified), as the
// chunks' bigrams are made (migration 008).
const ftsQuery = `
		words AS (SELECT array(SELECT lexeme FROM unnest(to_tsvector('english', {text}))
		                       UNION SELECT lexeme FROM unnest(to_tsvector('simple', freshctx_cjk_bigrams({text})))) AS lx,
		                 array(SELECT lexeme FROM unnest(to_tsvector('english', {also}))
		                       UNION SELECT lexeme FROM unnest(to_tsvector('simple', freshctx_cjk_bigrams({also})))) AS alt),
		common AS (SELECT {common}::text[] AS lx),
		query AS MATERIALIZED (SELECT CASE WHEN cardinality(rare) > 0 THEN array_to_string(rare || alt, ' | ')
		                                   WHEN cardinality(every) = 0 OR cardinality(alt) = 0 THEN array_to_string(every || alt, ' & ')
		                                   ELSE '(' || array_to_string(every, ' & ') || ') | ' || array_to_string(alt, ' | ') END::tsquery AS sel,
		                              array_to_string(every || alt, ' | ')::tsquery AS rank
		          FROM (SELECT array(SELECT quote_literal(l) FROM unnest(words.lx) l WHERE l <> ALL (common.lx)) AS rare,
		                       array(SELECT quote_literal(l) FROM unnest(words.lx) l) AS every,
		                       array(SELECT quote_literal(l) FROM unnest(words.alt) l WHERE l <> ALL (words.lx) AND l <> ALL (common.lx)) AS alt
		                FROM words, common) t)`

// ftsQueryCTE is ftsQuery with its placeholders replaced by parameters.
func ftsQueryCTE(text, also, common string) string {
	return strings.NewReplacer("{text}", text, "{also}", also, "{common}", common).Replace(ftsQuery)
}

// searchFTSQuery is ftsQuery as Search's hybrid query passes it the question
// ($5), the common lexemes ($6) and the other words ($7).
var searchFTSQuery = ftsQueryCTE("$5", "$7", "$6")

// commonLexemesSQL lists the lexemes in more than $1 of the chunks, from the
// planner's statistics of the tsv column (most_common_elems; empty before the
// table was first analysed).
const commonLexemesSQL = `
	SELECT coalesce(array_agg(m.e), '{}')
	FROM pg_stats s, unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS m(e, f)
	WHERE (s.schemaname, s.tablename) = (SELECT n.nspname::text, c.relname::text FROM pg_class c
	       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = 'document_chunks'::regclass)
	  AND s.attname = 'tsv' AND m.e IS NOT NULL AND m.f > $1`

// commonLexemesTTL is how long the list of common lexemes is reused: the
// statistics it comes from change only when autovacuum analyses the table.
const commonLexemesTTL = 5 * time.Minute

// commonLexemes returns the chunks' common lexemes (commonLexemeShare), read
// at most every commonLexemesTTL: planning a search with the statistics view
// inside took ~13 ms more on a fresh connection and 2-3 ms more on a warm one.
// A stale list is returned at once while another read refreshes it; a failed
// read keeps the last list (no word is common before the first).
func (s *Store) commonLexemes(ctx context.Context) []string {
	s.common.mu.Lock()
	list, at, busy := s.common.list, s.common.at, s.common.busy
	stale := time.Since(at) > commonLexemesTTL
	if stale && !busy {
		s.common.busy = true
	}
	s.common.mu.Unlock()
	if list == nil {
		list = []string{} // a NULL array would make every word common
	}
	if !stale || busy {
		return list
	}
	refresh := func(ctx context.Context) []string {
		var fresh []string
		err := s.pool.QueryRow(ctx, commonLexemesSQL, commonLexemeShare).Scan(&fresh)
		s.common.mu.Lock()
		defer s.common.mu.Unlock()
		s.common.busy = false
		if err != nil || fresh == nil {
			return list
		}
		s.common.list, s.common.at = fresh, time.Now()
		return fresh
	}
	if at.IsZero() {
		return refresh(ctx) // the first search waits for the list
	}
	go func() {
		// Nobody waits for this read: bound it, or a hung one would keep the
		// list from ever being refreshed again.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), detachedReadTimeout)
		defer cancel()
		refresh(rctx)
	}()
	return list
}

// commonLexemeShare: a word of the question found in more than this share of
// the chunks (PostgreSQL's statistics of the tsv column, most_common_elems)
// is left out of the full-text side of a hybrid search. Matching any of the
// question's words, one common word made PostgreSQL rank a third of a
// 100,000-chunk table (415 ms a search); such a word tells little apart and
// ts_rank_cd does not weigh words by rarity anyway. When every word is common,
// the chunks must hold all of them.
const commonLexemeShare = 0.01

// Search finds the k chunks of the tenant nearest to the query vector among those
// whose attributes contain the filter. It uses the HNSW index with pgvector's
// iterative scans, so a filter does not cut the candidates short; if the index
// still yields fewer than k hits (hnsw.max_scan_tuples reached), it searches the
// filtered rows exactly, so a filter never silently returns fewer than k hits.
func (s *Store) Search(ctx context.Context, q store.SearchQuery) ([]store.Hit, store.SearchInfo, error) {
	dims := strconv.Itoa(len(q.Vector))
	filter := jsonOrEmpty(q.Filter)
	vec := pgvector.NewVector(q.Vector)
	// Chunk columns from table alias t, provenance from the document.
	cols := func(t string) string {
		return t + ".source, " + t + ".doc_id, " + t + ".chunk, " + t + ".title, " + t + ".text, " + t + ".attrs, " + t + ".version, " +
			"d.kafka_topic, d.kafka_partition, d.kafka_offset, d.trace_id"
	}
	info := store.SearchInfo{Mode: "ann"}
	if q.K > s.efSearch {
		return nil, info, fmt.Errorf("searching knowledge: k %d exceeds postgres.ef_search %d", q.K, s.efSearch)
	}
	var hits []store.Hit
	var err error
	if strings.TrimSpace(q.Text) == "" {
		// relaxed_order may return hits slightly out of order: re-sort the
		// materialised result (pgvector's documented pattern).
		hits, err = readAll(ctx, s, scanHit, `
		WITH ann AS MATERIALIZED (
			SELECT c.source, c.key, c.doc_id, c.chunk, c.title, c.text, c.attrs, c.version,
			       c.embedding::vector(`+dims+`) <=> $2::vector(`+dims+`) AS distance
			FROM document_chunks c
			WHERE c.tenant = $1 AND c.attrs @> $3::jsonb
			ORDER BY c.embedding::vector(`+dims+`) <=> $2::vector(`+dims+`)
			LIMIT $4)
		SELECT `+cols("ann")+`, 1 - ann.distance FROM ann JOIN documents d USING (source, key)
		ORDER BY ann.distance, ann.source, ann.doc_id, ann.chunk`, q.Tenant, vec, filter, q.K)
	} else {
		// Hybrid: the k nearest chunks by vector and the k best by full text,
		// fused by reciprocal rank (1/(60 + rank) from each list): a chunk naming
		// the question's exact term (an error code, a product name) rises even
		// when its vector is far. The full-text side takes the chunks holding
		// any of the question's words (or of its CJK character bigrams) that are
		// not common in the chunks (commonLexemeShare; all of them when every
		// word is common) and ranks them by ts_rank_cd on all of its words.
		// It is planned with the question's values each time
		// (QueryExecModeExec): a prepared statement's generic plan, which
		// PostgreSQL switches to after five runs, cannot know how many chunks a
		// question matches and scanned the whole table (415 ms a search at
		// 100,000 chunks, against ~30 ms planned each time).
		info.Mode = "hybrid"
		hits, err = readAll(ctx, s, scanHit, `
		WITH ann AS MATERIALIZED (
			SELECT c.source, c.key, c.chunk, c.embedding::vector(`+dims+`) <=> $2::vector(`+dims+`) AS distance
			FROM document_chunks c
			WHERE c.tenant = $1 AND c.attrs @> $3::jsonb
			ORDER BY c.embedding::vector(`+dims+`) <=> $2::vector(`+dims+`)
			LIMIT $4),
		`+searchFTSQuery+`,
		fts AS MATERIALIZED (
			SELECT c.source, c.key, c.chunk, ts_rank_cd(c.tsv, query.rank) AS rank
			FROM document_chunks c, query
			WHERE c.tenant = $1 AND c.attrs @> $3::jsonb AND c.tsv @@ query.sel
			ORDER BY rank DESC, c.source, c.key, c.chunk
			LIMIT $4),
		fused AS (
			SELECT source, key, chunk, sum(rrf) AS rrf FROM (
				SELECT source, key, chunk, 1.0 / (60 + row_number() OVER (ORDER BY distance, source, key, chunk)) AS rrf FROM ann
				UNION ALL
				SELECT source, key, chunk, 1.0 / (60 + row_number() OVER (ORDER BY rank DESC, source, key, chunk)) FROM fts) u
			GROUP BY source, key, chunk)
		SELECT `+cols("c")+`, 1 - (c.embedding::vector(`+dims+`) <=> $2::vector(`+dims+`))
		FROM fused f JOIN document_chunks c USING (source, key, chunk) JOIN documents d USING (source, key)
		ORDER BY f.rrf DESC, c.source, c.doc_id, c.chunk
		LIMIT $4`, pgx.QueryExecModeExec, q.Tenant, vec, string(filter), q.K, textutil.Simplified(q.Text), s.commonLexemes(ctx),
			textutil.Simplified(strings.Join(q.Also, " ")))
	}
	if err != nil {
		return nil, info, fmt.Errorf("searching knowledge: %w", err)
	}
	if len(hits) >= q.K {
		return hits, info, nil
	}
	info.Mode = "exact"
	hits, err = s.ExactSearch(ctx, q)
	if err != nil {
		return nil, info, fmt.Errorf("searching knowledge exactly: %w", err)
	}
	return hits, info, nil
}

func scanHit(r pgx.CollectableRow) (store.Hit, error) {
	var h store.Hit
	p := &h.Provenance
	err := r.Scan(&h.Source, &h.DocID, &h.Chunk, &h.Title, &h.Text, &h.Attrs, &h.Version, &p.Topic, &p.Partition, &p.Offset, &p.TraceID, &h.Score)
	return h, err
}

// ExplainSearch returns the plan of the ANN query of q (for tests and operators
// checking that the HNSW index is used).
func (s *Store) ExplainSearch(ctx context.Context, q store.SearchQuery) (string, error) {
	dims := strconv.Itoa(len(q.Vector))
	rows, err := s.pool.Query(ctx, `EXPLAIN SELECT c.chunk FROM document_chunks c WHERE c.tenant = $1
		ORDER BY c.embedding::vector(`+dims+`) <=> $2::vector(`+dims+`) LIMIT $3`, q.Tenant, pgvector.NewVector(q.Vector), q.K)
	if err != nil {
		return "", err
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	return fmt.Sprint(lines), err
}

// VacuumAnalyze vacuums the event and chunk tables and refreshes their planner
// statistics, after a bulk load: so that searches choose the HNSW index for
// large tenants, and so that autovacuum's first pass over the freshly loaded
// rows does not run later, beside whatever is measured next.
func (s *Store) VacuumAnalyze(ctx context.Context) error {
	_, err := s.pool.Exec(ctx, `VACUUM (ANALYZE) events, documents, document_chunks`)
	return err
}

// Setting returns a server setting as this store's connections see it.
func (s *Store) Setting(ctx context.Context, name string) (string, error) {
	var v string
	// Using the vector type first loads pgvector, which defines its settings.
	err := s.pool.QueryRow(ctx, `SELECT '[1]'::vector IS NOT NULL, current_setting($1)`, name).Scan(new(bool), &v)
	return v, err
}

// ExactSearch is Search without the index: every chunk of the tenant that
// matches the filter is compared. It is the reference that recall is measured
// against.
func (s *Store) ExactSearch(ctx context.Context, q store.SearchQuery) ([]store.Hit, error) {
	return readAll(ctx, s, scanHit, `
		SELECT c.source, c.doc_id, c.chunk, c.title, c.text, c.attrs, c.version,
		       d.kafka_topic, d.kafka_partition, d.kafka_offset, d.trace_id, 1 - (c.embedding <=> $2) AS score
		FROM document_chunks c JOIN documents d USING (source, key)
		WHERE c.tenant = $1 AND c.attrs @> $3::jsonb
		ORDER BY c.embedding <=> $2, c.source, c.doc_id, c.chunk
		LIMIT $4`, q.Tenant, pgvector.NewVector(q.Vector), jsonOrEmpty(q.Filter), q.K)
}
