package api

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/freshctx/freshctx/internal/lru"
	"github.com/freshctx/freshctx/relevance"
	"github.com/freshctx/freshctx/store"
)

// KnowledgeWatcher reports committed knowledge writes by tenant (pgstore's
// LISTEN/NOTIFY), so knowledge searches can be cached: see WatchKnowledge.
type KnowledgeWatcher interface {
	WatchKnowledge(ctx context.Context, changed func(tenant string), listening func(on bool, err error))
}

// WithKnowledgeCache caches up to about entries knowledge searches (by
// tenant, question, k and filter), forgotten for a tenant as soon as w reports
// a write of its documents, and not kept at all while w is not listening: a
// cached answer never holds a chunk whose change was announced (a notice
// trails its commit by a moment; read-your-writes requests skip the cache).
// Answers say meta.knowledge_cached. It watches until ctx ends.
func WithKnowledgeCache(ctx context.Context, w KnowledgeWatcher, entries int) Option {
	return func(s *Server) {
		if entries <= 0 {
			return
		}
		c := &knowledgeCache{entries: lru.New[string, kcEntry](entries), gens: map[string]uint64{}, srv: s}
		s.kcache = c
		go w.WatchKnowledge(ctx, c.changed, c.listen)
	}
}

type knowledgeCache struct {
	entries *lru.Cache[string, kcEntry]
	flights singleflight.Group // searches running, by kcKey
	srv     *Server            // for its logger

	mu        sync.Mutex
	listening bool
	epoch     uint64            // bumped when the watch starts or stops: every tenant is forgotten
	gens      map[string]uint64 // bumped when a tenant's documents change
}

type kcEntry struct {
	epoch, gen uint64
	hits       []store.Hit
	info       store.SearchInfo
}

// stamp is what a search's result is valid for: the tenant's generation and
// the epoch when it started.
type stamp struct{ epoch, gen uint64 }

// kcKey is a search's key in the cache. q.Also follows from q.Text, but not
// before the dictionary is loaded: a search made without translations in the
// first second is not the answer after it.
func kcKey(q store.SearchQuery) string {
	f, _ := json.Marshal(q.Filter) // map keys are sorted: one key per filter
	return q.Tenant + "\x00" + strconv.Itoa(q.K) + "\x00" + string(f) + "\x00" + q.Text + "\x00" + strings.Join(q.Also, " ")
}

func (c *knowledgeCache) now(tenant string) (stamp, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return stamp{c.epoch, c.gens[tenant]}, c.listening
}

// get returns a copy of the cached hits for q, if they are still valid.
func (c *knowledgeCache) get(q store.SearchQuery) ([]store.Hit, store.SearchInfo, bool) {
	st, listening := c.now(q.Tenant)
	if !listening {
		return nil, store.SearchInfo{}, false
	}
	e, ok := c.entries.Lookup(kcKey(q))
	if !ok || e.epoch != st.epoch || e.gen != st.gen {
		return nil, store.SearchInfo{}, false
	}
	return append([]store.Hit(nil), e.hits...), e.info, true
}

// put keeps a search's result if nothing of the tenant changed since st (when
// it started): a write committed during the search may be missing from it.
func (c *knowledgeCache) put(q store.SearchQuery, st stamp, hits []store.Hit, info store.SearchInfo) {
	if now, listening := c.now(q.Tenant); !listening || now != st {
		return
	}
	c.entries.Put(kcKey(q), kcEntry{epoch: st.epoch, gen: st.gen, hits: append([]store.Hit(nil), hits...), info: info})
}

// changed forgets tenant's searches: one of its documents was written.
func (c *knowledgeCache) changed(tenant string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gens[tenant]++
}

// listen turns the cache on or off with the watch; either way everything kept
// so far is forgotten (writes may have gone unheard).
func (c *knowledgeCache) listen(on bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if on != c.listening || err != nil {
		c.srv.log.Info("knowledge cache", "on", on, "err", err)
	}
	c.listening = on
	c.epoch++
}

// searchKnowledge searches knowledge through the cache when there is one; cached
// reports an answer from it. q's vector comes from vector, called only when the
// store is searched (a cache hit needs no embedding).
func (s *Server) searchKnowledge(ctx context.Context, q store.SearchQuery, vector func() ([]float32, error)) (hits []store.Hit, info store.SearchInfo, cached bool, err error) {
	// The question's words also look for their translations (CC-CEDICT) in the
	// full-text side: "退款多久到账？" finds an English article on refunds,
	// "how long does a refund take?" a Chinese one on 退款, which neither
	// their words nor the offline embedder reach; and for their other
	// spellings: "what colour …?" finds an article on a color, "退款多久到賬？"
	// one on 到账 (PostgreSQL's full text reads both scripts as Simplified
	// itself, migration 008; Milvus's analyzer does not).
	q.Also = slices.Concat(relevance.Translations(q.Text), relevance.OtherSpellings(q.Text))
	if s := relevance.InSimplified(q.Text); s != "" {
		q.Also = append(q.Also, s)
	}
	// Read-your-writes requests (after=, fresh_through=) read the store: a
	// write's notice may trail its commit by a moment.
	useCache := s.kcache != nil && !store.NeedsPrimary(ctx)
	if useCache {
		if hits, info, ok := s.kcache.get(q); ok {
			return hits, info, true, nil
		}
	}
	if q.Vector, err = vector(); err != nil {
		return nil, info, false, err
	}
	if !useCache {
		hits, info, err = s.knowledge.Search(ctx, q)
		return hits, info, false, err
	}
	// One search per question at a time, and it outlives the request that
	// started it: when many ask a new question at once (a herd after a start or
	// a document write), one search runs instead of many, and one that outlasts
	// a request's budget still fills the cache for the next (the request itself
	// degrades at its deadline, as before). Cancelling it would also cost the
	// connection: pgx closes a connection whose query is interrupted.
	ch := s.kcache.flights.DoChan(kcKey(q), func() (any, error) {
		// A flight that ended between this request's look at the cache and
		// now has filled it: no second search for the same question.
		if hits, info, ok := s.kcache.get(q); ok {
			return kcEntry{hits: hits, info: info}, nil
		}
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), knowledgeFlightTimeout)
		defer cancel()
		st, _ := s.kcache.now(q.Tenant)
		hits, info, err := s.knowledge.Search(fctx, q)
		if err == nil {
			s.kcache.put(q, st, hits, info)
		}
		return kcEntry{hits: hits, info: info}, err
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, info, false, r.Err
		}
		e := r.Val.(kcEntry)
		return append([]store.Hit(nil), e.hits...), e.info, false, nil // shared: a copy each
	case <-ctx.Done():
		return nil, info, false, ctx.Err()
	}
}

// knowledgeFlightTimeout bounds a shared knowledge search that no request waits
// for any more.
const knowledgeFlightTimeout = 5 * time.Second
