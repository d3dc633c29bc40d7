package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
)

// TestCallOptions: WithCallHeader adds a header to one call (a header bound
// to an input member wins), WithCallTimeout bounds one call, and neither
// changes the next call. Against go-httpbin on 127.0.0.1.
func TestCallOptions(t *testing.T) {
	c := newHTTPBin(t, client.WithoutRetries())
	ctx := context.Background()
	headers := func(in string, opts ...client.CallOption) map[string][]string {
		t.Helper()
		out, err := c.Call(ctx, "Headers", []byte(in), opts...)
		if err != nil {
			t.Fatal(err)
		}
		var v struct{ Headers map[string][]string }
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatal(err)
		}
		return v.Headers
	}
	h := headers(`{"custom": "member"}`, client.WithCallHeader("X-Per-Call", "1"), client.WithCallHeader("X-Custom", "option"))
	if got := h["X-Per-Call"]; len(got) != 1 || got[0] != "1" {
		t.Errorf("X-Per-Call = %v", got)
	}
	if got := h["X-Custom"]; len(got) != 1 || got[0] != "member" {
		t.Errorf("X-Custom = %v, want the member's value only", got)
	}
	if got := headers(`{}`)["X-Per-Call"]; got != nil {
		t.Errorf("the next call sent X-Per-Call %v", got)
	}
	start := time.Now()
	_, err := c.Call(ctx, "Delay", []byte(`{"seconds": 3}`), client.WithCallTimeout(200*time.Millisecond))
	var e *client.Error
	if !errors.As(err, &e) || e.Kind != client.KindTimeout || time.Since(start) > 2*time.Second {
		t.Fatalf("Delay with a 200 ms call timeout: %v after %s", err, time.Since(start))
	}
	if _, err := c.Call(ctx, "Delay", []byte(`{"seconds": 0}`)); err != nil {
		t.Errorf("the next call: %v", err)
	}
}

// TestQueuedSince: the timeout of a call that waited in a queue of the
// caller's counts from when it was made. One whose time is over fails with
// KindTimeout and sends nothing (on both paths); one with time left is
// sent and bounded by what is left.
func TestQueuedSince(t *testing.T) {
	srv := newStubServer(t, 200, `{}`)
	m := awsModel(t, "lambda.json")
	c, err := client.New(m, "com.amazonaws.lambda#AWSGirApiService", srv.URL, fakeAWS, client.WithoutRetries(),
		client.WithTimeout(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	in := []byte(`{"FunctionName": "f"}`)
	for _, via := range [][]client.CallOption{nil, {client.ViaEngine()}} {
		_, err := c.Call(ctx, "GetFunction", in, append(via, client.QueuedSince(time.Now().Add(-2*time.Second)))...)
		var e *client.Error
		if !errors.As(err, &e) || e.Kind != client.KindTimeout {
			t.Errorf("engine %v: a call made 2 s ago with a 1 s timeout: %v, want KindTimeout", via != nil, err)
		} else if !strings.Contains(err.Error(), "to start, past its timeout (1s); nothing was sent") {
			t.Errorf("engine %v: %v", via != nil, err)
		}
		// A shorter call timeout counts from then too.
		_, err = c.Call(ctx, "GetFunction", in, append(via, client.QueuedSince(time.Now().Add(-300*time.Millisecond)),
			client.WithCallTimeout(200*time.Millisecond))...)
		if !errors.As(err, &e) || e.Kind != client.KindTimeout {
			t.Errorf("engine %v: a call made 300 ms ago with a 200 ms call timeout: %v, want KindTimeout", via != nil, err)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent for calls whose time was over, want none", n)
	}
	if _, err := c.Call(ctx, "GetFunction", in, client.ViaEngine(), client.QueuedSince(time.Now().Add(-500*time.Millisecond))); err != nil {
		t.Errorf("a call with 500 ms left: %v", err)
	}
	if n := len(srv.requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	if got := c.MaxTransfers(); got != 100 {
		t.Errorf("MaxTransfers() = %d, want the default 100", got)
	}
}
