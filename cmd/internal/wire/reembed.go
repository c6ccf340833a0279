package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/freshctx/freshctx/pipeline"
	"github.com/freshctx/freshctx/store/pgstore"
)

// Reembedder makes a store's vectors again with another embedder (ingest
// reembed), table by table and page by page.
type Reembedder interface {
	// Begin prepares the store (drops or creates what the new vectors need).
	Begin(ctx context.Context) error
	// Tables are the store's tables (collections) of vectors, in order.
	Tables() []string
	// Count is how many rows table holds (-1: not known).
	Count(ctx context.Context, table string) (int, error)
	// Step makes the vectors of up to n rows of table after the cursor after
	// ("": from the start) of their texts as ingest embeds them, and returns
	// the cursor after them and how many rows it did: 0 when table is done.
	Step(ctx context.Context, table, after string, n int) (string, int, error)
	// Finish builds what searches need (the knowledge index).
	Finish(ctx context.Context) error
	Close()
}

// EmbedFunc makes one vector of the new embedder's size for each text.
type EmbedFunc = func(texts []string) ([][]float32, error)

// DimsOf is the size of a recorded embedding ("model/dims"; 0: none).
func DimsOf(embedding string) int {
	i := strings.LastIndexByte(embedding, '/')
	n, err := strconv.Atoi(embedding[i+1:])
	if i < 0 || err != nil {
		return 0
	}
	return n
}

// PGReembedder makes the vectors of PostgreSQL's tables again in place with
// embed, from vectors of oldDims dimensions (0: not known) to vectors of dims.
func PGReembedder(st *pgstore.Store, oldDims, dims int, embed EmbedFunc) Reembedder {
	return &pgReembed{st: st, oldDims: oldDims, dims: dims, embed: embed}
}

type pgReembed struct {
	st            *pgstore.Store
	oldDims, dims int
	embed         EmbedFunc
}

// Begin drops the knowledge index: building it again at the end is faster
// than inserting every new vector into its graph, and an index of another
// size cannot take the new vectors at all.
func (p *pgReembed) Begin(ctx context.Context) error {
	if p.oldDims > 0 {
		return p.st.DropChunkIndex(ctx, p.oldDims)
	}
	return nil
}

func (p *pgReembed) Tables() []string { return []string{"events", "document_chunks"} }

func (p *pgReembed) Count(ctx context.Context, table string) (int, error) {
	return p.st.CountVectors(ctx, table)
}

func (p *pgReembed) Step(ctx context.Context, table, after string, n int) (string, int, error) {
	var key pgstore.VectorRowKey
	if after != "" {
		if err := json.Unmarshal([]byte(after), &key); err != nil {
			return "", 0, fmt.Errorf("the re-embedding's position %q: %w", after, err)
		}
	}
	rows, err := p.st.VectorRows(ctx, table, key, n)
	if err != nil || len(rows) == 0 {
		return after, 0, err
	}
	texts := make([]string, len(rows))
	for i, row := range rows {
		texts[i] = row.Text
		if table == "document_chunks" {
			texts[i] = pipeline.ChunkInput(row.Title, row.Text)
		}
	}
	vecs, err := p.embed(texts)
	if err != nil {
		return "", 0, err
	}
	written, err := p.st.SetVectors(ctx, table, rows, vecs)
	if err != nil {
		return "", 0, err
	}
	if written != len(rows) {
		// Only a writer that does not claim the store can do this.
		return "", 0, fmt.Errorf("%d of %d rows of %s changed while they were re-embedded: something writes to the store beside this command; stop it and run the command again",
			len(rows)-written, len(rows), table)
	}
	next, err := json.Marshal(rows[len(rows)-1].VectorRowKey)
	return string(next), len(rows), err
}

func (p *pgReembed) Finish(ctx context.Context) error { return p.st.EnsureChunkIndex(ctx, p.dims) }

func (p *pgReembed) Close() {}
