package main

/*
#include "scx.h"
*/
import "C"

import (
	"context"
	"sync"
	"unsafe"

	"github.com/smithycurl/smithycurl/client"
)

// Flags of smithycurl_paginator_new (the header's SMITHYCURL_PAGINATE_*).
const (
	paginateItems        = 1
	paginateStopOnRepeat = 2
)

// pagerH is a smithycurl_paginator: a client.Pager and the C buffer of the
// page (or item) the last next returned.
type pagerH struct {
	mu       sync.Mutex // one next at a time
	ctx      context.Context
	pg       *client.Pager
	startErr *result // what the first next reports when the pages cannot start
	items    bool
	queue    [][]byte // items of the current page not yet returned
	buf      *C.char
	done     bool
}

func (p *pagerH) free() {
	p.mu.Lock()
	defer p.mu.Unlock()
	C.free(unsafe.Pointer(p.buf))
	p.buf = nil
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
	p := &pagerH{ctx: ctx, items: flags&paginateItems != 0}
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
	C.free(unsafe.Pointer(p.buf))
	p.buf = nil
	fail := func(r *result) C.int {
		p.done = true
		if r == nil {
			return codeNoMem
		}
		*res = register(C.SCX_RESULT, r)
		return C.int(r.code)
	}
	if r := p.startErr; r != nil {
		p.startErr = nil
		return fail(r)
	}
	if p.done {
		return codeEnd
	}
	var v []byte
	for v == nil {
		if p.items && len(p.queue) > 0 {
			v, p.queue = p.queue[0], p.queue[1:]
			break
		}
		page, err := p.pg.Next(p.ctx)
		if err != nil {
			return fail(outcome(nil, err))
		}
		if page == nil {
			p.done = true
			return codeEnd
		}
		if !p.items {
			v = page
			break
		}
		if p.queue, err = p.pg.Items(); err != nil {
			return fail(outcome(nil, err))
		}
	}
	buf, ok := cBytes(v)
	if !ok {
		return codeNoMem
	}
	p.buf = buf
	*json, *n = buf, C.size_t(len(v))
	return codeOK
}
