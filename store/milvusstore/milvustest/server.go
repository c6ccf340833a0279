// Package milvustest is an in-process Milvus for tests: a gRPC server speaking
// Milvus's own protocol definitions (milvus-proto), with the calls freshctx's
// Milvus store makes (collections, indexes, loading, upsert, delete by
// expression, query, search, hybrid search). It keeps rows in memory, evaluates
// the expressions it receives (with template parameters), ranks searches by
// cosine similarity, fills a BM25 function's sparse field from its text and
// ranks text searches on it by BM25 (with a simple analyzer: lower case, split
// at anything but letters and digits, each CJK character a word; Milvus's own
// analyzers are richer), fuses hybrid searches by reciprocal rank, and records
// what it was sent, so tests can check that the store upserts and
// never inserts, sends its values as template parameters, declares the tenant
// as partition key and reads at the configured consistency level.
package milvustest

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/milvus-io/milvus-proto/go-api/v2/commonpb"
	"github.com/milvus-io/milvus-proto/go-api/v2/milvuspb"
	"github.com/milvus-io/milvus-proto/go-api/v2/schemapb"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// Server is the fake. Its exported fields are what it saw.
type Server struct {
	milvuspb.UnimplementedMilvusServiceServer

	mu    sync.Mutex
	colls map[string]*collection

	// Inserts counts Insert calls (the store must never make one).
	Inserts int
	// Upserts counts Upsert calls.
	Upserts int
	// Exprs are the filter expressions received (query, search, delete).
	Exprs []string
	// Levels are the consistency levels of reads.
	Levels []commonpb.ConsistencyLevel
	// PartitionKeys maps each created collection to its partition-key field.
	PartitionKeys map[string]string
	// HybridSearches counts HybridSearch calls.
	HybridSearches int
}

type collection struct {
	schema *schemapb.CollectionSchema
	rows   map[string]map[string]any // by primary key
	pk     string
	level  commonpb.ConsistencyLevel
	// bm25 maps a BM25 function's output (sparse) field to its input text field.
	bm25 map[string]string
}

// Start serves on a loopback port until the test ends and returns the address.
func Start(t testing.TB) (*Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{colls: map[string]*collection{}, PartitionKeys: map[string]string{}}
	g := grpc.NewServer()
	milvuspb.RegisterMilvusServiceServer(g, s)
	go g.Serve(ln)
	t.Cleanup(g.Stop)
	return s, ln.Addr().String()
}

var ok = &commonpb.Status{ErrorCode: commonpb.ErrorCode_Success}

func fail(format string, args ...any) *commonpb.Status {
	return &commonpb.Status{ErrorCode: commonpb.ErrorCode_UnexpectedError, Code: 1100, Reason: fmt.Sprintf(format, args...)}
}

func (s *Server) Connect(context.Context, *milvuspb.ConnectRequest) (*milvuspb.ConnectResponse, error) {
	return &milvuspb.ConnectResponse{Status: ok, ServerInfo: &commonpb.ServerInfo{BuildTags: "milvustest"}, Identifier: 1}, nil
}

func (s *Server) HasCollection(_ context.Context, r *milvuspb.HasCollectionRequest) (*milvuspb.BoolResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, has := s.colls[r.GetCollectionName()]
	return &milvuspb.BoolResponse{Status: ok, Value: has}, nil
}

