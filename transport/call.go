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
	"strings"
	"time"
	"unsafe"

	"github.com/smithycurl/smithycurl/wire"
)

// call is one request on its way through libcurl: what the blocking path
// (Curl.Do) and the engine (Engine.Do) share, in order: newCall checks
// the request, budget sets its timeouts, fill writes its URL and header
// lines into the handle, traceRequest and traceResponse call the hook,
// finish turns libcurl's result into the response or the *Error.
//
// A call lives on its Do's stack: no field of it may flow to the heap (a
// string of the request is read through req, never kept here).
type call struct {
	req     *Request
	custom  string // CURLOPT_CUSTOMREQUEST, "" for none
	kind    C.int  // SC_GET, SC_HEAD, SC_BODY or SC_STREAM
	bodyLen C.size_t
	nh      int // header lines in the handle's strs

	connectMS, totalMS int64
	ctxBound           bool // totalMS is the ctx deadline's
	start              time.Time
}

// method is the request's method.
func (c *call) method() string { return c.req.method() }

// fail is the *Error of this call. A ctx deadline that passed without a
// message says so in words (every such failure is before the request was
// sent), not as "context deadline exceeded".
func (c *call) fail(kind Kind, msg string, cause error) *Error {
	if msg == "" && kind == KindTimeout && errors.Is(cause, context.DeadlineExceeded) {
		msg = "the call's deadline passed before its request was sent"
	}
	return &Error{Kind: kind, Message: msg, Method: c.method(), URL: c.req.shownURL(), cause: cause}
}

// acquireError is the error of a handle that could not be had.
func (c *call) acquireError(err error) *Error {
	if errors.Is(err, ErrClosed) {
		return c.fail(KindCancelled, "", err)
	}
	return c.fail(KindOther, err.Error(), nil)
}

func (c *call) bodyPtr() *C.char {
	if len(c.req.Body) == 0 {
		return nil
	}
	return (*C.char)(unsafe.Pointer(unsafe.SliceData(c.req.Body)))
}

// newCall checks req (ctx, method, URL) and picks how libcurl sends it.
func (t *Curl) newCall(ctx context.Context, req *Request) (call, *Error) {
	c := call{req: req}
	method := req.method()
	if err := ctx.Err(); err != nil {
		return c, c.fail(ctxKind(err), "", err)
	}
	if err := validMethod(method); err != nil {
		return c, c.fail(KindOther, err.Error(), nil)
	}
	if strings.IndexByte(req.URL, 0) >= 0 {
		return c, c.fail(KindOther, "URL contains NUL", nil)
	}
	c.kind, c.custom = C.SC_GET, method
	switch method {
	case "GET":
		c.custom = ""
		if req.Body != nil {
			c.kind, c.custom = C.SC_BODY, method
		}
	case "HEAD":
		c.kind, c.custom = C.SC_HEAD, ""
	case "POST":
		c.kind, c.custom = C.SC_BODY, ""
	case "PUT", "PATCH":
		c.kind = C.SC_BODY
	default:
		if req.Body != nil {
			c.kind = C.SC_BODY
		}
	}
	c.bodyLen = C.size_t(len(req.Body))
	if req.BodyReader != nil {
		// libcurl's upload sends PUT; any other method is its custom one.
		c.kind, c.custom = C.SC_STREAM, method
		if method == "PUT" {
			c.custom = ""
		}
		c.bodyLen = ^C.size_t(0)
		if req.BodySize >= 0 {
			c.bodyLen = C.size_t(req.BodySize)
		}
	}
	return c, nil
}

// budget sets the call's timeouts: Config.Timeout less spent (the time the
// call already waited, in the engine's queue), capped by the ctx deadline.
func (t *Curl) budget(ctx context.Context, c *call, spent time.Duration) *Error {
	c.totalMS = t.totalMS
	if c.req.NoTimeout {
		c.totalMS = 0 // none
	} else if spent > 0 {
		c.totalMS -= spent.Milliseconds()
		if c.totalMS <= 0 {
			return c.fail(KindTimeout, fmt.Sprintf("the call waited %s for a transfer slot of the engine", spent.Round(time.Millisecond)), nil)
		}
	}
	c.ctxBound = false
	if dl, ok := ctx.Deadline(); ok {
		rem := time.Until(dl)
		if rem <= 0 {
			return c.fail(KindTimeout, "", context.DeadlineExceeded)
		}
		if m := ms(rem); c.totalMS == 0 || m < c.totalMS {
			c.totalMS, c.ctxBound = m, true
		}
	}
	c.connectMS = t.connectMS
	if c.totalMS > 0 {
		c.connectMS = min(c.connectMS, c.totalMS)
	}
	return nil
}

