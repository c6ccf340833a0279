package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/freshctx/freshctx/store"
)

// ChangeStream is every entity's stream of changes (the Redis cache keeps one
// per entity, on the entity's slot, fed by ingest's writes).
type ChangeStream interface {
	// LastChange is the id of the entity's newest kept change ("0-0": none).
	LastChange(ctx context.Context, tenant, entity string) (string, error)
	// Changes returns up to count changes after id, waiting up to block for the
	// first; store.ErrChangesTrimmed when some after id are no longer kept.
	Changes(ctx context.Context, tenant, entity, id string, count int, block time.Duration) ([]store.Change, error)
}

// WithChangeStream serves GET /v1/entities/{entity}/stream from cs.
func WithChangeStream(cs ChangeStream) Option { return func(s *Server) { s.changes = cs } }

// Stream limits and timing.
const (
	streamHeartbeat    = 15 * time.Second // a comment line when nothing changed
	streamPoll         = 2 * time.Second  // one blocking read; a gone client is noticed within it
	streamWriteTimeout = 10 * time.Second // a client that takes longer to take a write is dropped
	streamBatch        = 100
)

var streamIDRE = regexp.MustCompile(`^[0-9]{1,20}-[0-9]{1,20}$`)

// streamLimits caps open streams per process, per tenant and per API key.
type streamLimits struct {
	mu                           sync.Mutex
	total                        int
	byTenant, byKey              map[string]int
	max, maxPerTenant, maxPerKey int
}

func (l *streamLimits) acquire(c caller) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.total >= l.max:
		return fmt.Errorf("this process serves its maximum of %d streams (api.max_streams)", l.max)
	case l.byTenant[c.tenant] >= l.maxPerTenant:
		return fmt.Errorf("tenant %q has its maximum of %d open streams (api.max_streams_per_tenant)", c.tenant, l.maxPerTenant)
	case c.name != "" && l.byKey[c.name] >= l.maxPerKey:
		return fmt.Errorf("this API key has its maximum of %d open streams (api.max_streams_per_key)", l.maxPerKey)
	}
	l.total++
	l.byTenant[c.tenant]++
	l.byKey[c.name]++
	return nil
}

func (l *streamLimits) release(c caller) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.total--
	l.byTenant[c.tenant]--
	l.byKey[c.name]--
}

// ChangeOut is the data of a stream event.
type ChangeOut struct {
	Op    string   `json:"op"` // stored, updated, deleted
	Event EventOut `json:"event"`
}

// handleStream serves an entity's changes as Server-Sent Events: every
// stored, updated and deleted event of the caller's tenant, as ingest writes
// it, from any replica (the changes live in Redis). A client resumes with
// Last-Event-ID (or ?last_event_id=) and gets every change after it once, in
// order; when those are no longer all kept it gets `event: reset` and should
// read the timeline again. A comment line every 15 s keeps the connection
// open; a client that does not take a write within 10 s is dropped, and never
// slows ingest (which only appends to the stream).
func (s *Server) handleStream(w http.ResponseWriter, r *http.Request) error {
	entity := r.PathValue("entity")
	if entity == "" || len(entity) > maxEntityBytes || !utf8.ValidString(entity) {
		return badRequest("entity: 1 to %d bytes of UTF-8", maxEntityBytes)
	}
	id := r.Header.Get("Last-Event-ID")
	if id == "" {
		id = r.URL.Query().Get("last_event_id")
	}
	if id != "" && !streamIDRE.MatchString(id) {
		return badRequest("Last-Event-ID: %q is not an id this stream sent (MS-SEQ)", id)
	}
	ctx := r.Context()
	c, _ := callerOf(ctx)
	if err := s.streams.acquire(c); err != nil {
		return &Error{Status: http.StatusTooManyRequests, Code: "rate_limited", Msg: err.Error(), retryAfter: 5 * time.Second}
	}
	defer s.streams.release(c)
	if id == "" {
		var err error
		if id, err = s.changes.LastChange(ctx, c.tenant, entity); err != nil {
			return &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", Msg: "the change stream did not answer", Err: err}
		}
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // proxies must not buffer it
	w.WriteHeader(http.StatusOK)
	send := func(text string) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
		if _, err := w.Write([]byte(text)); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send("retry: 2000\n: streaming " + entity + " from " + id + "\n\n") {
		return nil
	}
	quiet := time.Now()
	for ctx.Err() == nil {
		changes, err := s.changes.Changes(ctx, c.tenant, entity, id, streamBatch, streamPoll)
		switch {
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, store.ErrChangesTrimmed):
			send(`event: reset` + "\ndata: " + `{"reason":"the changes after ` + id + ` are no longer kept: read the timeline again, then reconnect without Last-Event-ID"}` + "\n\n")
			return nil
		case err != nil:
			b, _ := json.Marshal(map[string]string{"message": "the change stream failed; reconnect with Last-Event-ID " + id})
			send("event: error\ndata: " + string(b) + "\n\n")
			s.log.Warn("change stream failed", "entity", entity, "err", err)
			return nil
		}
		var out []byte
		for _, ch := range changes {
			b, _ := json.Marshal(ChangeOut{Op: ch.Op, Event: eventOut(Scored{Event: ch.Event})})
			out = fmt.Appendf(out, "id: %s\nevent: %s\ndata: %s\n\n", ch.ID, ch.Op, b)
			id = ch.ID
		}
		if len(changes) > 0 {
			quiet = time.Now()
		} else if time.Since(quiet) >= streamHeartbeat {
			out, quiet = append(out, ": heartbeat\n\n"...), time.Now()
		}
		if len(out) > 0 && !send(string(out)) {
			return nil // the client is gone or too slow: dropped
		}
	}
	return nil
}
