package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/freshctx/freshctx/store"
	"github.com/prometheus/client_golang/prometheus"
)

// WatermarkReader reads how far ingest has durably written each partition.
type WatermarkReader interface {
	Watermarks(ctx context.Context, topics []string) ([]store.Watermark, error)
}

// Waker hands out a channel closed at the next watermark change.
type Waker interface {
	C() <-chan struct{}
}

// WithFreshness makes answers say how fresh they are (meta.fresh_through over
// the given source topics) and lets a request wait for its own writes (after=,
// fresh_through=).
func WithFreshness(topics []string, r WatermarkReader, w Waker) Option {
	return func(s *Server) { s.freshTopics, s.marks, s.waker = topics, r, w }
}

// freshShare is the share of the budget a request may spend waiting for the
// watermarks it asked for; the rest answers.
const freshShare = 0.5

// parseAfter reads "TOPIC:PARTITION:OFFSET" (what a producer's delivery report
// gives), as the watermark that would include that record.
func parseAfter(v string) (store.Watermark, error) {
	i := strings.LastIndexByte(v, ':')
	j := -1
	if i > 0 {
		j = strings.LastIndexByte(v[:i], ':')
	}
	if j <= 0 {
		return store.Watermark{}, badRequest("after: %q is not TOPIC:PARTITION:OFFSET", v)
	}
	p, err1 := strconv.ParseInt(v[j+1:i], 10, 32)
	o, err2 := strconv.ParseInt(v[i+1:], 10, 64)
	if err1 != nil || err2 != nil || p < 0 || o < 0 {
		return store.Watermark{}, badRequest("after: %q is not TOPIC:PARTITION:OFFSET (partition and offset are non-negative integers)", v)
	}
	return store.Watermark{Topic: v[:j], Partition: int32(p), Offset: o}, nil
}

// parseFreshThrough reads RFC 3339 or unix milliseconds.
func parseFreshThrough(v string) (time.Time, error) {
	if ms, err := strconv.ParseInt(v, 10, 64); err == nil {
		return time.UnixMilli(ms).UTC(), nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, badRequest("fresh_through: %q is neither RFC 3339 nor unix milliseconds", v)
	}
	return t.UTC(), nil
}

// freshThrough is the time up to which every partition of the source topics is
// complete: the oldest of their watermarks' times (nil when none is known).
func freshThrough(marks []store.Watermark) *time.Time {
	var min time.Time
	for _, w := range marks {
		if min.IsZero() || w.Time.Before(min) {
			min = w.Time
		}
	}
	if min.IsZero() {
		return nil
	}
	return &min
}

// satisfied reports whether marks include every record asked for.
func satisfied(marks []store.Watermark, after []store.Watermark, through time.Time) (bool, string) {
	for _, a := range after {
		ok := false
		for _, w := range marks {
			if w.Topic == a.Topic && w.Partition == a.Partition && w.Offset > a.Offset {
				ok = true
				break
			}
		}
		if !ok {
			return false, fmt.Sprintf("%s:%d:%d not yet written", a.Topic, a.Partition, a.Offset)
		}
	}
	if !through.IsZero() {
		if ft := freshThrough(marks); ft == nil || ft.Before(through) {
			return false, "sources not yet complete through " + through.Format(time.RFC3339Nano)
		}
	}
	return true, ""
}

// awaitFresh waits, woken by every watermark change (never by a sleep loop),
// until the watermarks include what p asks for, or until its share of the budget
// is spent (then it degrades and the answer goes on with what is there). It
// returns the last watermarks read, for meta.fresh_through.
func (s *Server) awaitFresh(ctx context.Context, p params, start time.Time, meta *Meta) []store.Watermark {
	if s.marks == nil {
		if len(p.after) > 0 || !p.freshThrough.IsZero() {
			s.degrade(meta, "freshness", "freshness is not configured (no watermarks)", "answered_without")
		}
		return nil
	}
	need := len(p.after) > 0 || !p.freshThrough.IsZero()
	deadline := time.NewTimer(time.Until(start.Add(share(p.budget, freshShare))))
	defer deadline.Stop()
	topics := s.freshTopics
	for _, a := range p.after {
		topics = appendNew(topics, a.Topic)
	}
	for {
		marks, wake, err := s.currentMarks(ctx, topics)
		if err != nil {
			if need {
				s.degrade(meta, "freshness", reason(err), "answered_without")
			}
			return nil
		}
		ok, why := satisfied(marks, p.after, p.freshThrough)
		if ok || !need {
			return marks
		}
		select {
		case <-wake:
		case <-deadline.C:
			s.degrade(meta, "freshness", "deadline exceeded: "+why, "answered_without")
			return marks
		case <-ctx.Done():
			s.degrade(meta, "freshness", "deadline exceeded: "+why, "answered_without")
			return marks
		}
	}
}

// currentMarks returns the watermarks of topics and a channel closed at their
// next change. The source topics' watermarks are read from Redis once per change
// (the waker's channel tells when the last read went stale), not once per
// request; other topics (an after= naming one) are read each time.
func (s *Server) currentMarks(ctx context.Context, topics []string) ([]store.Watermark, <-chan struct{}, error) {
	var wake <-chan struct{}
	if s.waker != nil {
		wake = s.waker.C() // before reading: a change in between wakes us
	}
	shared := wake != nil && len(topics) == len(s.freshTopics) // appendNew added none
	if shared {
		s.marksMu.Lock()
		marks, valid := s.marksSnap, s.marksWake == wake
		s.marksMu.Unlock()
		if valid {
			return marks, wake, nil
		}
	}
	marks, err := s.marks.Watermarks(ctx, topics)
	if err == nil && shared {
		s.marksMu.Lock()
		s.marksSnap, s.marksWake = marks, wake
		s.marksMu.Unlock()
	}
	return marks, wake, err
}