func (s *Server) CreateCollection(_ context.Context, r *milvuspb.CreateCollectionRequest) (*commonpb.Status, error) {
	var sch schemapb.CollectionSchema
	if err := proto.Unmarshal(r.GetSchema(), &sch); err != nil {
		return fail("schema: %v", err), nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.colls[r.GetCollectionName()]; dup {
		return fail("collection %s exists", r.GetCollectionName()), nil
	}
	c := &collection{schema: &sch, rows: map[string]map[string]any{}, level: r.GetConsistencyLevel(), bm25: map[string]string{}}
	vectors := 0
	byName := map[string]*schemapb.FieldSchema{}
	for _, f := range sch.Fields {
		byName[f.Name] = f
	}
	for _, fn := range sch.Functions {
		if fn.Type != schemapb.FunctionType_BM25 || len(fn.InputFieldNames) != 1 || len(fn.OutputFieldNames) != 1 {
			return fail("function %s: only BM25 with one input and one output", fn.Name), nil
		}
		in, out := byName[fn.InputFieldNames[0]], byName[fn.OutputFieldNames[0]]
		if in == nil || in.DataType != schemapb.DataType_VarChar || param(in, "enable_analyzer") != "true" {
			return fail("function %s: the input must be a VARCHAR field with enable_analyzer", fn.Name), nil
		}
		if out == nil || out.DataType != schemapb.DataType_SparseFloatVector {
			return fail("function %s: the output must be a SPARSE_FLOAT_VECTOR field", fn.Name), nil
		}
		out.IsFunctionOutput = true
		c.bm25[out.Name] = in.Name
	}
	for i, f := range sch.Fields {
		f.FieldID = int64(100 + i)
		if f.IsPrimaryKey {
			c.pk = f.Name
		}
		if f.IsPartitionKey {
			s.PartitionKeys[r.GetCollectionName()] = f.Name
		}
		if f.DataType == schemapb.DataType_FloatVector || f.DataType == schemapb.DataType_SparseFloatVector {
			vectors++
		}
	}
	if c.pk == "" || vectors == 0 {
		return fail("a collection needs a primary key and a vector field"), nil
	}
	s.colls[r.GetCollectionName()] = c
	return ok, nil
}

func (s *Server) DescribeCollection(_ context.Context, r *milvuspb.DescribeCollectionRequest) (*milvuspb.DescribeCollectionResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, has := s.colls[r.GetCollectionName()]
	if !has {
		return &milvuspb.DescribeCollectionResponse{Status: &commonpb.Status{ErrorCode: commonpb.ErrorCode_CollectionNotExists, Code: 100,
			Reason: "collection not found"}}, nil
	}
	return &milvuspb.DescribeCollectionResponse{Status: ok, Schema: c.schema, CollectionName: r.GetCollectionName(), CollectionID: 1,
		ConsistencyLevel: c.level, ShardsNum: 1}, nil
}

func (s *Server) CreateIndex(context.Context, *milvuspb.CreateIndexRequest) (*commonpb.Status, error) {
	return ok, nil
}

func (s *Server) DescribeIndex(_ context.Context, r *milvuspb.DescribeIndexRequest) (*milvuspb.DescribeIndexResponse, error) {
	return &milvuspb.DescribeIndexResponse{Status: ok, IndexDescriptions: []*milvuspb.IndexDescription{{
		FieldName: r.GetFieldName(), IndexName: r.GetIndexName(), State: commonpb.IndexState_Finished}}}, nil
}

func (s *Server) LoadCollection(context.Context, *milvuspb.LoadCollectionRequest) (*commonpb.Status, error) {
	return ok, nil
}

func (s *Server) GetLoadingProgress(context.Context, *milvuspb.GetLoadingProgressRequest) (*milvuspb.GetLoadingProgressResponse, error) {
	return &milvuspb.GetLoadingProgressResponse{Status: ok, Progress: 100, RefreshProgress: 100}, nil
}

func (s *Server) GetLoadState(context.Context, *milvuspb.GetLoadStateRequest) (*milvuspb.GetLoadStateResponse, error) {
	return &milvuspb.GetLoadStateResponse{Status: ok, State: commonpb.LoadState_LoadStateLoaded}, nil
}

// Insert is refused: Milvus does not deduplicate primary keys on insert, so the
// store must upsert.
func (s *Server) Insert(context.Context, *milvuspb.InsertRequest) (*milvuspb.MutationResult, error) {
	s.mu.Lock()
	s.Inserts++
	s.mu.Unlock()
	return &milvuspb.MutationResult{Status: fail("milvustest: insert used; the store must upsert")}, nil
}

func (s *Server) Upsert(_ context.Context, r *milvuspb.UpsertRequest) (*milvuspb.MutationResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Upserts++
	c, has := s.colls[r.GetCollectionName()]
	if !has {
		return &milvuspb.MutationResult{Status: fail("collection %s not found", r.GetCollectionName())}, nil
	}
	rows, err := decodeRows(r.GetFieldsData(), int(r.GetNumRows()))
	if err != nil {
		return &milvuspb.MutationResult{Status: fail("%v", err)}, nil
	}
	for _, f := range c.schema.Fields {
		for _, row := range rows {
			if _, has := row[f.Name]; has == f.IsFunctionOutput {
				if has {
					return &milvuspb.MutationResult{Status: fail("field %s is a function's output: Milvus fills it", f.Name)}, nil
				}
				return &milvuspb.MutationResult{Status: fail("field %s missing", f.Name)}, nil
			}
		}
	}
	var pks []string
	for _, row := range rows {
		pk, _ := row[c.pk].(string)
		c.rows[pk] = row
		pks = append(pks, pk)
	}
	return &milvuspb.MutationResult{Status: ok, UpsertCnt: int64(len(rows)),
		IDs: &schemapb.IDs{IdField: &schemapb.IDs_StrId{StrId: &schemapb.StringArray{Data: pks}}}}, nil
}

func (s *Server) Delete(_ context.Context, r *milvuspb.DeleteRequest) (*milvuspb.MutationResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Exprs = append(s.Exprs, r.GetExpr())
	c, has := s.colls[r.GetCollectionName()]
	if !has {
		return &milvuspb.MutationResult{Status: fail("collection %s not found", r.GetCollectionName())}, nil
	}
	e, err := parse(r.GetExpr(), r.GetExprTemplateValues())
	if err != nil {
		return &milvuspb.MutationResult{Status: fail("expr %q: %v", r.GetExpr(), err)}, nil
	}
	n := 0
	for pk, row := range c.rows {
		if truth(e.eval(row)) {
			delete(c.rows, pk)
			n++
		}
	}
	return &milvuspb.MutationResult{Status: ok, DeleteCnt: int64(n)}, nil
}

func (s *Server) match(c *collection, expr string, params map[string]*schemapb.TemplateValue) ([]map[string]any, error) {
	s.Exprs = append(s.Exprs, expr)
	e, err := parse(expr, params)
	if err != nil {
		return nil, fmt.Errorf("expr %q: %v", expr, err)
	}
	pks := make([]string, 0, len(c.rows))
	for pk := range c.rows {
		pks = append(pks, pk)
	}
	sort.Strings(pks) // Milvus promises no order; this one is at least stable
	var out []map[string]any
	for _, pk := range pks {
		if truth(e.eval(c.rows[pk])) {
			out = append(out, c.rows[pk])
		}
	}
	return out, nil
}

func (s *Server) Query(_ context.Context, r *milvuspb.QueryRequest) (*milvuspb.QueryResults, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Levels = append(s.Levels, r.GetConsistencyLevel())
	c, has := s.colls[r.GetCollectionName()]
	if !has {
		return &milvuspb.QueryResults{Status: fail("collection %s not found", r.GetCollectionName())}, nil
	}
	rows, err := s.match(c, r.GetExpr(), r.GetExprTemplateValues())
	if err != nil {
		return &milvuspb.QueryResults{Status: fail("%v", err)}, nil
	}
	for _, kv := range r.GetQueryParams() {
		if kv.Key == "limit" {
			if n, err := strconv.Atoi(kv.Value); err == nil && n < len(rows) {
				rows = rows[:n]
			}
		}
	}
	fields, err := encodeRows(c.schema, r.GetOutputFields(), rows)
	if err != nil {
		return &milvuspb.QueryResults{Status: fail("%v", err)}, nil
	}
	return &milvuspb.QueryResults{Status: ok, FieldsData: fields, CollectionName: r.GetCollectionName(), OutputFields: r.GetOutputFields()}, nil
}

func (s *Server) Search(_ context.Context, r *milvuspb.SearchRequest) (*milvuspb.SearchResults, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, has := s.colls[r.GetCollectionName()]
	if !has {
		return &milvuspb.SearchResults{Status: fail("collection %s not found", r.GetCollectionName())}, nil
	}
	lists, topk, err := s.search(c, r)
	if err != nil {
		return &milvuspb.SearchResults{Status: fail("%v", err)}, nil
	}
	res, err := results(c, r.GetOutputFields(), lists, topk)
	if err != nil {
		return &milvuspb.SearchResults{Status: fail("%v", err)}, nil
	}
	return &milvuspb.SearchResults{Status: ok, Results: res, CollectionName: r.GetCollectionName()}, nil
}

// HybridSearch runs each request and fuses their lists by reciprocal rank
// (the rrf strategy, 1/(k + rank) summed over the lists; the only one here).
func (s *Server) HybridSearch(_ context.Context, r *milvuspb.HybridSearchRequest) (*milvuspb.SearchResults, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.HybridSearches++
	c, has := s.colls[r.GetCollectionName()]
	if !has {
		return &milvuspb.SearchResults{Status: fail("collection %s not found", r.GetCollectionName())}, nil
	}
	rank := map[string]string{}
	for _, kv := range r.GetRankParams() {
		rank[kv.Key] = kv.Value
	}
	var rrf struct {
		K float64 `json:"k"`
	}
	if rank["strategy"] != "rrf" || json.Unmarshal([]byte(rank["params"]), &rrf) != nil || rrf.K <= 0 {
		return &milvuspb.SearchResults{Status: fail("rank params %v: milvustest fuses by rrf with k > 0 only", rank)}, nil
	}
	limit, err := strconv.Atoi(rank["limit"])
	if err != nil || limit < 1 {
		return &milvuspb.SearchResults{Status: fail("limit %q", rank["limit"])}, nil
	}
	fused := map[string]float32{}
	byPK := map[string]map[string]any{}
	for _, req := range r.GetRequests() {
		req.ConsistencyLevel = r.GetConsistencyLevel()
		lists, _, err := s.search(c, req)
		if err != nil {
			return &milvuspb.SearchResults{Status: fail("%v", err)}, nil
		}
		if len(lists) != 1 {
			return &milvuspb.SearchResults{Status: fail("a hybrid search has one query per request")}, nil
		}
		for i, h := range lists[0] {
			pk := h.row[c.pk].(string)
			fused[pk] += float32(1 / (rrf.K + float64(i+1)))
			byPK[pk] = h.row
		}
	}
	var list []scored
	for pk, sc := range fused {
		list = append(list, scored{byPK[pk], sc})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score > list[j].score
		}
		return list[i].row[c.pk].(string) < list[j].row[c.pk].(string)
	})
	if len(list) > limit {
		list = list[:limit]
	}
	res, err := results(c, r.GetOutputFields(), [][]scored{list}, limit)
	if err != nil {
		return &milvuspb.SearchResults{Status: fail("%v", err)}, nil
	}
	return &milvuspb.SearchResults{Status: ok, Results: res, CollectionName: r.GetCollectionName()}, nil
}

