//go:build !lean

package wire

import (
	"context"
	"fmt"
	"io"

	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/pipeline"
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

// MilvusReembedder copies the Milvus collections of the prefix from (vectors
// of fromDims dimensions) into those of milvus.prefix, with the vectors of the
// configured embedder: a collection's vector size is fixed when it is made.
// The collections copied from stay as they are.
func MilvusReembedder(ctx context.Context, cfg *config.Config, from string, fromDims int, embed EmbedFunc) (Reembedder, error) {
	if from == cfg.Milvus.Prefix {
		return nil, fmt.Errorf("-copy-from: %q is milvus.prefix: the vectors go into other collections (a vector's size in Milvus is fixed); set milvus.prefix to a new prefix", from)
	}
	old := cfg.Milvus
	old.Prefix = from
	src, err := milvusstore.Connect(ctx, old, fromDims)
	if err != nil {
		return nil, err
	}
	if err := src.Check(ctx); err != nil {
		src.Close()
		return nil, fmt.Errorf("-copy-from %s: %w", from, err)
	}
	dst, err := milvusstore.Connect(ctx, cfg.Milvus, cfg.Embedder.Dims)
	if err != nil {
		src.Close()
		return nil, err
	}
	return &milvusReembed{src: src, dst: dst, embed: embed}, nil
}

type milvusReembed struct {
	src, dst *milvusstore.Store
	embed    EmbedFunc
}

// Begin creates and loads the collections copied into.
func (m *milvusReembed) Begin(ctx context.Context) error {
	_, err := m.dst.Setup(ctx)
	return err
}

func (m *milvusReembed) Tables() []string { return milvusstore.CopyKinds }

func (m *milvusReembed) Count(context.Context, string) (int, error) { return -1, nil }

func (m *milvusReembed) Step(ctx context.Context, table, after string, n int) (string, int, error) {
	return m.dst.CopyPage(ctx, m.src, table, after, n, pipeline.ChunkInput, m.embed)
}

func (m *milvusReembed) Finish(context.Context) error { return nil } // Milvus indexes as it goes

func (m *milvusReembed) Close() { m.src.Close(); m.dst.Close() }
