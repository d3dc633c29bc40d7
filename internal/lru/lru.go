// Package lru is a bounded map, safe for concurrent use, that drops its
// least recently used entries when it holds more than MaxEntries or its
// entries weigh more than MaxWeight (a client's resolved endpoints and S3
// Express sessions, the models a process loaded). It holds no global
// state: each user owns its caches.
package lru

import (
	"container/list"
	"sync"
)

// Cache is the bounded map. Set its bounds before first use and do not
// change them after; the zero Cache is empty and unbounded.
type Cache[K comparable, V any] struct {
	// MaxEntries bounds the number of entries; 0: no bound.
	MaxEntries int
	// MaxWeight bounds the sum of the entries' weights (Weigh); 0: no
	// bound. The most recently used entry is kept whatever it weighs.
	MaxWeight int64
	// Weigh gives an entry's weight, taken once when it is added; nil:
	// every entry weighs 0.
	Weigh func(V) int64

	mu      sync.Mutex
	byKey   map[K]*list.Element // of *entry[K, V]
	recency list.List           // front: most recently used
	weight  int64
}

type entry[K comparable, V any] struct {
	key    K
	value  V
	weight int64
}

// Get returns the value of key and makes it the most recently used.
func (c *Cache[K, V]) Get(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		c.recency.MoveToFront(el)
		return el.Value.(*entry[K, V]).value, true
	}
	var zero V
	return zero, false
}

// GetOrAdd returns the value of key and makes it the most recently used;
// when key is missing it adds the value mk makes (under the lock, so mk
// runs once per key) and returns that.
func (c *Cache[K, V]) GetOrAdd(key K, mk func() V) V {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		c.recency.MoveToFront(el)
		return el.Value.(*entry[K, V]).value
	}
	v := mk()
	c.addLocked(key, v)
	return v
}

// Add sets the value of key, as the most recently used (a value computed
// outside the lock, which another goroutine may have added meanwhile: the
// last one stays).
func (c *Cache[K, V]) Add(key K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		c.removeLocked(el)
	}
	c.addLocked(key, v)
}

// Remove drops key, if present.
func (c *Cache[K, V]) Remove(key K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		c.removeLocked(el)
	}
}

// Len returns the number of entries.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.recency.Len()
}

// Weight returns the sum of the entries' weights.
func (c *Cache[K, V]) Weight() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.weight
}

func (c *Cache[K, V]) addLocked(key K, v V) {
	if c.byKey == nil {
		c.byKey = map[K]*list.Element{}
	}
	e := &entry[K, V]{key: key, value: v}
	if c.Weigh != nil {
		e.weight = c.Weigh(v)
	}
	c.byKey[key] = c.recency.PushFront(e)
	c.weight += e.weight
	for c.recency.Len() > 1 && (c.MaxEntries > 0 && c.recency.Len() > c.MaxEntries || c.MaxWeight > 0 && c.weight > c.MaxWeight) {
		c.removeLocked(c.recency.Back())
	}
}

func (c *Cache[K, V]) removeLocked(el *list.Element) {
	e := c.recency.Remove(el).(*entry[K, V])
	delete(c.byKey, e.key)
	c.weight -= e.weight
}
