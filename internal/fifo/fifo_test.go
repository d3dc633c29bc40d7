package fifo

import "testing"

// Items come out in the order they went in, across compactions and the
// reuse of an emptied slice; Drain gives what is left.
func TestQueueOrder(t *testing.T) {
	var q Queue[int]
	if _, ok := q.Pop(); ok || q.Len() != 0 {
		t.Fatal("a new queue is not empty")
	}
	next, want := 0, 0
	for round := 0; round < 3; round++ {
		for i := 0; i < 5000; i++ {
			q.Push(next)
			next++
			if i%3 == 2 { // take one for every three put
				if v, ok := q.Pop(); !ok || v != want {
					t.Fatalf("Pop = %d, %v; want %d", v, ok, want)
				}
				want++
			}
		}
		if q.Len() != next-want {
			t.Fatalf("Len %d, want %d", q.Len(), next-want)
		}
		for q.Len() > 100 {
			if v, _ := q.Pop(); v != want {
				t.Fatalf("Pop = %d, want %d", v, want)
			}
			want++
		}
		if q.head > compactAt && q.head*2 >= len(q.items) {
			t.Fatalf("not compacted: head %d of %d", q.head, len(q.items))
		}
	}
	rest := q.Drain()
	if len(rest) != next-want || rest[0] != want || rest[len(rest)-1] != next-1 || q.Len() != 0 {
		t.Fatalf("Drain: %d items from %d, queue left with %d", len(rest), rest[0], q.Len())
	}
}

// A popped slot is cleared: the queue keeps no pointer to what it gave.
func TestQueueClearsTaken(t *testing.T) {
	var q Queue[*int]
	a, b := new(int), new(int)
	q.Push(a)
	q.Push(b)
	if v, _ := q.Pop(); v != a {
		t.Fatal("wrong item")
	}
	if q.items[0] != nil {
		t.Fatal("the taken slot still points to its item")
	}
}
