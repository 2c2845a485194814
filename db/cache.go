package db

import (
	"sync"
)

// blockCache keeps the last blocks inflated, so that probes of a position
// and of its children, or of a game played move by move, read each block
// once. It is safe for concurrent use.
type blockCache struct {
	mu    sync.Mutex
	max   int
	items map[blockKey][]byte
	order []blockKey // oldest first
}

type blockKey struct {
	t *tierFile
	i int
}

func newBlockCache(max int) *blockCache {
	return &blockCache{max: max, items: make(map[blockKey][]byte)}
}

// get gives block i of t, read and inflated when not kept.
func (c *blockCache) get(t *tierFile, i int) ([]byte, error) {
	k := blockKey{t, i}
	c.mu.Lock()
	b, ok := c.items[k]
	c.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := t.block(i, make([]byte, BlockLen))
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[k]; !ok {
		if len(c.order) == c.max {
			delete(c.items, c.order[0])
			c.order = c.order[1:]
		}
		c.items[k] = b
		c.order = append(c.order, k)
	}
	return b, nil
}
