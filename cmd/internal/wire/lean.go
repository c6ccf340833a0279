//go:build lean

package wire

import (
	"context"
	"io"

	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/store"
)

// Lean is whether this is the lean build (-tags lean), which leaves out the
// Milvus client and the development broker (HandOver).
const Lean = true

// openMilvus is not reached in the lean build: HandOver hands a config with
// store: milvus to the full build first.
func openMilvus(context.Context, *config.Config) (store.VectorStore, func(), error) {
	return nil, nil, NotInLeanBuild("store: milvus")
}

// SetupMilvus is not reached in the lean build either (HandOver).
func SetupMilvus(context.Context, *config.Config, io.Writer) error {
	return NotInLeanBuild("store: milvus")
}

// MilvusReembedder is not reached in the lean build either (HandOver).
func MilvusReembedder(context.Context, *config.Config, string, int, EmbedFunc) (Reembedder, error) {
	return nil, NotInLeanBuild("store: milvus")
}
