// Package ledger is the oracle of the reliability tests: it records every change
// produced to a topic (key, version, op, text, offset), and checks the final state
// of the store and the cache against the ledger folded by key: the highest version
// wins and a delete stays deleted. Anything the fold says should be there and is
// not (or is there with the wrong text or version) is lost.
package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/pgstore"
	"github.com/freshctx/freshctx/store/rediscache"
)

// Source is the mapping the ledger's records are written for: use it (with the
// ledger's topic) in the pipeline under test.
const (
	SourceName = "tickets"
	Tenant     = "acme"
	Entities   = 10
	TextTmpl   = "{{.body}}"
	EntityTmpl = "customer:{{.customer_id}}"
)

// Op is what a change does.
type Op byte

const (
	Upsert Op = 'u'
	Delete Op = 'd'
)

// Entry is one produced change.
type Entry struct {
	Key       int
	Version   int64
	Op        Op
	Text      string
	Partition int32
	Offset    int64
}

// Ledger records the changes produced to one topic.
type Ledger struct {
	Topic    string
	mu       sync.Mutex
	entries  []Entry
	produced int // Kafka records sent, duplicates and tombstones included
	lsn      int64
	now      time.Time
}

// New returns an empty ledger for topic.
func New(topic string) *Ledger { return &Ledger{Topic: topic, lsn: 1000, now: time.Now()} }

// Upsert appends a create or update of key with a fresh, higher version.
func (l *Ledger) Upsert(key int, text string) Entry {
	l.lsn += 8
	return Entry{Key: key, Version: l.lsn, Op: Upsert, Text: text}
}

// Delete appends a delete of key (the producer adds its tombstone).
func (l *Ledger) Delete(key int) Entry {
	l.lsn += 8
	return Entry{Key: key, Version: l.lsn, Op: Delete}
}

// Produce sends the entries in order (each Debezium delete followed by its
// tombstone) and records them with their offsets. times > 1 sends every record
// that many times in a row (duplicate delivery).
func (l *Ledger) Produce(t testing.TB, p *kafka.Producer, entries []Entry, times int) {
	t.Helper()
	if times < 1 {
		times = 1
	}
	type sent struct {
		i    int
		tomb bool
	}
	done := make(chan kafka.Event, len(entries)*2*times)
	topic := l.Topic
	n := 0
	for i, e := range entries {
		for range times {
			key := []byte(fmt.Sprintf(`{"id":%d}`, e.Key))
			msgs := []*kafka.Message{{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny}, Key: key, Value: l.value(e), Opaque: sent{i: i}}}
			if e.Op == Delete {
				msgs = append(msgs, &kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny}, Key: key, Opaque: sent{i: i, tomb: true}})
			}
			for _, m := range msgs {
				if err := p.Produce(m, done); err != nil {
					t.Fatal(err)
				}
				n++
			}
		}
	}
	for range n {
		m := (<-done).(*kafka.Message)
		if m.TopicPartition.Error != nil {
			t.Fatal(m.TopicPartition.Error)
		}
		s := m.Opaque.(sent)
		if !s.tomb {
			entries[s.i].Partition, entries[s.i].Offset = m.TopicPartition.Partition, int64(m.TopicPartition.Offset)
		}
	}
	l.mu.Lock()
	l.entries = append(l.entries, entries...)
	l.produced += n
	l.mu.Unlock()
}

func (l *Ledger) value(e Entry) []byte {
	row := map[string]any{"id": e.Key, "customer_id": e.Key % Entities, "body": e.Text, "updated_at": l.now.UnixMicro()}
	env := map[string]any{"op": "u", "after": row, "source": map[string]any{"connector": "postgresql", "lsn": e.Version}}
	if e.Op == Delete {
		env = map[string]any{"op": "d", "before": map[string]any{"id": e.Key}, "source": map[string]any{"connector": "postgresql", "lsn": e.Version}}
	}
	b, _ := json.Marshal(env)
	return b
}

// Extra counts n records produced to the topic outside the ledger (poison, say).
func (l *Ledger) Extra(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.produced += n
}

// Records returns how many Kafka records were produced (duplicates and
// tombstones included).
func (l *Ledger) Records() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.produced
}

