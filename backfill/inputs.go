package backfill

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/jackc/pgx/v5"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/kafkaio"
	"github.com/freshctx/freshctx/pipeline"
	"github.com/freshctx/freshctx/source"
)

// postgresInput pages through a table or query by its key columns, inside one
// REPEATABLE READ snapshot per run. Every row becomes an upsert whose version is
// the snapshot's WAL position, as a Debezium snapshot read would carry.
type postgresInput struct {
	conn    *pgx.Conn
	tx      pgx.Tx
	src     *source.Mapper
	from    string   // the relation, quoted
	keys    []string // quoted key columns
	keyCols []string
	origin  string
	version int64
	snapAt  time.Time
	page    int
	after   []string // the last key read, as text; nil: from the start
	done    int64
	total   int64
}

func openPostgresInput(ctx context.Context, job Job, src *source.Mapper, dsn string, pos json.RawMessage) (*postgresInput, error) {
	if dsn == "" {
		return nil, errors.New("postgres.dsn: required (or set the store's postgres.dsn)")
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres.dsn: connecting: %w", err)
	}
	in := &postgresInput{conn: conn, src: src, page: job.PageSize, keyCols: job.KeyColumns}
	if t := job.Postgres.Table; t != "" {
		in.from = pgx.Identifier(strings.Split(t, ".")).Sanitize()
		in.origin = "table:" + t
	} else {
		in.from = "(" + job.Postgres.Query + ")"
		in.origin = "query:" + job.Name
	}
	for _, k := range job.KeyColumns {
		in.keys = append(in.keys, "t."+pgx.Identifier{k}.Sanitize())
	}
	if pos != nil {
		var p struct {
			After []string `json:"after"`
			Done  int64    `json:"done"`
		}
		if err := json.Unmarshal(pos, &p); err != nil || len(p.After) != len(in.keys) {
			conn.Close(ctx)
			return nil, fmt.Errorf("checkpoint position %s does not fit key_columns %v; run with -restart", pos, job.KeyColumns)
		}
		in.after, in.done = p.After, p.Done
	}
	in.tx, err = conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		conn.Close(ctx)
		return nil, fmt.Errorf("postgres: starting the snapshot: %w", err)
	}
	// The snapshot's WAL position orders this backfill against earlier ones; on a
	// standby, the replayed position.
	err = in.tx.QueryRow(ctx, `SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_lsn() END - '0/0')::bigint, now()`).
		Scan(&in.version, &in.snapAt)
	if err == nil {
		where, args := in.keyset()
		err = in.tx.QueryRow(ctx, `SELECT count(*) FROM `+in.from+` t`+where, args...).Scan(&in.total)
	}
	if err != nil {
		in.close()
		return nil, fmt.Errorf("postgres: reading %s: %w", in.origin, err)
	}
	in.total += in.done
	return in, nil
}

// keyset is the WHERE clause that starts after the last key read.
func (in *postgresInput) keyset() (string, []any) {
	if in.after == nil {
		return "", nil
	}
	ph := make([]string, len(in.after))
	args := make([]any, len(in.after))
	for i, v := range in.after {
		ph[i] = "$" + strconv.Itoa(i+1)
		args[i] = v
	}
	return " WHERE (" + strings.Join(in.keys, ", ") + ") > (" + strings.Join(ph, ", ") + ")", args
}

