package transport

/*
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/cgo"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/smithycurl/smithycurl/internal/fifo"
	"github.com/smithycurl/smithycurl/wire"
)

// DefaultMaxTransfers is EngineConfig.MaxTransfers when 0.
const DefaultMaxTransfers = 100

// EngineConfig bounds an Engine.
type EngineConfig struct {
	// MaxTransfers bounds the requests in flight at once, each with an
	// easy handle and a connection (or an HTTP/2 stream). The others wait
	// in Go, first come first served, holding neither. 0: DefaultMaxTransfers.
	MaxTransfers int
	// MaxHostConnections bounds the connections open to one host
	// (CURLMOPT_MAX_HOST_CONNECTIONS); transfers over it wait inside
	// libcurl for a connection. 0: no bound beyond MaxTransfers.
	MaxHostConnections int
}

// Engine is a Transport for many calls in flight: one libcurl multi handle
// runs every transfer, driven by one goroutine (blocked in curl_multi_poll,
// inside a cgo call, between events). Do prepares the request on
// the calling goroutine exactly as Curl.Do does, hands the easy handle to
// that loop and waits on a channel: the caller holds no OS thread while
// the request is on the wire, so 10,000 calls in flight need 10,000
// goroutines but not 10,000 threads. Connections are kept in the multi
// handle's cache and shared by every call; HTTP/2 streams are multiplexed
// on one connection per host (CURLOPT_PIPEWAIT over TLS).
//
// Results, errors, limits, timeouts and the trace hook are those of Curl
// (the same code prepares the request and reads the response). Config
// .Timeout bounds a call from the moment Do is called, including the time
// it waits for a transfer slot (EngineConfig.MaxTransfers).
//
// Requests with a streamed body (BodyReader, BodyWriter) or NoTimeout (an
// event stream) take the blocking path of an internal Curl instead, which
// holds an OS thread for the call; they do not count against MaxTransfers.
//
// Cancelling a call's ctx removes its transfer from the multi handle at
// once (libcurl closes that connection when the request was partly
// sent). Close cancels every call queued or in flight. An Engine is safe
// for concurrent use.
type Engine struct {
	inner   *Curl // options, handle pool, and the blocking path
	max     int
	timeout time.Duration
	calls   atomic.Int32 // Do calls under way (Calls)
	// pipewait: CURLOPT_PIPEWAIT for https URLs (tls), or for every URL
	// (all: HTTP/2 prior knowledge).
	pipewaitTLS, pipewaitAll bool

	c        *C.sc_engine // freed once closed, the loop gone and no call holds a slot
	out      **C.sc_handle
	loopDone chan struct{}
	// cgo bounds the calls inside C at once (preparing, submitting,
	// cancelling, finishing). A goroutine in C holds an OS thread, and
	// the runtime starts another for the rest whenever one stays there a
	// while (sysmon), so a burst of 1,000 submissions on a loaded machine
	// would otherwise leave hundreds of threads behind; waiting here
	// parks the goroutine, which holds none. 4 × GOMAXPROCS: with only
	// GOMAXPROCS, 8 callers on 2 cores spent more CPU per call handing
	// the bound around than they saved.
	cgo chan struct{}
	// inC and mostInC count the goroutines inside the bound, now and at
	// most (the test of the bound reads them).
	inC, mostInC atomic.Int32

	mu      sync.Mutex
	active  int // calls holding a transfer slot
	queue   fifo.Queue[*waiter]
	waiting int // waiters in queue still waiting
	closed  bool
	exited  bool // the loop goroutine has ended
}

// maxEngineIdle bounds the idle handles an engine keeps by default.
const maxEngineIdle = 1024

// engineBatch is the most completions one turn of the loop hands back.
const engineBatch = 256

type waitState int

const (
	waitWaiting waitState = iota
	waitGranted           // the slot passed to it
	waitClosed            // the engine closed
	waitGone              // it stopped waiting (ctx, timeout)
)

type waiter struct {
	ready chan struct{}
	state waitState // under Engine.mu
}

var _ Transport = (*Engine)(nil)

// NewEngine returns an engine for requests configured by cfg (as New's)
// within the bounds of ecfg, and starts its loop.
func NewEngine(cfg Config, ecfg EngineConfig) (*Engine, error) {
	return newEngine(cfg, ecfg, runtime.Gosched)
}

// newEngine is NewEngine with the yield of its loop and blocking path
// (runtime.Gosched; tests count it).
func newEngine(cfg Config, ecfg EngineConfig, yield func()) (*Engine, error) {
	if ecfg.MaxTransfers < 0 || ecfg.MaxHostConnections < 0 {
		return nil, fmt.Errorf("transport: negative engine limit (MaxTransfers %d, MaxHostConnections %d)", ecfg.MaxTransfers, ecfg.MaxHostConnections)
	}
	if ecfg.MaxTransfers == 0 {
		ecfg.MaxTransfers = DefaultMaxTransfers
	}
	// Every transfer slot keeps its handle between calls (up to 1,024:
	// beyond, what a burst leaves is freed; a slot freed under load is
	// taken again at once, so the pool rarely holds that many).
	cfg.MaxIdleHandles = max(cfg.MaxIdleHandles, min(ecfg.MaxTransfers, maxEngineIdle))
	inner, err := New(cfg)
	if err != nil {
		return nil, err
	}
	inner.yield = yield
	e := &Engine{inner: inner, max: ecfg.MaxTransfers, timeout: inner.cfg.Timeout, loopDone: make(chan struct{}),
		cgo: make(chan struct{}, 4*runtime.GOMAXPROCS(0))}
	switch inner.cfg.HTTPVersion {
	case HTTPVersionAuto:
		e.pipewaitTLS = true
	case HTTPVersion2PriorKnowledge:
		// Before 8.0.0 a prior-knowledge connection is never reused
		// (see newHandle): nothing to wait for.
		e.pipewaitTLS, e.pipewaitAll = true, curlVersion() >= 0x080000
	}
	e.out = (**C.sc_handle)(C.malloc(C.size_t(engineBatch) * C.size_t(unsafe.Sizeof(uintptr(0)))))
	if e.out != nil {
		e.c = C.sc_engine_new(C.long(ecfg.MaxHostConnections), C.long(ecfg.MaxTransfers))
	}
	if e.c == nil {
		C.free(unsafe.Pointer(e.out))
		inner.Close()
		return nil, errors.New("transport: out of memory for the engine (curl_multi_init)")
	}
	go e.loop()
	return e, nil
}

// loop runs the multi handle and hands each completion to the Do waiting
// for it.
//
// The goroutines a turn wakes go to this goroutine's P; were it to block
// in C again at once, they would wait there, the P held in the
// system-call state, until another thread stole them (after a pause that
// lets the P run them itself) or sysmon took the P (and went back to
// polling every 20 us). So the loop yields after each turn: its P runs
// them, and the loop continues on the next free P. It is not locked to a
// thread, or the yield would hand its P to another thread and back
// (issue 27: the asynchronous C API at 1,000 in flight, 20% less CPU per
// call, half the context switches).
func (e *Engine) loop() {
	batch := unsafe.Slice(e.out, engineBatch)
	for {
		n := int(C.sc_engine_wait(e.c, e.out, engineBatch))
		if n < 0 {
			break
		}
		for _, ch := range batch[:n] {
			h := cgo.Handle(ch.e_ref).Value().(*handle)
			h.done <- struct{}{} // buffered: one completion per submission
		}
		e.inner.yield()
	}
	e.mu.Lock()
	e.exited = true
	e.maybeFreeLocked()
	e.mu.Unlock()
	close(e.loopDone)
}

func (e *Engine) maybeFreeLocked() {
	if e.closed && e.exited && e.active == 0 && e.c != nil {
		C.sc_engine_free(e.c)
		C.free(unsafe.Pointer(e.out))
		e.c, e.out = nil, nil
	}
}

// Do sends req through the engine and returns the complete response (see
// Engine and Curl.Do).
func (e *Engine) Do(ctx context.Context, req *Request) (*wire.Response, error) {
	e.calls.Add(1)
	defer e.calls.Add(-1)
	if req.BodyReader != nil || req.BodyWriter != nil || req.NoTimeout {
		return e.inner.Do(ctx, req)
	}
	t := e.inner
	c, cerr := t.newCall(ctx, req)
	if cerr != nil {
		return nil, cerr
	}
	spent, serr := e.acquireSlot(ctx, &c)
	if serr != nil {
		return nil, serr
	}
	if err := t.budget(ctx, &c, spent); err != nil {
		e.releaseSlot()
		return nil, err
	}
	e.enterC()
	h, herr := t.acquire()
	if herr != nil {
		e.leaveC()
		e.releaseSlot()
		return nil, c.acquireError(herr)
	}
	if err := t.fill(h, &c); err != nil {
		t.release(h)
		e.leaveC()
		e.releaseSlot()
		return nil, err
	}
	if h.ref == 0 {
		h.ref = cgo.NewHandle(h)
		h.c.e_ref = C.uintptr_t(h.ref)
		h.done = make(chan struct{}, 1)
	}
	e.leaveC() // the trace hook is the caller's code: not inside the bound
	e.traceRequest(h, &c)

	// libcurl reads the header lines and the body after sc_engine_submit
	// returns, until the call completes: they stay pinned until then.
	var pin runtime.Pinner
	pin.Pin(unsafe.SliceData(h.strs))
	if len(req.Body) > 0 {
		pin.Pin(unsafe.SliceData(req.Body))
	}
	pipewait := e.pipewaitAll || e.pipewaitTLS && len(req.URL) > 6 && strings.EqualFold(req.URL[:6], "https:")
	e.enterC()
	submitted := C.sc_engine_submit(e.c, h.c, (*C.char)(unsafe.Pointer(unsafe.SliceData(h.strs))), C.int(c.nh), c.kind,
		c.bodyPtr(), c.bodyLen, C.long(c.connectMS), C.long(c.totalMS), C.longlong(t.maxBody),
		cBool(req.Idempotent), cBool(pipewait)) == 0
	e.leaveC()
	if submitted {
		select {
		case <-h.done:
		case <-ctx.Done():
			e.enterC()
			C.sc_engine_cancel(e.c, h.c)
			e.leaveC()
			<-h.done
			e.enterC()
			C.sc_engine_forget(e.c, h.c)
			e.leaveC()
		}
	}
	pin.Unpin()
	e.enterC()
	resp, rerr := t.finish(ctx, h, &c, nil)
	t.release(h)
	e.leaveC()
	e.releaseSlot()
	return t.traceResponse(&c, resp, rerr)
}

// traceRequest calls the trace hook; should it panic, the call's handle
// and slot go back before the panic goes on (the engine would otherwise
// lose a transfer slot for good).
func (e *Engine) traceRequest(h *handle, c *call) {
	if e.inner.cfg.Trace == nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			e.inner.release(h)
			e.releaseSlot()
			panic(r)
		}
	}()
	e.inner.traceRequest(c)
}

// acquireSlot takes a transfer slot, waiting in line when MaxTransfers
// calls hold one; spent is the time it waited.
// Calls is how many calls of Do are under way now (waiting for a slot, on
// the wire, or being finished). Lock-free.
func (e *Engine) Calls() int { return int(e.calls.Load()) }

// HasSlot says whether a call made now would get a transfer slot at once
// (no call waits for one and fewer than MaxTransfers hold one); a hint,
// since another call may take it first.
func (e *Engine) HasSlot() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return !e.closed && e.active < e.max && e.waiting == 0
}

func (e *Engine) acquireSlot(ctx context.Context, c *call) (spent time.Duration, err *Error) {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return 0, c.fail(KindCancelled, "", ErrClosed)
	}
	if e.active < e.max && e.waiting == 0 {
		e.active++
		e.mu.Unlock()
		return 0, nil
	}
	w := &waiter{ready: make(chan struct{}, 1)}
	e.queue.Push(w)
	e.waiting++
	e.mu.Unlock()

	start := time.Now()
	timer := time.NewTimer(e.timeout)
	defer timer.Stop()
	timedOut := false
	select {
	case <-w.ready:
	case <-ctx.Done():
	case <-timer.C:
		timedOut = true
	}
	spent = time.Since(start)
	e.mu.Lock()
	state := w.state
	if state == waitWaiting {
		w.state = waitGone
		e.waiting--
	}
	e.mu.Unlock()
	switch {
	case state == waitClosed:
		return spent, c.fail(KindCancelled, "", ErrClosed)
	case ctx.Err() != nil:
		if state == waitGranted {
			e.releaseSlot()
		}
		msg := ""
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			msg = fmt.Sprintf("the call's deadline passed while it waited %s for one of the engine's %d transfer slots",
				spent.Round(time.Millisecond), e.max)
		}
		return spent, c.fail(ctxKind(ctx.Err()), msg, ctx.Err())
	case state == waitGranted:
		return spent, nil
	case timedOut:
		return spent, c.fail(KindTimeout, fmt.Sprintf("the call waited %s for one of the engine's %d transfer slots", spent.Round(time.Millisecond), e.max), nil)
	}
	return spent, c.fail(KindOther, "transfer slot: woken without a slot", nil) // not reached
}

// releaseSlot passes the caller's slot to the first call waiting for one.
func (e *Engine) releaseSlot() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for w, ok := e.queue.Pop(); ok; w, ok = e.queue.Pop() {
		if w.state == waitWaiting {
			w.state = waitGranted
			e.waiting--
			w.ready <- struct{}{}
			return
		}
	}
	e.active--
	e.maybeFreeLocked()
}

// Close cancels every call queued or in flight (each fails once with
// KindCancelled, cause ErrClosed), ends the loop, closes the connections
// and frees the handles (those of calls still returning as they return).
// Later calls fail the same way. Close is idempotent and may run
// concurrently with Do; it returns once the loop has ended.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		<-e.loopDone
		return nil
	}
	e.closed = true
	for _, w := range e.queue.Drain() {
		if w.state == waitWaiting {
			w.state = waitClosed
			w.ready <- struct{}{}
		}
	}
	e.waiting = 0
	e.mu.Unlock()
	C.sc_engine_close(e.c) // e.c lives until the loop has ended
	<-e.loopDone
	return e.inner.Close()
}

// enterC waits for a place inside the bound on calls into C.
func (e *Engine) enterC() {
	e.cgo <- struct{}{}
	n := e.inC.Add(1)
	for m := e.mostInC.Load(); n > m && !e.mostInC.CompareAndSwap(m, n); m = e.mostInC.Load() {
	}
}

// leaveC gives the place back.
func (e *Engine) leaveC() {
	e.inC.Add(-1)
	<-e.cgo
}

// EngineStats describes an engine's calls.
type EngineStats struct {
	InFlight int // calls holding a transfer slot
	Queued   int // calls waiting for one
	Handles  Stats
}

// Stats returns the engine's current counts.
func (e *Engine) Stats() EngineStats {
	e.mu.Lock()
	s := EngineStats{InFlight: e.active, Queued: e.waiting}
	e.mu.Unlock()
	s.Handles = e.inner.Stats()
	return s
}
