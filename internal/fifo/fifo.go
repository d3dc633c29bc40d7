// Package fifo is a first-in, first-out queue over one slice, for the
// queues of calls waiting their turn (the engine's transfer slots, the C
// API's completion queues).
package fifo

// Queue is a FIFO queue. Pop moves a head index instead of copying the
// rest; the slice is reused once empty, and compacted when the taken part
// is more than half of a long queue, so that a long-lived queue keeps
// neither its taken items alive nor an ever-growing slice. The zero value
// is empty and ready. Not safe for concurrent use.
type Queue[T any] struct {
	items []T
	head  int // items[head:] wait
}

// compactAt is the head from which a half-taken queue is compacted.
const compactAt = 1024

// Push adds v at the end.
func (q *Queue[T]) Push(v T) { q.items = append(q.items, v) }

// Len is the number of items waiting.
func (q *Queue[T]) Len() int { return len(q.items) - q.head }

// Pop takes the oldest item; ok is false when the queue is empty.
func (q *Queue[T]) Pop() (v T, ok bool) {
	if q.head == len(q.items) {
		return v, false
	}
	v = q.items[q.head]
	var zero T
	q.items[q.head] = zero // the queue keeps no reference to what it gave
	q.head++
	switch {
	case q.head == len(q.items):
		q.items, q.head = q.items[:0], 0
	case q.head >= compactAt && q.head*2 >= len(q.items):
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items, q.head = q.items[:n], 0
	}
	return v, true
}

// Drain empties the queue and returns what waited, oldest first.
func (q *Queue[T]) Drain() []T {
	rest := q.items[q.head:]
	q.items, q.head = nil, 0
	return rest
}
