package main

/*
#include <string.h>
#include "smithycurl.h"
#include "scx.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"runtime/cgo"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// The C hooks' numbers are client.Hook's (checked when the file compiles).
var _ = [1]struct{}{}[C.SMITHYCURL_HOOK_READ_AFTER_EXECUTION-C.int(client.HookReadAfterExecution)]

const hookCount = int(client.HookReadAfterExecution) + 1

// hookOptions are the options handle's interceptors, auth schemes and
// span switch.
type hookOptions struct {
	interceptors []client.Interceptor
	schemes      map[model.ShapeID]client.AuthSigner
	spans        bool // span events to the trace callback
}

func (h *hookOptions) options(traceFn, traceUser uintptr) []client.Option {
	var opts []client.Option
	if len(h.interceptors) > 0 {
		opts = append(opts, client.WithInterceptors(h.interceptors...))
	}
	for id, s := range h.schemes {
		opts = append(opts, client.WithAuthScheme(id, s))
	}
	if h.spans && traceFn != 0 {
		opts = append(opts, client.WithTracer(&spanTracer{fn: traceFn, user: traceUser}))
	}
	return opts
}

//export scx_options_add_interceptor
func scx_options_add_interceptor(h C.uintptr_t, fns *C.uintptr_t, user C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	o, ok := lookup[*optionsH](h, C.SCX_OPTIONS)
	if !ok {
		return codeInvalidHandle
	}
	var hooks [hookCount]uintptr
	for i, fn := range unsafe.Slice(fns, hookCount) {
		hooks[i] = uintptr(fn)
	}
	o.hooks.interceptors = append(o.hooks.interceptors, cInterceptor(hooks, uintptr(user)))
	return codeOK
}

//export scx_options_add_auth_scheme
func scx_options_add_auth_scheme(h C.uintptr_t, id *C.char, fn, user C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	o, ok := lookup[*optionsH](h, C.SCX_OPTIONS)
	if !ok {
		return codeInvalidHandle
	}
	if id == nil || fn == 0 {
		return fail(&o.errBox, codeInvalidArgument, "the scheme id and the signer must not be NULL")
	}
	s, ok := goString(id)
	if !ok {
		return fail(&o.errBox, codeInvalidUTF8, "the scheme id is not valid UTF-8")
	}
	if ns, name, found := strings.Cut(s, "#"); !found || ns == "" || name == "" {
		return fail(&o.errBox, codeInvalidArgument, "scheme %q is not a shape id (namespace#Name)", s)
	}
	if o.hooks.schemes == nil {
		o.hooks.schemes = map[model.ShapeID]client.AuthSigner{}
	}
	f, u := uintptr(fn), uintptr(user)
	o.hooks.schemes[model.ShapeID(s)] = func(_ context.Context, r *client.AuthRequest) error {
		return invokeHook(f, u, &hookCtx{point: C.SMITHYCURL_HOOK_SIGN, sign: r, req: r.Request})
	}
	return codeOK
}

// cInterceptor runs the C hooks of fns (0: none) with user.
func cInterceptor(fns [hookCount]uintptr, user uintptr) client.Interceptor {
	return client.InterceptorFunc(func(_ context.Context, h client.Hook, x *client.Exchange) error {
		if fn := fns[h]; fn != 0 {
			return invokeHook(fn, user, &hookCtx{point: C.int(h), x: x, req: x.Request})
		}
		return nil
	})
}

// hookCtx is a smithycurl_hook_context: what one callback sees. C has
// it as a cgo.Handle; the C strings it gave out are freed after.
type hookCtx struct {
	point  C.int
	x      *client.Exchange    // nil for a signer
	sign   *client.AuthRequest // a signer's
	req    *transport.Request
	errMsg string
	failed bool // ERROR was set
	cstrs  []unsafe.Pointer
}

// invokeHook calls a C hook or signer with hc; its failure is an error
// with the message it set.
func invokeHook(fn, user uintptr, hc *hookCtx) error {
	ref := cgo.NewHandle(hc)
	rc := C.scx_hook_invoke(C.uintptr_t(fn), C.uintptr_t(user), C.uintptr_t(ref))
	ref.Delete()
	for _, p := range hc.cstrs {
		C.free(p)
	}
	switch {
	case hc.failed:
		return errors.New(hc.errMsg)
	case rc != 0:
		return fmt.Errorf("the callback returned %d", int(rc))
	}
	return nil
}

func hookOf(ctx C.uintptr_t) (*hookCtx, bool) {
	if ctx == 0 {
		return nil, false
	}
	hc, ok := cgo.Handle(ctx).Value().(*hookCtx)
	return hc, ok
}

//export scx_hook_point
func scx_hook_point(ctx C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	hc, ok := hookOf(ctx)
	if !ok {
		return -1
	}
	return hc.point
}

//export scx_hook_get
func scx_hook_get(ctx C.uintptr_t, field C.int, name *C.char, value **C.char, n *C.size_t) (rc C.int) {
	defer guard(&rc)
	hc, ok := hookOf(ctx)
	if !ok || value == nil {
		return codeInvalidArgument
	}
	v, present, ok := hc.get(field, name)
	if !ok {
		return codeInvalidArgument
	}
	*value = nil
	if n != nil {
		*n = 0
	}
	if !present {
		return codeOK
	}
	p, ok := cBytes(v)
	if !ok {
		return codeNoMem
	}
	hc.cstrs = append(hc.cstrs, unsafe.Pointer(p))
	*value = p
	if n != nil {
		*n = C.size_t(len(v))
	}
	return codeOK
}

// get returns a field: its bytes, whether the message has it (a header),
// and false when the hook has no such field.
func (hc *hookCtx) get(field C.int, name *C.char) ([]byte, bool, bool) {
	x, req := hc.x, hc.req
	var resp *wire.Response
	if x != nil {
		resp = x.Response
	}
	header := func(h wire.Header) ([]byte, bool, bool) {
		if name == nil || h == nil {
			return nil, false, name != nil
		}
		vs := h.Values(C.GoString(name))
		return []byte(strings.Join(vs, ", ")), len(vs) > 0, true
	}
	switch field {
	case C.SMITHYCURL_FIELD_OPERATION:
		if x != nil {
			return []byte(x.Operation.Name), true, true
		}
		return []byte(hc.sign.Operation.Name), true, true
	case C.SMITHYCURL_FIELD_ATTEMPT:
		if x != nil {
			return strconv.AppendInt(nil, int64(x.Attempt), 10), true, true
		}
	case C.SMITHYCURL_FIELD_INPUT:
		if x != nil {
			return x.Input, true, true
		}
	case C.SMITHYCURL_FIELD_METHOD:
		if req != nil {
			return []byte(req.Method), true, true
		}
	case C.SMITHYCURL_FIELD_URL:
		if req != nil {
			return []byte(req.URL), true, true
		}
	case C.SMITHYCURL_FIELD_REQUEST_HEADER:
		if req != nil {
			return header(req.Header)
		}
	case C.SMITHYCURL_FIELD_REQUEST_BODY:
		if req != nil {
			return req.Body, true, true
		}
	case C.SMITHYCURL_FIELD_STATUS:
		if resp != nil {
			return strconv.AppendInt(nil, int64(resp.Status), 10), true, true
		}
	case C.SMITHYCURL_FIELD_RESPONSE_HEADER:
		if resp != nil {
			return header(resp.Header)
		}
	case C.SMITHYCURL_FIELD_RESPONSE_BODY:
		if resp != nil {
			return resp.Body, true, true
		}
	case C.SMITHYCURL_FIELD_OUTPUT:
		if x != nil && x.Output != nil {
			return x.Output, true, true
		}
	case C.SMITHYCURL_FIELD_ERROR:
		if x != nil && x.Err != nil {
			return []byte(x.Err.Error()), true, true
		}
		return nil, false, x != nil
	case C.SMITHYCURL_FIELD_SCHEME:
		if hc.sign != nil {
			return []byte(hc.sign.Scheme), true, true
		}
	case C.SMITHYCURL_FIELD_TRAIT:
		if hc.sign != nil {
			return []byte(hc.sign.Trait.JSON()), true, true
		}
	case C.SMITHYCURL_FIELD_SIGNING_TIME:
		if hc.sign != nil {
			return []byte(hc.sign.Time.UTC().Format(time.RFC3339)), true, true
		}
	}
	return nil, false, false
}

//export scx_hook_set
func scx_hook_set(ctx C.uintptr_t, field C.int, name, value *C.char, n C.size_t) (rc C.int) {
	defer guard(&rc)
	hc, ok := hookOf(ctx)
	if !ok {
		return codeInvalidArgument
	}
	var v []byte
	if value != nil {
		if n == ^C.size_t(0) {
			n = C.strlen(value)
		}
		v = C.GoBytes(unsafe.Pointer(value), C.int(n))
	}
	return hc.set(field, name, value != nil, v)
}

// set changes a field, as far as the hook may.
func (hc *hookCtx) set(field C.int, name *C.char, has bool, v []byte) C.int {
	p := hc.point
	reqHook := p == C.SMITHYCURL_HOOK_SIGN || p == C.SMITHYCURL_HOOK_MODIFY_BEFORE_RETRY_LOOP ||
		p == C.SMITHYCURL_HOOK_MODIFY_BEFORE_SIGNING || p == C.SMITHYCURL_HOOK_MODIFY_BEFORE_TRANSMIT
	text := func() bool { return has && utf8.Valid(v) && !strings.ContainsAny(string(v), "\r\n\x00") }
	var resp *wire.Response
	if hc.x != nil {
		resp = hc.x.Response
	}
	switch {
	case field == C.SMITHYCURL_FIELD_ERROR:
		if !has || !utf8.Valid(v) {
			return codeInvalidArgument
		}
		hc.errMsg, hc.failed = string(v), true
	case field == C.SMITHYCURL_FIELD_INPUT && p == C.SMITHYCURL_HOOK_MODIFY_BEFORE_SERIALIZATION && has:
		hc.x.Input = v
	case field == C.SMITHYCURL_FIELD_METHOD && reqHook && text():
		hc.req.Method = string(v)
	case field == C.SMITHYCURL_FIELD_URL && reqHook && text():
		hc.req.URL = string(v)
	case field == C.SMITHYCURL_FIELD_REQUEST_HEADER && reqHook:
		return setHeader(hc.req.Header, name, has, v)
	case field == C.SMITHYCURL_FIELD_REQUEST_BODY && reqHook && has && hc.req.BodyReader == nil:
		hc.req.Body = v
	case field == C.SMITHYCURL_FIELD_STATUS && p == C.SMITHYCURL_HOOK_MODIFY_BEFORE_DESERIALIZATION && resp != nil:
		st, err := strconv.Atoi(string(v))
		if err != nil || st < 100 || st > 599 {
			return codeInvalidArgument
		}
		resp.Status = st
	case field == C.SMITHYCURL_FIELD_RESPONSE_HEADER && p == C.SMITHYCURL_HOOK_MODIFY_BEFORE_DESERIALIZATION && resp != nil:
		return setHeader(resp.Header, name, has, v)
	case field == C.SMITHYCURL_FIELD_RESPONSE_BODY && p == C.SMITHYCURL_HOOK_MODIFY_BEFORE_DESERIALIZATION && resp != nil && has:
		resp.Body = v
	case field == C.SMITHYCURL_FIELD_OUTPUT && has &&
		(p == C.SMITHYCURL_HOOK_MODIFY_BEFORE_ATTEMPT_COMPLETION || p == C.SMITHYCURL_HOOK_MODIFY_BEFORE_COMPLETION):
		hc.x.Output, hc.x.Err = v, nil
	default:
		return codeInvalidArgument
	}
	return codeOK
}

// setHeader sets (or, with no value, removes) header name of h.
func setHeader(h wire.Header, name *C.char, has bool, v []byte) C.int {
	if name == nil || h == nil {
		return codeInvalidArgument
	}
	k, ok := goString(name)
	if !ok || !wire.IsToken(k) {
		return codeInvalidArgument
	}
	if !has {
		h.Del(k)
		return codeOK
	}
	if !utf8.Valid(v) || strings.ContainsAny(string(v), "\r\n\x00") {
		return codeInvalidArgument
	}
	h.Set(k, string(v))
	return codeOK
}

// spanTracer sends a client's spans to its trace callback as span_start
// and span_end events (smithycurl_options_set_trace_spans).
type spanTracer struct {
	fn, user uintptr
	next     atomic.Int64 // the last span id
}

type spanIDKey struct{}

type spanEvent struct {
	Phase      string         `json:"phase"`
	ID         int64          `json:"span_id"`
	Parent     int64          `json:"parent_id"`
	Name       string         `json:"name"`
	TookUS     int64          `json:"took_us,omitempty"`
	Attributes map[string]any `json:"attributes"`
	Error      string         `json:"error,omitempty"`
}

type jsonSpan struct {
	t     *spanTracer
	ev    spanEvent
	start time.Time
}

func (t *spanTracer) StartSpan(ctx context.Context, name string, attrs ...client.Attr) (context.Context, client.Span) {
	parent, _ := ctx.Value(spanIDKey{}).(int64)
	s := &jsonSpan{t: t, start: time.Now(),
		ev: spanEvent{Phase: "span_start", ID: t.next.Add(1), Parent: parent, Name: name, Attributes: map[string]any{}}}
	s.SetAttributes(attrs...)
	emitTrace(t.fn, t.user, s.ev)
	return context.WithValue(ctx, spanIDKey{}, s.ev.ID), s
}

func (s *jsonSpan) SetAttributes(attrs ...client.Attr) {
	for _, a := range attrs {
		s.ev.Attributes[a.Key] = a.Value
	}
}

func (s *jsonSpan) End(err error) {
	s.ev.Phase, s.ev.TookUS = "span_end", time.Since(s.start).Microseconds()
	if err != nil {
		s.ev.Error = err.Error()
	}
	emitTrace(s.t.fn, s.t.user, s.ev)
}