// Fold returns the final state per key: the entry with the highest version.
func (l *Ledger) Fold() map[int]Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[int]Entry{}
	for _, e := range l.entries {
		if cur, ok := out[e.Key]; !ok || e.Version > cur.Version {
			out[e.Key] = e
		}
	}
	return out
}

// Result compares a store with the ledger.
type Result struct {
	Keys      int // distinct keys
	Live      int // keys that should be stored
	Stored    int // live keys stored with the right text and version
	Lost      int // live keys missing or wrong, plus deleted keys still visible
	LostKeys  []int
	CacheLost int // the same, checked against the Redis cache
}

// Check compares the store (and the cache, when given) with the fold.
func (l *Ledger) Check(ctx context.Context, st *pgstore.Store, cache *rediscache.Cache) (Result, error) {
	fold := l.Fold()
	refs := make([]store.Ref, 0, len(fold))
	for k := range fold {
		refs = append(refs, store.Ref{Source: SourceName, Key: strconv.Itoa(k)})
	}
	got, err := st.Lookup(ctx, refs)
	if err != nil {
		return Result{}, err
	}
	var r Result
	r.Keys = len(fold)
	for k, e := range fold {
		p, ok := got[store.Ref{Source: SourceName, Key: strconv.Itoa(k)}]
		switch {
		case e.Op == Delete:
			if ok && !p.Deleted {
				r.Lost++
				r.LostKeys = append(r.LostKeys, k)
			}
		default:
			r.Live++
			if ok && !p.Deleted && p.Version == e.Version && p.Fields["body"] == e.Text {
				r.Stored++
			} else {
				r.Lost++
				r.LostKeys = append(r.LostKeys, k)
			}
		}
	}
	sort.Ints(r.LostKeys)
	if cache != nil {
		want := map[string]map[string]bool{}
		for k, e := range fold {
			ent := fmt.Sprintf("customer:%d", k%Entities)
			if want[ent] == nil {
				want[ent] = map[string]bool{}
			}
			if e.Op == Upsert {
				want[ent][strconv.Itoa(k)+"\x00"+e.Text] = true
			}
		}
		for ent, keys := range want {
			evs, _, err := cache.Recent(ctx, Tenant, ent, time.Now().Add(-30*time.Minute), 1<<20)
			if err != nil {
				return r, err
			}
			seen := map[string]bool{}
			for _, ev := range evs {
				k, err := strconv.Atoi(ev.Key)
				if _, known := fold[k]; err != nil || !known {
					continue // not a ledger record (a test's extra record)
				}
				seen[ev.Key+"\x00"+ev.Text] = true
				if !keys[ev.Key+"\x00"+ev.Text] {
					r.CacheLost++ // a deleted or stale event in the cache
				}
			}
			for k := range keys {
				if !seen[k] {
					r.CacheLost++
				}
			}
		}
	}
	return r, nil
}

// Report is one row of the reliability table.
type Report struct {
	Scenario     string
	Produced     int // Kafka records
	Stored       int // live keys stored right
	Duplicates   int // records processed more than once
	DeadLettered int
	Lost         int
}

var (
	reportMu sync.Mutex
	reports  []Report
)

// Add records a row for PrintReports.
func Add(r Report) {
	reportMu.Lock()
	defer reportMu.Unlock()
	reports = append(reports, r)
}

// PrintReports prints the table of every scenario run in this process to
// stdout, and appends it to the file FRESHCTX_RELIABILITY_REPORT names, if set
// (go test shows a passing package's output only with -v; `make test` prints the
// file).
func PrintReports() {
	reportMu.Lock()
	defer reportMu.Unlock()
	if len(reports) == 0 {
		return
	}
	var b strings.Builder
	for _, r := range reports {
		fmt.Fprintf(&b, "%-52s %9d %8d %10d %13d %5d\n", r.Scenario, r.Produced, r.Stored, r.Duplicates, r.DeadLettered, r.Lost)
	}
	fmt.Printf("\n%s%s\n", Header(), b.String())
	if path := os.Getenv("FRESHCTX_RELIABILITY_REPORT"); path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err == nil {
			f.WriteString(b.String())
			f.Close()
		}
	}
}

// Header is the table's header line.
func Header() string {
	return fmt.Sprintf("%-52s %9s %8s %10s %13s %5s\n", "scenario", "produced", "stored", "duplicates", "dead-lettered", "lost")
}
