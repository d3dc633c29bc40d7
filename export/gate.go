package main

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/internal/fifo"
)

// gate runs the asynchronous calls of one client on at most max
// goroutines. A call beyond them waits in a FIFO as data (its name, its
// input and where it completes: a few hundred bytes), not as a goroutine
// parked with the stack it grew, so that 10,000 calls in flight cost
// little more than the transfers on the wire. max is the engine's bound on
// transfers (client.WithEngineLimits): a goroutine holds at most one
// transfer slot, so none of them waits for one; a goroutine that finishes
// a call takes the next waiting one itself. (With more goroutines than
// slots, every call went through the engine's queue of slot waiters: a
// timer, a select and one more goroutine wake-up per call, ~3% of its CPU
// at 1,000 in flight. Fewer transfers than max are on the wire only while
// goroutines encode or decode, time that costs CPU, not throughput.)
//
// A waiting call keeps its semantics: its timeout counts from when it was
// made (client.QueuedSince), its token and the freeing of its client or
// queue complete it at once, and it completes exactly once.
type gate struct {
	cl  *clientH
	max int

	mu      sync.Mutex
	running int // goroutines running calls
	waiting fifo.Queue[*asyncCall]
	closed  bool // the client was freed
}

// asyncCall is one call of smithycurl_call_async or _queued.
type asyncCall struct {
	ctx   context.Context // the cancel token's (Background for none)
	q     *queueH         // nil: done calls the callback
	name  string
	input []byte
	// payload makes it a payload call (smithycurl_call_payload_*); nil
	// for a plain one.
	payload *payloadCall
	done    func(int, *result)
	since   time.Time // when it was made, once it had to wait

	taken atomic.Bool // by a goroutine that runs it, or by a cancel
	stop  func() bool // ends the AfterFunc of ctx; nil when none
}

// take claims a waiting call for whoever completes it (true once) and ends
// the watch on its token.
func (a *asyncCall) take() bool {
	if !a.taken.CompareAndSwap(false, true) {
		return false
	}
	if a.stop != nil {
		a.stop()
	}
	return true
}

func newGate(cl *clientH, maxTransfers int) *gate {
	return &gate{cl: cl, max: maxTransfers}
}

// submit starts a, or queues it when max calls are running. It never runs
// done on the calling thread (the C API promises callbacks on a library
// thread).
func (g *gate) submit(a *asyncCall) {
	g.mu.Lock()
	switch {
	case g.closed:
		g.mu.Unlock()
		a.taken.Store(true)
		go a.done(cancelledBy(nil, errClientFreed))
		return
	case g.running < g.max:
		g.running++
		g.mu.Unlock()
		a.taken.Store(true)
		go g.work(a)
		return
	}
	a.since = time.Now()
	if a.ctx.Done() != nil {
		// Registered before the call is queued, so that a.stop is set
		// before any goroutine can take it.
		a.stop = context.AfterFunc(a.ctx, func() {
			// Not take: a.stop may still be being set, and this is its func.
			if a.taken.CompareAndSwap(false, true) {
				g.run(a) // the token was cancelled: the call fails as Call does, sending nothing
			}
		})
	}
	g.waiting.Push(a)
	g.mu.Unlock()
}

// work runs a and then the calls that wait, until none does.
func (g *gate) work(a *asyncCall) {
	for a != nil {
		g.run(a)
		a = g.next()
	}
}

// next takes the oldest waiting call no cancel took, or returns nil and
// counts this goroutine out.
func (g *gate) next() *asyncCall {
	g.mu.Lock()
	defer g.mu.Unlock()
	for {
		a, ok := g.waiting.Pop()
		if !ok {
			g.running--
			return nil
		}
		if a.take() {
			return a
		}
	}
}

// run makes the call and completes it.
func (g *gate) run(a *asyncCall) {
	opts := []client.CallOption{client.ViaEngine()}
	if !a.since.IsZero() {
		opts = append(opts, client.QueuedSince(a.since))
	}
	runAsync(a.ctx, g.cl, a.q, func(ctx context.Context) *result {
		if a.payload != nil {
			return callPayload(ctx, g.cl.c, a.name, a.input, a.payload, opts...)
		}
		return call(ctx, g.cl.c, a.name, a.input, opts...)
	}, a.done)
}

// close completes every waiting call with SMITHYCURL_E_CANCELLED (the
// client was freed), on a goroutine of its own; later submissions too.
// The running ones end through the client's context.
func (g *gate) close() {
	g.mu.Lock()
	g.closed = true
	left := g.waiting.Drain()
	g.mu.Unlock()
	if len(left) == 0 {
		return
	}
	go func() {
		for _, a := range left {
			if a.take() {
				a.done(cancelledBy(nil, errClientFreed))
			}
		}
	}()
}
