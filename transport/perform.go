package transport

/*
#include "shim.h"
*/
import "C"

import (
	"context"
	"runtime/cgo"
	"unsafe"

	"github.com/smithycurl/smithycurl/wire"
)

// Do sends req and returns the complete response. It honours ctx: its
// deadline caps the total timeout and its cancellation aborts the transfer.
func (t *Curl) Do(ctx context.Context, req *Request) (*wire.Response, error) {
	c, cerr := t.newCall(ctx, req)
	if cerr != nil {
		return nil, cerr
	}
	if err := t.budget(ctx, &c, 0); err != nil {
		return nil, err
	}
	h, herr := t.acquire()
	if herr != nil {
		return nil, c.acquireError(herr)
	}
	if err := t.fill(h, &c); err != nil {
		t.release(h)
		return nil, err
	}
	t.traceRequest(&c)

	stop := func() bool { return true }
	if ctx.Done() != nil {
		stop = context.AfterFunc(ctx, h.cancelFn)
	}
	var st *stream
	var waker Waker
	if req.BodyReader != nil || req.BodyWriter != nil {
		st = &stream{r: req.BodyReader, remaining: req.BodySize, w: req.BodyWriter, onStart: req.OnBodyStart, c: h.c}
		ref := cgo.NewHandle(st)
		defer ref.Delete()
		w, duplex := req.BodyReader.(Waker)
		C.sc_stream(h.c, C.uintptr_t(ref), cBool(req.BodyWriter != nil), cBool(duplex && req.BodyWriter != nil))
		if duplex {
			hc := h.c
			w.SetWake(func() { C.sc_unpause(hc) })
			waker = w
		}
	}
	t.waiting.Add(1)
	C.sc_perform(h.c, (*C.char)(unsafe.Pointer(unsafe.SliceData(h.strs))), C.int(c.nh), c.kind,
		c.bodyPtr(), c.bodyLen, C.long(c.connectMS), C.long(c.totalMS), C.longlong(t.maxBody),
		cBool(req.Idempotent && req.BodyReader == nil))
	t.waiting.Add(-1)
	if waker != nil {
		waker.SetWake(nil) // before the handle goes back to the pool
	}
	if !stop() {
		<-h.cancelDone // the AfterFunc ran (or is running): let it finish before reuse
	}
	yield := h.c.res.yield_due != 0
	resp, rerr := t.finish(ctx, h, &c, st)
	// libcurl < 8 leaves some state of an HTTP/2 transfer that ended early
	// (a stream closed by the caller, a failure) in its easy handle: the
	// next transfer on it fails now and then with "Error in the HTTP2
	// framing layer" before any response (TestStreamH2CFailedHandleFreed).
	// Such a handle is freed rather than reused there.
	t.put(h, rerr == nil || curlVersion() >= 0x080000)
	if yield {
		t.yield() // runtime.Gosched; see sc_yield_due
	}
	return t.traceResponse(&c, resp, rerr)
}

// YieldClock is the address of sc_yield_due (shim.h), an int (*)(void):
// whether the calling thread is due a yield to the Go scheduler now. The
// C API (export) asks it when a C thread enters Go, so that the thread's
// calls and its transfers here share one clock and yield once per period.
func YieldClock() unsafe.Pointer { return C.sc_yield_due }
