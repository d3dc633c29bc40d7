package client

import (
	"context"
	"errors"

	"github.com/smithycurl/smithycurl/model"
)

// Tracer receives the spans of a client's calls (WithTracer): one per
// call, named "Service.Operation" as the AWS SDKs and OpenTelemetry's
// conventions name it, and inside it one per attempt, named "Attempt".
// Package github.com/smithycurl/smithycurl/smithyotel adapts an
// OpenTelemetry TracerProvider; the core imports no tracing library.
//
// StartSpan starts a span as a child of the span in ctx (a call's span is
// the child of the caller's, an attempt's of its call's) and returns the
// context holding it. Its methods are called on the calling goroutine,
// for the calls of many goroutines at once.
type Tracer interface {
	StartSpan(ctx context.Context, name string, attrs ...Attr) (context.Context, Span)
}

// Span is one span of a Tracer.
type Span interface {
	SetAttributes(attrs ...Attr)
	// End ends the span; err is its failure (nil: it succeeded).
	End(err error)
}

// Attr is one attribute of a span; Value is a string, an int or a bool.
//
// A call's span has rpc.system ("aws-api" for an AWS service, "smithy"
// otherwise), rpc.service (an AWS service's SDK id, else the service
// shape's name), rpc.method (the operation), smithy.attempts, and after a
// response aws.request_id (when the service sent one) and
// http.response.status_code; a failed one error.type (the modeled error's
// name, else the error kind). An attempt's span has smithy.attempt (1 for
// the first), http.request.method, url.full (without secrets: as traces
// show it), and, when a response arrived, http.response.status_code and
// aws.request_id; a failed one error.type.
type Attr struct {
	Key   string
	Value any
}

// WithTracer sends a span per call and per attempt to t. It runs as the
// first interceptor, so its spans hold the other interceptors' hooks.
func WithTracer(t Tracer) Option {
	return optionFunc(func(o *options) { o.tracer = t })
}

// tracing is the interceptor of WithTracer.
type tracing struct {
	BaseInterceptor
	t       Tracer
	system  string // rpc.system
	service string // rpc.service
}

// spanKeys are the Exchange keys of the call's span and the attempt's.
type callSpanKey struct{}
type attemptSpanKey struct{}

type callSpan struct {
	ctx  context.Context
	span Span
}

func newTracing(t Tracer, svc *model.Shape) *tracing {
	tr := &tracing{t: t, system: "smithy", service: svc.ID.Name()}
	if v, ok := svc.Trait(traitAWSService); ok {
		tr.system = "aws-api"
		if id, ok := v.Get("sdkId"); ok && id.Str() != "" {
			tr.service = id.Str()
		}
	}
	return tr
}

func (t *tracing) ReadBeforeExecution(ctx context.Context, x *Exchange) error {
	ctx, s := t.t.StartSpan(ctx, t.service+"."+x.Operation.Name,
		Attr{"rpc.system", t.system}, Attr{"rpc.service", t.service}, Attr{"rpc.method", x.Operation.Name})
	x.Set(callSpanKey{}, callSpan{ctx, s})
	return nil
}

func (t *tracing) ReadBeforeAttempt(ctx context.Context, x *Exchange) error {
	if c, ok := x.Value(callSpanKey{}).(callSpan); ok {
		ctx = c.ctx
	}
	_, s := t.t.StartSpan(ctx, "Attempt", Attr{"smithy.attempt", x.Attempt})
	x.Set(attemptSpanKey{}, s)
	return nil
}

func (t *tracing) ReadBeforeTransmit(_ context.Context, x *Exchange) error {
	if s, ok := x.Value(attemptSpanKey{}).(Span); ok {
		url := x.Request.URL
		if x.Request.DisplayURL != "" {
			url = x.Request.DisplayURL
		}
		s.SetAttributes(Attr{"http.request.method", x.Request.Method}, Attr{"url.full", url})
	}
	return nil
}

func (t *tracing) ReadAfterAttempt(_ context.Context, x *Exchange) error {
	if s, ok := x.Value(attemptSpanKey{}).(Span); ok {
		s.SetAttributes(responseAttrs(x)...)
		s.End(x.Err)
	}
	return nil
}

func (t *tracing) ReadAfterExecution(_ context.Context, x *Exchange) error {
	if c, ok := x.Value(callSpanKey{}).(callSpan); ok {
		c.span.SetAttributes(append(responseAttrs(x), Attr{"smithy.attempts", x.Attempt})...)
		c.span.End(x.Err)
	}
	return nil
}

// responseAttrs are the attributes of the exchange's last response and
// error.
func responseAttrs(x *Exchange) []Attr {
	var a []Attr
	if x.Response != nil {
		a = append(a, Attr{"http.response.status_code", x.Response.Status})
		if id := requestID(x.Response); id != "" {
			a = append(a, Attr{"aws.request_id", id})
		}
	}
	if x.Err != nil {
		var e *Error
		switch {
		case errors.As(x.Err, &e) && e.Shape != "":
			a = append(a, Attr{"error.type", e.Shape.Name()})
		case e != nil:
			a = append(a, Attr{"error.type", e.Kind.String()})
		default:
			a = append(a, Attr{"error.type", "error"})
		}
	}
	return a
}
