package backfill

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
	"golang.org/x/time/rate"

	"github.com/freshctx/freshctx/kafkaio"
	"github.com/freshctx/freshctx/pipeline"
	"github.com/freshctx/freshctx/source"
	"github.com/freshctx/freshctx/store"
)

// Job is one backfill job: existing data loaded through the same trim → embed
// → write path as the live stream, with versions below every live version (ADR
// 0007), so it never replaces what the live pipeline wrote. Exactly one input is set.
type Job struct {
	// Name identifies the job and its checkpoint: [a-z0-9_.-]+. Required.
	Name string `yaml:"name"`
	// Source names the configured source whose mapping applies (and whose topic a
	// topic replay reads). Required.
	Source string `yaml:"source"`
	// Postgres reads a table or query with keyset pagination in one snapshot per run.
	Postgres *PostgresInput `yaml:"postgres"`
	// Files reads JSON Lines files (glob patterns; gzip is detected), each line a
	// record value in the source's format.
	Files []string `yaml:"files"`
	// Topic replays a Kafka topic without a consumer group; nothing is committed.
	Topic *TopicInput `yaml:"topic"`
	// KeyColumns name the row fields that form the key: the pagination key of a
	// postgres input (unique, ideally the primary key), and the key of file lines
	// that carry none (Debezium envelopes without their Kafka key). The key is
	// built as Debezium builds it, so backfilled and live rows share keys.
	KeyColumns []string `yaml:"key_columns"`
	// Concurrency is the number of key-hash lanes writing in parallel. Default 4.
	Concurrency int `yaml:"concurrency"`
	// PageSize is how many records are read, written and checkpointed at a time.
	// Default 2048.
	PageSize int `yaml:"page_size"`
	// RecordsPerSecond caps the read rate; 0: unlimited.
	RecordsPerSecond float64 `yaml:"records_per_second"`
	// EmbedCallsPerSecond caps embedding calls (one per batch of up to
	// pipeline.batch_size texts); 0: unlimited.
	EmbedCallsPerSecond float64 `yaml:"embed_calls_per_second"`
	// Rejects is the JSON Lines file bad records are appended to. Default
	// backfill-<name>.rejects.jsonl in the working directory.
	Rejects string `yaml:"rejects"`
}

// PostgresInput reads rows of a PostgreSQL table or query.
type PostgresInput struct {
	// DSN of the source database. Default: the store's postgres.dsn.
	DSN string `yaml:"dsn"`
	// Table is [schema.]table. Exactly one of table and query.
	Table string `yaml:"table"`
	// Query is a SELECT whose rows are the records; it is wrapped as a subquery,
	// so it must not end with ORDER BY or LIMIT.
	Query string `yaml:"query"`
}

// TopicInput replays a topic from a point in time up to its end when the job started.
type TopicInput struct {
	// Topic to read. Default: the source's topic.
	Topic string `yaml:"topic"`
	// From is "earliest" (the default) or an RFC 3339 time: each partition starts at
	// its first record at or after it.
	From string `yaml:"from"`
	// Offsets start the named partitions at these offsets instead (partition
	// number → offset); partitions not named follow From.
	Offsets map[int32]int64 `yaml:"offsets"`
}

// Job defaults.
const (
	BackfillConcurrencyDefault = 4
	BackfillPageSizeDefault    = 2048
)

