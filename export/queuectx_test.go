package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
)

// TestClientQueueContexts: a client's asynchronous calls on a queue share
// one context (ctxFor), which ends when the queue is freed (cause
// errQueueFreed; the client's other queues go on) or the client (cause
// errClientFreed); neither keeps an entry or a watch behind.
func TestClientQueueContexts(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), "../examples/httpbin")
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.New(m, "smithycurl.examples.httpbin#HttpBin", "http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	cl := newClientH(c)
	newQueue := func() *queueH {
		ctx, cancel := context.WithCancelCause(context.Background())
		return &queueH{ctx: ctx, cancel: cancel, fd: -1}
	}
	q1, q2 := newQueue(), newQueue()
	defer q2.cancel(nil)
	c1, c2 := cl.ctxFor(q1), cl.ctxFor(q2)
	if cl.ctxFor(q1) != c1 || c1 == c2 {
		t.Fatal("ctxFor: not one context per queue")
	}
	if cl.ctxFor(nil) != cl.ctx {
		t.Fatal("ctxFor(nil) is not the client's context")
	}
	q1.cancel(errQueueFreed) // as queueH.close
	select {
	case <-c1.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the freed queue's context did not end")
	}
	if !errors.Is(context.Cause(c1), errQueueFreed) {
		t.Errorf("cause %v, want %v", context.Cause(c1), errQueueFreed)
	}
	if c2.Err() != nil {
		t.Fatal("another queue's context ended with the first")
	}
	entries := func() int {
		cl.queuesMu.Lock()
		defer cl.queuesMu.Unlock()
		return len(cl.queues)
	}
	for deadline := time.Now().Add(10 * time.Second); entries() != 1 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if n := entries(); n != 1 {
		t.Fatalf("%d entries after the first queue was freed, want 1", n)
	}
	if c3 := cl.ctxFor(q1); c3.Err() == nil { // a call racing the queue's freeing
		select {
		case <-c3.Done():
		case <-time.After(10 * time.Second):
			t.Fatal("a context made for a freed queue did not end")
		}
	}
	cl.close()
	if !errors.Is(context.Cause(c2), errClientFreed) {
		t.Errorf("cause %v, want %v", context.Cause(c2), errClientFreed)
	}
	if n := entries(); n != 0 {
		t.Errorf("%d entries after the client was freed, want 0", n)
	}
}
