package main

/*
#include "scx.h"
*/
import "C"

import (
	"iter"
	"sync"

	"github.com/smithycurl/smithycurl/client"
)

// streamH is an event stream handle: the stream and a pull iterator over
// its events. One thread at a time reads it (the header says so); mu
// keeps a free racing a next from breaking anything.
type streamH struct {
	mu   sync.Mutex
	s    *client.EventStream
	next func() ([]byte, error, bool)
	stop func()
}

func (h *streamH) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.s != nil {
		h.stop()
		h.s.Close()
		h.s = nil
	}
}

//export scx_stream_open
func scx_stream_open(ch C.uintptr_t, op *C.char, in *C.char, n C.size_t, tok C.uintptr_t, hints, threads C.int,
	outR, outS *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	cl, ctx, name, input, rc := startCall(ch, tok, op, in, n, hints, threads)
	if rc != codeOK {
		return rc
	}
	r := checkCall(cl.c, name, input)
	var s *client.EventStream
	if r == nil {
		var err error
		// The input is C memory: CallStream reads it before it returns.
		s, err = cl.c.CallStream(ctx, name, input)
		if err != nil {
			r = outcome(nil, err)
		} else {
			r = outcome(s.Initial(), nil)
		}
	}
	if r == nil {
		if s != nil {
			s.Close()
		}
		return codeNoMem
	}
	*outR = register(C.SCX_RESULT, r)
	if s != nil {
		next, stop := iter.Pull2(s.Events())
		*outS = register(C.SCX_STREAM, &streamH{s: s, next: next, stop: stop})
	}
	return C.int(r.code)
}

//export scx_stream_next
func scx_stream_next(sh C.uintptr_t, hints, threads C.int, outR *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	schedHints(int(hints), int(threads))
	h, ok := lookup[*streamH](sh, C.SCX_STREAM)
	if !ok {
		return codeInvalidHandle
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.s == nil {
		return codeInvalidHandle
	}
	ev, err, more := h.next()
	if !more {
		return codeEnd
	}
	r := outcome(ev, err)
	if r == nil {
		return codeNoMem
	}
	*outR = register(C.SCX_RESULT, r)
	return C.int(r.code)
}
