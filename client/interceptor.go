package client

import (
	"context"
	"fmt"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// Interceptor hooks into every call at the Smithy client's reference
// points (smithy-java's ClientInterceptor, smithy-python's Interceptor),
// in this order:
//
//	ReadBeforeExecution
//	ModifyBeforeSerialization       Exchange.Input may be replaced
//	ReadBeforeSerialization
//	  (the input becomes the HTTP request)
//	ReadAfterSerialization
//	ModifyBeforeRetryLoop           Exchange.Request may be changed
//	for each attempt:
//	  ReadBeforeAttempt
//	  ModifyBeforeSigning, ReadBeforeSigning
//	    (the attempt's signature: SigV4, bearer, header API key, custom schemes)
//	  ReadAfterSigning
//	  ModifyBeforeTransmit, ReadBeforeTransmit
//	    (sent)
//	  ReadAfterTransmit             Exchange.Response is set (nil when none arrived)
//	  ModifyBeforeDeserialization, ReadBeforeDeserialization
//	    (the response becomes the output or an error)
//	  ReadAfterDeserialization
//	  ModifyBeforeAttemptCompletion Exchange.Output, Exchange.Err may be replaced
//	  ReadAfterAttempt
//	ModifyBeforeCompletion          Exchange.Output, Exchange.Err may be replaced
//	ReadAfterExecution
//
// Interceptors run for Call (and so for paginators, waiters and the
// typed clients' methods), in the order given, the client's
// (WithInterceptors) before the call's (WithCallInterceptors); event
// streams (CallStream, CallDuplex) do not run them yet. Embed BaseInterceptor for
// no-op defaults. Each hook runs on the calling goroutine, for the calls
// of many goroutines at once on a shared client.
//
// An error returned by a hook fails the call with that error as its cause
// (KindUsage, or the kind of a *Error or context error it wraps), its
// message naming the hook: from a hook before the retry loop, the call
// goes to ModifyBeforeCompletion; from a hook of an attempt, to
// ModifyBeforeAttemptCompletion, and the attempt is not retried. Every
// Read hook of a point runs even when one fails (the last error wins); a
// Modify hook's error ends its point. A failed attempt that is retried
// reruns the attempt's hooks with the request as the last attempt left
// it.
type Interceptor interface {
	ReadBeforeExecution(ctx context.Context, x *Exchange) error
	ModifyBeforeSerialization(ctx context.Context, x *Exchange) error
	ReadBeforeSerialization(ctx context.Context, x *Exchange) error
	ReadAfterSerialization(ctx context.Context, x *Exchange) error
	ModifyBeforeRetryLoop(ctx context.Context, x *Exchange) error
	ReadBeforeAttempt(ctx context.Context, x *Exchange) error
	ModifyBeforeSigning(ctx context.Context, x *Exchange) error
	ReadBeforeSigning(ctx context.Context, x *Exchange) error
	ReadAfterSigning(ctx context.Context, x *Exchange) error
	ModifyBeforeTransmit(ctx context.Context, x *Exchange) error
	ReadBeforeTransmit(ctx context.Context, x *Exchange) error
	ReadAfterTransmit(ctx context.Context, x *Exchange) error
	ModifyBeforeDeserialization(ctx context.Context, x *Exchange) error
	ReadBeforeDeserialization(ctx context.Context, x *Exchange) error
	ReadAfterDeserialization(ctx context.Context, x *Exchange) error
	ModifyBeforeAttemptCompletion(ctx context.Context, x *Exchange) error
	ReadAfterAttempt(ctx context.Context, x *Exchange) error
	ModifyBeforeCompletion(ctx context.Context, x *Exchange) error
	ReadAfterExecution(ctx context.Context, x *Exchange) error
}

// Exchange is what interceptors see of one call. Which fields are set
// depends on the hook (see Interceptor); a Modify hook may change them, a
// Read hook must not.
type Exchange struct {
	Operation *model.Operation
	// Input is the input document (JSON, the document form).
	Input []byte
	// Request is the HTTP request, from ReadAfterSerialization on: its
	// Method, URL, Header and Body (or BodyReader) may be changed by
	// ModifyBeforeRetryLoop, ModifyBeforeSigning and ModifyBeforeTransmit.
	Request *transport.Request
	// Response is the attempt's HTTP response, from ReadAfterTransmit
	// (nil when none arrived). ModifyBeforeDeserialization may change its
	// Status, Header and Body.
	Response *wire.Response
	// Output is the output document of a successful attempt or call.
	Output []byte
	// Err is the failure of the attempt (attempt hooks) or of the call
	// (completion hooks), nil when none: an *Error, or what a Modify hook
	// set. A Modify hook that sets it to nil with an Output makes the
	// attempt or call succeed.
	Err error
	// Attempt is the attempt's number, 1 for the first; 0 before the
	// retry loop.
	Attempt int

	props map[any]any
}

// Set keeps a value for the rest of the call under key (as
// context.WithValue's keys: a type of the interceptor's own), for the
// interceptor's later hooks.
func (x *Exchange) Set(key, value any) {
	if x.props == nil {
		x.props = map[any]any{}
	}
	x.props[key] = value
}

// Value is what Set kept under key, or nil.
func (x *Exchange) Value(key any) any { return x.props[key] }

// BaseInterceptor implements every hook of Interceptor as a no-op: embed
// it and define the hooks you need.
type BaseInterceptor struct{}

func (BaseInterceptor) ReadBeforeExecution(context.Context, *Exchange) error           { return nil }
func (BaseInterceptor) ModifyBeforeSerialization(context.Context, *Exchange) error     { return nil }
func (BaseInterceptor) ReadBeforeSerialization(context.Context, *Exchange) error       { return nil }
func (BaseInterceptor) ReadAfterSerialization(context.Context, *Exchange) error        { return nil }
func (BaseInterceptor) ModifyBeforeRetryLoop(context.Context, *Exchange) error         { return nil }
func (BaseInterceptor) ReadBeforeAttempt(context.Context, *Exchange) error             { return nil }
func (BaseInterceptor) ModifyBeforeSigning(context.Context, *Exchange) error           { return nil }
func (BaseInterceptor) ReadBeforeSigning(context.Context, *Exchange) error             { return nil }
func (BaseInterceptor) ReadAfterSigning(context.Context, *Exchange) error              { return nil }
func (BaseInterceptor) ModifyBeforeTransmit(context.Context, *Exchange) error          { return nil }
func (BaseInterceptor) ReadBeforeTransmit(context.Context, *Exchange) error            { return nil }
func (BaseInterceptor) ReadAfterTransmit(context.Context, *Exchange) error             { return nil }
func (BaseInterceptor) ModifyBeforeDeserialization(context.Context, *Exchange) error   { return nil }
func (BaseInterceptor) ReadBeforeDeserialization(context.Context, *Exchange) error     { return nil }
func (BaseInterceptor) ReadAfterDeserialization(context.Context, *Exchange) error      { return nil }
func (BaseInterceptor) ModifyBeforeAttemptCompletion(context.Context, *Exchange) error { return nil }
func (BaseInterceptor) ReadAfterAttempt(context.Context, *Exchange) error              { return nil }
func (BaseInterceptor) ModifyBeforeCompletion(context.Context, *Exchange) error        { return nil }
func (BaseInterceptor) ReadAfterExecution(context.Context, *Exchange) error            { return nil }

// InterceptorFunc is an Interceptor whose every hook calls f with the
// hook's point: one function for all of them (the C and Python front
// ends' interceptors are one).
type InterceptorFunc func(ctx context.Context, h Hook, x *Exchange) error

func (f InterceptorFunc) ReadBeforeExecution(ctx context.Context, x *Exchange) error {
	return f(ctx, HookReadBeforeExecution, x)
}
func (f InterceptorFunc) ModifyBeforeSerialization(ctx context.Context, x *Exchange) error {
	return f(ctx, HookModifyBeforeSerialization, x)
}
func (f InterceptorFunc) ReadBeforeSerialization(ctx context.Context, x *Exchange) error {
	return f(ctx, HookReadBeforeSerialization, x)
}
func (f InterceptorFunc) ReadAfterSerialization(ctx context.Context, x *Exchange) error {
	return f(ctx, HookReadAfterSerialization, x)
}
func (f InterceptorFunc) ModifyBeforeRetryLoop(ctx context.Context, x *Exchange) error {
	return f(ctx, HookModifyBeforeRetryLoop, x)
}
func (f InterceptorFunc) ReadBeforeAttempt(ctx context.Context, x *Exchange) error {
	return f(ctx, HookReadBeforeAttempt, x)
}
func (f InterceptorFunc) ModifyBeforeSigning(ctx context.Context, x *Exchange) error {
	return f(ctx, HookModifyBeforeSigning, x)
}
func (f InterceptorFunc) ReadBeforeSigning(ctx context.Context, x *Exchange) error {
	return f(ctx, HookReadBeforeSigning, x)
}
func (f InterceptorFunc) ReadAfterSigning(ctx context.Context, x *Exchange) error {
	return f(ctx, HookReadAfterSigning, x)
}
func (f InterceptorFunc) ModifyBeforeTransmit(ctx context.Context, x *Exchange) error {
	return f(ctx, HookModifyBeforeTransmit, x)
}
func (f InterceptorFunc) ReadBeforeTransmit(ctx context.Context, x *Exchange) error {
	return f(ctx, HookReadBeforeTransmit, x)
}
func (f InterceptorFunc) ReadAfterTransmit(ctx context.Context, x *Exchange) error {
	return f(ctx, HookReadAfterTransmit, x)
}
func (f InterceptorFunc) ModifyBeforeDeserialization(ctx context.Context, x *Exchange) error {
	return f(ctx, HookModifyBeforeDeserialization, x)
}
func (f InterceptorFunc) ReadBeforeDeserialization(ctx context.Context, x *Exchange) error {
	return f(ctx, HookReadBeforeDeserialization, x)
}
func (f InterceptorFunc) ReadAfterDeserialization(ctx context.Context, x *Exchange) error {
	return f(ctx, HookReadAfterDeserialization, x)
}
func (f InterceptorFunc) ModifyBeforeAttemptCompletion(ctx context.Context, x *Exchange) error {
	return f(ctx, HookModifyBeforeAttemptCompletion, x)
}
func (f InterceptorFunc) ReadAfterAttempt(ctx context.Context, x *Exchange) error {
	return f(ctx, HookReadAfterAttempt, x)
}
func (f InterceptorFunc) ModifyBeforeCompletion(ctx context.Context, x *Exchange) error {
	return f(ctx, HookModifyBeforeCompletion, x)
}
func (f InterceptorFunc) ReadAfterExecution(ctx context.Context, x *Exchange) error {
	return f(ctx, HookReadAfterExecution, x)
}

// Hook is one reference point of Interceptor, numbered in call order
// (the C API's smithycurl_hook values).
type Hook int

// The hooks, in the order a call reaches them.
const (
	HookReadBeforeExecution Hook = iota
	HookModifyBeforeSerialization
	HookReadBeforeSerialization
	HookReadAfterSerialization
	HookModifyBeforeRetryLoop
	HookReadBeforeAttempt
	HookModifyBeforeSigning
	HookReadBeforeSigning
	HookReadAfterSigning
	HookModifyBeforeTransmit
	HookReadBeforeTransmit
	HookReadAfterTransmit
	HookModifyBeforeDeserialization
	HookReadBeforeDeserialization
	HookReadAfterDeserialization
	HookModifyBeforeAttemptCompletion
	HookReadAfterAttempt
	HookModifyBeforeCompletion
	HookReadAfterExecution
	hookCount
)

var hookNames = [hookCount]string{"ReadBeforeExecution", "ModifyBeforeSerialization", "ReadBeforeSerialization",
	"ReadAfterSerialization", "ModifyBeforeRetryLoop", "ReadBeforeAttempt", "ModifyBeforeSigning", "ReadBeforeSigning",
	"ReadAfterSigning", "ModifyBeforeTransmit", "ReadBeforeTransmit", "ReadAfterTransmit", "ModifyBeforeDeserialization",
	"ReadBeforeDeserialization", "ReadAfterDeserialization", "ModifyBeforeAttemptCompletion", "ReadAfterAttempt",
	"ModifyBeforeCompletion", "ReadAfterExecution"}

// String is the hook's method name.
func (h Hook) String() string {
	if h >= 0 && h < hookCount {
		return hookNames[h]
	}
	return fmt.Sprintf("Hook(%d)", int(h))
}

// Modifies reports whether the hook may change the Exchange.
func (h Hook) Modifies() bool { return hookNames[h][0] == 'M' }

// Call calls the hook's method of i.
func (h Hook) Call(ctx context.Context, i Interceptor, x *Exchange) error {
	switch h {
	case HookReadBeforeExecution:
		return i.ReadBeforeExecution(ctx, x)
	case HookModifyBeforeSerialization:
		return i.ModifyBeforeSerialization(ctx, x)
	case HookReadBeforeSerialization:
		return i.ReadBeforeSerialization(ctx, x)
	case HookReadAfterSerialization:
		return i.ReadAfterSerialization(ctx, x)
	case HookModifyBeforeRetryLoop:
		return i.ModifyBeforeRetryLoop(ctx, x)
	case HookReadBeforeAttempt:
		return i.ReadBeforeAttempt(ctx, x)
	case HookModifyBeforeSigning:
		return i.ModifyBeforeSigning(ctx, x)
	case HookReadBeforeSigning:
		return i.ReadBeforeSigning(ctx, x)
	case HookReadAfterSigning:
		return i.ReadAfterSigning(ctx, x)
	case HookModifyBeforeTransmit:
		return i.ModifyBeforeTransmit(ctx, x)
	case HookReadBeforeTransmit:
		return i.ReadBeforeTransmit(ctx, x)
	case HookReadAfterTransmit:
		return i.ReadAfterTransmit(ctx, x)
	case HookModifyBeforeDeserialization:
		return i.ModifyBeforeDeserialization(ctx, x)
	case HookReadBeforeDeserialization:
		return i.ReadBeforeDeserialization(ctx, x)
	case HookReadAfterDeserialization:
		return i.ReadAfterDeserialization(ctx, x)
	case HookModifyBeforeAttemptCompletion:
		return i.ModifyBeforeAttemptCompletion(ctx, x)
	case HookReadAfterAttempt:
		return i.ReadAfterAttempt(ctx, x)
	case HookModifyBeforeCompletion:
		return i.ModifyBeforeCompletion(ctx, x)
	case HookReadAfterExecution:
		return i.ReadAfterExecution(ctx, x)
	}
	return fmt.Errorf("unknown hook %d", int(h))
}

// WithInterceptors adds interceptors to every call of the client, after
// those added before.
func WithInterceptors(is ...Interceptor) Option {
	return optionFunc(func(o *options) { o.interceptors = append(o.interceptors, is...) })
}

// WithCallInterceptors adds interceptors to this call, after the client's.
func WithCallInterceptors(is ...Interceptor) CallOption {
	return callOptionFunc(func(o *callOptions) { o.interceptors = append(o.interceptors, is...) })
}

// hookRun is the interceptors of one call and what they see; a call
// without interceptors has none (nil), and every method of a nil hookRun
// does nothing.
type hookRun struct {
	list   []Interceptor
	x      Exchange
	failed bool // a hook of the attempt failed
}

// Intercepted reports whether the client's calls run interceptors
// (WithInterceptors, WithTracer), which are given a call's input before
// its codec reads (and checks) it.
func (c *Client) Intercepted() bool { return len(c.opts.interceptors) > 0 }

// hooksFor returns the hooks of a call of op with options co; nil when
// there are none.
func (c *Client) hooksFor(co callOptions) *hookRun {
	list := c.opts.interceptors
	if len(co.interceptors) > 0 {
		list = append(list[:len(list):len(list)], co.interceptors...)
	}
	if len(list) == 0 {
		return nil
	}
	return &hookRun{list: list}
}

// run calls hook on each interceptor; the error names the hook and the
// interceptor (when it is a fmt.Stringer).
func (h *hookRun) run(ctx context.Context, hook Hook) *Error {
	if h == nil {
		return nil
	}
	var failed *Error
	for _, i := range h.list {
		err := hook.Call(ctx, i, &h.x)
		if err == nil {
			continue
		}
		name := ""
		if s, ok := i.(fmt.Stringer); ok {
			name = " " + s.String()
		}
		failed = classify(h.opID(), fmt.Errorf("interceptor%s, %s: %w", name, hook, err))
		h.failed = true
		if hook.Modifies() {
			break
		}
	}
	return failed
}

func (h *hookRun) opID() model.ShapeID {
	if h.x.Operation == nil {
		return ""
	}
	return h.x.Operation.Shape.ID
}

// runAll runs hooks in order, stopping at the first that fails.
func (h *hookRun) runAll(ctx context.Context, hooks ...Hook) *Error {
	for _, hook := range hooks {
		if e := h.run(ctx, hook); e != nil {
			return e
		}
	}
	return nil
}

// complete runs the completion hooks of an attempt (attempt true) or of
// the call on its result, and returns the result they leave.
func (h *hookRun) complete(ctx context.Context, attempt bool, out []byte, e *Error) ([]byte, *Error) {
	if h == nil {
		return out, e
	}
	h.x.Output, h.x.Err = out, nil
	if e != nil {
		h.x.Err = e
	}
	modify, read := HookModifyBeforeCompletion, HookReadAfterExecution
	if attempt {
		modify, read = HookModifyBeforeAttemptCompletion, HookReadAfterAttempt
	}
	if he := h.run(ctx, modify); he != nil {
		h.x.Err = he
	}
	if he := h.run(ctx, read); he != nil {
		h.x.Err = he
	}
	if h.x.Err == nil {
		return h.x.Output, nil
	}
	if ce, ok := h.x.Err.(*Error); ok {
		return nil, ce
	}
	return nil, classify(h.opID(), h.x.Err)
}
