package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/freshctx/freshctx/backfill"
	"github.com/freshctx/freshctx/cmd/internal/wire"
	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/pipeline"
	"github.com/freshctx/freshctx/store/pgstore"
	"github.com/freshctx/freshctx/store/rediscache"
)

const reembedUsage = `ingest reembed: rewrite every stored vector with the configured embedder.

Usage:
  ingest reembed -config FILE [-batch N] [-progress auto|line|log]

Vectors of two embedding models cannot be compared, so ingest and the context
API refuse to start when the configured embedder (provider, model, dims, the
local embedder's word_vectors) is not the one the store's vectors were made
with. To change it: stop ingest and the context API, set the new embedder in
the config, and run this command.

It embeds every stored event and knowledge chunk again from its stored text,
batch by batch in key order, and records where it is after each batch: SIGINT
stops after the batch in hand, and running the command again resumes. Until it
has finished, neither service starts, with either embedder; while it runs, it
refuses to start if a service is using the store, and a service refuses to start.
At the end it records the new model, builds the knowledge index for its size,
and empties the recent cache's events (they carry the old vectors): the API
reads PostgreSQL until ingest has fed the cache again, as after a cold start.
Run it again when it has finished, and it says there is nothing to do.

With store: milvus it refuses: the vectors live in Milvus, which it does not
rewrite yet.

Example:
  ingest reembed -config examples/demo.yaml

Flags:
`

type reembedFlags struct {
	batch    int
	progress string
}

// reembedTables are the tables re-embedded, in order.
var reembedTables = []string{"events", "document_chunks"}

