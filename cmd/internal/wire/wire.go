// Package wire holds the start-up steps both binaries share: opening the store
// (refusing a database with pending migrations), building the embedder (refusing
// one that does not match the stored vectors), and the logger.
package wire

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/store/pgstore"
)

// Open connects to PostgreSQL and returns the store and the embedder, after
// checking that the schema is current and the embedder matches the stored vectors.
func Open(ctx context.Context, cfg *config.Config) (*pgstore.Store, *embed.Local, error) {
	st, err := pgstore.Connect(ctx, cfg.Postgres)
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (*pgstore.Store, *embed.Local, error) {
		st.Close()
		return nil, nil, err
	}
	pending, err := st.Pending(ctx)
	if err != nil {
		return fail(err)
	}
	if len(pending) > 0 {
		return fail(fmt.Errorf("database schema is not up to date (pending: %s): run `ingest migrate -config FILE` first", strings.Join(pending, ", ")))
	}
	emb, err := embed.NewLocal(cfg.Embedder.Dims)
	if err != nil {
		return fail(fmt.Errorf("embedder: %w", err))
	}
	if err := st.CheckEmbedding(ctx, emb.Model(), emb.Dims()); err != nil {
		return fail(err)
	}
	return st, emb, nil
}

// Logger returns a slog logger writing to w at level ("debug", "info", "warn",
// "error") in format ("text" or "json").
func Logger(w io.Writer, level, format string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("-log-level: %q is not one of debug, info, warn, error", level)
	}
	opts := &slog.HandlerOptions{Level: l}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("-log-format: %q is not one of text, json", format)
}
