package milvusstore

import (
	"context"
	"fmt"

	"github.com/milvus-io/milvus-proto/go-api/v2/commonpb"
	"github.com/milvus-io/milvus-proto/go-api/v2/milvuspb"
	"github.com/milvus-io/milvus/client/v2/column"
	"github.com/milvus-io/milvus/client/v2/milvusclient"
)

// Re-embedding with Milvus copies: a collection's vector size is fixed when
// it is made, so the vectors of another embedder go into other collections
// (another milvus.prefix), and the ones before stay as they were until the
// user drops them.

// CopyKinds are the collections copied, in order: events, documents (their
// versions, as written: no vectors of the embedder's), chunks.
var CopyKinds = []string{"events", "documents", "chunks"}

// copyFields are what is read of each kind (all but the vectors made again,
// and the BM25 field Milvus fills itself).
var copyFields = map[string][]string{
	"events": {"pk", "tenant", "entity", "source", "key", "id", "event_time", "text", "attrs", "fields", "text_hash",
		"version", "deleted", "prov"},
	"documents": {"pk", "tenant", "source", "key", "version", "deleted", "text_hash", "marker"},
	"chunks": {"pk", "doc_pk", "tenant", "source", "key", "doc_id", "chunk", "title", "text", "text_hash", "attrs",
		"version", "prov"},
}

func (s *Store) collection(kind string) string {
	return map[string]string{"events": s.events, "documents": s.docs, "chunks": s.chunks}[kind]
}

// pkOrdered is a query Milvus answers in primary-key order, as it answers
// its own query iterator's pages.
type pkOrdered struct{ milvusclient.QueryOption }

func (q pkOrdered) Request() (*milvuspb.QueryRequest, error) {
	r, err := q.QueryOption.Request()
	if err != nil {
		return nil, err
	}
	for _, kv := range [][2]string{{milvusclient.IteratorKey, "true"}, {"reduce_stop_for_best", "true"}} {
		r.QueryParams = append(r.QueryParams, &commonpb.KeyValuePair{Key: kv[0], Value: kv[1]})
	}
	return r, nil
}

// CopyPage copies up to n rows of kind whose primary key follows after (""
// from the start) from from's collection to s's, with the vectors embed makes
// of their texts as ingest embeds them (an event's text, a chunk's title and
// text by input; embed returns one vector of s's size a text), and returns the
// last key copied and how many rows it copied (0 at the end).
func (s *Store) CopyPage(ctx context.Context, from *Store, kind, after string, n int,
	input func(title, text string) string, embed func([]string) ([][]float32, error)) (string, int, error) {
	fields, ok := copyFields[kind]
	if !ok {
		return "", 0, fmt.Errorf("milvus: no collection kind %q", kind)
	}
	src, dst := from.collection(kind), s.collection(kind)
	rs, err := from.c.Query(ctx, pkOrdered{milvusclient.NewQueryOption(src).WithFilter(`pk > {after}`).
		WithTemplateParam("after", after).WithOutputFields(fields...).WithLimit(n).WithConsistencyLevel(from.cl)})
	if err != nil {
		return "", 0, fmt.Errorf("milvus: reading %s: %w", src, err)
	}
	if rs.ResultCount == 0 {
		return after, 0, nil
	}
	pks, err := varchars(&rs, "pk")
	if err != nil {
		return "", 0, err
	}
	last := after
	for _, pk := range pks {
		last = max(last, pk)
	}
	cols := rs.Fields
	if kind != "documents" {
		vecs, err := s.vectors(&rs, kind, input, embed)
		if err != nil {
			return "", 0, err
		}
		cols = append(cols, column.NewColumnFloatVector("embedding", s.dims, vecs))
	}
	if _, err := s.c.Upsert(ctx, milvusclient.NewColumnBasedInsertOption(dst, cols...)); err != nil {
		return "", 0, fmt.Errorf("milvus: writing %s: %w", dst, err)
	}
	return last, rs.ResultCount, nil
}

// vectors embeds the page's texts; an event's delete marker takes the unit
// placeholder, as it is written.
func (s *Store) vectors(rs *milvusclient.ResultSet, kind string, input func(title, text string) string, embed func([]string) ([][]float32, error)) ([][]float32, error) {
	texts, err := varchars(rs, "text")
	if err != nil {
		return nil, err
	}
	titles := make([]string, len(texts))
	if kind == "chunks" {
		if titles, err = varchars(rs, "title"); err != nil {
			return nil, err
		}
	}
	var deleted []bool
	if kind == "events" {
		c, ok := rs.GetColumn("deleted").(*column.ColumnBool)
		if !ok {
			return nil, fmt.Errorf("milvus: %s: no deleted column", s.collection(kind))
		}
		deleted = c.Data()
	}
	var in []string
	var at []int
	for i, t := range texts {
		if deleted != nil && deleted[i] {
			continue
		}
		if kind == "chunks" {
			t = input(titles[i], t)
		}
		in, at = append(in, t), append(at, i)
	}
	vecs := make([][]float32, len(texts))
	for i := range vecs {
		vecs[i] = placeholder(s.dims)
	}
	if len(in) > 0 {
		got, err := embed(in)
		if err != nil {
			return nil, err
		}
		if len(got) != len(in) {
			return nil, fmt.Errorf("%d vectors for %d texts", len(got), len(in))
		}
		for j, i := range at {
			vecs[i] = got[j] // (of s.dims dimensions: the caller's embed checks)
		}
	}
	return vecs, nil
}

func varchars(rs *milvusclient.ResultSet, name string) ([]string, error) {
	c, ok := rs.GetColumn(name).(*column.ColumnVarChar)
	if !ok {
		return nil, fmt.Errorf("milvus: no %s column in the result", name)
	}
	return c.Data(), nil
}