func (in *postgresInput) next(ctx context.Context) ([]*pipeline.Record, json.RawMessage, error) {
	where, args := in.keyset()
	texts := make([]string, len(in.keys))
	for i, k := range in.keys {
		texts[i] = k + "::text"
	}
	sql := `SELECT row_to_json(t)::text, ` + strings.Join(texts, ", ") + ` FROM ` + in.from + ` t` + where +
		` ORDER BY ` + strings.Join(in.keys, ", ") + ` LIMIT ` + strconv.Itoa(in.page)
	rows, err := in.tx.Query(ctx, sql, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var page []*pipeline.Record
	for rows.Next() {
		var row string
		key := make([]string, len(in.keys))
		dst := []any{&row}
		for i := range key {
			dst = append(dst, &key[i])
		}
		if err := rows.Scan(dst...); err != nil {
			return nil, nil, err
		}
		r := &pipeline.Record{In: cdc.Record{Topic: in.origin, Partition: -1, Offset: -1, Value: []byte(row), Timestamp: in.snapAt},
			Src: in.src, Size: int64(len(row))}
		if c, err := in.change([]byte(row)); err == nil {
			r.Pre = &c
		} else {
			r.Bad = err
		}
		page = append(page, r)
		in.after = key
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	if len(page) == 0 {
		return nil, nil, io.EOF
	}
	in.done += int64(len(page))
	pos, _ := json.Marshal(map[string]any{"after": in.after, "done": in.done})
	return page, pos, nil
}

// change turns a row into an upsert keyed as Debezium keys it.
func (in *postgresInput) change(row []byte) (cdc.Change, error) {
	d := json.NewDecoder(bytes.NewReader(row))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return cdc.Change{}, err
	}
	k, err := keyFromColumns(m, in.keyCols)
	if err != nil {
		return cdc.Change{}, err
	}
	return cdc.Change{Op: cdc.OpUpsert, Key: k, Row: m, Version: in.version, SourceTime: in.snapAt}, nil
}

// keyFromColumns builds the key of a row as Debezium does from its key columns.
func keyFromColumns(row map[string]any, cols []string) (string, error) {
	k := make(map[string]any, len(cols))
	for _, c := range cols {
		v, ok := row[c]
		if !ok || v == nil {
			return "", &source.MapError{Field: "key_columns", Reason: fmt.Sprintf("the row has no %s", c)}
		}
		k[c] = v
	}
	return cdc.CanonicalKey(k), nil
}

func (in *postgresInput) progress() (int64, int64, string) { return in.done, in.total, "records" }

func (in *postgresInput) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if in.tx != nil {
		in.tx.Rollback(ctx)
	}
	in.conn.Close(ctx)
}

// fileInput reads JSON Lines files in name order; position is (file, line).
type fileInput struct {
	src      *source.Mapper
	keyCols  []string
	page     int
	maxBytes int
	files    []string
	sizes    []int64
	fi       int   // current file
	line     int64 // lines read in the current file
	posFile  string
	posLine  int64 // the last line read: where a resume starts after
	f        *os.File
	counter  *countingReader
	r        *bufio.Reader
	done     int64 // bytes of finished files
	total    int64
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func openFileInput(job Job, src *source.Mapper, pos json.RawMessage) (*fileInput, error) {
	in := &fileInput{src: src, keyCols: job.KeyColumns, page: job.PageSize, maxBytes: pipeline.MaxRecordBytesDefault}
	for i, pat := range job.Files {
		m, err := filepath.Glob(pat)
		if err != nil {
			return nil, fmt.Errorf("files[%d]: %w", i, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("files[%d]: %q matches no file", i, pat)
		}
		sort.Strings(m)
		for _, f := range m {
			if sameFile(f, job.Rejects) {
				continue // the job's own rejects file is output, never input
			}
			in.files = append(in.files, f)
		}
	}
	if len(in.files) == 0 {
		return nil, errors.New("files: no input file besides the rejects file")
	}
	for _, f := range in.files {
		fi, err := os.Stat(f)
		if err != nil {
			return nil, fmt.Errorf("files: %w", err)
		}
		in.sizes = append(in.sizes, fi.Size())
		in.total += fi.Size()
	}
	if pos != nil {
		var p struct {
			File string `json:"file"`
			Line int64  `json:"line"`
		}
		if err := json.Unmarshal(pos, &p); err != nil {
			return nil, fmt.Errorf("checkpoint position %s: %w", pos, err)
		}
		in.fi = sort.SearchStrings(in.files, p.File)
		if in.fi == len(in.files) || in.files[in.fi] != p.File {
			return nil, fmt.Errorf("checkpoint file %s is no longer among files; run with -restart", p.File)
		}
		for _, s := range in.sizes[:in.fi] {
			in.done += s
		}
		if err := in.open(); err != nil {
			return nil, err
		}
		for in.line < p.Line {
			if _, _, err := in.readLine(); err != nil {
				return nil, fmt.Errorf("%s: skipping to line %d: %w (did the file change? run with -restart)", p.File, p.Line, err)
			}
		}
		in.posFile, in.posLine = p.File, p.Line
	}
	return in, nil
}

func (in *fileInput) open() error {
	f, err := os.Open(in.files[in.fi])
	if err != nil {
		return err
	}
	in.f, in.line = f, 0
	in.counter = &countingReader{r: f}
	br := bufio.NewReaderSize(in.counter, 64<<10)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", in.files[in.fi], err)
		}
		br = bufio.NewReaderSize(gz, 64<<10)
	}
	in.r = br
	return nil
}