type scored struct {
	row   map[string]any
	score float32
}

// search ranks the rows matching the request's filter for each of its queries:
// by cosine on a float vector field, by BM25 on a BM25 function's sparse field
// (the queries are then texts).
func (s *Server) search(c *collection, r *milvuspb.SearchRequest) ([][]scored, int, error) {
	s.Levels = append(s.Levels, r.GetConsistencyLevel())
	params := map[string]string{}
	for _, kv := range r.GetSearchParams() {
		params[kv.Key] = kv.Value
	}
	topk, err := strconv.Atoi(params["topk"])
	if err != nil || topk < 1 {
		return nil, 0, fmt.Errorf("topk %q", params["topk"])
	}
	field := params["anns_field"]
	var pg commonpb.PlaceholderGroup
	if err := proto.Unmarshal(r.GetPlaceholderGroup(), &pg); err != nil || len(pg.Placeholders) != 1 {
		return nil, 0, fmt.Errorf("placeholder group: %v", err)
	}
	rows, err := s.match(c, r.GetDsl(), r.GetExprTemplateValues())
	if err != nil {
		return nil, 0, err
	}
	text, isText := c.bm25[field]
	if isText != (pg.Placeholders[0].Type == commonpb.PlaceholderType_VarChar) {
		return nil, 0, fmt.Errorf("field %s: a search on a BM25 field takes text, on a vector field vectors (got %s)", field, pg.Placeholders[0].Type)
	}
	var out [][]scored
	for _, raw := range pg.Placeholders[0].Values {
		var sc []scored
		if isText {
			sc = bm25(c, text, string(raw), rows)
		} else {
			q := floats(raw)
			for _, row := range rows {
				v, _ := row[field].([]float32)
				sc = append(sc, scored{row, cosine(q, v)})
			}
		}
		sort.SliceStable(sc, func(i, j int) bool { return sc[i].score > sc[j].score })
		if len(sc) > topk {
			sc = sc[:topk]
		}
		out = append(out, sc)
	}
	return out, topk, nil
}