// jobNameRE is what a job's name may be (as a source's).
var jobNameRE = regexp.MustCompile(`^[a-z0-9_.-]+$`)

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)?$`)

// WithDefaults fills unset fields.
func (b Job) WithDefaults() Job {
	if b.Concurrency == 0 {
		b.Concurrency = BackfillConcurrencyDefault
	}
	if b.PageSize == 0 {
		b.PageSize = BackfillPageSizeDefault
	}
	if b.Rejects == "" {
		b.Rejects = "backfill-" + b.Name + ".rejects.jsonl"
	}
	if b.Topic != nil && b.Topic.From == "" {
		t := *b.Topic
		t.From = "earliest"
		b.Topic = &t
	}
	return b
}

// Validate checks the job; errors name the field.
func (b Job) Validate() error {
	if !jobNameRE.MatchString(b.Name) {
		return fmt.Errorf("name: %q must match [a-z0-9_.-]+", b.Name)
	}
	if b.Source == "" {
		return errors.New("source: required (the name of a configured source)")
	}
	n := 0
	if b.Postgres != nil {
		n++
	}
	if len(b.Files) > 0 {
		n++
	}
	if b.Topic != nil {
		n++
	}
	if n != 1 {
		return errors.New("postgres, files, topic: exactly one input is required")
	}
	for i, c := range b.KeyColumns {
		if !identRE.MatchString(c) || strings.Contains(c, ".") {
			return fmt.Errorf("key_columns[%d]: %q is not a column name", i, c)
		}
	}
	if p := b.Postgres; p != nil {
		switch {
		case (p.Table == "") == (p.Query == ""):
			return errors.New("postgres: exactly one of table and query is required")
		case p.Table != "" && !identRE.MatchString(p.Table):
			return fmt.Errorf("postgres.table: %q is not [schema.]table", p.Table)
		case len(b.KeyColumns) == 0:
			return errors.New("key_columns: required with postgres (the columns to paginate on, e.g. [id])")
		}
	}
	if t := b.Topic; t != nil && t.From != "" && t.From != "earliest" {
		if _, err := time.Parse(time.RFC3339, t.From); err != nil {
			return fmt.Errorf("topic.from: %q is neither earliest nor an RFC 3339 time", t.From)
		}
	}
	switch {
	case b.Concurrency < 1 || b.Concurrency > 256:
		return errors.New("concurrency: must be in [1, 256]")
	case b.PageSize < 1 || b.PageSize > 100000:
		return errors.New("page_size: must be in [1, 100000]")
	case b.RecordsPerSecond < 0:
		return errors.New("records_per_second: must not be negative")
	case b.EmbedCallsPerSecond < 0:
		return errors.New("embed_calls_per_second: must not be negative")
	}
	return nil
}

// inputDescription is what a checkpoint remembers of the input: resuming a job
// whose input changed would skip or misread records.
func (b Job) inputDescription() string {
	d := map[string]any{"source": b.Source, "key_columns": b.KeyColumns}
	switch {
	case b.Postgres != nil:
		d["postgres"] = map[string]string{"table": b.Postgres.Table, "query": b.Postgres.Query}
	case b.Topic != nil:
		d["topic"] = b.Topic
	default:
		d["files"] = b.Files
	}
	j, _ := json.Marshal(d)
	return string(j)
}

// Checkpoints store backfill progress.
type Checkpoints interface {
	LoadCheckpoint(ctx context.Context, job string) (store.Checkpoint, bool, error)
	SaveCheckpoint(ctx context.Context, job string, c store.Checkpoint) error
	DeleteCheckpoint(ctx context.Context, job string) error
}

// Options are a run's choices, not the job's.
type Options struct {
	// Restart forgets the checkpoint and starts from the beginning.
	Restart bool
	// DryRun reads, decodes, maps and looks up what is stored, and reports what
	// would be written; it embeds and writes nothing and saves no checkpoint.
	DryRun bool
	// Progress is called after every page and at the end.
	Progress func(Status)
	// StopTimeout bounds finishing the current page once ctx is cancelled; after it
	// the page is abandoned and redone on resume. Default 30 s.
	StopTimeout time.Duration
}

// Status is a job's progress.
type Status struct {
	Job string
	// Counts by result: records (read), stored, unchanged, deleted, skipped, rejected.
	Counts map[string]int64
	// Done and Total measure the input in Unit (records or bytes); Total is -1 when unknown.
	Done, Total int64
	Unit        string
	// RunRecords is what this run read (Counts include earlier runs); Elapsed is this run's time.
	RunRecords int64
	Elapsed    time.Duration
	Finished   bool
	DryRun     bool
	Resumed    bool
}

// Item is what Counts' total and RunRecords count: records, or Unit when a
// job counts other things one by one ("vectors": ingest reembed).
func (s Status) Item() string {
	if s.Unit == "" || s.Unit == "bytes" {
		return "records"
	}
	return s.Unit
}

// Rate is this run's records (items) per second.
func (s Status) Rate() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.RunRecords) / s.Elapsed.Seconds()
}

// ETA estimates the time left at this run's pace; 0 when unknown.
func (s Status) ETA() time.Duration {
	if s.Total <= 0 || s.Done <= 0 || s.RunRecords == 0 || s.Done >= s.Total {
		return 0
	}
	runDone := s.Done
	if s.Unit != "bytes" { // (Done counts what RunRecords counts)
		runDone = s.RunRecords
	}
	left := float64(s.Total-s.Done) / float64(runDone)
	return time.Duration(left * float64(s.Elapsed))
}

// input yields pages of records in order.
type input interface {
	// next returns the next page and the position after it; io.EOF at the end.
	next(ctx context.Context) ([]*pipeline.Record, json.RawMessage, error)
	// progress reports how far the input is, in its unit; total -1 if unknown.
	progress() (done, total int64, unit string)
	close()
}

// Deps are what a backfill needs besides the write path's.
type Deps struct {
	pipeline.Deps
	Checkpoints Checkpoints
	// Kafka connects a topic replay (no group is joined, nothing is committed).
	Kafka kafkaio.Config
	// PostgresDSN is the default DSN of a postgres input.
	PostgresDSN string
}

// Run runs job to the end of its input, or until ctx is cancelled (then it
// finishes the current page, saves the checkpoint and returns ctx's error).
func Run(ctx context.Context, cfg pipeline.Config, job Job, sources []source.Source, deps Deps, opts Options) (Status, error) {
	cfg = cfg.WithDefaults()
	job = job.WithDefaults()
	if err := job.Validate(); err != nil {
		return Status{}, fmt.Errorf("backfill %s: %w", job.Name, err)
	}
	var src *source.Mapper
	for _, s := range sources {
		if s.Name == job.Source {
			m, err := source.NewMapper(s)
			if err != nil {
				return Status{}, fmt.Errorf("source %s: %w", s.Name, err)
			}
			src = m
		}
	}
	if src == nil {
		return Status{}, fmt.Errorf("backfill %s: source: no source named %q", job.Name, job.Source)
	}
	if deps.Embedder == nil || deps.Store == nil || deps.Checkpoints == nil {
		return Status{}, errors.New("backfill: an embedder, a store and checkpoints are required")
	}
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	if deps.Metrics == nil {
		deps.Metrics = pipeline.NewMetrics(nil)
	}
	if opts.StopTimeout == 0 {
		opts.StopTimeout = 30 * time.Second
	}
	if job.EmbedCallsPerSecond > 0 {
		deps.Embedder = &limitedEmbedder{Embedder: deps.Embedder, lim: rate.NewLimiter(rate.Limit(job.EmbedCallsPerSecond), 1)}
	}
	w := pipeline.NewWriter(cfg, deps.Deps, pipeline.WriterOptions{Backfill: true, DryRun: opts.DryRun})
	deps.Metrics.Init(nil, []string{src.Name()})

	st := Status{Job: job.Name, Counts: map[string]int64{}, DryRun: opts.DryRun}
	desc := job.inputDescription()
	if opts.Restart && !opts.DryRun {
		if err := deps.Checkpoints.DeleteCheckpoint(ctx, job.Name); err != nil {
			return st, err
		}
	}
	cp, found, err := deps.Checkpoints.LoadCheckpoint(ctx, job.Name)
	if err != nil {
		return st, err
	}
	if opts.Restart {
		found = false
	}
	if found {
		if cp.Input != desc {
			return st, fmt.Errorf("backfill %s: its input changed since it started (was %s, now %s); run with -restart to start over, or use a new job name", job.Name, cp.Input, desc)
		}
		if cp.Finished {
			st.Counts, st.Finished, st.Resumed = cp.Counts, true, true
			deps.Logger.Info("backfill already finished; -restart runs it again", "job", job.Name, "finished", cp.UpdatedAt)
			return st, nil
		}
		st.Counts, st.Resumed = cp.Counts, true
		if st.Counts == nil {
			st.Counts = map[string]int64{}
		}
	} else {
		cp = store.Checkpoint{Input: desc}
	}

	in, err := openInput(ctx, job, src, deps, cp.Position)
	if err != nil {
		return st, fmt.Errorf("backfill %s: %w", job.Name, err)
	}
	defer in.close()
	var rejects *rejectFile
	if !opts.DryRun {
		if rejects, err = openRejects(job.Rejects); err != nil {
			return st, fmt.Errorf("backfill %s: rejects: %w", job.Name, err)
		}
		defer rejects.close()
	}
	deps.Logger.Info("backfill started", "job", job.Name, "source", job.Source, "resumed", st.Resumed,
		"dry_run", opts.DryRun, "concurrency", job.Concurrency, "page_size", job.PageSize)

	// Pages are written with a context that outlives ctx by StopTimeout, so an
	// interrupt finishes the page in hand and checkpoints it.
	workCtx, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelWork()
	stopWatch := context.AfterFunc(ctx, func() { time.AfterFunc(opts.StopTimeout, cancelWork) })
	defer stopWatch()

	var lim *rate.Limiter
	if job.RecordsPerSecond > 0 {
		lim = rate.NewLimiter(rate.Limit(job.RecordsPerSecond), max(1, int(job.RecordsPerSecond)))
	}
	start := time.Now()
	report := func() {
		st.Done, st.Total, st.Unit = in.progress()
		st.Elapsed = time.Since(start)
		if opts.Progress != nil {
			opts.Progress(st)
		}
	}
	for {
		if ctx.Err() != nil {
			report()
			return st, ctx.Err()
		}
		page, pos, err := in.next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if ctx.Err() != nil {
				report()
				return st, ctx.Err()
			}
			report()
			return st, fmt.Errorf("backfill %s: reading: %w", job.Name, err)
		}
		if lim != nil {
			for n := len(page); n > 0; {
				k := min(n, lim.Burst())
				if err := lim.WaitN(ctx, k); err != nil {
					break // interrupted: the page is still written below
				}
				n -= k
			}
		}
		items, ok := runPage(workCtx, w, page, job.Concurrency, cfg.BatchSize)
		if !ok {
			report()
			return st, fmt.Errorf("backfill %s: interrupted mid-page after %s; the page is redone on resume", job.Name, opts.StopTimeout)
		}
		st.Counts["records"] += int64(len(page))
		st.RunRecords += int64(len(page))
		for i := range items {
			it := &items[i]
			if it.Err() != nil {
				st.Counts["rejected"]++
				if rejects != nil {
					if err := rejects.write(job.Name, it); err != nil {
						return st, fmt.Errorf("backfill %s: writing %s: %w", job.Name, job.Rejects, err)
					}
				}
				continue
			}
			st.Counts[it.Result().String()]++
			deps.Metrics.Records.WithLabelValues(src.Name(), it.Result().String()).Inc()
		}
		if !opts.DryRun {
			if err := rejects.sync(); err != nil {
				return st, fmt.Errorf("backfill %s: writing %s: %w", job.Name, job.Rejects, err)
			}
			cp.Position, cp.Counts = pos, st.Counts
			if err := deps.Checkpoints.SaveCheckpoint(workCtx, job.Name, cp); err != nil {
				return st, err
			}
		}
		report()
	}
	st.Finished = true
	if !opts.DryRun {
		cp.Counts, cp.Finished = st.Counts, true
		if err := deps.Checkpoints.SaveCheckpoint(workCtx, job.Name, cp); err != nil {
			return st, err
		}
	}
	report()
	deps.Logger.Info("backfill finished", "job", job.Name, "counts", st.Counts, "elapsed", st.Elapsed.Round(time.Millisecond))
	return st, nil
}

// runPage writes a page: records are spread over lanes by key, so changes of one
// key keep their order, and each lane writes its records in batches. It returns the
// items in no particular order, or false if ctx ended first.
func runPage(ctx context.Context, w *pipeline.Writer, page []*pipeline.Record, lanes, batchSize int) ([]pipeline.Item, bool) {
	byLane := make([][]*pipeline.Record, lanes)
	for _, r := range page {
		h := fnv.New64a()
		h.Write([]byte(laneKey(r)))
		l := h.Sum64() % uint64(lanes)
		byLane[l] = append(byLane[l], r)
	}
	var mu sync.Mutex
	var out []pipeline.Item
	var g errgroup.Group
	failed := false
	for _, recs := range byLane {
		g.Go(func() error {
			for len(recs) > 0 {
				n := min(len(recs), batchSize)
				items, ok := w.Process(ctx, recs[:n])
				mu.Lock()
				if !ok {
					failed = true
				} else {
					out = append(out, items...)
				}
				mu.Unlock()
				if !ok {
					return nil
				}
				recs = recs[n:]
			}
			return nil
		})
	}
	_ = g.Wait()
	return out, !failed
}

// laneKey is what orders a record: its key when known before decoding.
func laneKey(r *pipeline.Record) string {
	if r.Pre != nil {
		if k, err := r.Src.KeyOf(r.Pre); err == nil {
			return k
		}
	}
	return string(r.In.Key)
}

// limitedEmbedder paces embedding calls.
type limitedEmbedder struct {
	pipeline.Embedder
	lim *rate.Limiter
}

func (l *limitedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := l.lim.Wait(ctx); err != nil {
		return nil, err
	}
	return l.Embedder.Embed(ctx, texts)
}

// rejectFile appends one JSON line per rejected record.
type rejectFile struct {
	f *os.File
	w *bufio.Writer
}

func openRejects(path string) (*rejectFile, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &rejectFile{f: f, w: bufio.NewWriter(f)}, nil
}

// rejectLine is one line of the rejects file.
type rejectLine struct {
	Time      time.Time       `json:"time"`
	Job       string          `json:"job"`
	Source    string          `json:"source"`
	Origin    string          `json:"origin"` // topic, file:PATH or table:NAME
	Partition int32           `json:"partition"`
	Offset    int64           `json:"offset"` // Kafka offset, or line number in a file
	Key       string          `json:"key,omitempty"`
	Stage     string          `json:"stage"`
	Error     string          `json:"error"`
	Value     json.RawMessage `json:"value,omitempty"`
	RawValue  string          `json:"raw_value,omitempty"` // when the value is not JSON
}

func (f *rejectFile) write(job string, it *pipeline.Item) error {
	r := it.Record().In
	l := rejectLine{Time: time.Now().UTC(), Job: job, Source: it.Record().Src.Name(), Origin: r.Topic, Partition: r.Partition,
		Offset: r.Offset, Key: string(r.Key), Stage: it.Stage(), Error: it.Err().Error()}
	if json.Valid(r.Value) {
		l.Value = r.Value
	} else {
		l.RawValue = string(r.Value)
	}
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	f.w.Write(b)
	return f.w.WriteByte('\n')
}

func (f *rejectFile) sync() error {
	if err := f.w.Flush(); err != nil {
		return err
	}
	return f.f.Sync()
}

func (f *rejectFile) close() {
	f.w.Flush()
	f.f.Close()
}

func openInput(ctx context.Context, job Job, src *source.Mapper, deps Deps, pos json.RawMessage) (input, error) {
	switch {
	case job.Postgres != nil:
		dsn := job.Postgres.DSN
		if dsn == "" {
			dsn = deps.PostgresDSN
		}
		return openPostgresInput(ctx, job, src, dsn, pos)
	case job.Topic != nil:
		return openTopicInput(ctx, job, src, deps.Kafka, pos)
	default:
		return openFileInput(job, src, pos)
	}
}