func runReembed(ctx context.Context, cfg *config.Config, log *slog.Logger, f reembedFlags, stdout, stderr io.Writer) error {
	if cfg.Store == config.StoreMilvus {
		return errors.New("reembed: with store: milvus the vectors live in Milvus, which ingest reembed does not rewrite yet: to change the embedder, use another milvus.prefix and PostgreSQL database and load the data again (ingest backfill)")
	}
	batch := f.batch
	if batch == 0 {
		batch = cfg.Pipeline.BatchSize
	}
	if batch <= 0 {
		batch = pipeline.BatchSizeDefault
	}
	show, err := progressPrinter(f.progress, stderr, log, "reembed")
	if err != nil {
		return err
	}
	st, emb, closeAll, err := wire.OpenForReembed(ctx, cfg, wire.Registry(), log)
	if err != nil {
		return err
	}
	defer closeAll()
	to := emb.Model() + "/" + strconv.Itoa(emb.Dims())
	from, err := st.Embedding(ctx)
	if err != nil {
		return err
	}
	r, unfinished, err := st.LoadReembed(ctx)
	if err != nil {
		return err
	}
	switch {
	case !unfinished && (from == to || from == ""):
		if err := st.FinishReembed(ctx, to); err != nil { // records it on a new store
			return err
		}
		fmt.Fprintf(stdout, "the store holds vectors of %s already: nothing to re-embed\n", to)
		return nil
	case !unfinished:
		r = pgstore.Reembed{To: to, Table: reembedTables[0]}
	case r.To != to:
		fmt.Fprintf(stdout, "an unfinished re-embedding to %s is replaced by this one: starting over\n", r.To)
		r = pgstore.Reembed{To: to, Table: reembedTables[0]}
	default:
		fmt.Fprintf(stdout, "resuming the re-embedding to %s at %s after %s/%s\n", to, r.Table, r.After.Source, r.After.Key)
	}
	if r.Done == nil {
		r.Done = map[string]int{}
	}
	cache, err := rediscache.New(cfg.Redis)
	if err != nil {
		return err
	}
	defer cache.Close()
	if err := cache.Ping(ctx); err != nil {
		return fmt.Errorf("redis (%s): %w: the recent cache holds events with the vectors before, and re-embedding empties it at its end", cfg.Redis.Where(), err)
	}
	// Recorded before the first vector is written: from here on, neither
	// embedder's services start until the re-embedding has finished.
	if err := st.SaveReembed(ctx, r); err != nil {
		return err
	}
	// The knowledge index is built again at the end: inserting every new
	// vector into its graph is slower than building it, and one of the size
	// before cannot take vectors of another size.
	if i := strings.LastIndexByte(from, '/'); i >= 0 {
		if dims, err := strconv.Atoi(from[i+1:]); err == nil {
			if err := st.DropChunkIndex(ctx, dims); err != nil {
				return err
			}
		}
	}
	total := 0
	for _, t := range reembedTables {
		n, err := st.CountVectors(ctx, t)
		if err != nil {
			return err
		}
		total += n
	}
	fmt.Fprintf(stdout, "re-embedding %s vectors of %s with %s\n", count(int64(total)), orUnknown(from), to)
	start, run := time.Now(), 0
	status := func(finished bool) backfill.Status {
		done := int64(0)
		for _, n := range r.Done {
			done += int64(n)
		}
		return backfill.Status{Job: "reembed", Counts: map[string]int64{"records": done}, Done: done, Total: int64(total),
			Unit: "records", RunRecords: int64(run), Elapsed: time.Since(start), Finished: finished}
	}
	for ti := indexOf(reembedTables, r.Table); ti < len(reembedTables); {
		if ctx.Err() != nil {
			show(backfill.Status{})
			fmt.Fprintf(stdout, "interrupted after %s vectors: run the same command again to resume\n", count(status(false).Done))
			return nil
		}
		rows, err := st.VectorRows(ctx, r.Table, r.After, batch)
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			if ti++; ti < len(reembedTables) {
				r.Table, r.After = reembedTables[ti], pgstore.VectorRowKey{}
			}
			continue
		}
		texts := make([]string, len(rows))
		for i, row := range rows {
			texts[i] = row.Text
			if r.Table == "document_chunks" {
				texts[i] = pipeline.ChunkInput(row.Title, row.Text) // as ingest embeds it
			}
		}
		vecs, err := emb.Embed(context.WithoutCancel(ctx), texts)
		if err == nil && len(vecs) != len(texts) {
			err = fmt.Errorf("%d vectors for %d texts", len(vecs), len(texts))
		}
		if err != nil {
			return fmt.Errorf("embedding %s after %s/%s: %w (run the command again to resume)", r.Table, r.After.Source, r.After.Key, err)
		}
		written, err := st.SetVectors(context.WithoutCancel(ctx), r.Table, rows, vecs)
		if err != nil {
			return err
		}
		if written != len(rows) {
			// Only a writer that does not claim the store can do this.
			return fmt.Errorf("%d of %d rows of %s after %s/%s changed while they were re-embedded: something writes to the store beside this command; stop it and run the command again",
				len(rows)-written, len(rows), r.Table, r.After.Source, r.After.Key)
		}
		r.After, run = rows[len(rows)-1].VectorRowKey, run+len(rows)
		r.Done[r.Table] += len(rows)
		if err := st.SaveReembed(context.WithoutCancel(ctx), r); err != nil {
			return err
		}
		show(status(false))
	}
	show(status(true))
	show(backfill.Status{}) // end the live line
	if err := cache.DropEvents(ctx); err != nil {
		return fmt.Errorf("emptying the recent cache's events (redis %s): %w (run the command again to finish)", cfg.Redis.Where(), err)
	}
	if err := st.EnsureChunkIndex(ctx, emb.Dims()); err != nil {
		return err
	}
	if err := st.FinishReembed(ctx, to); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "re-embedded %s events and %s knowledge chunks with %s (this run: %s in %s); the recent cache's events were emptied\n",
		count(int64(r.Done["events"])), count(int64(r.Done["document_chunks"])), to, count(int64(run)), time.Since(start).Round(time.Millisecond))
	return nil
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return 0
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown model"
	}
	return s
}