// fill writes the URL, the custom method and the header lines into h.strs
// (NUL-terminated, as sc_prepare reads them), checking each header.
func (t *Curl) fill(h *handle, c *call) *Error {
	req := c.req
	b := h.strs[:0]
	b = append(b, req.URL...)
	b = append(b, 0)
	b = append(b, c.custom...)
	b = append(b, 0)
	nh := 0
	hasCT, hasExpect, hasAE, hasTE := false, false, t.defaultAE, false
	for k, vs := range req.Header {
		if err := validName(k); err != nil {
			return c.fail(KindOther, err.Error(), nil)
		}
		switch len(k) { // the names' lengths tell them apart
		case len("Content-Type"):
			hasCT = hasCT || strings.EqualFold(k, "Content-Type")
		case len("Expect"):
			hasExpect = hasExpect || strings.EqualFold(k, "Expect")
		case len("Accept-Encoding"):
			hasAE = hasAE || strings.EqualFold(k, "Accept-Encoding")
		case len("Transfer-Encoding"):
			hasTE = hasTE || strings.EqualFold(k, "Transfer-Encoding")
		}
		for _, v := range vs {
			if err := validText(v); err != nil {
				return c.fail(KindOther, fmt.Sprintf("header %s: %v", k, err), nil)
			}
			b = appendHeader(b, k, v)
			nh++
		}
	}
	for _, d := range t.defaults {
		if !hasHeader(req.Header, d.name) {
			for _, l := range d.lines {
				b = append(b, l...)
				b = append(b, 0)
				nh++
			}
		}
	}
	// libcurl's own Accept-Encoding line, written once (see acceptEncoding);
	// a raw body asks for identity (a line that also keeps libcurl's out).
	h.c.raw_body = cBool(req.RawBody)
	switch {
	case hasAE:
	case req.RawBody:
		b = append(b, "Accept-Encoding: identity\x00"...)
		nh++
	case acceptEncoding != "":
		b = append(b, acceptEncoding...)
		b = append(b, 0)
		nh++
	}
	if c.kind == C.SC_STREAM && req.BodySize < 0 && !hasTE {
		b = append(b, "Transfer-Encoding: chunked\x00"...)
		nh++
	}
	if c.kind == C.SC_BODY || c.kind == C.SC_STREAM {
		// libcurl would add "Content-Type: application/x-www-form-urlencoded"
		// and, for bodies over 1 MiB, "Expect: 100-continue"; "Name:" removes
		// them.
		if !hasCT {
			b = append(b, "Content-Type:\x00"...)
			nh++
		}
		if !hasExpect {
			b = append(b, "Expect:\x00"...)
			nh++
		}
	}
	h.strs, c.nh = b, nh
	if d := req.Digest; d != nil {
		if strings.IndexByte(d.User, 0) >= 0 || strings.IndexByte(d.Password, 0) >= 0 {
			return c.fail(KindOther, "the digest user or password contains NUL", nil)
		}
		user, password := C.CString(d.User), C.CString(d.Password)
		C.sc_set_digest(h.c, user, password) // copied by libcurl
		C.free(unsafe.Pointer(user))
		C.free(unsafe.Pointer(password))
	}
	return nil
}

// traceRequest calls the trace hook with the request, and starts the clock
// of the response's event.
func (t *Curl) traceRequest(c *call) {
	if t.cfg.Trace == nil {
		return
	}
	req := c.req
	c.start = time.Now()
	ev := TraceEvent{Phase: TraceRequest, Method: c.method(), URL: req.shownURL(), Header: t.sentHeader(req)}
	if req.TraceBody != nil && len(req.Body) > 0 {
		ev.Body = req.TraceBody(0, req.Header, req.Body)
	}
	t.cfg.Trace(ev)
}