func appendNew(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(append([]string(nil), xs...), x)
}

// freshParams reads after= and fresh_through= from a query (the timeline and
// memory endpoints) into p, with budget as the request's budget.
// readCtx is ctx for the request's reads: a request that names writes it must
// see (after=, fresh_through=) reads the primary, never a lagging replica.
func (p params) readCtx(ctx context.Context) context.Context {
	if len(p.after) > 0 || !p.freshThrough.IsZero() {
		return store.WithPrimary(ctx)
	}
	return ctx
}

func freshParams(q url.Values, budget time.Duration) (params, error) {
	p := params{budget: budget}
	var err error
	p.after, p.freshThrough, err = parseFreshness(q["after"], q.Get("fresh_through"))
	return p, err
}

// parseFreshness reads the after= records and fresh_through= of a request.
func parseFreshness(after []string, through string) ([]store.Watermark, time.Time, error) {
	if len(after) > 64 {
		return nil, time.Time{}, badRequest("after: at most 64 records")
	}
	var marks []store.Watermark
	for _, a := range after {
		w, err := parseAfter(a)
		if err != nil {
			return nil, time.Time{}, err
		}
		marks = append(marks, w)
	}
	if through == "" {
		return marks, time.Time{}, nil
	}
	t, err := parseFreshThrough(through)
	return marks, t, err
}

// StatusResponse is the body of GET /v1/status: how far ingest has written each
// source partition.
type StatusResponse struct {
	// FreshThrough is the time up to which every source is complete.
	FreshThrough *time.Time        `json:"fresh_through"`
	Sources      []SourcePartition `json:"partitions"`
	// ReadableTopics are the topics GET /v1/topics/{topic}/latest may read
	// (api.read_latest_topics; empty when no latest-reader is configured).
	ReadableTopics []string `json:"readable_topics"`
}

// SourcePartition is one source partition's progress.
type SourcePartition struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	// Offset: every record below it is stored or dead-lettered.
	Offset int64 `json:"offset"`
	// FreshThrough: every record with a Kafka timestamp at or before it is stored.
	FreshThrough time.Time `json:"fresh_through"`
	// Lag is the log end offset (when ingest last looked) minus Offset; nil when
	// the end is not known.
	Lag *int64 `json:"lag"`
	// LastWrite is when the watermark last advanced.
	LastWrite    *time.Time `json:"last_write"`
	DeadLettered int64      `json:"dead_lettered"`
}

func (s *Server) handleStatus(w http.ResponseWriter, r *http.Request) error {
	if s.marks == nil {
		return &Error{Status: http.StatusNotFound, Code: "not_configured", Msg: "freshness is not configured (no watermarks)"}
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Budget)
	defer cancel()
	marks, err := s.marks.Watermarks(ctx, s.freshTopics)
	if err != nil {
		return &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", Msg: "the watermarks could not be read", Err: err}
	}
	resp := statusOf(marks)
	if s.latest != nil {
		resp.ReadableTopics = s.cfg.ReadLatestTopics
	}
	writeJSON(w, http.StatusOK, resp)
	return nil
}

func statusOf(marks []store.Watermark) StatusResponse {
	resp := StatusResponse{FreshThrough: freshThrough(marks), Sources: []SourcePartition{}, ReadableTopics: []string{}}
	for _, m := range marks {
		sp := SourcePartition{Topic: m.Topic, Partition: m.Partition, Offset: m.Offset, FreshThrough: m.Time, DeadLettered: m.DeadLettered}
		if m.High > 0 {
			lag := max(0, m.High-m.Offset)
			sp.Lag = &lag
		}
		if !m.WrittenAt.IsZero() {
			at := m.WrittenAt
			sp.LastWrite = &at
		}
		resp.Sources = append(resp.Sources, sp)
	}
	return resp
}

// statusCollector exports the watermarks on every scrape of /metrics.
type statusCollector struct {
	s                          *Server
	lag, freshness, deadLetter *prometheus.Desc
}

func newStatusCollector(s *Server) *statusCollector {
	l := []string{"topic", "partition"}
	return &statusCollector{s: s,
		lag:        prometheus.NewDesc("freshctx_source_lag", "Log end offset minus the durable watermark, per source partition (as ingest last published it).", l, nil),
		freshness:  prometheus.NewDesc("freshctx_source_fresh_through_seconds", "Unix time up to which the source partition is completely written.", l, nil),
		deadLetter: prometheus.NewDesc("freshctx_source_dead_lettered", "Records of the source partition sent to the DLQ.", l, nil),
	}
}

func (c *statusCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.lag
	ch <- c.freshness
	ch <- c.deadLetter
}

func (c *statusCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	marks, err := c.s.marks.Watermarks(ctx, c.s.freshTopics)
	if err != nil {
		return
	}
	for _, m := range marks {
		p := strconv.Itoa(int(m.Partition))
		if m.High > 0 {
			ch <- prometheus.MustNewConstMetric(c.lag, prometheus.GaugeValue, float64(max(0, m.High-m.Offset)), m.Topic, p)
		}
		ch <- prometheus.MustNewConstMetric(c.freshness, prometheus.GaugeValue, float64(m.Time.UnixMilli())/1000, m.Topic, p)
		ch <- prometheus.MustNewConstMetric(c.deadLetter, prometheus.CounterValue, float64(m.DeadLettered), m.Topic, p)
	}
}
