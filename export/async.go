package main

/*
#include "scx.h"
*/
import "C"

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/internal/fifo"
)

// Asynchronous calls (smithycurl_call_async, smithycurl_call_queued): each
// accepted call runs client.Call with client.ViaEngine on one of its
// client's goroutines (gate.go) and completes exactly once, by a callback
// or by an entry on a completion queue. Calls are cancelled by their
// cancel token, by freeing their client, or by freeing their queue.

var (
	errClientFreed = errors.New("the client was freed with the call in flight")
	errQueueFreed  = errors.New("the completion queue was freed with the call in flight")
)

// newClientH wraps a client; its context ends when the handle is freed.
func newClientH(c *client.Client) *clientH {
	ctx, cancel := context.WithCancelCause(context.Background())
	h := &clientH{c: c, ctx: ctx, cancel: cancel}
	h.gate = newGate(h, c.MaxTransfers())
	return h
}

// ctxFor is the context the client's asynchronous calls completing on q
// (nil: by callbacks) run under: it ends when the client is freed, or the
// queue, with that as its cause. One per client and queue, made on first
// use, so that a call costs no context of its own (issue 27: each call's
// context and two context.AfterFuncs were ~4% of its CPU); a queue's is
// dropped when the queue is freed, or the client.
func (h *clientH) ctxFor(q *queueH) context.Context {
	if q == nil {
		return h.ctx
	}
	h.queuesMu.Lock()
	defer h.queuesMu.Unlock()
	if qc, ok := h.queues[q]; ok {
		return qc.ctx
	}
	ctx, cancel := context.WithCancelCause(h.ctx)
	if h.queues == nil {
		h.queues = map[*queueH]queueCtx{}
	}
	// Runs at once when q is freed already (its calls then fail, as those
	// of a queue freed while they run).
	stop := context.AfterFunc(q.ctx, func() {
		cancel(context.Cause(q.ctx))
		h.queuesMu.Lock()
		if h.queues[q].ctx == ctx {
			delete(h.queues, q)
		}
		h.queuesMu.Unlock()
	})
	h.queues[q] = queueCtx{ctx: ctx, stop: stop}
	return ctx
}

// queueCtx is a client's context for its calls on one queue (ctxFor), and
// what ends the watch on the queue.
type queueCtx struct {
	ctx  context.Context
	stop func() bool
}

// close cancels the client's asynchronous calls, those running and those
// waiting their turn, then closes the client (which cancels its
// synchronous ones). Calls still running hold the *client.Client, which
// stays valid memory: a closed client fails calls with KindCancelled.
func (h *clientH) close() {
	h.cancel(errClientFreed) // and the contexts of ctxFor, its children
	h.queuesMu.Lock()
	for q, qc := range h.queues {
		qc.stop() // a long-lived queue keeps no watch for a freed client
		delete(h.queues, q)
	}
	h.queuesMu.Unlock()
	h.gate.close()
	h.c.Close()
}

// queueH is a completion queue: a FIFO of completions and an eventfd that
// is readable while the FIFO is not empty.
type queueH struct {
	ctx    context.Context // ends when the queue is freed
	cancel context.CancelCauseFunc

	mu        sync.Mutex
	fd        C.int // the eventfd; -1 once freed
	items     fifo.Queue[completion]
	signalled bool // the eventfd's counter is non-zero
}

// completion is one finished call waiting on a queue.
type completion struct {
	tag  uintptr
	code int
	r    *result // nil when the result could not be built (NOMEM, INTERNAL)
}

// push adds a completion, or frees its result when the queue is freed.
func (q *queueH) push(c completion) {
	q.mu.Lock()
	if q.fd < 0 {
		q.mu.Unlock()
		if c.r != nil {
			c.r.free()
		}
		return
	}
	q.items.Push(c)
	if !q.signalled {
		C.scx_eventfd_signal(q.fd)
		q.signalled = true
	}
	q.mu.Unlock()
}

// pop takes the oldest completion; ok is false when none waits.
func (q *queueH) pop() (c completion, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if c, ok = q.items.Pop(); ok && q.items.Len() == 0 {
		C.scx_eventfd_drain(q.fd)
		q.signalled = false
	}
	return c, ok
}

// close cancels the calls in flight on the queue, frees the results that
// wait on it and closes its eventfd; completions that arrive later are
// freed by push.
func (q *queueH) close() {
	q.cancel(errQueueFreed)
	q.mu.Lock()
	waiting := q.items.Drain()
	if q.fd >= 0 {
		C.scx_eventfd_close(q.fd)
		q.fd = -1
	}
	q.mu.Unlock()
	for _, c := range waiting {
		if c.r != nil {
			c.r.free()
		}
	}
}