// results encodes ranked lists (one per query) as Milvus search results.
func results(c *collection, fields []string, lists [][]scored, topk int) (*schemapb.SearchResultData, error) {
	res := &schemapb.SearchResultData{NumQueries: int64(len(lists)), TopK: int64(topk)}
	var hits []map[string]any
	var pks []string
	for _, l := range lists {
		for _, x := range l {
			hits = append(hits, x.row)
			res.Scores = append(res.Scores, x.score)
			pks = append(pks, x.row[c.pk].(string))
		}
		res.Topks = append(res.Topks, int64(len(l)))
	}
	res.Ids = &schemapb.IDs{IdField: &schemapb.IDs_StrId{StrId: &schemapb.StringArray{Data: pks}}}
	var err error
	if res.FieldsData, err = encodeRows(c.schema, fields, hits); err != nil {
		return nil, err
	}
	res.OutputFields = fields
	return res, nil
}

// bm25 scores the rows whose text field shares a word with the query (k1 1.2,
// b 0.75, statistics over the whole collection, as Milvus keeps them).
func bm25(c *collection, field, query string, rows []map[string]any) []scored {
	const k1, b = 1.2, 0.75
	df := map[string]float64{}
	total := 0
	for _, row := range c.rows {
		text, _ := row[field].(string)
		words := analyze(text)
		total += len(words)
		seen := map[string]bool{}
		for _, w := range words {
			if !seen[w] {
				seen[w] = true
				df[w]++
			}
		}
	}
	n := float64(len(c.rows))
	avg := math.Max(1, float64(total)/math.Max(1, n))
	terms := map[string]bool{}
	for _, w := range analyze(query) {
		terms[w] = true
	}
	var out []scored
	for _, row := range rows {
		text, _ := row[field].(string)
		words := analyze(text)
		tf := map[string]float64{}
		for _, w := range words {
			if terms[w] {
				tf[w]++
			}
		}
		var score float64
		for w, f := range tf {
			idf := math.Log(1 + (n-df[w]+0.5)/(df[w]+0.5))
			score += idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(len(words))/avg))
		}
		if score > 0 {
			out = append(out, scored{row, float32(score)})
		}
	}
	return out
}

