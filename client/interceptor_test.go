package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mccutchen/go-httpbin/v2/httpbin"

	"github.com/smithycurl/smithycurl/client"
)

// hookLog records every hook it sees, with the attempt number.
type hookLog struct {
	mu   sync.Mutex
	seen []string
	name string
}

func (r *hookLog) add(h client.Hook, x *client.Exchange) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := h.String()
	if x.Attempt > 0 {
		s = fmt.Sprintf("%s#%d", s, x.Attempt)
	}
	r.seen = append(r.seen, s)
	return nil
}

// each makes an interceptor whose every hook calls f.
func each(f func(client.Hook, *client.Exchange) error) client.Interceptor {
	return client.InterceptorFunc(func(_ context.Context, h client.Hook, x *client.Exchange) error { return f(h, x) })
}

// attemptHooks are the hooks of one attempt that reaches a response.
func attemptHooks(n int) []string {
	var s []string
	for h := client.HookReadBeforeAttempt; h <= client.HookReadAfterAttempt; h++ {
		s = append(s, fmt.Sprintf("%s#%d", h, n))
	}
	return s
}

// TestInterceptorOrder: every hook runs once per call or per attempt, in
// the reference order, on a call retried twice (500, 500, 500).
func TestInterceptorOrder(t *testing.T) {
	r := &hookLog{}
	c := newHTTPBin(t, fastRetries, client.WithInterceptors(each(r.add)))
	_, err := c.Call(context.Background(), "Status", []byte(`{"code": 500}`))
	if e := asError(t, err, client.KindService); e.Attempts != 3 {
		t.Fatalf("attempts = %d, want 3", e.Attempts)
	}
	want := []string{"ReadBeforeExecution", "ModifyBeforeSerialization", "ReadBeforeSerialization", "ReadAfterSerialization", "ModifyBeforeRetryLoop"}
	for n := 1; n <= 3; n++ {
		want = append(want, attemptHooks(n)...)
	}
	want = append(want, "ModifyBeforeCompletion#3", "ReadAfterExecution#3") // Attempt: the last one
	if got := strings.Join(r.seen, " "); got != strings.Join(want, " ") {
		t.Errorf("hooks:\n got %s\nwant %s", got, strings.Join(want, " "))
	}
}

// TestInterceptorModify: the Modify hooks change the input, the request,
// the response and the result, and a call's interceptors run after the
// client's.
func TestInterceptorModify(t *testing.T) {
	var order []string
	input := each(func(h client.Hook, x *client.Exchange) error {
		if x.Operation.Name != "Anything" {
			return nil
		}
		switch h {
		case client.HookModifyBeforeSerialization:
			order = append(order, "client")
			x.Input = []byte(`{"id": 7, "test": "changed", "queryParam": "q"}`)
		case client.HookModifyBeforeTransmit:
			x.Request.Header.Set("X-Added", "by-interceptor")
			x.Request.URL += "&extra=1"
		}
		return nil
	})
	output := each(func(h client.Hook, x *client.Exchange) error {
		switch h {
		case client.HookModifyBeforeSerialization:
			order = append(order, "call")
		case client.HookModifyBeforeCompletion:
			if x.Err != nil {
				return nil
			}
			var v map[string]any
			if err := json.Unmarshal(x.Output, &v); err != nil {
				return err
			}
			v["test"] = "seen " + v["json"].(map[string]any)["test"].(string)
			x.Output, _ = json.Marshal(v)
		}
		return nil
	})
	c := newHTTPBin(t, client.WithInterceptors(input))
	out, err := c.Call(context.Background(), "Anything", []byte(`{"id": 1}`), client.WithCallInterceptors(output))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Test    string
		Headers map[string][]string
		Args    map[string][]string
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	if v.Test != "seen changed" || v.Headers["X-Added"][0] != "by-interceptor" || v.Args["extra"][0] != "1" {
		t.Errorf("output %s", out)
	}
	if strings.Join(order, ",") != "client,call" {
		t.Errorf("order %v", order)
	}

	// ModifyBeforeDeserialization: the service's 500 becomes a 200 with a
	// body of the interceptor's; ModifyBeforeAttemptCompletion may also
	// turn an error into an output.
	fix := each(func(h client.Hook, x *client.Exchange) error {
		if h == client.HookModifyBeforeDeserialization {
			x.Response.Status, x.Response.Body = 200, []byte(`{}`)
		}
		return nil
	})
	if _, err := c.Call(context.Background(), "Status", []byte(`{"code": 500}`), client.WithCallInterceptors(fix)); err != nil {
		t.Errorf("500 made 200: %v", err)
	}
	swallow := each(func(h client.Hook, x *client.Exchange) error {
		if h == client.HookModifyBeforeAttemptCompletion && x.Err != nil {
			x.Err, x.Output = nil, []byte(`{"recovered": true}`)
		}
		return nil
	})
	out, err = c.Call(context.Background(), "Status", []byte(`{"code": 404}`), client.WithCallInterceptors(swallow))
	if err != nil || string(out) != `{"recovered": true}` {
		t.Errorf("404 recovered: %s, %v", out, err)
	}
}

type failAt struct {
	client.BaseInterceptor
	hook client.Hook
}

func (f failAt) ReadBeforeTransmit(context.Context, *client.Exchange) error {
	if f.hook == client.HookReadBeforeTransmit {
		return errors.New("no sending today")
	}
	return nil
}

func (f failAt) ModifyBeforeSerialization(context.Context, *client.Exchange) error {
	if f.hook == client.HookModifyBeforeSerialization {
		return context.Canceled
	}
	return nil
}

func (f failAt) String() string { return "failAt" }

// TestInterceptorError: a hook's error fails the call with its message
// (KindUsage, or the kind of what it wraps), sends nothing, is not
// retried, and the completion hooks still run.
func TestInterceptorError(t *testing.T) {
	var hits atomic.Int32
	h := httpbin.New().Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1); h.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	r := &hookLog{}
	c, err := client.New(httpBinModel(t), httpBinService, srv.URL, fastRetries,
		client.WithInterceptors(failAt{hook: client.HookReadBeforeTransmit}, each(r.add)))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Call(context.Background(), "Status", []byte(`{"code": 503}`))
	e := asError(t, err, client.KindUsage)
	if !strings.Contains(e.Error(), "interceptor failAt, ReadBeforeTransmit: no sending today") || e.Attempts != 1 {
		t.Errorf("error %v (attempts %d)", e, e.Attempts)
	}
	if hits.Load() != 0 {
		t.Errorf("%d requests sent", hits.Load())
	}
	// Read hooks all run: the hookLog after the failing one saw
	// ReadBeforeTransmit, then the attempt's completion and the call's.
	if got := strings.Join(r.seen[len(r.seen)-5:], " "); got != "ReadBeforeTransmit#1 ModifyBeforeAttemptCompletion#1 ReadAfterAttempt#1 ModifyBeforeCompletion#1 ReadAfterExecution#1" {
		t.Errorf("last hooks: %s", got)
	}
	_, err = c.Call(context.Background(), "Status", []byte(`{"code": 200}`), client.WithCallInterceptors(failAt{hook: client.HookModifyBeforeSerialization}))
	asError(t, err, client.KindCancelled)
}