//export scx_queue_new
func scx_queue_new(out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	fd := C.scx_eventfd_new()
	if fd < 0 {
		return codeNoMem // out of file descriptors or kernel memory
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	*out = register(C.SCX_QUEUE, &queueH{ctx: ctx, cancel: cancel, fd: fd})
	return codeOK
}

//export scx_queue_fd
func scx_queue_fd(h C.uintptr_t, fd *C.int) (rc C.int) {
	defer guard(&rc)
	q, ok := lookup[*queueH](h, C.SCX_QUEUE)
	if !ok {
		return codeInvalidHandle
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.fd < 0 {
		return codeInvalidHandle
	}
	*fd = q.fd
	return codeOK
}

// scx_queue_pop takes one completion without waiting: SMITHYCURL_OK with
// tag, code and a new result handle (0 for none), or SMITHYCURL_E_END.
//
//export scx_queue_pop
func scx_queue_pop(h C.uintptr_t, tag *C.uintptr_t, code *C.int, out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	q, ok := lookup[*queueH](h, C.SCX_QUEUE)
	if !ok {
		return codeInvalidHandle
	}
	c, ok := q.pop()
	if !ok {
		return codeEnd
	}
	*tag, *code, *out = C.uintptr_t(c.tag), C.int(c.code), 0
	if c.r != nil {
		*out = register(C.SCX_RESULT, c.r)
	}
	return codeOK
}

// scx_call_async starts one asynchronous call: its completion goes to the
// callback fn (with user) when qh is 0, else to queue qh (with tag). mode
// (SCX_PAYLOAD_*) makes it a payload call (payload.go), data its input
// payload.
//
//export scx_call_async
func scx_call_async(ch C.uintptr_t, op *C.char, in *C.char, n C.size_t, tok C.uintptr_t,
	fn, user, qh, tag C.uintptr_t, mode C.int, data unsafe.Pointer, dataLen C.size_t, hints, threads C.int) (rc C.int) {
	defer guard(&rc)
	schedHints(int(hints), int(threads))
	cl, ctx, ok := callTarget(ch, tok)
	if !ok {
		return codeInvalidHandle
	}
	var q *queueH
	if qh != 0 {
		if q, ok = lookup[*queueH](qh, C.SCX_QUEUE); !ok {
			return codeInvalidHandle
		}
	} else if fn == 0 {
		return codeInvalidArgument
	}
	if op == nil || (in == nil && n > 0) {
		return codeInvalidArgument
	}
	name := C.GoString(op)
	var input []byte
	if n > 0 {
		input = bytes.Clone(unsafe.Slice((*byte)(unsafe.Pointer(in)), int(n)))
	}
	done := func(code int, r *result) { // exactly once
		if q != nil {
			q.push(completion{tag: uintptr(tag), code: code, r: r})
			return
		}
		var h C.uintptr_t
		if r != nil {
			h = register(C.SCX_RESULT, r)
		}
		C.scx_done_invoke(fn, user, C.int(code), h)
	}
	a := &asyncCall{ctx: ctx, q: q, name: name, input: input, done: done}
	if mode != 0 {
		a.payload = newPayloadCall(mode, data, dataLen)
	}
	cl.gate.submit(a)
	return codeOK
}

// scx_complete_async completes, on a goroutine, an asynchronous call that
// failed before it started: fn gets result rh (and its code), which it owns.
//
//export scx_complete_async
func scx_complete_async(ch, rh, fn, user C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	if _, ok := lookup[*clientH](ch, C.SCX_CLIENT); !ok {
		return codeInvalidHandle
	}
	r, ok := lookup[*result](rh, C.SCX_RESULT)
	if !ok {
		return codeInvalidHandle
	}
	if fn == 0 || r.code == codeOK {
		return codeInvalidArgument
	}
	code := C.int(r.code)
	go C.scx_done_invoke(fn, user, code, rh)
	return codeOK
}

// runAsync runs one asynchronous call (run, with a context that its cancel
// token tok, the client's freeing and the queue's end) and hands its
// outcome to done.
func runAsync(tok context.Context, cl *clientH, q *queueH, run func(context.Context) *result, done func(int, *result)) {
	shared := cl.ctxFor(q)
	ctx := shared
	if tok.Done() != nil {
		callCtx, cancel := context.WithCancelCause(tok)
		defer cancel(nil)
		stop := context.AfterFunc(shared, func() { cancel(context.Cause(shared)) })
		defer stop()
		ctx = callCtx
	}
	r := runSafely(ctx, run)
	// A call whose client was freed completes with SMITHYCURL_E_CANCELLED
	// and says so, even when its response had arrived meanwhile.
	if cl.ctx.Err() != nil {
		done(cancelledBy(r, errClientFreed))
		return
	}
	code := codeNoMem
	if r != nil {
		code = r.code
	}
	done(code, r)
}

// cancelledBy is the outcome of an asynchronous call that what it belonged
// to (why: its client, its paginator) ended while it ran: r, whatever it
// was, is freed for a SMITHYCURL_E_CANCELLED result saying why (nil, with
// SMITHYCURL_E_NOMEM, when out of memory).
func cancelledBy(r *result, why error) (int, *result) {
	if r != nil {
		r.free()
	}
	c := newErrorResult(codeCancelled, int(client.KindCancelled), 0, 0, [numFields]string{fMessage: why.Error()})
	if c == nil {
		return codeNoMem, nil
	}
	return c.code, c
}

// runSafely is run, with a panic turned into a SMITHYCURL_E_INTERNAL
// result (the goroutine of an asynchronous call has no export to guard it).
func runSafely(ctx context.Context, run func(context.Context) *result) (r *result) {
	defer func() {
		if p := recover(); p != nil {
			reportPanic(p)
			r = newErrorResult(codeInternal, int(client.KindUsage), 0, 0, [numFields]string{fMessage: fmt.Sprintf("internal error: %v", p)})
		}
	}()
	return run(ctx)
}
