package client

import (
	"container/list"
	"sync"
)

// lru is a bounded map, safe for concurrent use, that drops its least
// recently used entry when it holds more than max (a client's S3 Express
// sessions, its resolved endpoints). The zero lru is empty and holds
// defaultMax entries.
type lru[V any] struct {
	mu      sync.Mutex
	byKey   map[string]*list.Element // of *lruEntry[V]
	recency list.List                // front: most recently used
	max     int                      // 0: the caller's default
}

type lruEntry[V any] struct {
	key   string
	value V
}

// get returns the value of key and makes it the most recently used.
func (l *lru[V]) get(key string) (V, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if el, ok := l.byKey[key]; ok {
		l.recency.MoveToFront(el)
		return el.Value.(*lruEntry[V]).value, true
	}
	var zero V
	return zero, false
}

// getOrAdd returns the value of key, made with mk (under the lock, so
// once per key) when missing; defaultMax bounds an lru whose max is 0.
func (l *lru[V]) getOrAdd(key string, defaultMax int, mk func() V) V {
	l.mu.Lock()
	defer l.mu.Unlock()
	if el, ok := l.byKey[key]; ok {
		l.recency.MoveToFront(el)
		return el.Value.(*lruEntry[V]).value
	}
	v := mk()
	l.addLocked(key, v, defaultMax)
	return v
}

// add sets the value of key (a value computed outside the lock, which
// another goroutine may have added meanwhile: the last one stays).
func (l *lru[V]) add(key string, v V, defaultMax int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if el, ok := l.byKey[key]; ok {
		el.Value.(*lruEntry[V]).value = v
		l.recency.MoveToFront(el)
		return
	}
	l.addLocked(key, v, defaultMax)
}

func (l *lru[V]) addLocked(key string, v V, defaultMax int) {
	if l.byKey == nil {
		l.byKey = map[string]*list.Element{}
	}
	l.byKey[key] = l.recency.PushFront(&lruEntry[V]{key: key, value: v})
	limit := l.max
	if limit == 0 {
		limit = defaultMax
	}
	for l.recency.Len() > limit {
		old := l.recency.Back()
		l.recency.Remove(old)
		delete(l.byKey, old.Value.(*lruEntry[V]).key)
	}
}

// len returns the number of entries.
func (l *lru[V]) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.recency.Len()
}
