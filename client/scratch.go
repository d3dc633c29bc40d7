package client

import (
	"sync"
	"unsafe"

	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// scratch is what a call allocates that outlives none of its calls: the
// transport request, the call's body state and the response (its header
// map, values and body array, which the transport fills in place:
// transport.Request.Reuse). A client keeps them in its own pool
// (scratchPool: no state shared between clients), so that a steady
// stream of like calls allocates none of them.
//
// A scratch goes back to the pool only when nothing can still see it
// (giveBack): a call whose response or request went where the client
// does not follow them — interceptors, the attempt observer, the AWS
// customizations' hooks, streams, WithPayloadOutput, a Responder,
// endpoint discovery, a transport of the caller's (WithTransport: it may
// keep what it returns), a failed attempt's error — leaves its scratch
// to the garbage collector. Under the race detector a scratch given back is
// poisoned first, so that a view kept by mistake reads garbage in tests.
type scratch struct {
	req  transport.Request
	body callBody
	resp wire.Response
	ep   resolved // the endpoint when the client has no rules
	url  string   // the last call's URL: the next one reuses the string when equal
}

// scratchPool is a client's pool of scratches.
type scratchPool struct{ p sync.Pool }

// get returns a scratch of the pool, or a new one.
func (sp *scratchPool) get() *scratch {
	if s, ok := sp.p.Get().(*scratch); ok {
		return s
	}
	return new(scratch)
}

// maxKeptBody bounds the body array a scratch keeps: a rare large
// response is not held by the pool.
const maxKeptBody = 64 << 10

// giveBack returns s to the pool after a call that succeeded with out
// (which must not share the response body's array: the codec may hand
// out a part of the body as it is).
func (sp *scratchPool) giveBack(s *scratch, out []byte) {
	if shares(out, s.resp.Body) || cap(s.resp.Body) > maxKeptBody {
		return
	}
	if poisonScratch {
		poison(&s.resp)
	}
	s.req, s.body, s.ep = transport.Request{}, callBody{}, resolved{}
	sp.p.Put(s)
}

// reusable reports whether a call with body may take its response from
// the scratch: nothing but the call itself sees the response or request.
func (b *callBody) reusable() bool {
	return b.r == nil && b.w == nil && b.payloadOut == nil && b.custom == nil && b.responder == nil && b.discovered == nil
}

// keepsNoResponse reports whether tr is one of the library's transports,
// which keep nothing of a response once Do returns: a Transport of the
// caller's (WithTransport) may keep what it returns, so its calls get no
// pooled response.
func keepsNoResponse(tr transport.Transport) bool {
	switch tr.(type) {
	case *transport.Curl, *transport.Engine:
		return true
	}
	return false
}

// shares reports whether a and b's arrays overlap.
func shares(a, b []byte) bool {
	if cap(a) == 0 || cap(b) == 0 {
		return false
	}
	a0 := uintptr(unsafe.Pointer(unsafe.SliceData(a)))
	b0 := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return a0 < b0+uintptr(cap(b)) && b0 < a0+uintptr(cap(a))
}

// poison overwrites a response given back: its body bytes and header
// values (the strings stay valid for whoever holds them; the map does not).
func poison(r *wire.Response) {
	body := r.Body[:cap(r.Body)]
	for i := range body {
		body[i] = 0xEE
	}
	for _, vs := range r.Header {
		for i := range vs {
			vs[i] = "POISONED (a pooled response was used after its call)"
		}
	}
	r.Status = -1
}
