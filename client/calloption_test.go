package client_test

import (
	"context"
	"encoding/json"
	"errors"
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
