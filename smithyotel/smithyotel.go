// Package smithyotel sends smithycurl's call and attempt spans to
// OpenTelemetry: client.WithTracer(smithyotel.NewTracer(provider)).
// It is a module of its own, so that the smithycurl library itself
// depends on no tracing library.
package smithyotel

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/smithycurl/smithycurl/client"
)

// Scope is the instrumentation scope of the spans.
const Scope = "github.com/smithycurl/smithycurl"

// NewTracer returns a client.Tracer whose spans are tp's, of kind client.
func NewTracer(tp trace.TracerProvider) client.Tracer {
	return tracer{tp.Tracer(Scope)}
}

type tracer struct{ t trace.Tracer }

func (t tracer) StartSpan(ctx context.Context, name string, attrs ...client.Attr) (context.Context, client.Span) {
	ctx, s := t.t.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(convert(attrs)...))
	return ctx, span{s}
}

type span struct{ s trace.Span }

func (s span) SetAttributes(attrs ...client.Attr) { s.s.SetAttributes(convert(attrs)...) }

func (s span) End(err error) {
	if err != nil {
		s.s.RecordError(err)
		s.s.SetStatus(codes.Error, err.Error())
	}
	s.s.End()
}

// convert turns the client's attributes into OpenTelemetry's.
func convert(attrs []client.Attr) []attribute.KeyValue {
	kv := make([]attribute.KeyValue, 0, len(attrs))
	for _, a := range attrs {
		switch v := a.Value.(type) {
		case string:
			kv = append(kv, attribute.String(a.Key, v))
		case int:
			kv = append(kv, attribute.Int(a.Key, v))
		case bool:
			kv = append(kv, attribute.Bool(a.Key, v))
		}
	}
	return kv
}
