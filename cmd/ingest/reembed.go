package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
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

const reembedUsage = `ingest reembed: make every stored vector again with the configured embedder.

Usage:
  ingest reembed -config FILE [-dry-run] [-batch N] [-progress auto|line|log]
  ingest reembed -config FILE -copy-from PREFIX     (store: milvus)

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
At the end it builds the knowledge index again, and empties the recent cache's
events (they carry the old vectors): the API reads the store until ingest has
fed the cache again, as after a cold start. Run again when it has finished, it
says there is nothing to do.

PostgreSQL's vectors are made again in place. A Milvus collection's vector size
is fixed, so with store: milvus set milvus.prefix to a new prefix and name the
current one with -copy-from: the events, documents and chunks are copied into
the new collections with new vectors, and the old collections stay as they were
(nothing reads them afterwards: drop them when you no longer want them).

-dry-run says what it would do (the models, how many vectors) and writes
nothing; the services may run meanwhile.

Examples:
  ingest reembed -config examples/demo.yaml -dry-run
  ingest reembed -config examples/demo.yaml
  ingest reembed -config milvus.yaml -copy-from freshctx

Flags:
`

type reembedFlags struct {
	batch    int
	progress string
	copyFrom string
	dryRun   bool
}

func runReembed(ctx context.Context, cfg *config.Config, log *slog.Logger, f reembedFlags, stdout, stderr io.Writer) error {
	milvus := cfg.Store == config.StoreMilvus
	switch {
	case milvus && f.copyFrom == "":
		return fmt.Errorf("-copy-from: required with store: milvus: a vector's size in Milvus is fixed, so the vectors are copied into new collections; set milvus.prefix to a new prefix and name the current one (%q?) with -copy-from", cfg.Milvus.Prefix)
	case !milvus && f.copyFrom != "":
		return errors.New("-copy-from: only with store: milvus (PostgreSQL's vectors are made again in place)")
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
	st, emb, closeAll, err := wire.OpenForReembed(ctx, cfg, wire.Registry(), log, f.dryRun)
	if err != nil {
		return err
	}
	defer closeAll()
	if f.dryRun {
		stdout = dryRunWriter{stdout}
	}
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
		if !f.dryRun {
			if err := st.FinishReembed(ctx, to); err != nil { // records it on a new store
				return err
			}
		}
		if from == "" {
			fmt.Fprintf(stdout, "the store holds no vectors yet: nothing to re-embed (they will be %s's)\n", to)
		} else {
			fmt.Fprintf(stdout, "the store holds vectors of %s already: nothing to re-embed\n", to)
		}
		return nil
	case !unfinished, r.To != to || r.Copy != f.copyFrom:
		if unfinished {
			fmt.Fprintf(stdout, "an unfinished re-embedding to %s is replaced by this one: starting over\n", r.To)
		}
		r = pgstore.Reembed{To: to, Copy: f.copyFrom}
	default:
		fmt.Fprintf(stdout, "resuming the re-embedding to %s after %s vectors, in %s\n", to, count(int64(r.Rows())), r.Table)
	}
	if r.Done == nil {
		r.Done = map[string]int{}
	}
	embed := func(texts []string) ([][]float32, error) {
		vecs, err := emb.Embed(context.WithoutCancel(ctx), texts) // the batch in hand is finished
		if err == nil && len(vecs) != len(texts) {
			err = fmt.Errorf("%d vectors for %d texts", len(vecs), len(texts))
		}
		for _, v := range vecs {
			if err == nil && len(v) != emb.Dims() {
				err = fmt.Errorf("a vector of %d dimensions, want %d", len(v), emb.Dims())
			}
		}
		return vecs, err
	}
	var re wire.Reembedder
	if milvus {
		if re, err = wire.MilvusReembedder(ctx, cfg, f.copyFrom, wire.DimsOf(from), embed); err != nil {
			return err
		}
	} else {
		re = wire.PGReembedder(st, wire.DimsOf(from), emb.Dims(), embed)
	}
	defer re.Close()
	tables := re.Tables()
	if r.Table == "" {
		r.Table = tables[0]
	}
	total := 0
	for _, t := range tables {
		n, err := re.Count(ctx, t)
		if err != nil {
			return err
		}
		if n < 0 {
			total = -1
			break
		}
		total += n
	}
	what := count(int64(total)) + " vectors"
	if total < 0 {
		what = "the vectors"
	}
	where := ""
	if milvus {
		where = fmt.Sprintf(" (from the collections %s_* into %s_*)", f.copyFrom, cfg.Milvus.Prefix)
	}
	fmt.Fprintf(stdout, "re-embedding %s of %s with %s%s\n", what, orUnknown(from), to, where)
	if f.dryRun {
		fmt.Fprintln(stdout, "nothing was written; stop ingest and the context API before running it without -dry-run")
		return nil
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
	if err := re.Begin(ctx); err != nil {
		return err
	}
	start, run := time.Now(), 0
	status := func(finished bool) backfill.Status {
		done := int64(r.Rows())
		return backfill.Status{Job: "reembed", Counts: map[string]int64{"vectors": done}, Done: done, Total: int64(total),
			Unit: "vectors", RunRecords: int64(run), Elapsed: time.Since(start), Finished: finished}
	}
	for ti := max(slices.Index(tables, r.Table), 0); ti < len(tables); {
		if ctx.Err() != nil {
			show(backfill.Status{})
			fmt.Fprintf(stdout, "interrupted after %s vectors: run the same command again to resume\n", count(status(false).Done))
			return nil
		}
		next, n, err := re.Step(context.WithoutCancel(ctx), r.Table, r.After, batch)
		if err != nil {
			return fmt.Errorf("re-embedding %s: %w (run the command again to resume)", r.Table, err)
		}
		if n == 0 {
			if ti++; ti < len(tables) {
				r.Table, r.After = tables[ti], ""
			}
			continue
		}
		r.After, run = next, run+n
		r.Done[r.Table] += n
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
	if err := re.Finish(ctx); err != nil {
		return err
	}
	if err := st.FinishReembed(ctx, to); err != nil {
		return err
	}
	done := make([]string, 0, len(tables))
	for _, t := range tables {
		done = append(done, fmt.Sprintf("%s %s", count(int64(r.Done[t])), strings.ReplaceAll(t, "_", " ")))
	}
	list := strings.Join(done, ", ")
	if k := len(done) - 1; k > 0 {
		list = strings.Join(done[:k], ", ") + " and " + done[k]
	}
	fmt.Fprintf(stdout, "re-embedded %s with %s (this run: %s in %s); the recent cache's events were emptied\n",
		list, to, count(int64(run)), time.Since(start).Round(time.Millisecond))
	if milvus {
		fmt.Fprintf(stdout, "the collections %s_* are kept as they were (nothing reads them now): drop them when you no longer want them\n", f.copyFrom)
	}
	return nil
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown model"
	}
	return s
}

// dryRunWriter marks what a dry run says it would do.
type dryRunWriter struct{ w io.Writer }

func (d dryRunWriter) Write(p []byte) (int, error) {
	if _, err := d.w.Write(append([]byte("dry run: "), p...)); err != nil {
		return 0, err
	}
	return len(p), nil
}
