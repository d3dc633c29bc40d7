package smithyotel_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/smithyotel"
)

// TestSpans: a call retried once gives a call span "HttpBin.Status" with
// two attempt spans under it, under the caller's span, with the Smithy
// and AWS attribute names, recorded by OpenTelemetry's span recorder.
func TestSpans(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Amzn-Requestid", "req-"+string(rune('0'+n.Add(1))))
		if n.Load() == 1 {
			w.WriteHeader(503)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	m, err := model.LoadPaths(context.Background(), filepath.Join("..", "examples", "httpbin"))
	if err != nil {
		t.Fatal(err)
	}
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	c, err := client.New(m, "smithycurl.examples.httpbin#HttpBin", srv.URL, client.WithTracer(smithyotel.NewTracer(tp)),
		client.WithRetryPolicy(client.RetryPolicy{MaxAttempts: 3, Base: time.Millisecond, Cap: time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, parent := tp.Tracer("test").Start(context.Background(), "caller")
	if _, err := c.Call(ctx, "Status", []byte(`{"code": 200}`)); err != nil {
		t.Fatal(err)
	}
	parent.End()

	spans := rec.Ended()
	if len(spans) != 4 {
		t.Fatalf("%d spans, want 2 attempts, the call and the caller's", len(spans))
	}
	a1, a2, call := spans[0], spans[1], spans[2]
	if call.Name() != "HttpBin.Status" || call.Parent().SpanID() != parent.SpanContext().SpanID() {
		t.Errorf("call span %q, parent %v", call.Name(), call.Parent().SpanID())
	}
	want := map[attribute.Key]any{"rpc.system": "smithy", "rpc.service": "HttpBin", "rpc.method": "Status",
		"smithy.attempts": int64(2), "http.response.status_code": int64(200), "aws.request_id": "req-2"}
	checkAttrs(t, call, want)
	if call.Status().Code == codes.Error {
		t.Errorf("call status %v", call.Status())
	}
	for i, a := range []sdktrace.ReadOnlySpan{a1, a2} {
		if a.Name() != "Attempt" || a.Parent().SpanID() != call.SpanContext().SpanID() {
			t.Errorf("attempt %d: %q, parent %v", i+1, a.Name(), a.Parent().SpanID())
		}
	}
	checkAttrs(t, a1, map[attribute.Key]any{"smithy.attempt": int64(1), "http.request.method": "GET",
		"url.full": srv.URL + "/status/200", "http.response.status_code": int64(503), "aws.request_id": "req-1", "error.type": "service"})
	if a1.Status().Code != codes.Error {
		t.Errorf("first attempt status %v", a1.Status())
	}
	checkAttrs(t, a2, map[attribute.Key]any{"smithy.attempt": int64(2), "http.response.status_code": int64(200)})
}

func checkAttrs(t *testing.T, s sdktrace.ReadOnlySpan, want map[attribute.Key]any) {
	t.Helper()
	got := map[attribute.Key]any{}
	for _, kv := range s.Attributes() {
		got[kv.Key] = kv.Value.AsInterface()
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s = %v, want %v (all: %v)", s.Name(), k, got[k], v, got)
		}
	}
}