// readLine returns the next line; a line longer than the record limit comes back
// truncated with tooLong set, so it is rejected, not loaded.
func (in *fileInput) readLine() (line []byte, tooLong bool, err error) {
	for {
		chunk, err := in.r.ReadSlice('\n')
		if len(line)+len(chunk) <= in.maxBytes+1 {
			line = append(line, chunk...)
		} else {
			tooLong = true
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == io.EOF && len(line) > 0 {
			err = nil
		}
		if err != nil {
			return nil, false, err
		}
		in.line++
		return bytes.TrimRight(line, "\r\n"), tooLong, nil
	}
}

func (in *fileInput) next(ctx context.Context) ([]*pipeline.Record, json.RawMessage, error) {
	var page []*pipeline.Record
	for len(page) < in.page {
		if in.f == nil {
			if in.fi >= len(in.files) {
				break
			}
			if err := in.open(); err != nil {
				return nil, nil, err
			}
		}
		line, tooLong, err := in.readLine()
		if err == io.EOF {
			in.f.Close()
			in.f = nil
			in.done += in.sizes[in.fi]
			in.fi++
			if len(page) > 0 {
				break // a page never spans files: the position names one
			}
			continue
		}
		in.posFile, in.posLine = in.files[in.fi], in.line
		if err != nil {
			return nil, nil, fmt.Errorf("%s line %d: %w", in.files[in.fi], in.line+1, err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		r := &pipeline.Record{In: cdc.Record{Topic: "file:" + in.files[in.fi], Partition: -1, Offset: in.line, Value: line},
			Src: in.src, Size: int64(len(line))}
		if tooLong {
			r.Bad = fmt.Errorf("%w: line longer than %d bytes", source.ErrPermanent, in.maxBytes)
		} else if c, err := cdc.Decode(in.src.Source().Format, r.In); err == nil {
			if c.Key == "" && len(in.keyCols) > 0 && c.Row != nil {
				if k, err := keyFromColumns(c.Row, in.keyCols); err == nil {
					c.Key = k
				}
			}
			if src := in.src.Source(); src.ApplyKeyFormat(&c, nil) == nil {
				r.Pre = &c
			}
		}
		// Lines that do not decode are decoded again by the writer, which rejects them.
		page = append(page, r)
	}
	if len(page) == 0 {
		return nil, nil, io.EOF
	}
	pos, _ := json.Marshal(map[string]any{"file": in.posFile, "line": in.posLine})
	return page, pos, nil
}

func (in *fileInput) progress() (int64, int64, string) {
	d := in.done
	if in.f != nil {
		d += in.counter.n
	}
	return min(d, in.total), in.total, "bytes"
}

func (in *fileInput) close() {
	if in.f != nil {
		in.f.Close()
	}
}

// topicInput replays partitions from a start offset up to the end they had when the
// job started, by assignment: no group is joined and nothing is committed.
type topicInput struct {
	c     *kafka.Consumer
	src   *source.Mapper
	topic string
	page  int
	next_ map[int32]int64 // next offset to read
	end   map[int32]int64 // stop before
	open  map[int32]bool
	done  int64
	total int64
}

func openTopicInput(ctx context.Context, job Job, src *source.Mapper, kcfg kafkaio.Config, pos json.RawMessage) (*topicInput, error) {
	if kcfg.Brokers == "" {
		return nil, errors.New("kafka.brokers: required to replay a topic")
	}
	topic := job.Topic.Topic
	if topic == "" {
		topic = src.Source().Topic
	}
	c, err := kafka.NewConsumer(kcfg.Consumer(kafka.ConfigMap{
		"group.id":                 "freshctx-backfill-" + job.Name, // required by librdkafka; never joined
		"enable.auto.commit":       false,
		"enable.auto.offset.store": false,
		"enable.partition.eof":     true,
		"fetch.wait.max.ms":        100,
	}, "group.id", "enable.auto.commit", "enable.auto.offset.store"))
	if err != nil {
		return nil, fmt.Errorf("creating kafka consumer: %w", err)
	}
	in := &topicInput{c: c, src: src, topic: topic, page: job.PageSize, next_: map[int32]int64{}, end: map[int32]int64{}, open: map[int32]bool{}}
	fail := func(err error) (*topicInput, error) { c.Close(); return nil, err }
	md, err := c.GetMetadata(&topic, false, 10000)
	if err != nil {
		return fail(fmt.Errorf("topic %s: metadata: %w", topic, err))
	}
	tm, ok := md.Topics[topic]
	if !ok || tm.Error.Code() != kafka.ErrNoError || len(tm.Partitions) == 0 {
		return fail(fmt.Errorf("topic.topic: %s does not exist (%v)", topic, tm.Error))
	}
	saved := map[string]int64{}
	if pos != nil {
		var p struct {
			Next map[string]int64 `json:"next"`
			Done int64            `json:"done"`
		}
		if err := json.Unmarshal(pos, &p); err != nil {
			return fail(fmt.Errorf("checkpoint position %s: %w", pos, err))
		}
		saved, in.done = p.Next, p.Done
	}
	var byTime []kafka.TopicPartition
	var ts int64
	if job.Topic.From != "earliest" {
		t, _ := time.Parse(time.RFC3339, job.Topic.From)
		ts = t.UnixMilli()
	}
	for _, pm := range tm.Partitions {
		low, high, err := c.QueryWatermarkOffsets(topic, pm.ID, 10000)
		if err != nil {
			return fail(fmt.Errorf("topic %s partition %d: watermarks: %w", topic, pm.ID, err))
		}
		in.end[pm.ID] = high
		in.next_[pm.ID] = low
		if off, ok := saved[strconv.Itoa(int(pm.ID))]; ok {
			in.next_[pm.ID] = max(off, low)
		} else if off, ok := job.Topic.Offsets[pm.ID]; ok {
			in.next_[pm.ID] = min(max(off, low), high)
		} else if ts > 0 {
			byTime = append(byTime, kafka.TopicPartition{Topic: &topic, Partition: pm.ID, Offset: kafka.Offset(ts)})
		}
	}
	if len(byTime) > 0 {
		got, err := c.OffsetsForTimes(byTime, 10000)
		if err != nil {
			return fail(fmt.Errorf("topic.from: looking up offsets: %w", err))
		}
		for _, tp := range got {
			if tp.Offset >= 0 {
				in.next_[tp.Partition] = int64(tp.Offset)
			} else {
				in.next_[tp.Partition] = in.end[tp.Partition] // nothing at or after the time
			}
		}
	}
	var assign []kafka.TopicPartition
	for p, off := range in.next_ {
		if off < in.end[p] {
			in.open[p] = true
			assign = append(assign, kafka.TopicPartition{Topic: &topic, Partition: p, Offset: kafka.Offset(off)})
			in.total += in.end[p] - off
		}
	}
	in.total += in.done
	if len(assign) > 0 {
		if err := c.Assign(assign); err != nil {
			return fail(fmt.Errorf("topic %s: assigning: %w", topic, err))
		}
	}
	return in, nil
}

func (in *topicInput) next(ctx context.Context) ([]*pipeline.Record, json.RawMessage, error) {
	var page []*pipeline.Record
	idle := time.Now()
	for len(page) < in.page && len(in.open) > 0 && ctx.Err() == nil {
		switch e := in.c.Poll(100).(type) {
		case *kafka.Message:
			p, off := e.TopicPartition.Partition, int64(e.TopicPartition.Offset)
			if !in.open[p] || off < in.next_[p] {
				continue
			}
			if off >= in.end[p] {
				in.finish(p)
				continue
			}
			in.next_[p] = off + 1
			if off+1 >= in.end[p] {
				in.finish(p)
			}
			rec := kafkaio.RecordOf(e)
			page = append(page, &pipeline.Record{In: rec, Src: in.src, Size: int64(len(e.Key) + len(e.Value))})
			idle = time.Now()
		case kafka.PartitionEOF:
			if in.open[e.Partition] && int64(e.Offset) >= in.end[e.Partition] {
				in.finish(e.Partition)
			}
		case kafka.Error:
			if e.IsFatal() {
				return nil, nil, e
			}
		case nil:
			if len(page) > 0 && time.Since(idle) > 200*time.Millisecond {
				return in.emit(page)
			}
		}
	}
	if err := ctx.Err(); err != nil && len(page) == 0 {
		return nil, nil, err
	}
	if len(page) == 0 {
		return nil, nil, io.EOF
	}
	return in.emit(page)
}

func (in *topicInput) emit(page []*pipeline.Record) ([]*pipeline.Record, json.RawMessage, error) {
	in.done += int64(len(page))
	next := make(map[string]int64, len(in.next_))
	for p, off := range in.next_ {
		next[strconv.Itoa(int(p))] = off
	}
	pos, _ := json.Marshal(map[string]any{"next": next, "done": in.done})
	return page, pos, nil
}

// finish stops reading partition p: it reached the end it had when the job started.
func (in *topicInput) finish(p int32) {
	if !in.open[p] {
		return
	}
	delete(in.open, p)
	in.next_[p] = max(in.next_[p], in.end[p])
	t := in.topic
	in.c.Pause([]kafka.TopicPartition{{Topic: &t, Partition: p}})
}

func (in *topicInput) progress() (int64, int64, string) { return in.done, in.total, "records" }

func (in *topicInput) close() { in.c.Close() }

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	if err1 == nil && err2 == nil {
		return os.SameFile(fa, fb)
	}
	aa, _ := filepath.Abs(a)
	ab, _ := filepath.Abs(b)
	return aa == ab
}