// analyze is the fake's analyzer: lower case, words of letters and digits,
// each CJK character a word of its own.
func analyze(text string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r):
			flush()
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	return out
}

func param(f *schemapb.FieldSchema, key string) string {
	for _, p := range f.TypeParams {
		if p.Key == key {
			return p.Value
		}
	}
	return ""
}

func floats(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

func cosine(a, b []float32) float32 {
	var dot, na, nb float64
	for i := range a {
		if i < len(b) {
			dot += float64(a[i]) * float64(b[i])
		}
		na += float64(a[i]) * float64(a[i])
	}
	for _, x := range b {
		nb += float64(x) * float64(x)
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return float32(dot / math.Sqrt(na*nb))
}

// decodeRows turns columns into rows: strings, int64s, bools, JSON (decoded
// attribute maps kept with their bytes) and float vectors.
func decodeRows(cols []*schemapb.FieldData, n int) ([]map[string]any, error) {
	rows := make([]map[string]any, n)
	for i := range rows {
		rows[i] = map[string]any{}
	}
	for _, f := range cols {
		var vals []any
		switch f.Type {
		case schemapb.DataType_VarChar, schemapb.DataType_String:
			for _, v := range f.GetScalars().GetStringData().GetData() {
				vals = append(vals, v)
			}
		case schemapb.DataType_Int64:
			for _, v := range f.GetScalars().GetLongData().GetData() {
				vals = append(vals, v)
			}
		case schemapb.DataType_Bool:
			for _, v := range f.GetScalars().GetBoolData().GetData() {
				vals = append(vals, v)
			}
		case schemapb.DataType_JSON:
			for _, v := range f.GetScalars().GetJsonData().GetData() {
				if !json.Valid(v) {
					return nil, fmt.Errorf("field %s: invalid JSON", f.FieldName)
				}
				vals = append(vals, append([]byte(nil), v...))
			}
		case schemapb.DataType_FloatVector:
			dim := int(f.GetVectors().GetDim())
			data := f.GetVectors().GetFloatVector().GetData()
			for i := 0; dim > 0 && i+dim <= len(data); i += dim {
				vals = append(vals, append([]float32(nil), data[i:i+dim]...))
			}
		default:
			return nil, fmt.Errorf("field %s: type %s not supported by milvustest", f.FieldName, f.Type)
		}
		if len(vals) != n {
			return nil, fmt.Errorf("field %s: %d values for %d rows", f.FieldName, len(vals), n)
		}
		for i, v := range vals {
			rows[i][f.FieldName] = v
		}
	}
	return rows, nil
}

func encodeRows(sch *schemapb.CollectionSchema, names []string, rows []map[string]any) ([]*schemapb.FieldData, error) {
	var out []*schemapb.FieldData
	for _, name := range names {
		var fs *schemapb.FieldSchema
		for _, f := range sch.Fields {
			if f.Name == name {
				fs = f
			}
		}
		if fs == nil {
			return nil, fmt.Errorf("output field %s does not exist", name)
		}
		fd := &schemapb.FieldData{Type: fs.DataType, FieldName: name, FieldId: fs.FieldID}
		switch fs.DataType {
		case schemapb.DataType_VarChar:
			var d []string
			for _, r := range rows {
				d = append(d, r[name].(string))
			}
			fd.Field = &schemapb.FieldData_Scalars{Scalars: &schemapb.ScalarField{Data: &schemapb.ScalarField_StringData{StringData: &schemapb.StringArray{Data: d}}}}
		case schemapb.DataType_Int64:
			var d []int64
			for _, r := range rows {
				d = append(d, r[name].(int64))
			}
			fd.Field = &schemapb.FieldData_Scalars{Scalars: &schemapb.ScalarField{Data: &schemapb.ScalarField_LongData{LongData: &schemapb.LongArray{Data: d}}}}
		case schemapb.DataType_Bool:
			var d []bool
			for _, r := range rows {
				d = append(d, r[name].(bool))
			}
			fd.Field = &schemapb.FieldData_Scalars{Scalars: &schemapb.ScalarField{Data: &schemapb.ScalarField_BoolData{BoolData: &schemapb.BoolArray{Data: d}}}}
		case schemapb.DataType_JSON:
			var d [][]byte
			for _, r := range rows {
				d = append(d, r[name].([]byte))
			}
			fd.Field = &schemapb.FieldData_Scalars{Scalars: &schemapb.ScalarField{Data: &schemapb.ScalarField_JsonData{JsonData: &schemapb.JSONArray{Data: d}}}}
		case schemapb.DataType_FloatVector:
			var dim int64
			for _, p := range fs.TypeParams {
				if p.Key == "dim" {
					dim, _ = strconv.ParseInt(p.Value, 10, 64)
				}
			}
			var d []float32
			for _, r := range rows {
				d = append(d, r[name].([]float32)...)
			}
			fd.Field = &schemapb.FieldData_Vectors{Vectors: &schemapb.VectorField{Dim: dim, Data: &schemapb.VectorField_FloatVector{FloatVector: &schemapb.FloatArray{Data: d}}}}
		default:
			return nil, errors.New("unsupported output type")
		}
		out = append(out, fd)
	}
	return out, nil
}
