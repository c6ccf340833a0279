//go:build !lean

package wire

import (
	"context"
	"fmt"
	"io"

	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/milvusstore"
)

// Lean is whether this is the lean build (-tags lean), which leaves out the
// Milvus client and the development broker (HandOver).
const Lean = false

// openMilvus connects to Milvus and checks that `ingest migrate` set it up.
func openMilvus(ctx context.Context, cfg *config.Config) (store.VectorStore, func(), error) {
	m, err := milvusstore.Connect(ctx, cfg.Milvus, cfg.Embedder.Dims)
	if err != nil {
		return nil, nil, err
	}
	if err := m.Check(ctx); err != nil {
		m.Close()
		return nil, nil, err
	}
	return m, m.Close, nil
}

// SetupMilvus creates and loads the Milvus collections (`ingest migrate` with
// store: milvus) and says what knowledge search will be.
func SetupMilvus(ctx context.Context, cfg *config.Config, stdout io.Writer) error {
	m, err := milvusstore.Connect(ctx, cfg.Milvus, cfg.Embedder.Dims)
	if err != nil {
		return err
	}
	defer m.Close()
	created, err := m.Setup(ctx)
	for _, name := range created {
		fmt.Fprintln(stdout, "created Milvus collection", name)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Milvus collections ready for %d-dimensional vectors (consistency %s)\n", cfg.Embedder.Dims, cfg.Milvus.Consistency)
	ft, err := m.FullText(ctx)
	switch {
	case err != nil:
		return err
	case ft:
		fmt.Fprintln(stdout, "knowledge search: hybrid (Milvus BM25 full text fused with the vectors)")
	default:
		fmt.Fprintf(stdout, "knowledge search: vectors only (%s_chunks has no BM25 field: milvus.full_text is off, or the collection predates it)\n", cfg.Milvus.Prefix)
	}
	return nil
}
