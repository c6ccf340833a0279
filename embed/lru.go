package embed

import (
	"container/list"
	"sync"
)

// lru is a fixed-size cache of vectors by key. A nil *lru caches nothing.
type lru struct {
	mu    sync.Mutex
	max   int
	ll    *list.List
	items map[[32]byte]*list.Element
}

type lruEntry struct {
	key [32]byte
	vec []float32
}

func newLRU(max int) *lru {
	return &lru{max: max, ll: list.New(), items: make(map[[32]byte]*list.Element, max)}
}

func (c *lru) get(key [32]byte) ([]float32, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		c.ll.MoveToFront(e)
		return e.Value.(*lruEntry).vec, true
	}
	return nil, false
}

func (c *lru) put(key [32]byte, vec []float32) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		c.ll.MoveToFront(e)
		e.Value.(*lruEntry).vec = vec
		return
	}
	c.items[key] = c.ll.PushFront(&lruEntry{key: key, vec: vec})
	if c.ll.Len() > c.max {
		old := c.ll.Back()
		c.ll.Remove(old)
		delete(c.items, old.Value.(*lruEntry).key)
	}
}