// finish turns the result libcurl left in h (sc_finish) into the response
// or the call's *Error. st is the call's streams (nil: none).
func (t *Curl) finish(ctx context.Context, h *handle, c *call, st *stream) (*wire.Response, *Error) {
	res := &h.c.res
	var resp *wire.Response
	var rerr *Error
	if res.code == 0 && res.cancelled == 0 {
		var buf []byte
		if res.status >= 200 && res.status <= 299 {
			buf = c.req.BodyBuffer
		}
		if resp = c.req.Reuse; resp != nil {
			if buf == nil {
				buf = resp.Body
			}
			hdr := resp.Header
			*resp = wire.Response{}
			if !reparseHeader(hdr, h.c.hdr.p, h.c.hdr.len) {
				hdr, resp.Names = parseHeader(h.c.hdr.p, h.c.hdr.len)
			}
			resp.Header = hdr
		} else {
			resp = &wire.Response{}
			resp.Header, resp.Names = parseHeader(h.c.hdr.p, h.c.hdr.len)
		}
		resp.Status, resp.Streamed = int(res.status), res.streamed != 0
		resp.Body = copyC(h.c.body.p, h.c.body.len, buf)
	} else if res.stream_failed != 0 && st != nil && st.err != nil && res.cancelled == 0 {
		rerr = &Error{Kind: KindOther, Code: int(res.code), MayHaveReached: true, Method: c.method(), URL: c.req.shownURL(),
			Message: st.err.Error(), cause: st.err}
	} else {
		code := int(res.code)
		sent := res.sends > 0 || res.request_size > 0 || res.pretransfer_us > 0
		k, reached := classify(code, res.too_large != 0, res.cancelled != 0, sent)
		rerr = &Error{Kind: k, Code: code, MayHaveReached: reached, Method: c.method(), URL: c.req.shownURL()}
		if res.resend_blocked != 0 && res.cancelled == 0 {
			rerr.Kind, rerr.MayHaveReached = KindOther, true
			rerr.Message = "the reused connection closed after the request was sent, before any response"

		} else if h.c.errbuf[0] != 0 {
			rerr.Message = C.GoString(&h.c.errbuf[0])
		} else {
			rerr.Message = C.GoString(C.curl_easy_strerror(C.CURLcode(code)))
		}
		if k == KindTooLarge {
			rerr.Message = fmt.Sprintf("response body exceeds %d bytes", t.maxBody)
		}
		if k == KindCancelled || k == KindTimeout {
			if cerr := ctx.Err(); cerr != nil {
				rerr.Kind, rerr.cause = ctxKind(cerr), cerr
				if rerr.Kind == KindTimeout && code == curleAbortedByCallback {
					// The ctx's deadline stopped the transfer, not libcurl:
					// say which time ran out, not "aborted by a callback".
					rerr.Code, rerr.Message = 0, deadlineMessage(c.totalMS)
				}
			} else if k == KindTimeout && c.ctxBound {
				rerr.cause = context.DeadlineExceeded
			} else if k == KindCancelled {
				rerr.cause = ErrClosed
			}
		}
	}
	if h.c.body.cap > 1<<20 {
		C.sc_trim(h.c)
	}
	return resp, rerr
}

// deadlineMessage is the message of a transfer its ctx's deadline stopped
// after totalMS, the time it had (0: unknown).
func deadlineMessage(totalMS int64) string {
	if totalMS <= 0 {
		return "the call's deadline passed"
	}
	return fmt.Sprintf("timed out after %d ms (the call's deadline)", totalMS)
}

// traceResponse calls the trace hook with the call's outcome and returns
// it as Do does.
func (t *Curl) traceResponse(c *call, resp *wire.Response, rerr *Error) (*wire.Response, error) {
	if t.cfg.Trace != nil {
		req := c.req
		ev := TraceEvent{Phase: TraceResponse, Method: c.method(), URL: req.shownURL(), Took: time.Since(c.start)}
		if resp != nil {
			ev.Status, ev.Header = resp.Status, resp.Header.Clone()
			if req.TraceBody != nil && len(resp.Body) > 0 {
				ev.Body = req.TraceBody(resp.Status, resp.Header, resp.Body)
			}
		} else {
			ev.Err = rerr
		}
		t.cfg.Trace(ev)
	}
	if rerr != nil {
		return nil, rerr
	}
	return resp, nil
}
