package db

import "sync"

// recent keeps the last max values put, by key, and lets go of the one
// put first when another comes. It is safe for concurrent use.
type recent[K comparable, V any] struct {
	mu    sync.Mutex
	max   int
	items map[K]V
	order []K // the order they were put in
}

func newRecent[K comparable, V any](max int) *recent[K, V] {
	return &recent[K, V]{max: max, items: make(map[K]V)}
}

// get gives the value kept for k, if any.
func (c *recent[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.items[k]
	return v, ok
}

// put keeps v for k, unless a value is kept for k already.
func (c *recent[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[k]; ok {
		return
	}
	if len(c.order) == c.max {
		delete(c.items, c.order[0])
		c.order = c.order[1:]
	}
	c.items[k] = v
	c.order = append(c.order, k)
}

// blockCache keeps the last blocks inflated, so that probes of a position
// and of its children, or of a game played move by move, read each block
// once.
type blockCache struct{ kept *recent[blockKey, []byte] }

type blockKey struct {
	t *tierFile
	i int
}

func newBlockCache(max int) *blockCache {
	return &blockCache{kept: newRecent[blockKey, []byte](max)}
}

// get gives block i of t, read and inflated when not kept.
func (c *blockCache) get(t *tierFile, i int) ([]byte, error) {
	k := blockKey{t, i}
	if b, ok := c.kept.get(k); ok {
		return b, nil
	}
	b, err := t.block(i, make([]byte, t.blockLen))
	if err != nil {
		return nil, err
	}
	c.kept.put(k, b)
	return b, nil
}
