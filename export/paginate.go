package main

/*
#include "scx.h"
*/
import "C"

import (
	"context"
	"errors"
	"sync"
	"unsafe"

	"github.com/smithycurl/smithycurl/client"
)

// Flags of smithycurl_paginator_new (the header's SMITHYCURL_PAGINATE_*).
const (
	paginateItems        = 1
	paginateStopOnRepeat = 2
)

var errPaginatorFreed = errors.New("the paginator was freed with a next pending")

// pagerH is a smithycurl_paginator: a client.Pager and the C buffer of the
// page (or item) the last blocking next returned. One next runs at a time:
// a blocking next holds mu throughout; a queued next owns the pager while
// pending is set (mu guards the flag, not the whole step).
type pagerH struct {
	mu       sync.Mutex
	cl       *clientH
	ctx      context.Context // the cancel token's
	pg       *client.Pager
	startErr *result // what the first next reports when the pages cannot start
	items    bool
	queue    [][]byte // items of the current page not yet returned
	buf      *C.char
	done     bool

	pending bool                    // a queued next runs
	cancel  context.CancelCauseFunc // cancels it
	freed   bool                    // freed while pending: the queued next cleans up
}

func (p *pagerH) free() {
	p.mu.Lock()
	defer p.mu.Unlock()
	C.free(unsafe.Pointer(p.buf))
	p.buf = nil
	p.freed = true
	if p.pending {
		p.cancel(errPaginatorFreed) // its goroutine frees startErr
		return
	}
	p.release()
}

// release frees what a next may still hold; mu is held.
func (p *pagerH) release() {
	if p.startErr != nil {
		p.startErr.free()
		p.startErr = nil
	}
}

//export scx_paginator_new
func scx_paginator_new(ch C.uintptr_t, op *C.char, in *C.char, n C.size_t, maxItems C.longlong, pageSize C.longlong,
	flags C.uint, tok C.uintptr_t, out *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	cl, ctx, ok := callTarget(ch, tok)
	if !ok {
		return codeInvalidHandle
	}
	const maxInt32 = 1<<31 - 1
	if op == nil || (in == nil && n > 0) || maxItems < 0 || pageSize < 0 || pageSize > maxInt32 ||
		flags&^(paginateItems|paginateStopOnRepeat) != 0 {
		return codeInvalidArgument
	}
	p := &pagerH{cl: cl, ctx: ctx, items: flags&paginateItems != 0}
	name := C.GoString(op)
	input := C.GoBytes(unsafe.Pointer(in), C.int(n)) // kept: the caller's buffer is not
	if p.startErr = checkCall(cl.c, name, input); p.startErr == nil {
		opts := []client.PaginateOption{client.WithMaxItems(int(maxItems)), client.WithPageSize(int(pageSize))}
		if flags&paginateStopOnRepeat != 0 {
			opts = append(opts, client.WithStopOnRepeatedToken())
		}
		pg, err := cl.c.NewPager(name, input, opts...)
		switch {
		case err != nil:
			p.startErr = outcome(nil, err)
		case p.items && pg.Pagination().Items == "":
			p.startErr = usageResult(codeUsage, "%s: @paginated names no items member", name)
		}
		if p.startErr == nil && pg == nil {
			return codeNoMem
		}
		p.pg = pg
	}
	*out = register(C.SCX_PAGINATOR, p)
	return codeOK
}

// step takes the next page (or item): SMITHYCURL_OK and its JSON,
// SMITHYCURL_E_END, or a failure's code and result (nil when out of
// memory; the pages end). The caller owns the pager (mu or pending).
func (p *pagerH) step(ctx context.Context, opts ...client.CallOption) (int, []byte, *result) {
	fail := func(r *result) (int, []byte, *result) {
		p.done = true
		if r == nil {
			return codeNoMem, nil, nil
		}
		return r.code, nil, r
	}
	if r := p.startErr; r != nil {
		p.startErr = nil
		return fail(r)
	}
	if p.done {
		return codeEnd, nil, nil
	}
	for {
		if p.items && len(p.queue) > 0 {
			v := p.queue[0]
			p.queue = p.queue[1:]
			return codeOK, v, nil
		}
		page, err := p.pg.NextWith(ctx, opts...)
		if err != nil {
			return fail(outcome(nil, err))
		}
		if page == nil {
			p.done = true
			return codeEnd, nil, nil
		}
		if !p.items {
			return codeOK, page, nil
		}
		if p.queue, err = p.pg.Items(); err != nil {
			return fail(outcome(nil, err))
		}
	}
}

//export scx_paginator_next
func scx_paginator_next(ph C.uintptr_t, hints, threads C.int, json **C.char, n *C.size_t, res *C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	schedHints(int(hints), int(threads))
	p, ok := lookup[*pagerH](ph, C.SCX_PAGINATOR)
	if !ok {
		return codeInvalidHandle
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pending {
		return codeUsage
	}
	C.free(unsafe.Pointer(p.buf))
	p.buf = nil
	code, v, r := p.step(p.ctx)
	if r != nil {
		*res = register(C.SCX_RESULT, r)
	}
	if code != codeOK {
		return C.int(code)
	}
	buf, ok := cBytes(v)
	if !ok {
		return codeNoMem
	}
	p.buf = buf
	*json, *n = buf, C.size_t(len(v))
	return codeOK
}

// scx_paginator_next_queued starts the next step of paginator ph on the
// client's engine; it completes on queue qh with tag: SMITHYCURL_OK and the
// page (or item) as the result's output, SMITHYCURL_E_END with no result,
// or the failure. SMITHYCURL_E_USAGE at once while one is pending.
//
//export scx_paginator_next_queued
func scx_paginator_next_queued(ph, qh, tag C.uintptr_t, hints, threads C.int) (rc C.int) {
	defer guard(&rc)
	schedHints(int(hints), int(threads))
	p, ok := lookup[*pagerH](ph, C.SCX_PAGINATOR)
	if !ok {
		return codeInvalidHandle
	}
	q, ok := lookup[*queueH](qh, C.SCX_QUEUE)
	if !ok {
		return codeInvalidHandle
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pending {
		return codeUsage
	}
	ctx, cancel := context.WithCancelCause(p.ctx)
	p.pending, p.cancel = true, cancel
	run := func(ctx context.Context) *result {
		code, v, r := p.step(ctx, client.ViaEngine())
		switch {
		case code == codeOK:
			return outcome(v, nil)
		case code == codeEnd:
			return &result{code: codeEnd} // no buffer: completes with no result
		}
		return r
	}
	done := func(code int, r *result) {
		if r != nil && r.code == codeEnd {
			r = nil
		}
		p.mu.Lock()
		p.pending = false
		freed := p.freed
		if freed {
			p.release()
		}
		p.mu.Unlock()
		cancel(nil)
		if freed && code != codeCancelled {
			code, r = cancelledBy(r, errPaginatorFreed)
		}
		q.push(completion{tag: uintptr(tag), code: code, r: r})
	}
	go runAsync(ctx, p.cl, q, run, done)
	return codeOK
}
