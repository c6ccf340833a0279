package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/freshctx/freshctx/store"
)

// entityURIPrefix names an entity as an MCP resource: freshctx://entities/{entity}.
const entityURIPrefix = "freshctx://entities/"

// entityResourceEvents is how many of the newest events reading the resource returns.
const entityResourceEvents = 20

// entityOf parses an entity resource URI.
func entityOf(uri string) (string, error) {
	rest, ok := strings.CutPrefix(uri, entityURIPrefix)
	if !ok {
		return "", fmt.Errorf("%q is not an entity resource (%s{entity})", uri, entityURIPrefix)
	}
	entity, err := url.PathUnescape(rest)
	if err != nil || entity == "" || len(entity) > maxEntityBytes || !utf8.ValidString(entity) {
		return "", fmt.Errorf("%q: the entity must be 1 to %d bytes of UTF-8", uri, maxEntityBytes)
	}
	return entity, nil
}

// addEntityResources makes every entity of tenant a resource of srv: reading it
// returns its newest events; with a change stream, subscribing to it sends
// notifications/resources/updated whenever one of its events is stored,
// updated or deleted (on any replica: the changes come from Redis).
func (s *Server) addEntityResources(srv *mcp.Server, tenant string) {
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "entity",
		Title:       "An entity's newest events",
		URITemplate: entityURIPrefix + "{+entity}",
		MIMEType:    "application/json",
		Description: "What just happened to one entity (a customer, an account, an order): its newest events, " +
			"newest first. Subscribe to hear about each new, changed or deleted event without polling.",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		entity, err := entityOf(req.Params.URI)
		if err != nil {
			return nil, mcp.ResourceNotFoundError(req.Params.URI)
		}
		if s.timeline == nil {
			return nil, errors.New("this service has no timeline store")
		}
		events, err := s.timeline.Timeline(ctx, tenant, entity, nil, entityResourceEvents)
		if err != nil {
			return nil, fmt.Errorf("the store did not answer: %w", err)
		}
		out := TimelineResponse{Entity: entity, Events: make([]EventOut, 0, len(events))}
		for _, e := range servable(events, nil, s.now()) {
			out.Events = append(out.Events, eventOut(Scored{Event: e}))
		}
		b, err := json.Marshal(out)
		if err != nil {
			return nil, err
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(b)}}}, nil
	})
}

// entitySubscriptions watches, for one tenant's MCP server, the change streams
// of the entities its clients subscribed to: one watcher per entity, however
// many subscribers, each counted against the stream limits.
type entitySubscriptions struct {
	s      *Server
	tenant string
	srv    *mcp.Server
	mu     sync.Mutex
	active map[string]*entityWatch // by URI
}

type entityWatch struct {
	refs   int
	cancel context.CancelFunc
}

func (e *entitySubscriptions) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	entity, err := entityOf(uri)
	if err != nil {
		return err
	}
	if err := e.s.streams.acquire(caller{tenant: e.tenant}); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if w, ok := e.active[uri]; ok {
		w.refs++
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	e.active[uri] = &entityWatch{refs: 1, cancel: cancel}
	go e.watch(ctx, uri, entity)
	return nil
}

func (e *entitySubscriptions) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	uri := req.Params.URI
	e.mu.Lock()
	defer e.mu.Unlock()
	w, ok := e.active[uri]
	if !ok {
		return nil
	}
	e.s.streams.release(caller{tenant: e.tenant})
	if w.refs--; w.refs == 0 {
		w.cancel()
		delete(e.active, uri)
	}
	return nil
}

// watch reads the entity's change stream from now on and notifies the
// resource's subscribers once per batch of changes, until ctx ends.
func (e *entitySubscriptions) watch(ctx context.Context, uri, entity string) {
	id := ""
	for ctx.Err() == nil {
		var err error
		if id == "" {
			if id, err = e.s.changes.LastChange(ctx, e.tenant, entity); err != nil {
				id = ""
				e.backoff(ctx, entity, err)
				continue
			}
		}
		changes, err := e.s.changes.Changes(ctx, e.tenant, entity, id, streamBatch, streamPoll)
		switch {
		case ctx.Err() != nil:
			return
		case errors.Is(err, store.ErrChangesTrimmed):
			id = "" // fell behind what is kept: start again from now, and say something changed
			e.notify(uri)
			continue
		case err != nil:
			e.backoff(ctx, entity, err)
			continue
		}
		if len(changes) > 0 {
			id = changes[len(changes)-1].ID
			e.notify(uri)
		}
	}
}

func (e *entitySubscriptions) notify(uri string) {
	ctx, cancel := context.WithTimeout(context.Background(), streamWriteTimeout)
	defer cancel()
	if err := e.srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil {
		e.s.log.Warn("mcp: notifying subscribers", "uri", uri, "err", err)
	}
}

func (e *entitySubscriptions) backoff(ctx context.Context, entity string, err error) {
	e.s.log.Warn("mcp: the change stream failed; retrying", "entity", entity, "err", err)
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}
